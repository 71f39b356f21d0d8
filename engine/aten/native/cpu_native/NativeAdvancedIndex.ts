// The native advanced-indexing kernels (native/cpu/AdvancedIndex.cc), registered into index_stub and
// index_put_stub (engine/aten/native/index/IndexTensor.ts, IndexPut.ts): `x.get(idx)`, `x.get(mask)`,
// `x.set(idx, v)` and `index_put_(indices, v, accumulate)` after make_info has checked the indices'
// types, expanded masks through nonzero() and laid the walk out (the AdvancedIndex).
//
// Covered: every dtype of 1, 2, 4 or 8 bytes (the elements are copied as bits); with accumulate,
// uint8, int8, int16, int32, int64 (wrapping), float32, float64 and bool. Up to 8 index tensors.
// float16/bfloat16 accumulation (computed in float and rounded), complex dtypes and an index out of
// range (whose IndexError the TypeScript kernel raises, at the element PyTorch raises it) run the
// TypeScript kernel. index_put_ writes nothing before every index has been checked, and then runs in
// the TypeScript kernel's order on one thread, so duplicate indices give the same result on both paths.
// nonzero (which a mask index becomes): every dtype but complex, any strides, at least one dim; the
// chunks are counted and then written on the pool.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, type TypedView } from "../../../c10/ElementAccess.js";
import type { TensorImpl } from "../../../c10/TensorImpl.js";
import type { Tensor } from "../../core/Tensor.js";
import type { AdvancedIndex } from "../index/AdvancedIndex.js";
import { index_stub } from "../index/IndexTensor.js";
import { index_put_stub } from "../index/IndexPut.js";
import { nonzero_stub, size_nonzero_result } from "../index/Nonzero.js";
import { broadcastStrides, metaArray } from "./NativeMeta.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";

const { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16 } = ScalarType;
/** Dtypes whose elements the kernels copy (one typed-array element each). */
const COPIED = new Set<ScalarType>([Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16]);
/** Dtypes the accumulating kernel adds in their own arithmetic. */
const ACCUMULATED = new Set<ScalarType>([Byte, Char, Short, Int, Long, Float, Double, Bool]);
const MAX_INDICES = 8;

/** The reused `indexed` array for k index tensors (a cache of its own: meta's length can equal its). */
const indexedCache: Float64Array[] = [];
const indexedArray = (k: number): Float64Array => (indexedCache[k] ??= new Float64Array(1 + 2 * k));

/**
 * meta over the indexing result's shape for [first, second, ...index tensors] and `indexed` for self's
 * indexed dims; null when the walk is not one the kernels take.
 */
function marshal(info: AdvancedIndex, first: TensorImpl, second: TensorImpl): { meta: Float64Array; indexed: Float64Array; arrays: TypedView[] } | null {
  const indexers = info.indexers;
  if (indexers.length === 0 || indexers.length > MAX_INDICES) return null;
  if (!COPIED.has(info.src.dtype.scalarType)) return null;
  const shape = info.src._impl.sizes();
  const nd = shape.length;
  const ops = [first, second, ...indexers.map((t) => t._impl)];
  if (ops.slice(2).some((t) => t.dtype.scalarType !== Long)) return null;
  // reused arrays (filled right before the call), as every native kernel's meta: two fresh Float64Arrays
  // of ~100 bytes were 8% of a small x.get(idx)'s profile (each an ArrayBuffer V8 allocates and sweeps)
  const meta = metaArray(1 + nd + ops.length * (1 + nd));
  meta[0] = nd;
  for (let d = 0; d < nd; d++) meta[1 + d] = shape[d];
  let at = 1 + nd;
  const arrays: TypedView[] = [];
  for (const t of ops) {
    arrays.push(typedView(t.storage, t.dtype));
    meta[at] = t.storage_offset();
    broadcastStrides(t, shape, meta, at + 1);
    at += 1 + nd;
  }
  const indexed = indexedArray(indexers.length);
  indexed[0] = indexers.length;
  for (let j = 0; j < indexers.length; j++) {
    indexed[1 + 2 * j] = info.indexedSizes[j];
    indexed[2 + 2 * j] = info.indexedStrides[j];
  }
  return { meta, indexed, arrays };
}

export function registerAdvancedIndexKernels(addon: NativeAddon): void {
  if (typeof addon.adv_index !== "function") return;
  index_stub.register("native", (out: Tensor, info: AdvancedIndex) => {
    if (out.numel() < nativeSizePolicy.minNumel || out.dtype.scalarType !== info.src.dtype.scalarType) return false;
    const m = marshal(info, out._impl, info.src._impl);
    if (m === null) return false;
    const [o, s, ...ix] = m.arrays;
    return addon.adv_index(m.meta, m.indexed, o, s, ...ix);
  });
  index_put_stub.register("native", (info: AdvancedIndex, value: Tensor, accumulate: boolean) => {
    const t = info.src.dtype.scalarType;
    if (info.src.numel() < nativeSizePolicy.minNumel || value.dtype.scalarType !== t || (accumulate && !ACCUMULATED.has(t))) return false;
    const m = marshal(info, value._impl, info.src._impl);
    if (m === null) return false;
    const [v, dst, ...ix] = m.arrays;
    return addon.adv_index_put(m.meta, m.indexed, t, accumulate, dst, v, ...ix);
  });
  nonzero_stub.register("native", (self: Tensor, result: Tensor) => {
    const impl = self._impl, nd = impl.dim();
    if (nd === 0 || impl.numel() < nativeSizePolicy.minNumel || !COPIED.has(impl.dtype.scalarType)) return false;
    const meta = new Float64Array(2 + 2 * nd);
    meta[0] = nd;
    const sizes = impl.sizes(), strides = impl.strides();
    for (let d = 0; d < nd; d++) {
      meta[1 + d] = sizes[d];
      meta[2 + nd + d] = strides[d];
    }
    meta[1 + nd] = impl.storage_offset();
    const t = impl.dtype.scalarType, data = typedView(impl.storage, impl.dtype);
    const n = addon.adv_nonzero_count(t, meta, data);
    if (n < 0) return false;
    size_nonzero_result(result, n, nd);
    if (n === 0) return true;
    const out = result._impl;
    return addon.adv_nonzero(t, meta, data, typedView(out.storage, out.dtype), out.storage_offset(), n);
  });
}
