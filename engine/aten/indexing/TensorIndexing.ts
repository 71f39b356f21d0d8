// at::indexing (aten/src/ATen/TensorIndexing.h): how one index expression `self[i0, i1, ...]` becomes
// aten calls. Each index is a TensorIndex — None, Ellipsis, an integer, a bool, a Slice or a Tensor —
// handled dim by dim (handleDimInMultiDimIndexing): an integer is select, a slice is slice (skipped
// when it covers the whole dim), None is unsqueeze, a bool is unsqueeze plus a 1- or 0-element index,
// and tensors are collected and applied at the end in one index (get) or index_put_ (set).

import { IndexError, ValueError } from "../../c10/Errors.js";
import { ScalarType, int64, isIntegralType } from "../../c10/ScalarType.js";
import type { Tensor } from "../core/Tensor.js";
import { alias_default } from "../../generated/alias.js";
import { copy__default } from "../../generated/copy.js";
import { empty_names } from "../../generated/empty.js";
import { expand_default } from "../../generated/expand.js";
import { fill__Scalar, fill__Tensor } from "../../generated/fill.js";
import { index_Tensor } from "../../generated/index_op.js";
import { index_put__default } from "../../generated/index_put.js";
import { select_int } from "../../generated/select.js";
import { slice_Tensor } from "../../generated/slice.js";
import { unsqueeze_default } from "../../generated/unsqueeze.js";
import { view_default } from "../../generated/view.js";
import { item_default } from "../../generated/item.js";

/** tensor.item<T>() in C++: a dispatched aten::item (-> aten::_local_scalar_dense). */
const item = (t: Tensor): number | boolean => item_default.call(t) as number | boolean;

export const INDEX_MAX = 2 ** 63 - 1; // std::numeric_limits<int64_t>::max(), as near as a JS number gets
export const INDEX_MIN = -(2 ** 63);

/** at::indexing::Slice: missing bounds default by the step's sign, as Python's slice does. */
class SliceImpl {
  private readonly _brand = "Slice"; // a nominal type: a plain {start, stop, step} object is not a Slice
  readonly start: number;
  readonly stop: number;
  readonly step: number;
  constructor(start: number | null = null, stop: number | null = null, step: number | null = null) {
    if (step === 0) throw new ValueError("slice step cannot be zero");
    this.step = step ?? 1;
    this.start = start ?? (this.step < 0 ? INDEX_MAX : 0);
    this.stop = stop ?? (this.step < 0 ? INDEX_MIN : INDEX_MAX);
  }

  toString(): string {
    return `${this.start}:${this.stop}:${this.step}`;
  }
}

/** Slice(1, 3) or new Slice(1, 3): callable like Python's slice() and C++'s Slice, and an instanceof check. */
export type Slice = SliceImpl;
export const Slice = new Proxy(SliceImpl, {
  apply: (target, _this, args: (number | null)[]) => new target(...args),
}) as typeof SliceImpl & ((start?: number | null, stop?: number | null, step?: number | null) => SliceImpl);

/** at::indexing::EllipsisIndexType: the one Ellipsis value. */
export class EllipsisIndexType {
  private readonly _brand = "Ellipsis"; // a nominal type: any other object is not Ellipsis
  toString(): string {
    return "...";
  }
}
export const Ellipsis = new EllipsisIndexType();

export type TensorIndex =
  | { kind: "none" }
  | { kind: "ellipsis" }
  | { kind: "integer"; value: number }
  | { kind: "boolean"; value: boolean }
  | { kind: "slice"; slice: Slice }
  | { kind: "tensor"; tensor: Tensor };

const sameSizes = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

// ---- impl:: ----

/** applySlice: the slice op, or self when the slice covers the whole dim (unless disabled). */
export function applySlice(self: Tensor, dim: number, start: number, stop: number, step: number, disableSliceOptimization: boolean): Tensor {
  if (!(step > 0)) throw new ValueError("step must be greater than zero");
  const length = self._impl.sizes()[dim];
  if (!disableSliceOptimization && start === 0 && length === stop && step === 1) return self;
  return slice_Tensor.call(self, dim, start, stop, step) as Tensor;
}

/** applySelect: bounds checked here with the index expression's position (real_dim) in the text. */
export function applySelect(self: Tensor, dim: number, index: number, realDim: number): Tensor {
  const sizes = self._impl.sizes();
  if (index === 0 && dim === 0 && sizes.length === 0) {
    throw new IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  }
  const size = sizes[dim];
  if (!(size >= -index && size > index)) throw new IndexError(`index ${index} is out of bounds for dimension ${realDim} with size ${size}`);
  // a negative index is not normalized here: aten::select takes negative indices too
  return select_int.call(self, dim, index) as Tensor;
}

/** boolToIndexingTensor (CPU): True indexes the new size-1 dim as 0:, False as empty. */
function boolToIndexingTensor(self: Tensor, value: boolean): Tensor {
  if (value) {
    const t = empty_names.call([1], null, int64, null, self.device, null, null) as Tensor;
    return fill__Scalar.call(t, 0) as Tensor;
  }
  return empty_names.call([0], null, int64, null, self.device, null, null) as Tensor;
}

function recordTensorIndex(tensor: Tensor, outIndices: (Tensor | null)[], dim: { v: number }): void {
  while (outIndices.length < dim.v + 1) outIndices.push(null);
  outIndices[dim.v] = tensor;
  dim.v++;
}

/** count_specified_dimensions: every index but None, Ellipsis and bools uses a dim; a mask uses its ndim. */
export function count_specified_dimensions(indices: readonly TensorIndex[]): number {
  let count = 0;
  for (const obj of indices) {
    if (obj.kind === "tensor") {
      const st = obj.tensor.dtype.scalarType;
      count += st === ScalarType.Byte || st === ScalarType.Bool ? obj.tensor.dim() : 1;
    } else if (obj.kind !== "none" && obj.kind !== "ellipsis" && obj.kind !== "boolean") {
      count++;
    }
  }
  return count;
}

// ---- the functions Python indexing uses ----

/** slicePrefix1sSize: leading size-1 dims are dropped from a value before it is broadcast (NumPy compatibility). */
export function slicePrefix1sSize(sizes: readonly number[]): number[] {
  const first = sizes.findIndex((s) => s !== 1);
  return first < 0 ? [] : sizes.slice(first);
}

/** copy_to: dst.copy_(src) for equal sizes, fill_ for a 0-dim CPU src, else view + expand + copy_. */
export function copy_to(dst: Tensor, src: Tensor): void {
  if (sameSizes(dst._impl.sizes(), src._impl.sizes())) {
    copy__default.call(dst, src, false);
    return;
  }
  if (src.dim() === 0 && src.device.type === "cpu") {
    fill__Tensor.call(dst, src);
    return;
  }
  const srcView = view_default.call(src, slicePrefix1sSize(src._impl.sizes())) as Tensor;
  // expand_inplace(dst, src_view, "setitem"): expand only when the sizes differ
  const bSrc = sameSizes(srcView._impl.sizes(), dst._impl.sizes()) ? srcView : (expand_default.call(srcView, [...dst._impl.sizes()], false) as Tensor);
  copy__default.call(dst, bSrc, false);
}

/** handleDimInMultiDimIndexing: one index applied at dim `dim.v` of the result so far. */
export function handleDimInMultiDimIndexing(
  prev: Tensor, original: Tensor, index: TensorIndex, dim: { v: number }, specifiedDims: number, realDim: number,
  outIndices: (Tensor | null)[], disableSliceOptimization: boolean,
): Tensor {
  switch (index.kind) {
    case "integer":
      return applySelect(prev, dim.v, index.value, realDim);
    case "slice": {
      const s = index.slice;
      const result = applySlice(prev, dim.v, s.start, s.stop, s.step, disableSliceOptimization);
      dim.v++;
      return result;
    }
    case "ellipsis":
      dim.v += original.dim() - specifiedDims;
      return prev;
    case "none": {
      const result = unsqueeze_default.call(prev, dim.v) as Tensor;
      dim.v++;
      return result;
    }
    case "boolean": {
      const result = unsqueeze_default.call(prev, dim.v) as Tensor;
      recordTensorIndex(boolToIndexingTensor(result, index.value), outIndices, dim);
      return result;
    }
    case "tensor": {
      let result = prev;
      const t = index.tensor;
      const st = t.dtype.scalarType;
      if (t.dim() === 0 && isIntegralType(st, true)) {
        if (st !== ScalarType.Byte && st !== ScalarType.Bool) {
          result = applySelect(result, dim.v, Number(item(t)), realDim);
        } else {
          result = unsqueeze_default.call(result, dim.v) as Tensor;
          recordTensorIndex(boolToIndexingTensor(result, Number(item(t)) !== 0), outIndices, dim);
        }
      } else {
        recordTensorIndex(t, outIndices, dim);
      }
      return result;
    }
  }
}

/** applySlicing: every index in turn; tensor indices are collected into outIndices. */
export function applySlicing(self: Tensor, indices: readonly (TensorIndex | (() => TensorIndex))[], specifiedDims: number, outIndices: (Tensor | null)[], disableSliceOptimization: boolean): Tensor {
  const n = self.dim();
  if (specifiedDims > n) throw new IndexError(`too many indices for tensor of dimension ${n}`);
  const dim = { v: 0 };
  let result = self;
  indices.forEach((obj, i) => {
    // Python converts each index when it reaches it (a list becomes a tensor between the other ops)
    const index = typeof obj === "function" ? obj() : obj;
    result = handleDimInMultiDimIndexing(result, self, index, dim, specifiedDims, i, outIndices, disableSliceOptimization);
  });
  return result;
}

export const dispatch_index = (self: Tensor, indices: readonly (Tensor | null)[]): Tensor => index_Tensor.call(self, indices) as Tensor;

export const dispatch_index_put_ = (self: Tensor, indices: readonly (Tensor | null)[], value: Tensor): Tensor =>
  index_put__default.call(self, indices, value, false) as Tensor;

/** get_item: the C++ API's self.index({...}), mirroring THPVariable_getitem. */
export function get_item(self: Tensor, indices: readonly TensorIndex[], disableSliceOptimization = false): Tensor {
  if (indices.length === 1) {
    const index = indices[0];
    switch (index.kind) {
      case "integer": return applySelect(self, 0, index.value, 0);
      case "slice": return applySlice(self, 0, index.slice.start, index.slice.stop, index.slice.step, true);
      case "none": return unsqueeze_default.call(self, 0) as Tensor;
      case "ellipsis": return alias_default.call(self) as Tensor;
      case "boolean": {
        const result = unsqueeze_default.call(self, 0) as Tensor;
        return dispatch_index(result, [boolToIndexingTensor(result, index.value)]);
      }
    }
  }
  const tensorIndices: (Tensor | null)[] = [];
  let sliced = applySlicing(self, indices, count_specified_dimensions(indices), tensorIndices, disableSliceOptimization);
  if (tensorIndices.length === 0) {
    // ensure we return a shallow copy for things like x[...]
    if (sliced === self) sliced = alias_default.call(sliced) as Tensor;
    return sliced;
  }
  return dispatch_index(sliced, tensorIndices);
}

/** set_item: the C++ API's self.index_put_({...}, value), mirroring THPVariable_setitem for a tensor value. */
export function set_item(self: Tensor, indices: readonly TensorIndex[], value: Tensor, disableSliceOptimization = false): void {
  if (indices.length === 1) {
    const index = indices[0];
    switch (index.kind) {
      case "boolean":
        if (!index.value) return; // do nothing for false
        copy_to(unsqueeze_default.call(self, 0) as Tensor, value);
        return;
      case "ellipsis": copy_to(self, value); return;
      case "none": copy_to(unsqueeze_default.call(self, 0) as Tensor, value); return;
      case "integer": copy_to(applySelect(self, 0, index.value, 0), value); return;
      case "slice": {
        const s = index.slice;
        copy_to(applySlice(self, 0, s.start, s.stop, s.step, disableSliceOptimization), value);
        return;
      }
    }
  }
  setWithTensors(self, indices, count_specified_dimensions(indices), value, disableSliceOptimization);
}

/** The multi-index part of set_item / THPVariable_setitem: slicing, then copy_to or one index_put_. */
export function setWithTensors(
  self: Tensor, indices: readonly (TensorIndex | (() => TensorIndex))[], specifiedDims: number, value: Tensor, disableSliceOptimization: boolean,
): void {
  const tensorIndices: (Tensor | null)[] = [];
  const sliced = applySlicing(self, indices, specifiedDims, tensorIndices, disableSliceOptimization);
  if (tensorIndices.length === 0) {
    copy_to(sliced, value);
    return;
  }
  const valueSizes = value._impl.sizes();
  const stripped = slicePrefix1sSize(valueSizes);
  const valuesSliced = sameSizes(valueSizes, stripped) ? value : (view_default.call(value, stripped) as Tensor);
  dispatch_index_put_(sliced, tensorIndices, valuesSliced);
}

/** at::alias: a new tensor sharing self's storage, sizes and strides. */
export const alias = (self: Tensor): Tensor => alias_default.call(self) as Tensor;
