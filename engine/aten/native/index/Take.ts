// take / take.out (TensorAdvancedIndexing.cpp; cpu/IndexKernel.cpp: take_kernel). self seen as 1-D
// (row-major), read at each index; the result has index's shape. Negative indices count from the end.
// CPU only, as in PyTorch 1.13 (no Meta kernel: the dispatcher refuses meta tensors).

import { IndexError, RuntimeError } from "../../../c10/Errors.js";
import { offsetOf } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { assert_no_internal_overlap } from "../MemoryOverlap.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { assert_no_overlap, forEachIndex, indexValues, isLong, offsetAt, rawView, scalarTypeName } from "./common.js";

const REF = "aten/src/ATen/native/cpu/IndexKernel.cpp";

/** The kernel reads the (int64) index tensor itself; an index out of range raises at that element. */
export const take_stub = new DispatchStub<(out: Tensor, self: Tensor, index: Tensor) => void>("take_stub", REF);
take_stub.register("ts", (out, self, indexTensor) => {
  const index = indexValues(indexTensor);
  const dst = rawView(out), src = rawView(self);
  const numel = self.numel();
  let k = 0;
  forEachIndex(out._impl.sizes(), (idx) => {
    let i = index[k++];
    if (!(i < numel && i >= -numel)) throw new IndexError(`out of range: tried to access index ${i} on a tensor of ${numel} elements.`);
    if (i < 0) i += numel;
    dst[offsetAt(out, idx)] = src[offsetOf(self._impl, i)];
  });
});

export function take_out(self: Tensor, index: Tensor, out: Tensor): Tensor {
  if (!isLong(index)) throw new RuntimeError(`take(): Expected a long tensor for index, but got ${scalarTypeName(index.dtype.scalarType)}`);
  if (self.dtype !== out.dtype) {
    throw new RuntimeError(
      `take(): self and out expected to have the same dtype, but got self.dtype = ${scalarTypeName(self.dtype.scalarType)} and out.dtype = ${scalarTypeName(out.dtype.scalarType)}`,
    );
  }
  if (self.numel() === 0 && index.numel() !== 0) throw new IndexError("take(): tried to take from an empty tensor");
  assert_no_internal_overlap(out);
  assert_no_overlap(out, index);
  assert_no_overlap(out, self);
  resize_output(out, index._impl.sizes()); // TensorIterator resizes out to index's shape
  if (index.numel() === 0) return out;
  take_stub.call(self.device.type, out, self, index);
  return out;
}

/** take: at::empty(index.sizes(), self.options()) then take_out. */
export function take(self: Tensor, index: Tensor): Tensor {
  const out = empty_memory_format.call([...index._impl.sizes()], self.dtype, null, self.device, null, null) as Tensor;
  return take_out(self, index, out);
}
