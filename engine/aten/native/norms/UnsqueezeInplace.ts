// unsqueeze_ (aten/src/ATen/native/TensorShape.cpp, CompositeExplicitAutograd): inserts a size-1 dim in
// place (self.as_strided_ with inferUnsqueezeGeometry's sizes and strides). nuclear_norm(keepdim=True)
// ends in result.unsqueeze_(-1).

import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";

export function unsqueeze_(self: Tensor, dim: number): Tensor {
  const d = maybe_wrap_dim(dim, self.dim() + 1);
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  // inferUnsqueezeGeometry: the new dim's stride is size * stride of the dim after it (1 at the end)
  const newStride = d >= self.dim() ? 1 : sizes[d] * strides[d];
  sizes.splice(d, 0, 1);
  strides.splice(d, 0, newStride);
  self._impl.set_sizes_and_strides(sizes, strides);
  return self;
}
