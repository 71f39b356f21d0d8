// masked_select / masked_select.out (TensorAdvancedIndexing.cpp: masked_select_out_impl_cpu). The
// elements of self where the (broadcast) mask is true, as a 1-D tensor in row-major order of the
// broadcast shape. CPU only in PyTorch 1.13: the result's length depends on the data.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { infer_size } from "../../ExpandUtils.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { assert_no_internal_overlap } from "../MemoryOverlap.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { sum_default } from "../../../generated/sum.js";
import { item_default } from "../../../generated/item.js";
import { assert_no_overlap, elements, forEachIndex, offsetAt, rawView, restride } from "./common.js";

const REF = "aten/src/ATen/native/cpu/IndexKernel.cpp";

const broadcastTo = (t: Tensor, shape: readonly number[]): Tensor => {
  const s = t._impl.sizes(), st = t._impl.strides();
  const off = shape.length - s.length;
  return restride(t, shape, shape.map((n, i) => (i < off || s[i - off] !== n ? 0 : st[i - off])));
};

export const masked_select_stub = new DispatchStub<(result: Tensor, self: Tensor, mask: Tensor) => void>("masked_select_serial_stub", REF);
masked_select_stub.register("ts", (result, self, mask) => {
  const dst = rawView(result), src = rawView(self), m = elements(mask);
  const base = result._impl.storage_offset(), stride = result._impl.strides()[0];
  const isBool = mask.dtype.scalarType === ScalarType.Bool;
  let k = 0;
  forEachIndex(self._impl.sizes(), (idx) => {
    const v = m.get(offsetAt(mask, idx));
    if (!isBool && (v < 0 || v > 1)) throw new RuntimeError("Mask tensor can take 0 and 1 values only");
    if (v) dst[base + stride * k++] = src[offsetAt(self, idx)];
  });
});

export function masked_select_out_cpu(self: Tensor, mask: Tensor, result: Tensor): Tensor {
  const mt = mask.dtype.scalarType;
  if (mt !== ScalarType.Byte && mt !== ScalarType.Bool) throw new RuntimeError("masked_select: expected BoolTensor or ByteTensor for mask");
  if (self.dtype !== result.dtype) throw new RuntimeError("masked_select(): self and result must have the same scalar type");
  assert_no_internal_overlap(result);
  assert_no_overlap(result, self);
  assert_no_overlap(result, mask);
  if (mt === ScalarType.Byte) {
    process.emitWarning("masked_select received a mask with dtype torch.uint8, this behavior is now deprecated,please use a mask with dtype torch.bool instead.", "UserWarning");
  }
  // expand_outplace(mask, self)
  const shape = infer_size(mask._impl.sizes(), self._impl.sizes());
  const bMask = broadcastTo(mask, shape), bSelf = broadcastTo(self, shape);
  // int64_t numel = _mask->sum().item().toLong(), as PyTorch counts (through the dispatcher: the trace shows it)
  const numel = Number(item_default.call(sum_default.call(bMask, null)));
  resize_output(result, [numel]);
  if (numel === 0) return result;
  masked_select_stub.call(self.device.type, result, bSelf, bMask);
  return result;
}

/** masked_select_cpu: at::empty({0}, self.options()) then the out= kernel. */
export function masked_select_cpu(self: Tensor, mask: Tensor): Tensor {
  const result = empty_memory_format.call([0], self.dtype, null, self.device, null, null) as Tensor;
  return masked_select_out_cpu(self, mask, result);
}
