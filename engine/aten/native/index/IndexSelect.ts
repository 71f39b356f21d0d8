// index_select / index_select.out (TensorAdvancedIndexing.cpp: index_select_out_cpu_, index_select_cpu_).
// The slices of self at `index` along dim, in index order. Unlike t[idx], negative indices are out of
// range here ("index out of range in self"). The result is contiguous (resize_output of an empty tensor).

import { IndexError, RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { assert_no_internal_overlap } from "../MemoryOverlap.js";
import { assert_no_overlap, forEachIndex, hasData, indexValues, isIntIndex, offsetAt, rawView } from "./common.js";

const REF = "aten/src/ATen/native/TensorAdvancedIndexing.cpp";

/** Every index in [0, dimSize), or PyTorch's error. */
function checkIndexRange(index: Float64Array, dimSize: number): void {
  for (const i of index) if (!(i >= 0 && i < dimSize)) throw new IndexError("index out of range in self");
}

/** The stub takes the index tensor (int64 or int32, a vector or a scalar): a kernel reads it where it lies and checks its range. */
export const index_select_stub = new DispatchStub<(result: Tensor, self: Tensor, dim: number, index: Tensor) => void>("index_select", REF);
index_select_stub.register("ts", (result, self, dim, indexTensor) => {
  const index = indexValues(indexTensor);
  checkIndexRange(index, self.dim() === 0 ? 1 : self.size(dim));
  const dst = rawView(result), src = rawView(self);
  const scalar = self.dim() === 0;
  const from: number[] = [];
  forEachIndex(result._impl.sizes(), (idx) => {
    from.length = 0;
    from.push(...idx);
    if (!scalar) from[dim] = index[idx[dim]];
    dst[offsetAt(result, idx)] = src[offsetAt(self, from)];
  });
});

export function index_select_out_cpu_(self: Tensor, dimArg: number, index: Tensor, result: Tensor): Tensor {
  const dim = maybe_wrap_dim(dimArg, self.dim());
  const numel = index.numel();
  if (index.dim() > 1) throw new IndexError("index_select(): Index is supposed to be a vector");
  if (!isIntIndex(index)) throw new RuntimeError("index_select(): Expected dtype int32 or int64 for index");
  if (self.dtype !== result.dtype) throw new RuntimeError("index_select(): self and result must have the same scalar type");
  assert_no_internal_overlap(result);
  assert_no_overlap(result, self);
  assert_no_overlap(result, index);
  const size = [...self._impl.sizes()];
  if (self.dim() > 0) size[dim] = numel;
  resize_output(result, size);
  if (!hasData(result)) return result;
  // an empty result is not written, but its indices are still checked
  if (result.numel() > 0) index_select_stub.call(self.device.type, result, self, dim, index);
  else checkIndexRange(indexValues(index), self.dim() === 0 ? 1 : self.size(dim));
  return result;
}

/** index_select_cpu_: at::empty({0}, self.options()) then the out= kernel. */
export function index_select_cpu_(self: Tensor, dim: number, index: Tensor): Tensor {
  return index_select_out_cpu_(self, dim, index, wrap(empty_impl([0], self.dtype, self.device)));
}
