// squeeze_.dim (aten/src/ATen/native/TensorShape.cpp): the in-place squeeze matmul applies to the
// result of a vector-matrix product (unsqueeze(0).mm(...).squeeze_(0)). It restrides self in place
// (self.as_strided_ in PyTorch), dropping `dim` when its size is 1; squeeze_() drops every size-1 dim.

import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";

export function squeeze__dim(self: Tensor, dim: number): Tensor {
  const d = maybe_wrap_dim(dim, self.dim(), true);
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  if (self.dim() === 0 || sizes[d] !== 1) return self;
  sizes.splice(d, 1);
  strides.splice(d, 1);
  self._impl.set_sizes_and_strides(sizes, strides);
  return self;
}

/** squeeze_(): drops every dimension of size 1, in place. */
export function squeeze_(self: Tensor): Tensor {
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  const keep = sizes.map((s) => s !== 1);
  self._impl.set_sizes_and_strides(sizes.filter((_, i) => keep[i]), strides.filter((_, i) => keep[i]));
  return self;
}
