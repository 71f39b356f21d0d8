// transpose_ (aten/src/ATen/native/TensorShape.cpp, CompositeExplicitAutograd): swaps two dims' sizes and
// strides in place. unpad_sequence (torch.nn.utils.rnn) runs padded_sequences.transpose_(0, 1).
// PyTorch ends in self.as_strided_(sizes, strides); the geometry is set directly here, as unsqueeze_ does
// (engine/aten/native/norms/UnsqueezeInplace.ts), so the trace shows no aten::as_strided_ below it.

import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";

export function transpose_(self: Tensor, dim0: number, dim1: number): Tensor {
  const ndims = self.dim();
  dim0 = maybe_wrap_dim(dim0, ndims);
  dim1 = maybe_wrap_dim(dim1, ndims);
  if (dim0 === dim1) return self;
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  [sizes[dim0], sizes[dim1]] = [sizes[dim1], sizes[dim0]];
  [strides[dim0], strides[dim1]] = [strides[dim1], strides[dim0]];
  self._impl.set_sizes_and_strides(sizes, strides);
  return self;
}
