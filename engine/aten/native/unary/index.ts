// Kernels of the unary operator family, re-exported into at::native (../index.ts): every name
// engine/ops/native_functions/unary.yaml puts in a `dispatch:` entry.

export {
  exp_out, exp2_out, expm1_out, log_out, log2_out, log10_out, log1p_out, sqrt_out, rsqrt_out, reciprocal_out,
  sin_out, cos_out, tan_out, asin_out, acos_out, atan_out, sinh_out, cosh_out, tanh_out, sigmoid_out,
  erf_out, erfc_out, erfinv_out, asinh_out, acosh_out, atanh_out, lgamma_out, digamma_out, polygamma_out, frac_out, bitwise_not_out, sign_out, sgn_out, neg_out,
  floor_out, ceil_out, round_out, trunc_out, round_decimals_out,
  abs_out, logical_not_out, nan_to_num_out, logit, logit_, logit_out,
} from "./UnaryOps.js";
export { abs, abs_, logical_not, logical_not_, nan_to_num, nan_to_num_, polygamma_ } from "./Composites.js";
export { isnan, isinf, isfinite } from "./TensorCompare.js";
export { square, square_, square_out } from "./Square.js";
export { clamp_out, clamp_min_out, clamp_max_out, clamp_Tensor_out, clamp_min_Tensor_out, clamp_max_Tensor_out } from "./Clamp.js";
export {
  negative, negative_, negative_out, absolute, absolute_, absolute_out, arcsin, arcsin_, arcsin_out,
  arccos, arccos_, arccos_out, arctan, arctan_, arctan_out, fix, fix_, fix_out, clip, clip_, clip_out,
} from "./Aliases.js";
