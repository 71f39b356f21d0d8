// copy_ (aten/src/ATen/native/Copy.cpp copy_impl): self's elements become src's, broadcast to
// self's shape and converted to self's dtype. The checks are TensorIterator's, in its order: memory
// overlap first (a write into an expanded tensor, or into memory src only partly shares, is refused),
// then shapes (src must broadcast to self; self is never resized).

import { NotImplementedError, RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { infer_size } from "../../ExpandUtils.js";
import { assert_no_internal_overlap, assert_no_partial_overlap } from "./MemoryLayout.js";
import { copy_stub } from "./CopyKernel.js";

const list = (xs: readonly number[]) => `[${xs.join(", ")}]`;
const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export function copy_(self: Tensor, src: Tensor, _non_blocking: boolean): Tensor {
  const dst = self._impl, s = src._impl;
  if (dst === s) return self;
  // copies into a meta tensor are accepted and ignored, like in-place ops on meta tensors
  if (self.is_meta) return self;
  if (src.is_meta) throw new NotImplementedError("Cannot copy out of meta tensor; no data!");
  // self and src are the same window onto the same data: nothing to do
  if (dst.storage === s.storage && dst.storage_offset() === s.storage_offset() && sameList(dst.strides(), s.strides()) &&
      sameList(dst.sizes(), s.sizes()) && dst.dtype === s.dtype) {
    return self;
  }
  assert_no_internal_overlap(dst);
  assert_no_partial_overlap(dst, s);
  const shape = infer_size(dst.sizes(), s.sizes());
  if (!sameList(shape, dst.sizes())) throw new RuntimeError(`output with shape ${list(dst.sizes())} doesn't match the broadcast shape ${list(shape)}`);
  if (dst.numel() === 0) return self;
  copy_stub.call(self.device.type, dst, s);
  return self;
}
