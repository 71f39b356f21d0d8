// squeeze and unsqueeze (aten/src/ATen/native/TensorShape.cpp, inferSqueezeGeometry /
// inferUnsqueezeGeometry): views that drop or insert size-1 dims, through as_strided.

import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { as_strided_default } from "../../../generated/as_strided.js";

/** squeeze() drops every size-1 dim; squeeze(dim) only that one, if its size is 1. */
export function squeeze(self: Tensor, dim?: number): Tensor {
  const sizes = self._impl.sizes(), strides = self._impl.strides();
  if (dim === undefined) {
    const keep = sizes.map((_, d) => d).filter((d) => sizes[d] !== 1);
    return as_strided_default.call(self, keep.map((d) => sizes[d]), keep.map((d) => strides[d]), null) as Tensor;
  }
  const d = maybe_wrap_dim(dim, self.dim());
  if (self.dim() === 0 || sizes[d] !== 1) return as_strided_default.call(self, [...sizes], [...strides], null) as Tensor;
  return as_strided_default.call(self, sizes.filter((_, i) => i !== d), strides.filter((_, i) => i !== d), null) as Tensor;
}

/** unsqueeze(dim): a size-1 dim at `dim`, with the stride a contiguous tensor would give it there. */
export function unsqueeze(self: Tensor, dim: number): Tensor {
  const d = maybe_wrap_dim(dim, self.dim() + 1);
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  const newStride = d >= sizes.length ? 1 : sizes[d] * strides[d];
  sizes.splice(d, 0, 1);
  strides.splice(d, 0, newStride);
  return as_strided_default.call(self, sizes, strides, null) as Tensor;
}
