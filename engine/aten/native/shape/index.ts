// Kernels of the shape operator family (engine/ops/native_functions/shape.yaml), re-exported into
// at::native (../index.ts) under the names the yaml's `dispatch:` entries use.

export { as_strided_tensorimpl, as_strided_tensorimpl_meta_symint, alias, _reshape_alias, detach, detach_ } from "./AsStrided.js";
export { reshape_symint, _unsafe_view, flatten, unflatten, view_as } from "./Reshape.js";
export { squeeze, unsqueeze } from "./Squeeze.js";
export { transpose, t, permute, movedim, moveaxis } from "./Permute.js";
export { expand, expand_as } from "./Expand.js";
export { narrow, select, slice, unfold, diagonal } from "./Slice.js";
export { split, split_with_sizes, chunk, unbind } from "./Split.js";
export { clone, contiguous } from "./Clone.js";
export { copy_ } from "./Copy.js";
export { _to_copy, to_dtype_layout, to_device, to_dtype, to_other } from "./TensorConversions.js";
export {
  zero_, zero_meta_, empty_strided_cpu, empty_strided_meta_symint, empty_like,
  zeros_symint, zeros_like, ones_like, full, full_like,
} from "./Factories.js";
