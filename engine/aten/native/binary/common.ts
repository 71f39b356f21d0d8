// Small pieces every kernel of the binary family uses: which tensor a structured kernel writes,
// Scalars turned into wrapped-number tensors, and AT_DISPATCH's "not implemented for" error.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName, isFloatingType } from "../../../c10/ScalarType.js";
import { wrapped_scalar_tensor } from "../../core/OpRegistration.js";
import { Tensor, type Scalar } from "../../core/Tensor.js";
import type { TensorIterator } from "../TensorIterator.js";
import type { StructuredMode } from "../BinaryOps.js";

export type { StructuredMode };

/** What a structured kernel's TensorIterator writes to: null allocates (functional), self (in-place), or out. */
export function structuredOutput(self: Tensor, out: Tensor | null, mode: StructuredMode): { out: Tensor | null; isInplace: boolean } {
  if (mode === "functional") return { out: null, isInplace: false };
  if (mode === "inplace") return { out: self, isInplace: true };
  return { out, isInplace: false };
}

/** Meta tensors stop after the iterator: it has computed the output's shape and dtype, which is all they hold. */
export const hasData = (iter: TensorIterator): boolean => iter.output._impl.storage.hasData();

/** A Scalar argument as a JS value: a binding may hand over a 0-dim tensor where the schema says Scalar (item()). */
export function toScalar(v: Scalar | Tensor): Scalar {
  return v instanceof Tensor ? v.item() : v;
}

/** wrapped_scalar_tensor (ScalarOps.h): a number becomes a 0-dim CPU tensor that promotes like a Python scalar. */
export function wrapScalar(v: Scalar | Tensor): Tensor {
  return wrapped_scalar_tensor(toScalar(v)) as Tensor;
}

/** For kernels that serve a Tensor overload and a Scalar one under one name: wrap numbers, keep tensors. */
export function wrap(v: Scalar | Tensor): Tensor {
  return v instanceof Tensor ? v : wrapScalar(v);
}

/** AT_DISPATCH_* on a dtype the kernel was not compiled for (Dispatch.h). */
export function notImplementedFor(name: string, t: ScalarType): RuntimeError {
  return new RuntimeError(`"${name}" not implemented for '${scalarTypeName(t)}'`);
}

/** AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, ...): the kernel exists for floating dtypes only. */
export function requireFloating(name: string, t: ScalarType): void {
  if (!isFloatingType(t)) throw notImplementedFor(name, t);
}

/** alpha_check (BinaryOps.h): alpha must fit the result's kind. */
export function alpha_check(t: ScalarType, alpha: Scalar): void {
  if (typeof alpha === "boolean" && t !== ScalarType.Bool) throw new RuntimeError("Boolean alpha only supported for Boolean results.");
  if (!isFloatingType(t) && typeof alpha === "number" && !Number.isInteger(alpha)) {
    throw new RuntimeError("For integral input tensors, argument alpha must not be a floating point number.");
  }
}

/** The rounding of one arithmetic step in the kernel's scalar type: float steps round to float, double steps don't. */
export function stepRounding(t: ScalarType): (x: number) => number {
  return t === ScalarType.Double ? (x) => x : Math.fround;
}

/** A bigint op for kernels that never see int64 (their iterator promotes integers to float). */
export const noBigint = (): bigint => {
  throw new Error("unreachable: this kernel computes in floating point");
};
