// Helpers the index family's kernels share: reading and writing one element by storage offset (int64
// kept as bigint so large values stay exact), walking a tensor's multi-indices, and the small
// checks PyTorch repeats across TensorAdvancedIndexing.cpp (ensure_nonempty_dim, sizes printed as [2, 3]).

import { borrow } from "../../../c10/Dispose.js";
import { forEachIndex } from "../../../c10/ElementAccess.js";
export { forEachIndex };
import { ScalarType, type dtype } from "../../../c10/ScalarType.js";
import { typedView, toRaw, readNumber, type TypedView } from "../../../c10/ElementAccess.js";
import { TensorImpl } from "../../../c10/TensorImpl.js";
import { Tensor } from "../../core/Tensor.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { get_overlap_status } from "../MemoryOverlap.js";

export type Value = number | bigint;

export const list = (xs: readonly number[]): string => `[${xs.join(", ")}]`;
export const hasData = (t: Tensor): boolean => t._impl.storage.hasData();

/** An element accessor over one tensor's storage: get/set by storage offset, values as number or (int64) bigint. */
export interface Elements {
  readonly view: TypedView;
  readonly st: ScalarType;
  get(off: number): Value;
  set(off: number, v: Value): void;
}

export function elements(t: Tensor): Elements {
  const impl = t._impl;
  const view = typedView(impl.storage, impl.dtype);
  const st = impl.dtype.scalarType;
  const raw = view as unknown as Value[];
  if (st === ScalarType.Long) {
    return { view, st, get: (o) => raw[o] as bigint, set: (o, v) => (raw[o] = typeof v === "bigint" ? v : BigInt(Math.trunc(v))) };
  }
  return { view, st, get: (o) => readNumber(view, st, o), set: (o, v) => (raw[o] = toRaw(st, Number(v))) };
}

/** The raw stored element (bits for half/bfloat16): copying raw values between tensors of one dtype is exact. */
export const rawView = (t: Tensor): Value[] => typedView(t._impl.storage, t._impl.dtype) as unknown as Value[];

/**
 * An index tensor's elements as numbers (int32 or int64 index tensors), in a Float64Array: 1e6 indices
 * pushed onto a JS array took 35-45 ms (the array's growth and its doubles on the heap), into a typed
 * array 4-17 ms. int64 elements are read as two int32 halves (little-endian) rather than as BigInts;
 * exact for every index a tensor can have (|i| < 2^53).
 */
export function indexValues(index: Tensor): Float64Array {
  const impl = index._impl;
  const n = impl.numel();
  const out = new Float64Array(n);
  if (n === 0) return out;
  const view = typedView(impl.storage, impl.dtype);
  const words = view instanceof BigInt64Array ? new Int32Array(view.buffer, view.byteOffset, view.length * 2) : null;
  const read = (o: number) => (words === null ? Number(view[o]) : words[2 * o + 1] * 4294967296 + (words[2 * o] >>> 0));
  if (impl.is_contiguous()) {
    const off = impl.storage_offset();
    if (words !== null) for (let i = 0; i < n; i++) out[i] = words[2 * (off + i) + 1] * 4294967296 + (words[2 * (off + i)] >>> 0);
    else for (let i = 0; i < n; i++) out[i] = Number(view[off + i]);
    return out;
  }
  forEachOffsetOf(impl.sizes(), impl.strides(), impl.storage_offset(), (o, k) => (out[k] = read(o)));
  return out;
}

/** Storage offset of each element of a (sizes, strides, offset) window, in row-major order. */
export function forEachOffsetOf(sizes: readonly number[], strides: readonly number[], offset: number, fn: (off: number, k: number) => void): void {
  let k = 0;
  forEachIndex(sizes, (idx) => {
    let o = offset;
    for (let d = 0; d < idx.length; d++) o += idx[d] * strides[d];
    fn(o, k++);
  });
}

export function offsetAt(t: Tensor, idx: readonly number[]): number {
  const st = t._impl.strides();
  let o = t._impl.storage_offset();
  for (let d = 0; d < idx.length; d++) o += idx[d] * st[d];
  return o;
}

/**
 * A window onto t's storage built directly (no dispatcher call), as PyTorch's kernels restride operands.
 * It is the kernel's temporary: it owns no share of the storage (c10/Dispose.ts), so it never keeps
 * t.dispose() from freeing the block, as a raw pointer would not. Never hand one back to the caller.
 */
export function restride(t: Tensor, sizes: readonly number[], strides: readonly number[], offset = t._impl.storage_offset()): Tensor {
  const impl = t._impl;
  const window = new TensorImpl(impl.storage, impl.dtype, [...sizes], [...strides], offset, impl.version_counter);
  borrow(window);
  return new Tensor(window);
}

/** ensure_nonempty_dim / ensure_nonempty_size (TensorAdvancedIndexing.h): a 0-dim tensor counts as 1-dim of size 1. */
export const nonemptyDim = (t: Tensor): number => Math.max(t.dim(), 1);
export const nonemptySize = (t: Tensor, d: number): number => (t.dim() === 0 ? 1 : t._impl.sizes()[d]);

/** PyTorch's c10::toString(ScalarType): Float, Long, Bool... (as error texts print dtypes). */
export { scalarTypeName } from "../../../c10/ScalarType.js";

export const isLong = (t: Tensor): boolean => t.dtype.scalarType === ScalarType.Long;
export const isIntIndex = (t: Tensor): boolean => t.dtype.scalarType === ScalarType.Long || t.dtype.scalarType === ScalarType.Int;
export const isMask = (t: Tensor): boolean => t.dtype.scalarType === ScalarType.Bool || t.dtype.scalarType === ScalarType.Byte;

/** The arithmetic of one dtype: a + b, a * b, max/min, as PyTorch's kernels compute it (bool: or/and; integers wrap on store). */
export function arith(dt: dtype) {
  const st = dt.scalarType;
  if (st === ScalarType.Long) {
    return {
      add: (a: Value, b: Value) => (a as bigint) + (b as bigint),
      mul: (a: Value, b: Value) => BigInt.asIntN(64, (a as bigint) * (b as bigint)),
      zero: 0n as Value,
      one: 1n as Value,
    };
  }
  if (st === ScalarType.Bool) {
    return { add: (a: Value, b: Value) => (a || b ? 1 : 0), mul: (a: Value, b: Value) => (a && b ? 1 : 0), zero: 0 as Value, one: 1 as Value };
  }
  if (st === ScalarType.Int) {
    // int32: the exact sum (below 2^32) wraps on store; the product wraps as C++'s does (Math.imul)
    return { add: (a: Value, b: Value) => (a as number) + (b as number), mul: (a: Value, b: Value) => Math.imul(a as number, b as number), zero: 0 as Value, one: 1 as Value };
  }
  // float32 sums round on store; half/bfloat16 compute in float and round on store; the narrower
  // integers' sums and products are exact in a double and wrap on store
  const exact = st === ScalarType.Double || st === ScalarType.Short || st === ScalarType.Char || st === ScalarType.Byte;
  const round = exact ? (x: number) => x : Math.fround;
  return {
    add: (a: Value, b: Value) => round((a as number) + (b as number)),
    mul: (a: Value, b: Value) => round((a as number) * (b as number)),
    zero: 0 as Value,
    one: 1 as Value,
  };
}

/** assert_no_overlap (MemoryOverlap.cpp): the written tensor may share no element with an input. */
export function assert_no_overlap(a: Tensor, b: Tensor): void {
  const s = get_overlap_status(a, b);
  if (s === "partial" || s === "full") {
    throw new RuntimeError(
      "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.",
    );
  }
}
