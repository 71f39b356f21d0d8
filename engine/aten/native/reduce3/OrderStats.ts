// Order statistics (aten/src/ATen/native/Sorting.cpp, TensorCompare.cpp, cpu/SortingKernel.cpp,
// cpu/TensorCompareKernel.cpp, TopKImpl.h): median / nanmedian (all elements, or along a dim with
// indices), mode, topk (structured) and msort (sort along dim 0 through the dispatcher).
//
// median picks the k-th element under the order (value, index) (k = (n - 1) / 2, counting non-NaN
// elements for nanmedian), so ties resolve to a definite index; a NaN makes median return the first
// NaN. mode and topk hand comparators with unordered ties to libstdc++'s std::sort / std::nth_element,
// reproduced in StdAlgorithms.ts, so tie order and topk's unsorted order match PyTorch's CPU build.

import { RuntimeError, IndexError } from "../../../c10/Errors.js";
import { ScalarType, int64, scalarTypeName } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { dimMask, reducedShape, gather, writeAll, type StructuredMode } from "../reduce/ReduceUtils.js";
import { sort_default, sort_values } from "../../../generated/sort.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { median_dim_values } from "../../../generated/median.js";
import { nanmedian_dim_values } from "../../../generated/nanmedian.js";
import { lanes, castTo, hasData, isNaNValue, emptyLike, checkOutDtype, notImplementedFor, type Value } from "./common.js";
import { tensorTypeString } from "../shape/TensorTypeString.js";
import { stdSort, stdNthElement, stdPartialSort } from "./StdAlgorithms.js";

type ValuesIndices = [Tensor, Tensor] & { values: Tensor; indices: Tensor };
const named = (v: Tensor, i: Tensor): ValuesIndices => Object.assign([v, i] as [Tensor, Tensor], { values: v, indices: i }) as ValuesIndices;

/** The two-output structured registration passes one null for both outs: see reduce/ReduceOps.ts outsAndMode. */
const outsAndMode = (second: Tensor | null | StructuredMode, mode: StructuredMode): [Tensor | null, StructuredMode] =>
  typeof second === "string" ? [null, second] : [second, mode];

const notImplemented = notImplementedFor;
/** median's AT_DISPATCH_ALL_TYPES_AND(BFloat16): no float16, no bool. */
const medianUnsupported = (st: ScalarType): boolean => st === ScalarType.Half || st === ScalarType.Bool;

// ---- median, nanmedian ----

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
  else if (medianUnsupported(st)) throw notImplemented("median_cpu", st);
  else {
    const g = gather(self, dimMask(null, self.dim()))[0];
    writeAll(result, [g[medianIndex(g, ignoreNan)]]);
  }
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
    return named(values, indices);
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
  if (medianUnsupported(st)) throw notImplemented("median_out", st);
  if (self.numel() > 0) median_stub.call(self.device.type, vals, inds, input, d, ignoreNan);
  return named(values, indices);
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

// ---- mode ----

type ModeKernel = (values: Tensor, indices: Tensor, self: Tensor, dim: number) => void;
export const mode_stub = new DispatchStub<ModeKernel>("mode_stub", "aten/src/ATen/native/cpu/TensorCompareKernel.cpp");
mode_stub.register("ts", (values, indices, self, dim) => {
  const groups = gather(self, dimMask([dim], self.dim()));
  const vs: Value[] = [], is: Value[] = [];
  for (const g of groups) {
    const el = g.map((v, k) => [v, k] as [Value, number]);
    stdSort(el, 0, el.length, (x, y) => x[0] < y[0]);
    // the most frequent run of equal values; the first such run (smallest value) wins ties in frequency
    let mode: Value = 0, modei = 0, temp = 0, maxFreq = 0;
    for (let i = 0; i < el.length; i++) {
      temp++;
      if (i === el.length - 1 || el[i][0] !== el[i + 1][0]) {
        if (temp > maxFreq) [mode, modei, maxFreq] = [el[i][0], el[i][1], temp];
        temp = 0;
      }
    }
    vs.push(mode);
    is.push(BigInt(modei));
  }
  writeAll(values, vs);
  writeAll(indices, is);
});

/** mode_out (TensorCompare.cpp): dtype checks, the empty and 0-d shortcuts, then mode_stub. */
export function mode_out(self: Tensor, dim: number, keepdim: boolean, values: Tensor, indices: Tensor): ValuesIndices {
  if (self.device.type !== "cpu" && self.device.type !== "cuda") throw new RuntimeError(`mode only supports CPU AND CUDA device type, got: ${self.device.type}`);
  if (self.dtype !== values.dtype) {
    throw new RuntimeError(`expected scalar type '${scalarTypeName(self.dtype.scalarType)}' but got '${scalarTypeName(values.dtype.scalarType)}' for values output`);
  }
  if (indices.dtype !== int64) throw new RuntimeError(`expected scalar type 'Long' but got '${scalarTypeName(indices.dtype.scalarType)}' for indices output`);
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  if (self.numel() === 0) {
    if (sizes.length === 0 || sizes[d] === 0) throw new IndexError(`mode(): Expected reduction dim ${d} to have non-zero size.`);
    const shape = reducedShape(sizes, dimMask([d], sizes.length), keepdim);
    resize_output(values, shape);
    resize_output(indices, shape);
    return named(values, indices);
  }
  if (sizes.length === 0) {
    // _dimreduce_return_trivial_no_ident: a 0-d input is its own mode
    resize_output(values, []);
    resize_output(indices, []);
    if (hasData(values)) {
      writeAll(values, lanes(self, 0).groups[0]);
      writeAll(indices, [0n]);
    }
    return named(values, indices);
  }
  const shape = reducedShape(sizes, dimMask([d], sizes.length), keepdim);
  resize_output(values, shape);
  resize_output(indices, shape);
  if (hasData(values)) mode_stub.call(self.device.type, values, indices, self, d);
  return named(values, indices);
}

/** mode (CPU): fresh outs, then at::native::mode_out directly (no dispatcher call). */
export const mode = (self: Tensor, dim: number, keepdim: boolean): ValuesIndices =>
  mode_out(self, dim, keepdim, emptyLike(self, [0], self.dtype), emptyLike(self, [0], int64));

// ---- topk ----

type TopkKernel = (values: Tensor, indices: Tensor, self: Tensor, k: number, dim: number, largest: boolean, sorted: boolean) => void;
export const topk_stub = new DispatchStub<TopkKernel>("topk_stub", "aten/src/ATen/native/TopKImpl.h");
topk_stub.register("ts", (values, indices, self, k, dim, largest, sorted) => {
  const { groups } = lanes(self, dim);
  const outLanes = lanes(values, dim);
  const vs: Value[] = new Array(values.numel());
  const is: Value[] = new Array(values.numel());
  // NaN counts as the largest value (numpy's order)
  const big = (x: [Value, number], y: [Value, number]) => (isNaNValue(x[0]) && !isNaNValue(y[0])) || x[0] > y[0];
  const small = (x: [Value, number], y: [Value, number]) => (!isNaNValue(x[0]) && isNaNValue(y[0])) || x[0] < y[0];
  const comp = largest ? big : small;
  groups.forEach((g, li) => {
    const q = g.map((v, i) => [v, i] as [Value, number]);
    if (k * 64 <= q.length) {
      stdPartialSort(q, 0, k, q.length, comp); // few of many: a heap of the k best, sorted
    } else {
      stdNthElement(q, 0, k - 1, q.length, comp);
      if (sorted) stdSort(q, 0, k - 1, comp);
    }
    for (let j = 0; j < k; j++) {
      vs[outLanes.at(li, j)] = q[j][0];
      is[outLanes.at(li, j)] = BigInt(q[j][1]);
    }
  });
  writeAll(values, vs);
  writeAll(indices, is);
});

/** TORCH_PRECOMPUTE_META_FUNC(topk) + TORCH_IMPL_FUNC(topk_out_cpu). */
export function topk_out_cpu(self: Tensor, k: number, dim: number, largest: boolean, sorted: boolean,
  valuesArg: Tensor | null, indicesArg: Tensor | null | StructuredMode, modeArg: StructuredMode = "out"): ValuesIndices {
  const [indicesOut, mode] = outsAndMode(indicesArg, modeArg);
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  const sliceSize = sizes.length === 0 ? 1 : sizes[d];
  if (!(k >= 0 && k <= sliceSize)) throw new RuntimeError("selected index k out of range");
  const shape = [...sizes];
  if (shape.length > 0) shape[d] = k;
  let values: Tensor, indices: Tensor;
  if (mode === "out" && valuesArg !== null && indicesOut !== null) {
    checkOutDtype(valuesArg, self.dtype);
    checkOutDtype(indicesOut, int64);
    resize_output(valuesArg, shape);
    resize_output(indicesOut, shape);
    [values, indices] = [valuesArg, indicesOut];
  } else {
    values = emptyLike(self, shape, self.dtype);
    indices = emptyLike(self, shape, int64);
  }
  if (!hasData(values)) return named(values, indices);
  const st = self.dtype.scalarType;
  if (sizes.length > 0 && (st === ScalarType.Half || st === ScalarType.Bool)) throw notImplemented("topk_cpu", st);
  if (values.numel() === 0) return named(values, indices);
  if (sizes.length === 0) {
    writeAll(values, lanes(self, 0).groups[0]);
    writeAll(indices, [0n]);
  } else topk_stub.call(self.device.type, values, indices, self, k, d, largest, sorted);
  return named(values, indices);
}

// ---- msort ----

/** msort (CompositeImplicitAutograd): std::get<0>(at::sort(self, 0, false)). */
export const msort = (self: Tensor): Tensor => (sort_default.call(self, 0, false) as Tensor[])[0];
/** msort.out: at::sort_out(values, indices, self, 0, false) with a scratch int64 indices tensor. */
export function msort_out(self: Tensor, out: Tensor): Tensor {
  sort_values.call(self, 0, false, out, empty_memory_format.call([0], int64, null, self.device, null, null));
  return out;
}
