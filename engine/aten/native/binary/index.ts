// Kernels of the binary operator family, re-exported into at::native (../index.ts): every name that
// engine/ops/native_functions/binary.yaml puts in a `dispatch:` entry.
export { sub_out, sub, sub_, rsub } from "./Sub.js";
export { div_out, div_out_mode, div, div_, true_divide, true_divide_, true_divide_out, floor_divide, floor_divide_, floor_divide_out } from "./Div.js";
export { remainder_out, remainder, remainder_, fmod_out, fmod, fmod_ } from "./Remainder.js";
export { pow_Tensor_Tensor_out, pow_Tensor_Scalar_out, pow_Scalar_out } from "./Pow.js";
export { atan2_out, hypot_out, copysign_out, copysign, copysign_ } from "./FloatBinaryOps.js";
export { maximum_out, minimum_out, fmax_out, fmin_out } from "./MaxMin.js";
export {
  eq_Tensor_out, eq_Scalar_out, ne_Tensor_out, ne_Scalar_out, lt_Tensor_out, lt_Scalar_out,
  le_Tensor_out, le_Scalar_out, gt_Tensor_out, gt_Scalar_out, ge_Tensor_out, ge_Scalar_out,
} from "./Compare.js";
export { isclose, allclose, cpu_equal } from "./Close.js";
export { logical_and, logical_and_, logical_and_out, logical_or, logical_or_, logical_or_out, logical_xor, logical_xor_, logical_xor_out } from "./Logical.js";
export { bitwise_and, bitwise_and_, bitwise_and_out, bitwise_or, bitwise_or_, bitwise_or_out, bitwise_xor, bitwise_xor_, bitwise_xor_out } from "./Bitwise.js";
export { lerp_Scalar, lerp_Tensor } from "./Lerp.js";
export { addcmul_out, addcdiv_out } from "./PointwiseOps.js";
export { xlogy_out, xlogy, xlogy_, special_xlogy, special_xlogy_out } from "./Xlogy.js";
