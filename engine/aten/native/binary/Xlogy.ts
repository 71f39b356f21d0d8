// xlogy (aten/src/ATen/native/BinaryOps.cpp, cpu/BinaryOpsKernel.cpp xlogy_kernel): x * log(y), 0 where
// x == 0 (unless y is NaN). xlogy.OutTensor is structured over build_borrowing_binary_float_op (integer
// and bool inputs compute in the default float dtype); the Scalar overloads wrap their Scalar into a
// 0-dim tensor and call the Tensor op (CompositeExplicitAutograd).

import { ScalarType } from "../../../c10/ScalarType.js";
import type { Scalar, Tensor } from "../../core/Tensor.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_HALF } from "../unary/Dispatch.js";
import { xlogy_Tensor, xlogy__Tensor, xlogy_OutTensor, xlogy_Scalar_Self, xlogy_Scalar_Other, xlogy_OutScalar_Self, xlogy_OutScalar_Other } from "../../../generated/xlogy.js";
import { hasData, structuredOutput, wrap, noBigint, type StructuredMode } from "./common.js";

/** The result in scalar_t: float64 exact, float32 rounded, half and bfloat16 rounded from float. */
const stepOf = (t: ScalarType) =>
  t === ScalarType.Double ? (x: number) => x : t === ScalarType.Float ? Math.fround : (x: number) => roundToScalarType(t, x);

export const xlogy_stub = new DispatchStub<(iter: TensorIterator) => void>("xlogy_stub", "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp");
xlogy_stub.register("ts", (iter) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("xlogy_cpu", t, FLOATING_TYPES_AND_HALF);
  // std::log of a c10::Half is float's (Half * float is float arithmetic, rounded once at the end); c10's
  // BFloat16-math.h overloads std::log for BFloat16, so there log(y) rounds to bfloat16 first
  const r = stepOf(t), rlog = t === ScalarType.Double ? (x: number) => x : t === ScalarType.BFloat16 ? r : Math.fround;
  cpu_kernel_binary(iter, {
    number: (x, y) => (Number.isNaN(y) ? NaN : x === 0 ? 0 : r(x * rlog(Math.log(y)))),
    bigint: noBigint,
  });
});

/**
 * xlogy.OutTensor (structured; CPU, Meta), and xlogy.OutScalar_Self / OutScalar_Other (CompositeExplicitAutograd:
 * at::xlogy_out(out, wrapped_scalar_tensor(s), other)), which share PyTorch's kernel name: the structured
 * form always passes a mode, the composite ones never do.
 */
export function xlogy_out(self: Tensor | Scalar, other: Tensor | Scalar, out: Tensor | null, mode?: StructuredMode): Tensor {
  if (mode === undefined) return xlogy_OutTensor.call(wrap(self), wrap(other), out) as Tensor;
  const iter = TensorIterator.binary_float_op(self as Tensor, other as Tensor, structuredOutput(self as Tensor, out, mode));
  if (hasData(iter)) xlogy_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** xlogy.Scalar_Self / xlogy.Scalar_Other (CompositeExplicitAutograd): at::xlogy with the Scalar wrapped. */
export const xlogy = (self: Tensor | Scalar, other: Tensor | Scalar): Tensor => xlogy_Tensor.call(wrap(self), wrap(other)) as Tensor;

/** xlogy_.Scalar_Other (CompositeExplicitAutograd): at::xlogy_(self, wrapped_scalar_tensor(other)). */
export const xlogy_ = (self: Tensor, other: Scalar): Tensor => xlogy__Tensor.call(self, wrap(other)) as Tensor;

const isTensor = (v: unknown): v is Tensor => typeof v === "object" && v !== null && "_impl" in v;

/** special_xlogy (CompositeImplicitAutograd): at::xlogy, the overload the argument kinds pick. */
export function special_xlogy(self: Tensor | Scalar, other: Tensor | Scalar): Tensor {
  if (!isTensor(self)) return xlogy_Scalar_Self.call(self, other) as Tensor;
  if (!isTensor(other)) return xlogy_Scalar_Other.call(self, other) as Tensor;
  return xlogy_Tensor.call(self, other) as Tensor;
}

/** special_xlogy.out and its Scalar forms (CompositeImplicitAutograd): at::xlogy_out. */
export function special_xlogy_out(self: Tensor | Scalar, other: Tensor | Scalar, out: Tensor): Tensor {
  if (!isTensor(self)) return xlogy_OutScalar_Self.call(self, other, out) as Tensor;
  if (!isTensor(other)) return xlogy_OutScalar_Other.call(self, other, out) as Tensor;
  return xlogy_OutTensor.call(self, other, out) as Tensor;
}
