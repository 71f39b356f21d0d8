// torch.nn.utils.clip_grad_norm_ / clip_grad_value_ against PyTorch 1.13 (fixtures/optim.json "clip",
// written by fixtures/gen_optim.py): norm types 2, 1, 3 and inf, clipping and not, a single tensor, a
// parameter without .grad, no gradients at all (tensor(0.)), a NaN gradient with and without
// error_if_nonfinite (PyTorch's text), clip_grad_value_.
//
// Tolerance: a relative 2^-22 (2 float32 ulps). All cases are bit-identical today except the p=3 norm
// (1 ulp): a norm is a reduction, which Glasstorch accumulates in double and PyTorch in float32.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { dec, loadFixture, outcome } from "../../support/fixtures.js";

const FX = loadFixture("optim.json");
const T = torch as any;
const REL = 2 ** -22;

function close(got: any, want: any, where: string) {
  const g = [got].flat(Infinity) as number[], w = [dec(want)].flat(Infinity) as number[];
  expect(g.length, where).toBe(w.length);
  g.forEach((a, i) => {
    const b = w[i];
    if (Number.isNaN(b)) return void expect(a, `${where}[${i}]`).toBeNaN();
    expect(Math.abs(a - b), `${where}[${i}]: ${a} vs ${b}`).toBeLessThanOrEqual(Math.abs(b) * REL);
  });
}

function params(c: any) {
  const ps: any[] = [];
  for (const k of c.grads) {
    const g = T.tensor(c.grads_in[k], { dtype: T.float32 });
    if (c.nan && k === "g2") g.set(1, NaN);
    const p = T.zeros_like(g).requires_grad_();
    p.grad = g;
    ps.push(p);
  }
  for (let i = 0; i < c.nones; i++) ps.push(T.zeros(3).requires_grad_());
  return ps;
}

describe("clip_grad_norm_ / clip_grad_value_ match PyTorch", () => {
  for (const c of FX.clip) {
    it(`${c.name}: ${c.fn}(${JSON.stringify(c.kwargs)})`, () => {
      const ps = params(c);
      const fn = T.nn.utils[c.fn];
      const kw = { ...c.kwargs };
      if (kw.norm_type === "inf") kw.norm_type = Infinity;
      const arg = c.single ? ps[0] : ps;
      const r = c.fn === "clip_grad_norm_" ? outcome(() => fn(arg, kw.max_norm, kw)) : outcome(() => fn(arg, kw.clip_value));
      if ("error" in c.result) {
        expect({ error: r.error, message: r.message }).toEqual(c.result);
      } else if (c.result.value === null) {
        expect(r.value).toBeUndefined();
      } else {
        const v = r.value as any;
        expect(v.dtype.name).toBe(c.result.value.dtype);
        expect([...v.shape]).toEqual(c.result.value.shape);
        close(v.item(), c.result.value.tensor, "total_norm");
      }
      ps.forEach((p, i) => {
        if (c.grads_after[i] === null) expect(p.grad).toBeNull();
        else close(p.grad.tolist(), c.grads_after[i], `grad ${i}`);
      });
    });
  }

  it("the deprecated clip_grad_norm warns and clips", () => {
    const p = T.zeros(2).requires_grad_();
    p.grad = T.tensor([3, 4], { dtype: T.float32 });
    const warned: string[] = [];
    const orig = process.emitWarning;
    (process as any).emitWarning = (m: string) => warned.push(String(m));
    try {
      expect(T.nn.utils.clip_grad_norm(p, 1.0).item()).toBe(5);
    } finally {
      (process as any).emitWarning = orig;
    }
    expect(warned).toEqual(["torch.nn.utils.clip_grad_norm is now deprecated in favor of torch.nn.utils.clip_grad_norm_."]);
    expect(p.grad.tolist()[0]).toBeCloseTo(0.6, 6);
  });
});
