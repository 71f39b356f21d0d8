// Kernels of the normalization family (engine/ops/native_functions/normalization.yaml), re-exported into
// at::native (../index.ts) under the names the yaml's `dispatch:` entries use.

export { batch_norm, _batch_norm_impl_index, batch_norm_cpu, batch_norm_meta, instance_norm } from "./BatchNorm.js";
export { layer_norm, layer_norm_cpu, math_native_layer_norm } from "./LayerNorm.js";
export { group_norm, native_group_norm, math_group_norm } from "./GroupNorm.js";
export { batch_norm_backward_cpu, layer_norm_backward_cpu, native_group_norm_backward } from "./NormBackward.js";
