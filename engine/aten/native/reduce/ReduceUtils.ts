// Shared machinery of the reduction kernels (ReduceOps.cpp / ReduceOpsUtils.h): the dim mask, the
// result shape, the structured output, and a reference loop that hands each output element the
// values it reduces, in the row-major order of the reduced dims.

import { IndexError, RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, type dtype } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { typedView, readNumber, toRaw, fromRaw, offsetOf } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import type { StructuredMode } from "../BinaryOps.js";

export type { StructuredMode };

/** make_dim_mask: which dims reduce; an absent or empty list means all of them. */
export function dimMask(dims: readonly number[] | null, ndim: number): boolean[] {
  const mask = new Array<boolean>(Math.max(ndim, 0)).fill(dims === null || dims.length === 0);
  // a 0-d tensor wraps dims as if it had one (dims 0 and -1), and repeats are still refused
  const seen = new Array<boolean>(Math.max(ndim, 1)).fill(false);
  for (const d of dims ?? []) {
    const w = maybe_wrap_dim(d, ndim);
    if (seen[w]) throw new RuntimeError(`dim ${w} appears multiple times in the list of dims`);
    seen[w] = true;
    if (ndim > 0) mask[w] = true;
  }
  return mask;
}

/** The reduced shape: reduced dims dropped, or kept as size 1 with keepdim. */
export function reducedShape(sizes: readonly number[], mask: readonly boolean[], keepdim: boolean): number[] {
  const out: number[] = [];
  sizes.forEach((s, i) => {
    if (!mask[i]) out.push(s);
    else if (keepdim) out.push(1);
  });
  return out;
}

/** The structured output: a fresh tensor for the functional form, `out` (resized) for out=. */
export function structuredOutput(self: Tensor, shape: readonly number[], dt: dtype, out: Tensor | null, mode: StructuredMode): Tensor {
  if (mode === "functional" || out === null) out = wrap(empty_impl([0], dt, self.device));
  resize_output(out, shape);
  return out;
}

/** True when the tensor holds data (false on device='meta'). */
export const hasData = (t: Tensor): boolean => t._impl.storage.hasData();

/**
 * zero_numel_check_dims (ReduceOpsUtils.h): a reduction over a size-0 dim has no identity to return
 * for max/min/amax/argmax and friends.
 */
export function zeroNumelCheckDims(self: Tensor, dims: readonly number[], fn: string): void {
  const sizes = self._impl.sizes();
  if (sizes.length === 0) {
    if (self.numel() === 0) throw new IndexError(`${fn}: Expected reduction dim 0 to have non-zero size.`);
    return;
  }
  for (const d of dims) {
    const w = maybe_wrap_dim(d, sizes.length);
    if (sizes[w] === 0) throw new IndexError(`${fn}: Expected reduction dim ${w} to have non-zero size.`);
  }
}

/** Element values of a tensor as numbers, or BigInts for int64 (exact). */
export type Value = number | bigint;

/**
 * The values each output element reduces: groups[o] lists the input elements whose coordinates,
 * without the reduced dims, are output element o's (row-major), in row-major order of the reduced dims.
 */
export function gather(self: Tensor, mask: readonly boolean[]): Value[][] {
  const impl = self._impl;
  const sizes = impl.sizes();
  const n = impl.numel();
  const outStrides: number[] = [];
  let stride = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    outStrides[d] = mask[d] ? 0 : stride;
    if (!mask[d]) stride *= sizes[d];
  }
  const groups: Value[][] = Array.from({ length: stride }, () => []);
  const view = typedView(impl.storage, impl.dtype);
  const st = impl.dtype.scalarType;
  const long = st === ScalarType.Long;
  for (let i = 0; i < n; i++) {
    let rem = i, o = 0;
    for (let d = sizes.length - 1; d >= 0; d--) {
      const c = rem % sizes[d];
      rem = (rem - c) / sizes[d];
      o += c * outStrides[d];
    }
    const off = offsetOf(impl, i);
    groups[o].push(long ? (view[off] as bigint) : readNumber(view, st, off));
  }
  return groups;
}

/** Writes results (row-major) into `out`, converting as static_cast does (int64 wraps). */
export function writeAll(out: Tensor, values: readonly Value[]): void {
  const impl = out._impl;
  const view = typedView(impl.storage, impl.dtype) as unknown as Value[];
  const ot = impl.dtype.scalarType;
  values.forEach((v, o) => {
    const off = offsetOf(impl, o);
    if (ot === ScalarType.Long) view[off] = typeof v === "bigint" ? BigInt.asIntN(64, v) : toRaw(ot, v);
    else view[off] = toRaw(ot, typeof v === "bigint" ? Number(v) : v);
  });
}

/** Rounds a double to what `dt` stores (float32, float16, bfloat16 round; float64 is itself). */
export function roundTo(dt: dtype, v: number): number {
  if (dt.scalarType === ScalarType.Double) return v;
  if (dt.scalarType === ScalarType.Float) return Math.fround(v);
  return Number(fromRaw(dt.scalarType, toRaw(dt.scalarType, v)));
}

/** Comparison keys: NaN is the greatest for max and the least for min; int64 stays BigInt. */
export const isNaNValue = (v: Value): boolean => typeof v === "number" && Number.isNaN(v);

/** laneReduce's block: the elements of one output that share one set of lanes. */
export const LANE_BLOCK = 32768;
const LANES = 64;

/**
 * A reduction in the lane order the native kernels use (native/cpu/Reductions.cc lane_reduce; prod
 * and the vector norms): the values go in blocks of LANE_BLOCK in order; within a block value j is
 * stepped into lane j % 64 (`step(lane, value)`, each lane starting at `identity`), the 64 lanes are
 * combined pairwise (lane j with lane j + w, for w = 32, 16, ..., 1), and the blocks' results are
 * combined in order from `identity`. Many independent chains instead of one long one (a product of a
 * million numbers as one chain waits for each multiplication) in an order fixed by the values' count
 * alone: native and TS give the same bits whatever the layout, unit or thread count.
 */
export function laneReduce(values: readonly number[], identity: number, step: (lane: number, v: number) => number, combine: (a: number, b: number) => number): number {
  let total = identity;
  const lanes = new Array<number>(LANES);
  for (let b0 = 0; b0 < values.length; b0 += LANE_BLOCK) {
    lanes.fill(identity);
    const b1 = Math.min(values.length, b0 + LANE_BLOCK);
    for (let i = b0; i < b1; i++) lanes[(i - b0) % LANES] = step(lanes[(i - b0) % LANES], values[i]);
    for (let w = LANES / 2; w >= 1; w /= 2) for (let j = 0; j < w; j++) lanes[j] = combine(lanes[j], lanes[j + w]);
    total = combine(total, lanes[0]);
  }
  return total;
}
