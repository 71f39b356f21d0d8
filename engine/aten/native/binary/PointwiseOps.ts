// addcmul and addcdiv (aten/src/ATen/native/PointwiseOps.cpp, cpu/PointwiseOpsKernel.cpp):
// self + value * tensor1 * tensor2 and self + value * tensor1 / tensor2, with the three inputs promoted
// to one dtype (build_ternary_op). bfloat16 computes in float; half has no CPU kernel in 1.13.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isIntegralType } from "../../../c10/ScalarType.js";
import { fma, fmaf } from "../../../c10/util/FusedMultiplyAdd.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { DispatchStub } from "../DispatchStub.js";
import { cpu_kernel_ternary, type TernaryScalarOp } from "./TernaryLoop.js";
import { hasData, notImplementedFor, structuredOutput, toScalar, type StructuredMode } from "./common.js";
import { mulInteger } from "./ScalarMath.js";

const REF = "aten/src/ATen/native/cpu/PointwiseOpsKernel.cpp";

/** value.to<scalar_t>(): integers truncate the value, bool tests it. */
function valueAs(t: ScalarType, value: Scalar): number {
  const v = Number(value);
  if (t === ScalarType.Bool) return v !== 0 ? 1 : 0;
  if (isIntegralType(t, false)) return Math.trunc(v);
  return roundToScalarType(t, v);
}

/** gcc contracts `self + (value * t1) * t2` into one fused multiply-add (built with -mfma). */
function addcmulOp(t: ScalarType, value: Scalar): TernaryScalarOp {
  // PyTorch 1.13 has no CPU kernel for half or bool
  if (t === ScalarType.Bool || t === ScalarType.Half) throw notImplementedFor("addcmul_cpu_out", t);
  if (t === ScalarType.Double) {
    const v = Number(value);
    return { number: (s, a, b) => fma(v * a, b, s) };
  }
  if (t === ScalarType.Float || t === ScalarType.BFloat16) {
    const v = Math.fround(Number(value)); // bfloat16 computes in float: value.to<float>()
    return { number: (s, a, b) => fmaf(Math.fround(v * a), b, s) };
  }
  const v = valueAs(t, value);
  const big = BigInt(v);
  return { number: (s, a, b) => mulInteger(t, mulInteger(t, v, a), b) + s, bigint: (s, a, b) => s + big * a * b };
}

function addcdivOp(t: ScalarType, value: Scalar): TernaryScalarOp {
  if (t === ScalarType.Double) {
    const v = Number(value);
    return { number: (s, a, b) => s + (v * a) / b };
  }
  if (t === ScalarType.Float || t === ScalarType.BFloat16) {
    const v = Math.fround(Number(value));
    return { number: (s, a, b) => s + Math.fround(Math.fround(v * a) / b) };
  }
  throw notImplementedFor("addcdiv_cpu_out", t); // half: no 1.13 CPU kernel; integers are refused earlier
}

export const addcmul_stub = new DispatchStub<(iter: TensorIterator, value: Scalar) => void>("addcmul_stub", REF);
addcmul_stub.register("ts", (iter, value) => cpu_kernel_ternary(iter, addcmulOp(iter.commonDtype.scalarType, value)));
export const addcdiv_stub = new DispatchStub<(iter: TensorIterator, value: Scalar) => void>("addcdiv_stub", REF);
addcdiv_stub.register("ts", (iter, value) => cpu_kernel_ternary(iter, addcdivOp(iter.commonDtype.scalarType, value)));

function ternary(self: Tensor, tensor1: Tensor, tensor2: Tensor, out: Tensor | null, mode: StructuredMode): TensorIterator {
  return TensorIterator.build({ ...structuredOutput(self, out, mode), inputs: [self, tensor1, tensor2] });
}

/** addcmul.out, and through structured_delegate addcmul / addcmul_. */
export function addcmul_out(self: Tensor, tensor1: Tensor, tensor2: Tensor, value: Scalar | Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const v = toScalar(value);
  const iter = ternary(self, tensor1, tensor2, out, mode);
  if (hasData(iter)) addcmul_stub.call(iter.output.device.type, iter, v);
  return iter.output;
}

/** addcdiv.out, and through structured_delegate addcdiv / addcdiv_. */
export function addcdiv_out(self: Tensor, tensor1: Tensor, tensor2: Tensor, value: Scalar | Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const v = toScalar(value);
  if (isIntegralType(tensor1.dtype.scalarType, true) && isIntegralType(tensor2.dtype.scalarType, true)) {
    throw new RuntimeError(
      "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. " +
        "The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs " +
        "and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: " +
        "(input + value * tensor1 / tensor2), for all dtypes.",
    );
  }
  const iter = ternary(self, tensor1, tensor2, out, mode);
  if (hasData(iter)) addcdiv_stub.call(iter.output.device.type, iter, v);
  return iter.output;
}
