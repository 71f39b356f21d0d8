// median and nanmedian (aten/src/ATen/native/Sorting.cpp): all elements (median_cpu, a 0-d result; an
// empty input gives NaN) or along a dim with the index (median_with_indices_impl). The k-th element under
// the order (value, index), k = (n - 1) / 2 counting non-NaN elements for nanmedian, so ties resolve to a
// definite index; a NaN makes median return the first NaN. float16 and bool are not supported on CPU in
// 1.13. median has no Meta kernel in 1.13; nanmedian's (a Python meta function) checks nothing.

import { borrow } from "../../../c10/Dispose.js";
import { RuntimeError, IndexError } from "../../../c10/Errors.js";
import { ScalarType, int64 } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { dimMask, reducedShape, gather, writeAll } from "../reduce/ReduceUtils.js";
import { tensorTypeString } from "../shape/TensorTypeString.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { median_dim_values } from "../../../generated/median.js";
import { nanmedian_dim_values } from "../../../generated/nanmedian.js";
import { castTo, hasData, isNaNValue, emptyLike, notImplementedFor, namedPair, type Value, type ValuesIndices } from "./common.js";

/** median's AT_DISPATCH_ALL_TYPES_AND(BFloat16): no float16, no bool. */
const medianUnsupported = (st: ScalarType): boolean => st === ScalarType.Half || st === ScalarType.Bool;

/** Index (into g) of the k-th smallest under (value, index), NaN counted largest; or of the first NaN for median. */
function medianIndex(g: readonly Value[], ignoreNan: boolean): number {
  const n = g.length;
  const nans = g.filter(isNaNValue).length;
  if (!ignoreNan && nans > 0) return g.findIndex(isNaNValue);
  const k = Math.trunc((n - nans - 1) / 2);
  const order = g.map((_, i) => i).sort((i, j) => {
    const a = g[i], b = g[j];
    if (isNaNValue(a) !== isNaNValue(b)) return isNaNValue(a) ? 1 : -1;
    return a < b ? -1 : b < a ? 1 : i - j;
  });
  return order[k];
}

/** The median of all of self's elements (row-major) into the 0-d result: median_impl's selection. */
type MedianAllKernel = (result: Tensor, self: Tensor, ignoreNan: boolean) => void;
export const median_all_stub = new DispatchStub<MedianAllKernel>("median_impl", "aten/src/ATen/native/Sorting.cpp");
median_all_stub.register("ts", (result, self, ignoreNan) => {
  const g = gather(self, dimMask(null, self.dim()))[0];
  writeAll(result, [g[medianIndex(g, ignoreNan)]]);
});

/**
 * median_impl (median_cpu / nanmedian_cpu): a 0-d result; an empty input gives NaN cast to the dtype
 * (before the dtype dispatch, so any dtype). nanmedian's Meta kernel (a Python meta function in 1.13)
 * checks nothing.
 */
function medianAll(self: Tensor, ignoreNan: boolean): Tensor {
  const st = self.dtype.scalarType;
  const result = emptyLike(self, [], self.dtype);
  if (!hasData(result)) return result;
  if (self.numel() === 0) writeAll(result, [castTo(self.dtype, NaN)]);
  else if (medianUnsupported(st)) throw notImplementedFor("median_cpu", st);
  else median_all_stub.call(self.device.type, result, self, ignoreNan);
  return result;
}
export const median_cpu = (self: Tensor): Tensor => medianAll(self, false);
export const nanmedian_cpu = (self: Tensor): Tensor => medianAll(self, true);

type MedianKernel = (values: Tensor, indices: Tensor, self: Tensor, dim: number, ignoreNan: boolean) => void;
export const median_stub = new DispatchStub<MedianKernel>("median_with_indices", "aten/src/ATen/native/Sorting.cpp");
median_stub.register("ts", (values, indices, self, dim, ignoreNan) => {
  const groups = gather(self, dimMask([dim], self.dim()));
  const picks = groups.map((g) => medianIndex(g, ignoreNan));
  writeAll(values, groups.map((g, i) => g[picks[i]]));
  writeAll(indices, picks.map((p) => BigInt(p)));
});

/** median_with_indices_impl: checks, result shapes, then the k-th element of every lane. */
function medianDim(self: Tensor, dim: number, keepdim: boolean, values: Tensor, indices: Tensor, ignoreNan: boolean): ValuesIndices {
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  const shape = sizes.length === 0 ? [] : reducedShape(sizes, dimMask([d], sizes.length), keepdim);
  if (!hasData(self)) {
    // nanmedian.dim's Meta kernel (a Python meta function in 1.13): the result shapes, no checks
    resize_output(values, shape);
    resize_output(indices, shape);
    return namedPair(values, indices);
  }
  if (self.numel() === 0 && (sizes.length === 0 || sizes[d] === 0)) throw new IndexError(`median(): Expected reduction dim ${d} to have non-zero size.`);
  if (indices.dtype !== int64) {
    throw new RuntimeError(`Expected tensor for argument #1 'indices' to have scalar type Long; but got ${tensorTypeString(indices)} instead (while checking arguments for median)`);
  }
  if (values.dtype !== self.dtype) {
    throw new RuntimeError(`Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type ${tensorTypeString(values)} does not equal ${tensorTypeString(self)} (while checking arguments for median)`);
  }
  resize_output(values, shape);
  resize_output(indices, shape);
  const st = self.dtype.scalarType;
  // dim_apply needs one rank for all three: a 0-d input and non-kept outputs are unsqueezed (views the kernel writes through)
  const input = sizes.length === 0 ? (unsqueeze_default.call(self, 0) as Tensor) : self;
  const kept = keepdim && sizes.length > 0;
  const vals = kept ? values : (unsqueeze_default.call(values, d) as Tensor);
  const inds = kept ? indices : (unsqueeze_default.call(indices, d) as Tensor);
  if (medianUnsupported(st)) throw notImplementedFor("median_out", st);
  if (self.numel() > 0) median_stub.call(self.device.type, vals, inds, input, d, ignoreNan);
  // the unsqueezed views were the kernel's temporaries: they give up their shares (c10/Dispose.ts)
  for (const [view, of] of [[input, self], [vals, values], [inds, indices]]) if (view !== of) borrow(view._impl);
  return namedPair(values, indices);
}
export const median_out_cpu = (self: Tensor, dim: number, keepdim: boolean, values: Tensor, indices: Tensor): ValuesIndices =>
  medianDim(self, dim, keepdim, values, indices, false);
export const nanmedian_out_cpu = (self: Tensor, dim: number, keepdim: boolean, values: Tensor, indices: Tensor): ValuesIndices =>
  medianDim(self, dim, keepdim, values, indices, true);

/** median.dim / nanmedian.dim (CompositeExplicitAutograd): empty outs, then the .dim_values kernel through the dispatcher. */
const emptyOut = (self: Tensor, dt: typeof int64): Tensor => empty_memory_format.call([0], dt, null, self.device, null, null) as Tensor;
export const median = (self: Tensor, dim: number, keepdim: boolean): ValuesIndices =>
  median_dim_values.call(self, dim, keepdim, emptyOut(self, self.dtype), emptyOut(self, int64)) as ValuesIndices;
export const nanmedian = (self: Tensor, dim: number, keepdim: boolean): ValuesIndices =>
  nanmedian_dim_values.call(self, dim, keepdim, emptyOut(self, self.dtype), emptyOut(self, int64)) as ValuesIndices;
