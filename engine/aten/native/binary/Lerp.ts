// lerp (aten/src/ATen/native/Lerp.cpp, Lerp.h, cpu/LerpKernel.cpp): self + weight * (end - self),
// written from whichever end is nearer the weight for accuracy. PyTorch 1.13 has CPU kernels for
// float, double and bfloat16 only, and requires self, end (and a weight tensor) to share one dtype.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import { fma, fmaf } from "../../../c10/util/FusedMultiplyAdd.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import { cpu_kernel_ternary } from "./TernaryLoop.js";
import { hasData, notImplementedFor, structuredOutput, toScalar, noBigint, type StructuredMode } from "./common.js";
import { typeMetaName } from "./TypeMeta.js";

const REF = "aten/src/ATen/native/cpu/LerpKernel.cpp";

/**
 * lerp (Lerp.h) as PyTorch 1.13 computes it: a weight below 0.5 counts from self, any other from end
 * (no abs: a negative weight counts from self too). gcc builds the AVX2 kernels with -mfma and
 * contracts `self + weight * diff` and `end - diff * (1 - weight)` into fused multiply-adds: one
 * rounding each. bfloat16 computes in float (its opmath type) with a float weight.
 */
function lerpFn(t: ScalarType): (self: number, end: number, weight: number) => number {
  if (t === ScalarType.Double) {
    return (self, end, w) => {
      const diff = end - self;
      return w < 0.5 ? fma(w, diff, self) : fma(-diff, 1 - w, end);
    };
  }
  return (self, end, w) => {
    const diff = Math.fround(end - self);
    return w < 0.5 ? fmaf(w, diff, self) : fmaf(-diff, Math.fround(1 - w), end);
  };
}

function requireLerpType(name: string, t: ScalarType): void {
  if (t !== ScalarType.Float && t !== ScalarType.Double && t !== ScalarType.BFloat16) throw notImplementedFor(name, t);
}

export const lerp_kernel_scalar_weight = new DispatchStub<(iter: TensorIterator, weight: Scalar) => void>("lerp_kernel_scalar_weight", REF);
lerp_kernel_scalar_weight.register("ts", (iter, weight) => {
  const t = iter.commonDtype.scalarType;
  requireLerpType("lerp_kernel_scalar", t);
  const w = t === ScalarType.Double ? Number(weight) : Math.fround(Number(weight)); // weight.to<opmath_t>()
  const f = lerpFn(t);
  cpu_kernel_binary(iter, { number: (self, end) => f(self, end, w), bigint: noBigint });
});

export const lerp_kernel_tensor_weight = new DispatchStub<(iter: TensorIterator) => void>("lerp_kernel_tensor_weight", REF);
lerp_kernel_tensor_weight.register("ts", (iter) => {
  const t = iter.commonDtype.scalarType;
  requireLerpType("lerp_kernel_tensor", t);
  cpu_kernel_ternary(iter, { number: lerpFn(t) });
});

function checkSameDtype(self: Tensor, other: Tensor, name: string): void {
  if (self.dtype !== other.dtype) {
    throw new RuntimeError(`expected dtype ${typeMetaName(self.dtype.scalarType)} for \`${name}\` but got dtype ${typeMetaName(other.dtype.scalarType)}`);
  }
}

/** lerp.Scalar_out, and through structured_delegate lerp.Scalar / lerp_.Scalar. */
export function lerp_Scalar(self: Tensor, end: Tensor, weight: Scalar | Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const w = toScalar(weight);
  checkSameDtype(self, end, "end");
  const iter = TensorIterator.binary_op(self, end, structuredOutput(self, out, mode));
  if (hasData(iter)) lerp_kernel_scalar_weight.call(iter.output.device.type, iter, w);
  return iter.output;
}

/**
 * lerp.Tensor_out, and through structured_delegate lerp.Tensor / lerp_.Tensor. Its iterator is
 * TensorIteratorConfig's default: no type promotion, and every operand (out= too) of one dtype.
 */
export function lerp_Tensor(self: Tensor, end: Tensor, weight: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  checkSameDtype(self, end, "end");
  checkSameDtype(self, weight, "weight");
  const where = structuredOutput(self, out, mode);
  if (where.out && where.out.dtype !== self.dtype) {
    throw new RuntimeError(`Found dtype ${scalarTypeName(where.out.dtype.scalarType)} but expected ${scalarTypeName(self.dtype.scalarType)}`);
  }
  const iter = TensorIterator.build({ ...where, inputs: [self, end, weight] });
  if (hasData(iter)) lerp_kernel_tensor_weight.call(iter.output.device.type, iter);
  return iter.output;
}
