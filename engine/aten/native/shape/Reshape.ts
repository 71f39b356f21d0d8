// reshape, _unsafe_view, flatten, unflatten, view_as (aten/src/ATen/native/TensorShape.cpp).
// reshape is a view when computeStride finds strides for the new shape (it calls _reshape_alias),
// otherwise a contiguous copy viewed in the new shape (clone, then _unsafe_view).

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { computeStride, infer_size, view } from "../TensorShape.js";
import { _reshape_alias_default } from "../../../generated/_reshape_alias.js";
import { _unsafe_view_default } from "../../../generated/_unsafe_view.js";
import { clone_default } from "../../../generated/clone.js";
import { reshape_default } from "../../../generated/reshape.js";
import { view_default } from "../../../generated/view.js";

const list = (xs: readonly number[]) => `[${xs.join(", ")}]`;

/** reshape_symint: a view if the strides allow it, else a contiguous copy. */
export function reshape_symint(self: Tensor, proposed_shape: readonly number[]): Tensor {
  const shape = infer_size(proposed_shape, self.numel());
  const stride = computeStride(self._impl.sizes(), self._impl.strides(), shape);
  if (stride !== null) return _reshape_alias_default.call(self, shape, stride) as Tensor;
  const copy = clone_default.call(self, "contiguous_format") as Tensor;
  return _unsafe_view_default.call(copy, shape) as Tensor;
}

/** _unsafe_view: view_impl on a tensor nobody else holds (reshape's fresh copy), so not recorded as a view. */
export function _unsafe_view(self: Tensor, size: readonly number[]): Tensor {
  return view(self, size);
}

/**
 * flatten: dims start_dim..end_dim become one. It calls at::native::reshape directly (no dispatch),
 * except for a 0-d tensor, which goes through self.reshape({1}).
 */
export function flatten(self: Tensor, start_dim: number, end_dim: number): Tensor {
  const dim = self.dim();
  const start = maybe_wrap_dim(start_dim, dim);
  const end = maybe_wrap_dim(end_dim, dim);
  if (start > end) throw new RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim");
  if (dim === 0) return reshape_default.call(self, [1]) as Tensor;
  if (start === end) return self;
  // the flattened dim's size is the product, not -1: infer_size would accept any value for a 0-size shape
  const sizes = self._impl.sizes();
  const sliceNumel = sizes.slice(start, end + 1).reduce((a, b) => a * b, 1);
  return reshape_symint(self, [...sizes.slice(0, start), sliceNumel, ...sizes.slice(end + 1)]);
}

/** unflatten: dim `dim` becomes `sizes` (one of them may be -1). */
export function unflatten(self: Tensor, dim: number, sizes: readonly number[]): Tensor {
  const d = maybe_wrap_dim(dim, self.dim());
  if (sizes.length === 0) throw new RuntimeError("unflatten: sizes must be non-empty");
  let inferred: number[];
  const dimSize = self.size(d);
  try {
    inferred = infer_size(sizes, dimSize);
  } catch (e) {
    // handle_unflatten_exception: say it in unflatten's terms
    const msg = (e as Error).message;
    if (!msg.includes("is invalid for input of size")) throw new RuntimeError(`unflatten got an unexpected error:\n${msg}`);
    throw new RuntimeError(`unflatten: Provided sizes ${list(sizes)} don't multiply up to the size of dim ${d} (${dimSize}) in the input tensor`);
  }
  const shape = [...self._impl.sizes()];
  shape.splice(d, 1, ...inferred);
  return view_default.call(self, shape) as Tensor;
}

/** view_as: self.view(other.sizes()). */
export function view_as(self: Tensor, other: Tensor): Tensor {
  return view_default.call(self, [...other._impl.sizes()]) as Tensor;
}
