// torch.diff and F.glu against PyTorch 1.13 (fixtures/diff_glu.json, written by gen_diff_glu.py):
// values, dtypes and shapes, prepend/append, the out= form, PyTorch's error texts, and glu's first and
// second derivatives with PyTorch's Node names. glu's forward runs on the TypeScript and the native kernels.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture, dec } from "../../support/fixtures.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;

type T = { dtype: string; sizes: number[]; values: unknown[] };
type Result = { value?: T; error?: string; message?: string };
const F = loadFixture("diff_glu.json") as {
  diff: { input: T; n: number; dim: number; prepend: T | null; append: T | null; result: Result }[];
  diff_errors: { label: string; input: T; n: number; dim: number; prepend: T | null; append: T | null; result: Result }[];
  diff_out: { input: T; n: number; out_dtype?: string; result: Result }[];
  glu: { input: T; dim: number; result: Result }[];
  glu_errors: { label: string; input: T; dim: number; result: Result }[];
  glu_grad: { x: T; w: T; dim: number; grad: number[]; grad2: number[]; nodes: string[] };
};

const dtypeOf = (name: string) => (torch as any)[name] as torch.dtype;
const build = (t: T | null) => (t === null ? null : torch.tensor(dec(t.values) as number[], { dtype: dtypeOf(t.dtype) }).reshape(t.sizes));

/** The result's dtype, shape and values: exact, or within `rtol` (bfloat16: PyTorch's float exp). */
function expectResult(got: torch.Tensor, want: T, rtol = 0): void {
  expect(got.dtype).toBe(dtypeOf(want.dtype));
  expect(got.shape).toEqual(want.sizes);
  const g = got.flatten().tolist() as number[];
  const w = dec(want.values) as number[];
  if (rtol === 0) expect(g).toEqual(w);
  else g.forEach((v, i) => expect(Math.abs(v - w[i]!)).toBeLessThanOrEqual(rtol * Math.abs(w[i]!)));
}

describe("torch.diff against PyTorch", () => {
  it("every order along every dim, float32 / int64 / bool (logical_xor), with prepend and append", () => {
    for (const c of F.diff) {
      const r = torch.diff(build(c.input)!, c.n, c.dim, build(c.prepend), build(c.append));
      expectResult(r, c.result.value!);
    }
  });
  it("the method form and autograd through narrow + sub (SubBackward0)", () => {
    const x = torch.tensor([1, 4, 9, 16], { dtype: torch.float64, requires_grad: true });
    const y = x.diff(2);
    expect(y.tolist()).toEqual([2, 2]);
    expect(y.grad_fn!.name()).toBe("SubBackward0");
    expect(torch.autograd.grad(y.sum(), [x])[0]!.tolist()).toEqual([1, -1, -1, 1]);
  });
  it("PyTorch's errors (and 1.13's unchecked negative n, which returns self)", () => {
    for (const c of F.diff_errors) {
      const call = () => torch.diff(build(c.input)!, c.n, c.dim, build(c.prepend), build(c.append));
      if (c.result.error) expect(call, c.label).toThrow(c.result.message!);
      else expectResult(call(), c.result.value!);
    }
  });
  it("diff.out: sizes, the n = 0 copy's dtype check, a negative n's narrow error", () => {
    for (const c of F.diff_out) {
      const out = torch.empty(0, { dtype: dtypeOf(c.out_dtype ?? "float32") });
      const call = () => torch.diff(build(c.input)!, c.n, -1, null, null, { out });
      if (c.result.error) {
        expect(call).toThrow(c.result.message!);
        continue;
      }
      expect(call()).toBe(out);
      expectResult(out, c.result.value!);
    }
  });
});

describe("F.glu against PyTorch", () => {
  const checkGlu = () => {
    for (const c of F.glu) {
      const r = torch.nn.functional.glu(build(c.input)!, c.dim);
      // float32: PyTorch's SLEEF expf against the rounded double exp (an ulp or two); bfloat16 rounds once more
      const rtol = c.input.dtype === "float64" ? 1e-15 : c.input.dtype === "float32" ? 3e-7 : 2 ** -8;
      expectResult(r, c.result.value!, rtol);
    }
  };
  it("every dim of a 3-d input, float32 / float64 / bfloat16: TypeScript kernel", () => underTs(checkGlu));
  nativeIt("the same on the native kernel, which runs; float32 within 4 ulps of the TS kernel on strided halves, float64 within 1e-15", () => {
    checkGlu();
    const x = torch.randn(64, 130).mul(6);
    expect(kernelsRan(() => torch.nn.functional.glu(x, 1))).toContain("glu_stub:native");
    for (const [dt, tol] of [[torch.float32, 4 * 2 ** -23], [torch.float64, 1e-15]] as const) {
      for (const dim of [0, 1]) {
        const xd = x.to(dt);
        const native = torch.nn.functional.glu(xd, dim).flatten().tolist() as number[];
        const ts = underTs(() => torch.nn.functional.glu(xd, dim).flatten().tolist() as number[]);
        // (the native float32 exp is vecmath.h's, within 1 ulp; the TS kernel's is the rounded double one)
        native.forEach((v, i) => expect(Math.abs(v - ts[i]!)).toBeLessThanOrEqual(tol * Math.abs(ts[i]!)));
      }
    }
  });
  it("PyTorch's errors", () => {
    for (const c of F.glu_errors) expect(() => torch.nn.functional.glu(build(c.input)!, c.dim), c.label).toThrow(c.result.message!);
  });
  it("first and second derivatives (glu_backward, glu_double_backward) match PyTorch's", () => {
    const g = F.glu_grad;
    const x = build(g.x)!.requires_grad_();
    const y = torch.nn.functional.glu(x, g.dim);
    const [g1] = torch.autograd.grad(y.mul(build(g.w)!).sum(), [x], { create_graph: true });
    const [g2] = torch.autograd.grad(g1!.pow(2).sum(), [x]);
    expect([y.grad_fn!.name(), g1!.grad_fn!.name()]).toEqual(g.nodes);
    (g1!.flatten().tolist() as number[]).forEach((v, i) => expect(v).toBeCloseTo(g.grad[i]!, 14));
    (g2!.flatten().tolist() as number[]).forEach((v, i) => expect(v).toBeCloseTo(g.grad2[i]!, 13));
    expect(torch.autograd.gradgradcheck((t: torch.Tensor) => torch.nn.functional.glu(t, -1), [build(g.x)!.requires_grad_()])).toBe(true);
  });
});
