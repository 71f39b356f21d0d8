// clone (aten/src/ATen/native/TensorFactories.cpp) and contiguous (TensorProperties.cpp).
// clone keeps the layout by default (preserve_format): a dense tensor's strides are copied, others
// get dense strides in the same dim order; contiguous clones only when the tensor is not contiguous.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_strided_default } from "../../../generated/empty_strided.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { copy__default } from "../../../generated/copy.js";
import { clone_default } from "../../../generated/clone.js";
import { memoryFormatOf } from "./MemoryFormat.js";
import { is_non_overlapping_and_dense } from "./MemoryLayout.js";

export function clone(src: Tensor, memory_format: unknown): Tensor {
  const format = memoryFormatOf(memory_format) ?? "preserve_format";
  let self: Tensor;
  if (format === "preserve_format") {
    // a dense layout is copied stride for stride (cheaper than empty_like's stride inference)
    self = is_non_overlapping_and_dense(src._impl)
      ? (empty_strided_default.call([...src._impl.sizes()], [...src._impl.strides()], src.dtype, null, src.device, null) as Tensor)
      : (empty_like_default.call(src, null, null, null, null, null) as Tensor);
  } else {
    self = empty_like_default.call(src, src.dtype, null, src.device, null, format) as Tensor;
  }
  copy__default.call(self, src, false);
  return self;
}

/** contiguous: self if it already is; otherwise a row-major copy. */
export function contiguous(self: Tensor, memory_format: unknown): Tensor {
  const format = memoryFormatOf(memory_format) ?? "contiguous_format";
  if (self.is_contiguous()) return self;
  if (format === "preserve_format") throw new RuntimeError("preserve memory format is unsupported by the contiguous operator");
  return clone_default.call(self, format) as Tensor;
}
