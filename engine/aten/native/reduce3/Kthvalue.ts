// kthvalue (aten/src/ATen/native/Sorting.cpp kthvalue_out_impl_cpu): the k-th smallest element of each
// lane along dim, and its index. Each lane is copied with its indices and partially ordered by
// quick_select_template (SortingUtils.h: median-of-three pivots, NaN counted largest), and the k-th
// slot read: ties resolve to whichever of the tied indices that selection leaves there, as in
// PyTorch (not the first). CPU only in 1.13 (no Meta kernel); float16 and bool refused.

import { borrow } from "../../../c10/Dispose.js";
import { IndexError, RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, int64 } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { dimMask, reducedShape, gather, writeAll } from "../reduce/ReduceUtils.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { copy__default } from "../../../generated/copy.js";
import { kthvalue_values } from "../../../generated/kthvalue.js";
import { isNaNValue, notImplementedFor, namedPair, type Value, type ValuesIndices } from "./common.js";

/** x > y with NaN above everything: the order quick_select_template partitions by. */
const gtOrNan = (x: Value, y: Value): boolean => (isNaNValue(x) && !isNaNValue(y)) || x > y;

/**
 * quick_select_template: moves values (and their indices alongside) until arr[k] holds the k-th
 * smallest, everything before it no larger and everything after no smaller (Hoare partitions around a
 * median-of-three pivot, narrowing to the side that holds k).
 */
export function quickSelect(arr: Value[], idx: number[], k: number): void {
  const swap = (i: number, j: number) => {
    const v = arr[i]!; arr[i] = arr[j]!; arr[j] = v;
    const t = idx[i]!; idx[i] = idx[j]!; idx[j] = t;
  };
  let L = 0;
  let R = arr.length - 1;
  for (;;) {
    if (R <= L) return; // one element
    if (R === L + 1) { // two elements
      if (gtOrNan(arr[L]!, arr[R]!)) swap(L, R);
      return;
    }
    // median of three: arr[L] <= arr[L + 1] <= arr[R] after these swaps, arr[L] the pivot
    const P = L + Math.trunc((R - L) / 2);
    swap(P, L + 1);
    if (gtOrNan(arr[L + 1]!, arr[R]!)) swap(L + 1, R);
    if (gtOrNan(arr[L]!, arr[R]!)) swap(L, R);
    if (gtOrNan(arr[L + 1]!, arr[L]!)) swap(L + 1, L);
    let i = L + 1;
    let j = R;
    const piv = arr[L]!;
    for (;;) {
      do i++; while (gtOrNan(piv, arr[i]!));
      do j--; while (gtOrNan(arr[j]!, piv));
      if (j < i) break;
      swap(i, j);
    }
    swap(L, j);
    // the partition that holds k
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
}

type KthvalueKernel = (values: Tensor, indices: Tensor, self: Tensor, k: number, dim: number) => void;
/** The selection per lane (the TS reference; native/cpu/Sorting.cc kthvalue_lanes runs the same moves). */
export const kthvalue_stub = new DispatchStub<KthvalueKernel>("kthvalue", "aten/src/ATen/native/Sorting.cpp");
kthvalue_stub.register("ts", (values, indices, self, k, dim) => {
  const lanes = gather(self, dimMask([dim], self.dim()));
  const picked: Value[] = [];
  const pickedIdx: bigint[] = [];
  for (const lane of lanes) {
    const idx = lane.map((_, i) => i);
    quickSelect(lane, idx, k - 1);
    picked.push(lane[k - 1]!);
    pickedIdx.push(BigInt(idx[k - 1]!));
  }
  writeAll(values, picked);
  writeAll(indices, pickedIdx);
});

/** kthvalue_out_impl_cpu: checks in PyTorch's order, result shapes, the 0-d copy, then the selection. */
export function kthvalue_out_cpu(self: Tensor, k: number, dim: number, keepdim: boolean, values: Tensor, indices: Tensor): ValuesIndices {
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  const slicesize = sizes.length === 0 ? 1 : sizes[d]!;
  // zero_numel_check_dims
  if ((sizes.length === 0 && self.numel() === 0) || (sizes.length > 0 && slicesize === 0)) {
    throw new IndexError(`kthvalue(): Expected reduction dim ${d} to have non-zero size.`);
  }
  if (!(k >= 1 && k <= slicesize)) throw new RuntimeError(`kthvalue(): selected number k out of range for dimension ${d}`);
  // _reduction_with_indices_allocate_or_resize_output's checks
  if (values.dtype !== self.dtype) throw new RuntimeError("output values must be of same type as input");
  if (indices.dtype !== int64) throw new RuntimeError("output indices must be of scalar type Long");
  const shape = sizes.length === 0 ? [] : reducedShape(sizes, dimMask([d], sizes.length), keepdim);
  resize_output(values, shape);
  resize_output(indices, shape);
  const st = self.dtype.scalarType;
  if (sizes.length === 0) {
    copy__default.call(values, self, false);
    writeAll(indices, [0n]);
    return namedPair(values, indices);
  }
  if (st === ScalarType.Half || st === ScalarType.Bool) throw notImplementedFor("kthvalue_cpu", st);
  // the kernel writes through views with dim kept (the unsqueezed ones give up their shares after)
  const vals = keepdim ? values : (unsqueeze_default.call(values, d) as Tensor);
  const inds = keepdim ? indices : (unsqueeze_default.call(indices, d) as Tensor);
  if (self.numel() > 0) kthvalue_stub.call(self.device.type, vals, inds, self, k, d);
  for (const [view, of] of [[vals, values], [inds, indices]] as const) if (view !== of) borrow(view._impl);
  return namedPair(values, indices);
}

/** kthvalue (CompositeExplicitAutograd): empty outs, then kthvalue.values through the dispatcher. */
export function kthvalue(self: Tensor, k: number, dim: number, keepdim: boolean): ValuesIndices {
  const empty = (dt: typeof int64) => empty_memory_format.call([0], dt, null, self.device, null, null) as Tensor;
  return kthvalue_values.call(self, k, dim, keepdim, empty(self.dtype), empty(int64)) as ValuesIndices;
}
