// torch/functional.py (PyTorch 1.13): the Python-level functions that shadow or wrap aten bindings.
// torch.einsum takes its operands as varargs (or one list, the old interface); torch.tensordot takes
// `dims` as an int (the last dims of a with the first of b) or as a pair of dim lists. torch.norm,
// torch.unique and torch.unique_consecutive pick the aten overload to call (norm -> frobenius_norm /
// norm.ScalarOpt_dim[_dtype] / norm.out / norm.dtype_out / nuclear_norm[.dim][_out]; unique -> _unique2 or unique_dim) and shape
// the return (one tensor, or a tuple as the flags ask). Arguments come as in Python: positionally in
// the signature's order, then a final options object.

import { RuntimeError, ValueError, TypeError_ } from "../c10/Errors.js";
import type { dtype } from "../c10/ScalarType.js";
import { Tensor } from "./core/Tensor.js";
import { frobenius_norm_dim, frobenius_norm_out } from "../generated/frobenius_norm.js";
import { nuclear_norm_default, nuclear_norm_out, nuclear_norm_dim, nuclear_norm_dim_out } from "../generated/nuclear_norm.js";
import { norm_ScalarOpt_dim, norm_ScalarOpt_dim_dtype, norm_out, norm_dtype_out } from "../generated/norm.js";
import { _unique2_default } from "../generated/_unique2.js";
import { unique_dim_default } from "../generated/unique_dim.js";
import { unique_consecutive_default } from "../generated/unique_consecutive.js";
import { einsum as aten_einsum, tensordot as aten_tensordot } from "../generated/torch_functions.js";

export function einsum(equation: string, ...operands: (Tensor | readonly Tensor[])[]): Tensor {
  // the old interface: the operands as one list
  if (operands.length === 1 && Array.isArray(operands[0])) return einsum(equation, ...(operands[0] as Tensor[]));
  return (aten_einsum as any)(equation, operands) as Tensor;
}

export function tensordot(a: Tensor, b: Tensor, dims: number | readonly [readonly number[], readonly number[]] = 2, options: { out?: Tensor } = {}): Tensor {
  let dimsA: number[], dimsB: number[];
  if (typeof dims === "number") {
    if (dims < 0) throw new RuntimeError(`tensordot expects dims >= 0, but got dims=${dims}`);
    dimsA = Array.from({ length: dims }, (_, i) => i - dims);
    dimsB = Array.from({ length: dims }, (_, i) => i);
  } else if (Array.isArray(dims) && dims.length === 2) {
    [dimsA, dimsB] = [[...dims[0]], [...dims[1]]];
  } else {
    throw new RuntimeError(`tensordot expects dims to be int or Tuple[List[int], List[int]] or List[List[int]] containing two lists, but got dims=${String(dims)}`);
  }
  return (options.out === undefined ? (aten_tensordot as any)(a, b, dimsA, dimsB) : (aten_tensordot as any)(a, b, dimsA, dimsB, { out: options.out })) as Tensor;
}

/** Python's binding of positional and keyword arguments to names, with defaults. */
function bind<T extends Record<string, unknown>>(fn: string, names: (keyof T & string)[], defaults: T, args: unknown[]): T {
  const last = args[args.length - 1];
  const isKw = last !== null && typeof last === "object" && !(last instanceof Tensor) && !Array.isArray(last);
  const pos = isKw ? args.slice(0, -1) : args;
  const kw = (isKw ? last : {}) as Record<string, unknown>;
  if (pos.length > names.length) throw new TypeError_(`${fn}() takes from 1 to ${names.length} positional arguments but ${pos.length} were given`);
  const out: Record<string, unknown> = { ...defaults };
  pos.forEach((v, i) => { out[names[i]] = v; });
  for (const [k, v] of Object.entries(kw)) {
    if (!(k in defaults)) throw new TypeError_(`${fn}() got an unexpected keyword argument '${k}'`);
    if (names.indexOf(k) < pos.length) throw new TypeError_(`${fn}() got multiple values for argument '${k}'`);
    out[k] = v;
  }
  return out as T;
}

type NormArgs = { p: number | string | null; dim: number | number[] | null; keepdim: boolean; out: Tensor | null; dtype: dtype | null };

/** torch.norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None). */
export function norm(input: Tensor, ...args: unknown[]): Tensor {
  const { p, dim, keepdim, out, dtype } = bind<NormArgs>("norm", ["p", "dim", "keepdim", "out", "dtype"],
    { p: "fro", dim: null, keepdim: false, out: null, dtype: null }, args);
  const ndim = input.dim();
  const all = Array.from({ length: ndim }, (_, i) => i);
  // the default case: no dim, out or dtype
  if (dim === null && out === null && dtype === null && p !== null) {
    if (p === "fro") return frobenius_norm_dim.call(input, [], keepdim) as Tensor;
    if (typeof p !== "string") return norm_ScalarOpt_dim.call(input, p, all, keepdim) as Tensor;
  }
  let d = dim === null ? null : typeof dim === "number" ? [dim] : dim;
  if (typeof p === "string") {
    if (p === "fro") {
      if (dtype !== null) throw new ValueError("dtype argument is not supported in frobenius norm");
      d ??= all;
      return (out === null ? frobenius_norm_dim.call(input, d, keepdim) : frobenius_norm_out.call(input, d, keepdim, out)) as Tensor;
    }
    if (p === "nuc") {
      if (dtype !== null) throw new ValueError("dtype argument is not supported in nuclear norm");
      if (d === null) return (out === null ? nuclear_norm_default.call(input, keepdim) : nuclear_norm_out.call(input, keepdim, out)) as Tensor;
      return (out === null ? nuclear_norm_dim.call(input, d, keepdim) : nuclear_norm_dim_out.call(input, d, keepdim, out)) as Tensor;
    }
    throw new RuntimeError(`only valid string values are 'fro' and 'nuc', found ${p}`);
  }
  d ??= all;
  if (out === null) {
    return (dtype === null ? norm_ScalarOpt_dim.call(input, p, d, keepdim) : norm_ScalarOpt_dim_dtype.call(input, p, d, keepdim, dtype)) as Tensor;
  }
  return (dtype === null ? norm_out.call(input, p, d, keepdim, out) : norm_dtype_out.call(input, p, d, keepdim, dtype, out)) as Tensor;
}

type UniqueArgs = { sorted: boolean; return_inverse: boolean; return_counts: boolean; dim: number | null };

/** The tuple torch.unique returns for its flags: output, then inverse and counts when asked. */
function pick(r: Tensor[], inverse: boolean, counts: boolean): Tensor | Tensor[] {
  if (!inverse && !counts) return r[0];
  return [r[0], ...(inverse ? [r[1]] : []), ...(counts ? [r[2]] : [])];
}

/** torch.unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None): _unique2, or unique_dim with dim. */
export function unique(input: Tensor, ...args: unknown[]): Tensor | Tensor[] {
  const a = bind<UniqueArgs>("unique", ["sorted", "return_inverse", "return_counts", "dim"],
    { sorted: true, return_inverse: false, return_counts: false, dim: null }, args);
  const r = (a.dim !== null
    ? unique_dim_default.call(input, a.dim, a.sorted, a.return_inverse, a.return_counts)
    : _unique2_default.call(input, a.sorted, a.return_inverse, a.return_counts)) as Tensor[];
  return pick(r, a.return_inverse, a.return_counts);
}

type ConsecutiveArgs = { return_inverse: boolean; return_counts: boolean; dim: number | null };

/** torch.unique_consecutive(input, return_inverse=False, return_counts=False, dim=None). */
export function unique_consecutive(input: Tensor, ...args: unknown[]): Tensor | Tensor[] {
  const a = bind<ConsecutiveArgs>("unique_consecutive", ["return_inverse", "return_counts", "dim"],
    { return_inverse: false, return_counts: false, dim: null }, args);
  const r = unique_consecutive_default.call(input, a.return_inverse, a.return_counts, a.dim) as Tensor[];
  return pick(r, a.return_inverse, a.return_counts);
}

// torch/_tensor.py defines Tensor.norm, Tensor.unique and Tensor.unique_consecutive in Python, calling
// the functions above; they replace the generated methods of the same names (installed earlier, by
// engine/generated/index.ts).
type Method = (this: Tensor, ...args: unknown[]) => unknown;
const proto = Tensor.prototype as unknown as Record<string, Method>;
proto.norm = function (this: Tensor, ...args: unknown[]) {
  const a = bind<Omit<NormArgs, "out">>("norm", ["p", "dim", "keepdim", "dtype"], { p: "fro", dim: null, keepdim: false, dtype: null }, args);
  return norm(this, a.p, a.dim, a.keepdim, { dtype: a.dtype });
};
proto.unique = function (this: Tensor, ...args: unknown[]) {
  return unique(this, ...args);
};
proto.unique_consecutive = function (this: Tensor, ...args: unknown[]) {
  return unique_consecutive(this, ...args);
};
