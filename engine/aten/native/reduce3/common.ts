// Shared by the reduce3 kernels: 1-D lanes along a dim (the loop shape of PyTorch's cpu_cum_base_kernel,
// sort and topk), value casts as static_cast does them, and output checks several ops share.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, empty_strided_impl, wrap } from "../../core/empty.js";
import { dimMask, gather, roundTo, type Value } from "../reduce/ReduceUtils.js";
import { typeMetaName } from "../binary/TypeMeta.js";

export type { Value };
export const hasData = (t: Tensor): boolean => t._impl.storage.hasData();
export const asDouble = (v: Value): number => (typeof v === "bigint" ? Number(v) : v);
export const isNaNValue = (v: Value): boolean => typeof v === "number" && Number.isNaN(v);

/**
 * The 1-D lanes of `self` along dim `d` (already wrapped; a 0-d tensor is one lane of one element),
 * row-major over the other dims, and `at(lane, k)`: the row-major index of the lane's k-th element.
 */
export function lanes(self: Tensor, d: number): { groups: Value[][]; at: (lane: number, k: number) => number } {
  const sizes = self._impl.sizes();
  const nd = sizes.length;
  if (nd === 0) return { groups: gather(self, []), at: () => 0 };
  const groups = gather(self, dimMask([d], nd));
  const size = sizes[d];
  let inner = 1;
  for (let k = d + 1; k < nd; k++) inner *= sizes[k];
  return { groups, at: (lane, k) => Math.floor(lane / inner) * size * inner + k * inner + (lane % inner) };
}

/** static_cast<T>(v): floats round to T, integers truncate and wrap, bool tests != 0; int64 stays exact. */
export function castTo(dt: dtype, v: Value): Value {
  const st = dt.scalarType;
  if (st === ScalarType.Long) {
    if (typeof v === "bigint") return v;
    return Number.isFinite(v) ? BigInt.asIntN(64, BigInt(Math.trunc(v))) : -(2n ** 63n);
  }
  const x = asDouble(typeof v === "bigint" ? BigInt.asIntN(64, v) : v);
  switch (st) {
    case ScalarType.Bool: return x !== 0 ? 1 : 0;
    case ScalarType.Byte: return Number.isFinite(x) ? Math.trunc(x) & 0xff : 0;
    case ScalarType.Char: return Number.isFinite(x) ? (Math.trunc(x) << 24) >> 24 : 0;
    case ScalarType.Short: return Number.isFinite(x) ? (Math.trunc(x) << 16) >> 16 : 0;
    case ScalarType.Int: return Number.isFinite(x) ? Math.trunc(x) | 0 : 0;
    default: return roundTo(dt, x);
  }
}

/** A fresh contiguous tensor on self's device. */
export const emptyLike = (self: Tensor, sizes: readonly number[], dt: dtype): Tensor => wrap(empty_impl(sizes, dt, self.device));
export const emptyStrided = (self: Tensor, sizes: readonly number[], strides: readonly number[], dt: dtype): Tensor =>
  wrap(empty_strided_impl(sizes, strides, dt, self.device));

/** check_scalar_type_device_layout_equal (ReduceOps.cpp): an out= tensor must have the input's dtype. */
export function checkOutDtype(out: Tensor, want: dtype): void {
  if (out.dtype !== want) {
    throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(want.scalarType)}, but got ${typeMetaName(out.dtype.scalarType)} instead`);
  }
}

/** check_scalar_type_device_layout_equal (cummax_out, logcumsumexp_out): out must have `want`'s dtype. */
export function checkScalarTypeEqual(out: Tensor, want: dtype): void {
  if (out.dtype !== want) throw new RuntimeError(`expected scalar_type ${scalarTypeName(want.scalarType)} but found ${scalarTypeName(out.dtype.scalarType)}`);
}

/** AT_DISPATCH's refusal: "\"cumsum_out_cpu\" not implemented for 'Half'". */
export function notImplementedFor(kernel: string, st: ScalarType): RuntimeError {
  return new RuntimeError(`"${kernel}" not implemented for '${scalarTypeName(st)}'`);
}

/**
 * torch.return_types.* (values, indices): an array [values, indices] (so `const [v, i] = torch.mode(x)`
 * works) carrying .values and .indices too, as reduce/ReduceOps.ts's max.dim returns.
 */
export type ValuesIndices = [Tensor, Tensor] & { values: Tensor; indices: Tensor };
export const namedPair = (v: Tensor, i: Tensor): ValuesIndices =>
  Object.assign([v, i] as [Tensor, Tensor], { values: v, indices: i }) as ValuesIndices;
