// add and mul (aten/src/ATen/native/BinaryOps.cpp, cpu/BinaryOpsKernel.cpp).
// Each has three forms generated from one structured kernel in PyTorch: functional (add),
// in-place (add_) and out= (add.out). Here they share one function that builds the TensorIterator.

import { RuntimeError } from "../../c10/Errors.js";
import { ScalarType, isFloatingType } from "../../c10/ScalarType.js";
import { fma, fmaf } from "../../c10/util/FusedMultiplyAdd.js";
import type { Tensor, Scalar } from "../core/Tensor.js";
import { TensorIterator } from "./TensorIterator.js";
import { cpu_kernel_binary } from "./Loops.js";
import { DispatchStub } from "./DispatchStub.js";

/** alpha_check: alpha must fit the result's kind. */
function alpha_check(t: ScalarType, alpha: Scalar): void {
  if (typeof alpha === "boolean" && t !== ScalarType.Bool) throw new RuntimeError("Boolean alpha only supported for Boolean results.");
  if (!isFloatingType(t) && typeof alpha === "number" && !Number.isInteger(alpha)) {
    throw new RuntimeError("For integral input tensors, argument alpha must not be a floating point number.");
  }
}

/** a + alpha * b, rounded once where PyTorch's kernel uses fmadd (float, double, and half/bfloat16 via float). */
function addOp(t: ScalarType, alphaScalar: Scalar) {
  const alpha = Number(alphaScalar);
  if (t === ScalarType.Double) return { number: (a: number, b: number) => fma(b, alpha, a), bigint: () => 0n };
  if (isFloatingType(t)) {
    const alpha32 = Math.fround(alpha);
    return { number: (a: number, b: number) => fmaf(b, alpha32, a), bigint: () => 0n };
  }
  if (t === ScalarType.Bool) return { number: (a: number, b: number) => (a || (b && alpha) ? 1 : 0), bigint: () => 0n };
  const bigAlpha = BigInt(alpha);
  return { number: (a: number, b: number) => a + alpha * b, bigint: (a: bigint, b: bigint) => a + bigAlpha * b };
}

const mulOp = (t: ScalarType) =>
  t === ScalarType.Bool
    ? { number: (a: number, b: number) => (a && b ? 1 : 0), bigint: () => 0n }
    : { number: (a: number, b: number) => a * b, bigint: (a: bigint, b: bigint) => a * b };

// The stubs and their TypeScript kernels (aten/src/ATen/native/cpu/BinaryOpsKernel.cpp)
export const add_stub = new DispatchStub<(iter: TensorIterator, alpha: Scalar) => void>("add_stub", "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp");
add_stub.register("ts", (iter, alpha) => cpu_kernel_binary(iter, addOp(iter.commonDtype.scalarType, alpha)));
export const mul_stub = new DispatchStub<(iter: TensorIterator) => void>("mul_stub", "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp");
mul_stub.register("ts", (iter) => cpu_kernel_binary(iter, mulOp(iter.commonDtype.scalarType)));

/** Meta tensors stop after the iterator: it has computed the output's shape and dtype, which is all they hold. */
const hasData = (iter: TensorIterator) => iter.output._impl.storage.hasData();

function add_impl(self: Tensor, other: Tensor, alpha: Scalar, out: Tensor | null, inplace: boolean): Tensor {
  const iter = TensorIterator.binary_op(self, other, { out, isInplace: inplace });
  alpha_check(iter.output.dtype.scalarType, alpha);
  if (hasData(iter)) add_stub.call(iter.output.device.type, iter, alpha);
  return iter.output;
}

function mul_impl(self: Tensor, other: Tensor, out: Tensor | null, inplace: boolean): Tensor {
  const iter = TensorIterator.binary_op(self, other, { out, isInplace: inplace });
  if (hasData(iter)) mul_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/**
 * Structured kernels: one function serves the three forms of an op, as PyTorch's generated
 * structured wrappers do. `mode` says which form is running: "functional" allocates the output,
 * "inplace" writes into self (which may not be resized), "out" writes into out (resized if needed).
 */
export type StructuredMode = "functional" | "inplace" | "out";

export function add_out(self: Tensor, other: Tensor, alpha: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return add_impl(self, other, alpha, mode === "functional" ? null : mode === "inplace" ? self : out, mode === "inplace");
}

export function mul_out(self: Tensor, other: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return mul_impl(self, other, mode === "functional" ? null : mode === "inplace" ? self : out, mode === "inplace");
}
