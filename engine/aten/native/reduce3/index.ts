// Kernels of the reduce3 family (engine/ops/native_functions/reduce3.yaml), re-exported into at::native
// (../index.ts) under the names the yaml's `dispatch:` entries use.

export {
  cumsum_out, cumprod_out, cummax, cummax_out, cummin, cummin_out, cummax_helper_cpu, cummin_helper_cpu,
  _logcumsumexp_cpu, _logcumsumexp_out_cpu, logcumsumexp, logcumsumexp_out,
} from "./Scans.js";
export {
  linalg_vector_norm_out, norm_out, norm_dtype_out, norm_Scalar, norm_ScalarOpt_dtype, frobenius_norm, frobenius_norm_dim, frobenius_norm_out,
} from "./Norms.js";
export { logsumexp, logsumexp_out } from "./LogSumExp.js";
export { pairwise_distance, cosine_similarity } from "./Distance.js";
export { median_cpu, nanmedian_cpu, median, nanmedian, median_out_cpu, nanmedian_out_cpu } from "./Median.js";
export { mode, mode_out } from "./Mode.js";
export { kthvalue, kthvalue_out_cpu } from "./Kthvalue.js";
export { topk_out_cpu } from "./TopK.js";
export { msort, msort_out } from "./MSort.js";
export { diff, diff_out } from "./Diff.js";
export { _bincount_cpu, histogram_histc_cpu, histogram_histc_cpu_out } from "./Counting.js";
export { _unique2_cpu, _unique_cpu, unique_dim_cpu, unique_dim_consecutive_cpu, unique_consecutive_cpu } from "./Unique.js";
export {
  searchsorted_cpu, searchsorted_out_cpu, searchsorted_scalar_cpu, bucketize_cpu, bucketize_out_cpu, bucketize_scalar_cpu,
} from "./Bucketize.js";
