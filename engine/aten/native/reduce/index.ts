// Kernels of the reduction family, re-exported into at::native (../index.ts): every name
// engine/ops/native_functions/reduce.yaml puts in a `dispatch:` entry.

export {
  mean, mean_out, prod, prod_out, amax_out, amin_out, max, min, max_out, min_out,
  argmax_out, argmin_out, all_out, any_out, all_all_out, any_all_out,
} from "./ReduceOps.js";
export * from "./Statistics.js";
