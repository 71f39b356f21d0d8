// Shared by the torch.optim tests: the fixture (optim.json, written by fixtures/gen_optim.py), its
// tensors decoded, the problem's loss, and warnings captured from process.emitWarning.
import { vi } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { dec, loadFixture } from "../support/fixtures.js";

export const FX = loadFixture("optim.json");
export const T = torch as any;

export const dtypeOf = (name: string) => (torch as any)[name];

/** A fixture tensor {tensor, dtype, shape} as a Glasstorch tensor. */
export function decT(v: any): Tensor {
  return T.tensor(dec(v.tensor), { dtype: dtypeOf(v.dtype) }).reshape(v.shape);
}

/** A fixture value: tensors decoded, {"dict": [[k, v]...]} as objects, lists kept. */
export function decVal(v: any): any {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    if ("tensor" in v) return decT(v);
    if ("dict" in v) return Object.fromEntries(v.dict.map(([k, x]: any) => [k, decVal(x)]));
    if ("callable" in v) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decVal(x)]));
  }
  if (Array.isArray(v)) return v.map(decVal);
  return dec(v);
}

/** A fixture state_dict as PyTorch's packed format (state keyed by int index). */
export function decStateDict(sd: any): any {
  const state: Record<number, any> = {};
  for (const [k, s] of sd.state) state[k] = Object.fromEntries(Object.entries(s).map(([n, x]) => [n, decVal(x)]));
  return { state, param_groups: sd.param_groups.map((g: any) => Object.fromEntries(Object.entries(g).map(([k, x]) => [k, decVal(x)]))) };
}

/** A value as the fixture encodes it (tensors as {tensor, dtype, shape}), to compare with toEqual. */
export function encVal(v: any): any {
  if (v instanceof torch.Tensor) return { tensor: (v as any).tolist(), dtype: v.dtype.name, shape: [...v.shape] };
  if (Array.isArray(v)) return v.map(encVal);
  if (typeof v === "function") return { callable: true };
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encVal(x)]));
  return v;
}

export function problem(dtype: any) {
  const P = FX.problem;
  const t = (name: string) => T.tensor(P[name], { dtype });
  return { W0: t("W0"), b0: t("b0"), A: t("A"), B: t("B"), tb: t("tb"), C: t("C"), u0: t("u0") };
}

/** The fixture's loss: (A*W*W).sum() + (B*W).sum() + (C*(b-tb)*(b-tb)).sum() + (W[0]*b).sum()*0.1, negated when sign < 0. */
export function lossFn(p: ReturnType<typeof problem>, W: any, b: any, sign: number): any {
  const d = b.sub(p.tb);
  const loss = p.A.mul(W).mul(W).sum().add(p.B.mul(W).sum()).add(p.C.mul(d).mul(d).sum()).add(W.select(0, 0).mul(b).sum().mul(0.1));
  return sign > 0 ? loss : loss.neg();
}

/** Runs fn capturing the UserWarning texts it raised. */
export function withWarnings<R>(fn: () => R): { got: R; warnings: string[] } {
  const spy = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
  try {
    const got = fn();
    return { got, warnings: spy.mock.calls.filter((a) => a[1] === "UserWarning").map((a) => String(a[0])) };
  } finally {
    spy.mockRestore();
  }
}

/** Largest |a - b| / max(|b|, floor) over nested lists. */
export function maxRelErr(got: any, want: any, floor = 1e-6): number {
  const g = [got].flat(Infinity) as number[], w = [dec(want)].flat(Infinity) as number[];
  if (g.length !== w.length) return Infinity;
  let m = 0;
  g.forEach((a, i) => {
    const b = w[i];
    if (Number.isNaN(b) && Number.isNaN(a)) return;
    m = Math.max(m, a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(b), floor));
  });
  return m;
}
