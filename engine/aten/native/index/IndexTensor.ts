// index.Tensor / index.Tensor_out (TensorAdvancedIndexing.cpp: TORCH_PRECOMPUTE_META_FUNC2(index, Tensor),
// TORCH_IMPL_FUNC(index_out); cpu/IndexKernel.cpp: index_kernel). self[indices] with index tensors:
// the meta part checks the count, builds the AdvancedIndex (make_info) and sizes the output the way
// TensorIterator would lay it out; index_stub copies each selected element.

import { IndexError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_strided_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { iterator_output_strides } from "../OutputLayout.js";
import { assert_no_internal_overlap } from "../MemoryOverlap.js";
import type { StructuredMode } from "../BinaryOps.js";
import { make_info, end_index, indexedOffset, type AdvancedIndex, type OptTensor } from "./AdvancedIndex.js";
import { assert_no_overlap, forEachIndex, hasData, offsetAt, rawView } from "./common.js";

const REF = "aten/src/ATen/native/cpu/IndexKernel.cpp";

/**
 * Walks the result (= src's shape): calls fn(resultIdx, srcOffset) for each element, the source
 * offset combining src's own strides (dims before/after) and the selected indices.
 */
export function forEachIndexed(info: AdvancedIndex, fn: (idx: readonly number[], srcOffset: number) => void): void {
  const { src, dimsBefore, indexShape } = info;
  const st = src._impl.strides();
  const base = src._impl.storage_offset();
  const nIdx = indexShape.length;
  forEachIndex(src._impl.sizes(), (idx) => {
    let off = base, k = 0;
    for (let d = 0; d < idx.length; d++) {
      if (d >= dimsBefore && d < dimsBefore + nIdx) k = k * indexShape[d - dimsBefore] + idx[d];
      else off += idx[d] * st[d];
    }
    fn(idx, off + indexedOffset(info, k));
  });
}

export const index_stub = new DispatchStub<(out: Tensor, info: AdvancedIndex) => void>("index_stub", REF);
index_stub.register("ts", (out, info) => {
  const dst = rawView(out), from = rawView(info.src);
  forEachIndexed(info, (idx, srcOff) => (dst[offsetAt(out, idx)] = from[srcOff]));
});

/** index.Tensor_out; the functional index.Tensor runs it with mode "functional" (structured_delegate). */
export function index_out(self: Tensor, indices: readonly OptTensor[], out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (indices.length > self.dim()) {
    throw new IndexError(`too many indices for tensor of dimension ${self.dim()} (got ${indices.length})`);
  }
  const given = mode === "out" ? out : null;
  if (given) {
    assert_no_internal_overlap(given);
    assert_no_overlap(given, self);
    for (const t of indices) if (t) assert_no_overlap(given, t);
  }
  const info = make_info(self, indices);
  const shape = [...info.src._impl.sizes()];
  let result: Tensor;
  if (given) {
    resize_output(given, shape);
    result = given;
  } else {
    const strides = iterator_output_strides(shape, [info.src, ...info.indexers]);
    // uninitialized, as at::empty: index_stub writes every element (or raises, and the result is dropped)
    result = wrap(empty_strided_impl(shape, strides, self.dtype, self.device, true));
  }
  if (hasData(result) && result.numel() > 0) index_stub.call(result.device.type, result, info);
  end_index(info);
  return result;
}
