// The native sort and topk (native/cpu/Sorting.cc), registered into sort_stub (join/Sort.ts) and
// topk_stub (reduce3/TopK.ts). Both walk self's lanes along dim with every operand's own strides.
//
// Covered: sort on uint8, int8, int16, int32, int64, bool, float16, bfloat16, float32, float64 (a stable
// LSD radix sort on order-preserving keys: the one order PyTorch's stable CPU sort gives, NaN largest,
// -0 equal to 0); topk on uint8, int8, int16, int32, int64, float32, float64 (TopKImpl.h's libstdc++
// partial_sort / nth_element / sort calls, so ties and the unsorted order are PyTorch's). 0-d self and
// the other dtypes run the TS kernels. unique (no dim): uint8, int8, int16, int32, int64, float32,
// float64 on a contiguous self (Unique.cc: PyTorch 1.13's std::unordered_set / std::sort / maps; sorted
// without NaN: per-chunk hash tables on the pool, the same result).
// median / nanmedian (median_stub along a dim, median_all_stub over a contiguous self) on every dtype
// but float16 and bool: std::nth_element on the sort keys, then the k-th under (value, index) found among
// the tied keys by position, so the index (and which of -0/0) is the TS kernel's. mode_stub on every
// dtype: PyTorch's std::sort of (value, index) pairs by value, whose tie order the TS kernel reproduces.

import { ScalarType, int64 } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { TensorImpl } from "../../../c10/TensorImpl.js";
import type { Tensor } from "../../core/Tensor.js";
import { sort_stub } from "../join/Sort.js";
import { topk_stub } from "../reduce3/TopK.js";
import { unique_stub, type UniqueResult } from "../reduce3/Unique.js";
import { emptyLike } from "../reduce3/common.js";
import { median_stub, median_all_stub } from "../reduce3/Median.js";
import { mode_stub } from "../reduce3/Mode.js";
import { kthvalue_stub } from "../reduce3/Kthvalue.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";

const { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16 } = ScalarType;
const SORTED = new Set<ScalarType>([Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16]);
const TOPK = new Set<ScalarType>([Byte, Char, Short, Int, Long, Float, Double]);

/** An operand of a lane kernel: storage offset and strides (elements), one per dim of self. */
type LaneOperand = { offset: number; strides: readonly number[] };
const operand = (t: TensorImpl): LaneOperand => ({ offset: t.storage_offset(), strides: t.strides() });
/** A reduction's output along self's dims: a non-kept dim d gets stride 0 (it has one element there). */
function reducedOperand(t: TensorImpl, nd: number, d: number): LaneOperand {
  const strides = [...t.strides()];
  if (strides.length < nd) strides.splice(d, 0, 0);
  return { offset: t.storage_offset(), strides };
}

/** [ndim, self's sizes..., dim, then per operand (values, indices, self; or result, self): offset, strides...] */
export function laneMeta(self: TensorImpl, d: number, operands: readonly (TensorImpl | LaneOperand)[]): Float64Array {
  const sizes = self.sizes(), nd = sizes.length;
  const meta = new Float64Array(2 + nd + operands.length * (1 + nd));
  meta[0] = nd;
  sizes.forEach((n, k) => (meta[1 + k] = n));
  meta[1 + nd] = d;
  operands.forEach((o, k) => {
    const t = "offset" in o ? o : operand(o);
    const at = 2 + nd + k * (1 + nd);
    meta[at] = t.offset;
    t.strides.forEach((st, j) => (meta[at + 1 + j] = st));
  });
  return meta;
}

export function registerSortingKernels(addon: NativeAddon): void {
  if (typeof addon.sort_lanes !== "function") return;
  sort_stub.register("native", (values: Tensor, indices: Tensor, self: Tensor, d: number, descending: boolean) => {
    const x = self._impl, v = values._impl, i = indices._impl, t = x.dtype.scalarType;
    if (x.dim() === 0 || !SORTED.has(t) || x.numel() < nativeSizePolicy.minNumel || v.dtype.scalarType !== t || i.dtype.scalarType !== Long) return false;
    return addon.sort_lanes(t, descending, laneMeta(x, d, [v, i, x]), typedView(v.storage, v.dtype), typedView(i.storage, i.dtype), typedView(x.storage, x.dtype));
  });
  topk_stub.register("native", (values: Tensor, indices: Tensor, self: Tensor, k: number, d: number, largest: boolean, sorted: boolean) => {
    const x = self._impl, v = values._impl, i = indices._impl, t = x.dtype.scalarType;
    if (x.dim() === 0 || !TOPK.has(t) || x.numel() < nativeSizePolicy.minNumel || v.dtype.scalarType !== t || i.dtype.scalarType !== Long) return false;
    // (values and indices have self's rank; their strides along d step through k entries)
    return addon.topk_lanes(t, k, largest, sorted, laneMeta(x, d, [v, i, x]), typedView(v.storage, v.dtype), typedView(i.storage, i.dtype), typedView(x.storage, x.dtype));
  });
}

// median: every dtype but float16 and bool (the TS kernel refuses those first); mode: every dtype the TS kernel takes
const MEDIAN = new Set<ScalarType>([Byte, Char, Short, Int, Long, Float, Double, BFloat16]);
const MODE = new Set<ScalarType>([Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16]);

/** median / nanmedian (all elements of a contiguous self, and along a dim), kthvalue and mode along a dim (Sorting.cc). */
export function registerOrderStatisticKernels(addon: NativeAddon): void {
  if (typeof addon.median_lanes !== "function") return;
  median_stub.register("native", (values: Tensor, indices: Tensor, self: Tensor, d: number, ignoreNan: boolean) => {
    // (values and indices come with self's rank, one element along d)
    const x = self._impl, v = values._impl, i = indices._impl, t = x.dtype.scalarType;
    if (!MEDIAN.has(t) || x.numel() < nativeSizePolicy.minNumel || v.dtype.scalarType !== t || i.dtype.scalarType !== Long) return false;
    return addon.median_lanes(t, ignoreNan, laneMeta(x, d, [v, i, x]), typedView(v.storage, v.dtype), typedView(i.storage, i.dtype), typedView(x.storage, x.dtype));
  });
  median_all_stub.register("native", (result: Tensor, self: Tensor, ignoreNan: boolean) => {
    const x = self._impl, r = result._impl, t = x.dtype.scalarType;
    if (!MEDIAN.has(t) || !x.is_contiguous() || x.numel() < nativeSizePolicy.minNumel || r.dtype.scalarType !== t) return false;
    return addon.median_all(t, ignoreNan, typedView(x.storage, x.dtype), x.storage_offset(), x.numel(), typedView(r.storage, r.dtype), r.storage_offset());
  });
  // kthvalue: quick_select_template per lane (values and indices with self's rank, one element along d)
  if (typeof addon.kthvalue_lanes === "function") {
    kthvalue_stub.register("native", (values: Tensor, indices: Tensor, self: Tensor, k: number, d: number) => {
      const x = self._impl, v = values._impl, i = indices._impl, t = x.dtype.scalarType;
      if (!MEDIAN.has(t) || x.numel() < nativeSizePolicy.minNumel || v.dtype.scalarType !== t || i.dtype.scalarType !== Long) return false;
      return addon.kthvalue_lanes(t, k, laneMeta(x, d, [v, i, x]), typedView(v.storage, v.dtype), typedView(i.storage, i.dtype), typedView(x.storage, x.dtype));
    });
  }
  mode_stub.register("native", (values: Tensor, indices: Tensor, self: Tensor, d: number) => {
    const x = self._impl, v = values._impl, i = indices._impl, t = x.dtype.scalarType, nd = x.dim();
    if (nd === 0 || !MODE.has(t) || x.numel() < nativeSizePolicy.minNumel || v.dtype.scalarType !== t || i.dtype.scalarType !== Long) return false;
    const meta = laneMeta(x, d, [reducedOperand(v, nd, d), reducedOperand(i, nd, d), x]);
    return addon.mode_lanes(t, meta, typedView(v.storage, v.dtype), typedView(i.storage, i.dtype), typedView(x.storage, x.dtype));
  });
}

const UNIQUE = new Set<ScalarType>([Byte, Char, Short, Int, Long, Float, Double]);

/** torch.unique without dim (native/cpu/Unique.cc: unique_cpu_template's own std containers) on a contiguous self. */
export function registerUniqueKernel(addon: NativeAddon): void {
  if (typeof addon.unique_values !== "function") return;
  unique_stub.register("native", (self: Tensor, sorted: boolean, returnInverse: boolean, returnCounts: boolean, result: UniqueResult) => {
    const x = self._impl, t = x.dtype.scalarType, n = x.numel();
    if (!UNIQUE.has(t) || !x.is_contiguous() || n < nativeSizePolicy.minNumel) return false;
    const view = typedView(x.storage, x.dtype);
    const values = new (view.constructor as new (n: number) => typeof view)(n);
    const inverse = returnInverse || returnCounts ? emptyLike(self, x.sizes(), int64) : emptyLike(self, [0], int64);
    const counts = returnCounts ? new BigInt64Array(n) : null;
    const inv = returnInverse || returnCounts ? (typedView(inverse._impl.storage, inverse._impl.dtype) as BigInt64Array) : null;
    const k = addon.unique_values(t, view, x.storage_offset(), n, sorted, values, inv, counts);
    if (k < 0) return false;
    const output = emptyLike(self, [k], self.dtype);
    (typedView(output._impl.storage, output._impl.dtype) as typeof view).set(values.subarray(0, k) as never);
    const countsT = emptyLike(self, [returnCounts ? k : 0], int64);
    if (counts !== null) (typedView(countsT._impl.storage, countsT._impl.dtype) as BigInt64Array).set(counts.subarray(0, k));
    result.out = [output, inverse, countsT];
  });
}
