// pow in its three forms (aten/src/ATen/native/Pow.cpp, cpu/PowKernel.cpp): Tensor ** Tensor,
// Tensor ** Scalar (with PyTorch's shortcuts for 2, 3, -2, 0.5, -0.5 and -1, which round differently
// from std::pow), and Scalar ** Tensor, which becomes Tensor ** Tensor. Integers use repeated squaring
// and wrap like C++; an integer tensor to a negative integer Scalar power is an error.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, dtypeOf, isIntegralType, scalarTypeName } from "../../../c10/ScalarType.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { empty_impl, wrap as wrapImpl } from "../../core/empty.js";
import { resultTypeOf } from "../../TypeProperties.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary, cpu_kernel_unary, type BinaryScalarOp, type UnaryScalarOp } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import { resize_output } from "../Resize.js";
import { pow_Tensor_Tensor_out as pow_Tensor_Tensor_out_op } from "../../../generated/pow.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { hasData, notImplementedFor, structuredOutput, toScalar, wrapScalar, noBigint, type StructuredMode } from "./common.js";
import { mulInteger } from "./ScalarMath.js";

const REF = "aten/src/ATen/native/cpu/PowKernel.cpp";

/** std::pow: unlike Math.pow, pow(1, y) is 1 for every y and pow(-1, ±inf) is 1. */
export function cpow(a: number, b: number): number {
  if (a === 1 || (a === -1 && (b === Infinity || b === -Infinity))) return 1;
  return Math.pow(a, b);
}

/** powi (native/Pow.h): repeated squaring; a negative exponent gives 1, ±1 or 0 (integer division). */
function powi(t: ScalarType, a: number, b: number): number {
  if (b < 0) {
    if (a === 1) return 1;
    if (a === -1) return b % 2 !== 0 ? -1 : 1;
    return 0;
  }
  let result = 1;
  while (b !== 0) {
    if (b % 2 !== 0) result = mulInteger(t, result, a);
    b = Math.trunc(b / 2);
    a = mulInteger(t, a, a);
  }
  return result;
}

function powiBig(a: bigint, b: bigint): bigint {
  if (b < 0n) {
    if (a === 1n) return 1n;
    if (a === -1n) return b % 2n !== 0n ? -1n : 1n;
    return 0n;
  }
  let result = 1n;
  while (b !== 0n) {
    if (b % 2n !== 0n) result = BigInt.asIntN(64, result * a);
    b /= 2n;
    a = BigInt.asIntN(64, a * a);
  }
  return result;
}

function powTensorTensorOp(t: ScalarType): BinaryScalarOp {
  if (isIntegralType(t, false)) return { number: (a, b) => powi(t, a, b), bigint: powiBig };
  if (t === ScalarType.Bool) throw notImplementedFor("pow", t);
  return { number: cpow, bigint: noBigint };
}

/** pow_tensor_scalar_kernel: the exponent's special cases, in the arithmetic of each dtype. */
function powTensorScalarOp(t: ScalarType, expScalar: Scalar): UnaryScalarOp {
  const exp = Number(expScalar);
  if (isIntegralType(t, false)) {
    const e = Math.trunc(exp);
    return { number: (a) => powi(t, a, e), bigint: (a) => powiBig(a, BigInt(e)) };
  }
  if (t === ScalarType.Bool) throw notImplementedFor("pow", t);
  const isBool = typeof expScalar === "boolean"; // Scalar::equal(double) is false for a bool Scalar
  if (t === ScalarType.Half) {
    const e = roundToScalarType(t, exp); // exp_scalar.to<Half>(), then std::pow in float
    return { number: (a) => cpow(a, e) };
  }
  // Float, Double and BFloat16: sqrt, rsqrt and reciprocal have kernels of their own
  // each step rounds in the scalar type: c10::BFloat16's operators and std::sqrt return BFloat16
  const step = t === ScalarType.Double ? (x: number) => x : (x: number) => roundToScalarType(t, x);
  if (!isBool && exp === 0.5) return { number: (a) => Math.sqrt(a) };
  if (!isBool && exp === -0.5) return { number: (a) => 1 / step(Math.sqrt(a)) };
  if (!isBool && exp === -1) return { number: (a) => 1 / a };
  // BFloat16 takes the exponent as a BFloat16 (exp_scalar.to<scalar_t>()); float and double take a double
  const e = t === ScalarType.BFloat16 ? step(exp) : exp;
  if (e === 2) return { number: (a) => a * a };
  if (e === 3) return { number: (a) => step(a * a) * a };
  if (e === -2) return { number: (a) => 1 / step(a * a) };
  return { number: (a) => cpow(a, e) };
}

export const pow_tensor_tensor_stub = new DispatchStub<(iter: TensorIterator) => void>("pow_tensor_tensor_stub", REF);
pow_tensor_tensor_stub.register("ts", (iter) => cpu_kernel_binary(iter, powTensorTensorOp(iter.commonDtype.scalarType)));
export const pow_tensor_scalar_stub = new DispatchStub<(iter: TensorIterator, exp: Scalar) => void>("pow_tensor_scalar_stub", REF);
pow_tensor_scalar_stub.register("ts", (iter, exp) => cpu_kernel_unary(iter, powTensorScalarOp(iter.commonDtype.scalarType, exp)));

/** pow.Tensor_Tensor_out, and through structured_delegate pow.Tensor_Tensor / pow_.Tensor. */
export function pow_Tensor_Tensor_out(self: Tensor, exponent: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = TensorIterator.binary_op(self, exponent, structuredOutput(self, out, mode));
  if (hasData(iter)) pow_tensor_tensor_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/**
 * pow.Tensor_Scalar_out: PyTorch builds a unary iterator over base.to(result_type(base, exp)). When
 * the base already has that dtype (x ** 2 of a float tensor, torch.square) so does this one; otherwise
 * iterating over (base, wrapped exp) gives the converted dtype and the shape without a converted
 * copy. Either way the kernel reads only the base and takes the exponent as a Scalar.
 */
export function pow_Tensor_Scalar_out(self: Tensor, exponent: Scalar | Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const exp = toScalar(exponent);
  if (isIntegralType(self.dtype.scalarType, true) && typeof exp === "number" && Number.isInteger(exp) && exp < 0) {
    throw new RuntimeError("Integers to negative integer powers are not allowed.");
  }
  // a unary iterator with check_all_same_dtype: out= (or self, in place) must have the result's dtype
  const where = structuredOutput(self, out, mode);
  const common = resultTypeOf([self, exp]);
  if (where.out && where.out.dtype.scalarType !== common) {
    throw new RuntimeError(`Found dtype ${scalarTypeName(where.out.dtype.scalarType)} but expected ${scalarTypeName(common)}`);
  }
  const iter = self.dtype.scalarType === common ? TensorIterator.unary_op(self, where) : TensorIterator.binary_op(self, wrapScalar(exp), where);
  if (hasData(iter)) pow_tensor_scalar_stub.call(iter.output.device.type, iter, exp);
  return iter.output;
}

/**
 * pow.Scalar_out (structured, no TensorIterator): the output has the exponent's shape and
 * result_type(base, exp) (or out's dtype); a base of 1 fills ones, anything else runs Tensor ** Tensor.
 */
export function pow_Scalar_out(self: Scalar | Tensor, exponent: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const base = toScalar(self);
  let result: Tensor;
  if (mode === "out" && out) {
    resize_output(out, exponent._impl.sizes());
    result = out;
  } else {
    result = wrapImpl(empty_impl(exponent._impl.sizes(), dtypeOf(resultTypeOf([base, exponent])), exponent.device));
  }
  if (typeof base !== "boolean" && base === 1) fill__Scalar.call(result, 1);
  else pow_Tensor_Tensor_out_op.call(wrapScalar(base), exponent, result);
  return result;
}
