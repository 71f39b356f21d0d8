// Small helpers the layers share: Python's repr of floats and tuples for extra_repr texts,
// _single/_pair (torch/nn/modules/utils.py), and the factory options of a module's constructor.

import type { Tensor } from "../../aten/core/Tensor.js";
import { empty } from "../../generated/torch_functions.js";

/** repr(float(x)): '1.0', '0.1', '1e-05' (Python switches to exponent form below 1e-4 and from 1e16). */
export function pyFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mant, expS] = x.toExponential().split("e");
  const exp = Number(expS);
  if (exp < -4 || exp >= 16) return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  const s = String(x);
  return s.includes(".") ? s : s + ".0";
}

/**
 * repr of a Python value as extra_repr's format() shows it: bools True/False, None, and a JavaScript array as
 * a Python list ([2, 3]) — what the user passed is shown as given; sizes PyTorch normalises to tuples
 * (_pair, tuple(normalized_shape)) print through pyTuple.
 */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return `'${v}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return String(v);
}

/** repr of a tuple: (3,) or (3, 3). */
export function pyTuple(v: readonly unknown[]): string {
  return v.length === 1 ? `(${pyRepr(v[0])},)` : `(${v.map(pyRepr).join(", ")})`;
}

/** str(v) in format(): strings bare, the rest as pyRepr. */
export function pyStr(v: unknown): string {
  return typeof v === "string" ? v : pyRepr(v);
}

function _ntuple(n: number) {
  return (x: number | readonly number[]): number[] => (Array.isArray(x) ? [...x] : new Array(n).fill(x));
}
export const _single = _ntuple(1);
export const _pair = _ntuple(2);

/** torch.empty(size, device=..., dtype=...) with a module's factory_kwargs. */
export function factoryEmpty(size: readonly number[], kw: { device?: unknown; dtype?: unknown }): Tensor {
  const opts: Record<string, unknown> = {};
  if (kw.device !== null && kw.device !== undefined) opts.device = kw.device;
  if (kw.dtype !== null && kw.dtype !== undefined) opts.dtype = kw.dtype;
  return empty([...size], opts) as Tensor;
}
