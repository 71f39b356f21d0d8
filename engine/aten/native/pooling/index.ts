// Kernels of the pooling family (engine/ops/native_functions/pooling.yaml), re-exported into at::native
// (../index.ts) under the names the yaml's `dispatch:` entries use.

export { max_pool2d_with_indices_out_cpu, max_pool2d, max_pool1d, max_pool1d_with_indices } from "./MaxPool.js";
export { avg_pool2d_out_cpu, avg_pool1d } from "./AvgPool.js";
export { adaptive_avg_pool2d_symint, adaptive_avg_pool2d_out_cpu, adaptive_avg_pool2d_cpu, adaptive_avg_pool2d_meta, adaptive_max_pool2d_out_cpu } from "./AdaptivePool.js";
export { max_pool2d_with_indices_backward_out_cpu, avg_pool2d_backward_out_cpu, adaptive_avg_pool2d_backward_cpu, adaptive_max_pool2d_backward_out_cpu } from "./PoolBackward.js";
