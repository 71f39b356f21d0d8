// AT_DISPATCH_* (aten/src/ATen/Dispatch.h): a CPU kernel is compiled for a list of dtypes, and any
// other dtype fails with `"<name>" not implemented for '<dtype>'`, the name being the one the kernel
// passes to the macro ("exp_vml_cpu", "clamp_scalar_cpu"). The unary kernels call AT_DISPATCH with
// the same name and list as PyTorch 1.13's, so the same dtypes are refused with the same text.
// Meta tensors never reach a kernel, so they accept every dtype, as in PyTorch.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";

const { Byte, Char, Short, Int, Long, Float, Double, Half, BFloat16, Bool } = ScalarType;

export const INTEGRAL_TYPES = [Byte, Char, Short, Int, Long] as const;
/** AT_DISPATCH_FLOATING_TYPES_AND(kBFloat16): the vml kernels (exp_vml_cpu, ...) and most float ones. */
export const FLOATING_TYPES_AND_BFLOAT16 = [Double, Float, BFloat16] as const;
/** AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf). */
export const FLOATING_TYPES_AND_HALF = [Double, Float, BFloat16, Half] as const;
/** AT_DISPATCH_ALL_TYPES_AND(kBFloat16): clamp's kernels. */
export const ALL_TYPES_AND_BFLOAT16 = [...INTEGRAL_TYPES, Double, Float, BFloat16] as const;
/** AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf): abs, neg, sign. */
export const ALL_TYPES_AND_HALF = [...ALL_TYPES_AND_BFLOAT16, Half] as const;
/** Every dtype Glasstorch has. */
export const ALL_TYPES_AND_BOOL = [...ALL_TYPES_AND_HALF, Bool] as const;

export function AT_DISPATCH(name: string, t: ScalarType, types: readonly ScalarType[]): void {
  if (!types.includes(t)) throw new RuntimeError(`"${name}" not implemented for '${scalarTypeName(t)}'`);
}
