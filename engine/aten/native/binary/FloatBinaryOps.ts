// atan2, hypot and copysign (aten/src/ATen/native/BinaryOps.cpp, cpu/BinaryOpsKernel.cpp): the
// C library's functions elementwise. atan2 and copysign promote integers to the default float dtype;
// hypot does not, and has no integer kernel.

import type { Tensor, Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import { copysign_Tensor, copysign__Tensor, copysign_out as copysign_out_op } from "../../../generated/copysign.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { hasData, notImplementedFor, requireFloating, structuredOutput, wrapScalar, noBigint, type StructuredMode } from "./common.js";
import { copysign as std_copysign, hypot, hypotf } from "./ScalarMath.js";

const REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";

/** AT_DISPATCH_FLOATING_TYPES_AND(kBFloat16, ...): atan2 and hypot have no half kernel in 1.13. */
function requireFloatingNotHalf(name: string, t: ScalarType): void {
  if (t === ScalarType.Half) throw notImplementedFor(name, t);
  requireFloating(name, t);
}

export const atan2_stub = new DispatchStub<(iter: TensorIterator) => void>("atan2_stub", REF);
atan2_stub.register("ts", (iter) => {
  requireFloatingNotHalf("atan2_cpu", iter.commonDtype.scalarType);
  cpu_kernel_binary(iter, { number: Math.atan2, bigint: noBigint });
});

export const hypot_stub = new DispatchStub<(iter: TensorIterator) => void>("hypot_stub", REF);
hypot_stub.register("ts", (iter) => {
  const t = iter.commonDtype.scalarType;
  requireFloatingNotHalf("hypot_cpu", t);
  cpu_kernel_binary(iter, { number: t === ScalarType.Double ? hypot : hypotf, bigint: noBigint });
});

export const copysign_stub = new DispatchStub<(iter: TensorIterator) => void>("copysign_stub", REF);
copysign_stub.register("ts", (iter) => {
  requireFloating("copysign_cpu", iter.commonDtype.scalarType);
  cpu_kernel_binary(iter, { number: std_copysign, bigint: noBigint });
});

/** atan2.out, and through structured_delegate atan2 / atan2_. */
export function atan2_out(self: Tensor, other: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = TensorIterator.binary_float_op(self, other, structuredOutput(self, out, mode));
  if (hasData(iter)) atan2_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** hypot.out: build_borrowing_binary_op, so integer inputs stay integer (and the kernel refuses them). */
export function hypot_out(self: Tensor, other: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = TensorIterator.binary_op(self, other, structuredOutput(self, out, mode));
  if (hasData(iter)) hypot_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/**
 * copysign.out (structured; CPU, Meta) and copysign.Scalar_out (CompositeExplicitAutograd) share
 * PyTorch's name. The structured forms always pass a mode; the composite one never does.
 */
export function copysign_out(self: Tensor, other: Tensor | Scalar, out: Tensor | null, mode?: StructuredMode): Tensor {
  if (mode === undefined) return copysign_out_op.call(self, wrapScalar(other), out) as Tensor;
  const iter = TensorIterator.binary_float_op(self, other as Tensor, structuredOutput(self, out, mode));
  if (hasData(iter)) copysign_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** copysign.Scalar (CompositeExplicitAutograd). */
export function copysign(self: Tensor, other: Scalar | Tensor): Tensor {
  return copysign_Tensor.call(self, wrapScalar(other)) as Tensor;
}

/** copysign_.Scalar (CompositeExplicitAutograd). */
export function copysign_(self: Tensor, other: Scalar | Tensor): Tensor {
  return copysign__Tensor.call(self, wrapScalar(other)) as Tensor;
}
