// sub and rsub (aten/src/ATen/native/BinaryOps.cpp). PyTorch has no sub kernel of its own:
// sub_out checks its operands, then runs add_stub with -alpha (a - alpha * b).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { add_stub } from "../BinaryOps.js";
import { sub_Tensor, sub__Tensor } from "../../../generated/sub.js";
import { alpha_check, hasData, structuredOutput, toScalar, wrap, wrapScalar, type StructuredMode } from "./common.js";

/** sub_check (BinaryOps.h): bool tensors cannot be subtracted. */
export function sub_check(self: Tensor, other: Tensor): void {
  const a = self.dtype.scalarType === ScalarType.Bool, b = other.dtype.scalarType === ScalarType.Bool;
  if (a && b) {
    throw new RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
  }
  if (a || b) {
    throw new RuntimeError(
      "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
    );
  }
}

/** -alpha as the Scalar PyTorch negates: an integer stays an integer (so -0 is 0). */
function negate(alpha: Scalar): number {
  const a = Number(alpha);
  return a === 0 ? 0 : -a;
}

/** sub.out, and through structured_delegate sub.Tensor / sub_.Tensor. */
export function sub_out(self: Tensor, other: Tensor, alpha: Scalar | Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const a = toScalar(alpha);
  sub_check(self, other);
  const iter = TensorIterator.binary_op(self, other, structuredOutput(self, out, mode));
  alpha_check(iter.output.dtype.scalarType, a);
  if (hasData(iter)) add_stub.call(iter.output.device.type, iter, negate(a));
  return iter.output;
}

/** sub.Scalar (CompositeExplicitAutograd): the number becomes a wrapped tensor and sub.Tensor runs. */
export function sub(self: Tensor, other: Scalar | Tensor, alpha: Scalar | Tensor): Tensor {
  return sub_Tensor.call(self, wrapScalar(other), toScalar(alpha)) as Tensor;
}

/** sub_.Scalar (CompositeExplicitAutograd). */
export function sub_(self: Tensor, other: Scalar | Tensor, alpha: Scalar | Tensor): Tensor {
  return sub__Tensor.call(self, wrapScalar(other), toScalar(alpha)) as Tensor;
}

/**
 * rsub.Tensor (CPU, Meta) and rsub.Scalar (CompositeExplicitAutograd) share the name in PyTorch:
 * both are other - alpha * self, computed by sub.Tensor.
 */
export function rsub(self: Tensor, other: Tensor | Scalar, alpha: Scalar | Tensor): Tensor {
  return sub_Tensor.call(wrap(other), self, toScalar(alpha)) as Tensor;
}
