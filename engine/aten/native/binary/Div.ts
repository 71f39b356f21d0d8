// div with its three rounding modes, true_divide and floor_divide (aten/src/ATen/native/BinaryOps.cpp).
// True division promotes integers to the default float dtype (build_borrowing_binary_float_op);
// 'trunc' and 'floor' keep the common dtype, and integer division by zero raises ZeroDivisionError.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isIntegralType } from "../../../c10/ScalarType.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { Tensor, type Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary, type BinaryScalarOp } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import { div_Tensor, div__Tensor, div_Tensor_mode, div__Tensor_mode, div_out as div_out_op, div_Scalar, div__Scalar } from "../../../generated/div.js";
import { floor_divide_default, floor_divide__Tensor } from "../../../generated/floor_divide.js";
import { hasData, notImplementedFor, stepRounding, structuredOutput, wrap, wrapScalar, noBigint, type StructuredMode } from "./common.js";
import { copysign } from "./ScalarMath.js";

const REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";

function zeroDivision(): never {
  throw new RuntimeError("ZeroDivisionError");
}

/** div_floor_floating: Python's floor division for floats, each step rounded in the kernel's type. */
export function div_floor_floating(a: number, b: number, r: (x: number) => number): number {
  if (b === 0) return a / b; // divide by zero: the IEEE result
  const mod = a % b; // std::fmod, exact
  let div = r(r(a - mod) / b);
  if (mod !== 0 && b < 0 !== mod < 0) div = r(div - 1);
  if (div === 0) return copysign(0, a / b);
  let floordiv = Math.floor(div);
  if (r(div - floordiv) > 0.5) floordiv = r(floordiv + 1);
  return floordiv;
}

function divTrueOp(): BinaryScalarOp {
  return { number: (a, b) => a / b, bigint: noBigint };
}

function divTruncOp(t: ScalarType): BinaryScalarOp {
  if (isIntegralType(t, false)) {
    return {
      number: (a, b) => (b === 0 ? zeroDivision() : Math.trunc(a / b)),
      bigint: (a, b) => (b === 0n ? zeroDivision() : a / b),
    };
  }
  if (t === ScalarType.Bool) throw notImplementedFor("div_trunc_cpu", t);
  // std::trunc(a / b): the quotient is rounded to the scalar type before truncating
  return { number: (a, b) => Math.trunc(roundToScalarType(t, a / b)), bigint: noBigint };
}

function divFloorOp(t: ScalarType): BinaryScalarOp {
  // unsigned: floor division is truncation (divisor and dividend have the same sign)
  if (t === ScalarType.Byte) return divTruncOp(t);
  if (isIntegralType(t, false)) {
    return {
      number: (a, b) => {
        if (b === 0) zeroDivision();
        const q = Math.trunc(a / b);
        return q * b !== a && a < 0 !== b < 0 ? q - 1 : q;
      },
      bigint: (a, b) => {
        if (b === 0n) zeroDivision();
        const q = a / b;
        return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
      },
    };
  }
  if (t === ScalarType.Bool) throw notImplementedFor("div_floor_cpu", t);
  // half and bfloat16 compute the steps in float (their std::fmod returns float)
  const r = stepRounding(t);
  return { number: (a, b) => div_floor_floating(a, b, r), bigint: noBigint };
}

export const div_true_stub = new DispatchStub<(iter: TensorIterator) => void>("div_true_stub", REF);
div_true_stub.register("ts", (iter) => cpu_kernel_binary(iter, divTrueOp()));
export const div_trunc_stub = new DispatchStub<(iter: TensorIterator) => void>("div_trunc_stub", REF);
div_trunc_stub.register("ts", (iter) => cpu_kernel_binary(iter, divTruncOp(iter.commonDtype.scalarType)));
export const div_floor_stub = new DispatchStub<(iter: TensorIterator) => void>("div_floor_stub", REF);
div_floor_stub.register("ts", (iter) => cpu_kernel_binary(iter, divFloorOp(iter.commonDtype.scalarType)));

/** div.out, and through structured_delegate div.Tensor / div_.Tensor: true division. */
export function div_out(self: Tensor, other: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = TensorIterator.binary_float_op(self, other, structuredOutput(self, out, mode));
  if (hasData(iter)) div_true_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** div.out_mode: rounding_mode None is true division; 'trunc' and 'floor' keep integer dtypes. */
export function div_out_mode(self: Tensor, other: Tensor, rounding_mode: string | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const where = structuredOutput(self, out, mode);
  if (rounding_mode === null) return div_out(self, other, out, mode);
  if (rounding_mode !== "trunc" && rounding_mode !== "floor") {
    throw new RuntimeError(`div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '${rounding_mode}'`);
  }
  const iter = TensorIterator.binary_op(self, other, where);
  const stub = rounding_mode === "trunc" ? div_trunc_stub : div_floor_stub;
  if (hasData(iter)) stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** div.Scalar and div.Scalar_mode (CompositeExplicitAutograd): wrap the number, run the Tensor overload. */
export function div(self: Tensor, other: Scalar | Tensor, ...rounding_mode: [string | null] | []): Tensor {
  if (rounding_mode.length === 0) return div_Tensor.call(self, wrapScalar(other)) as Tensor;
  return div_Tensor_mode.call(self, wrapScalar(other), rounding_mode[0]) as Tensor;
}

/** div_.Scalar and div_.Scalar_mode (CompositeExplicitAutograd). */
export function div_(self: Tensor, other: Scalar | Tensor, ...rounding_mode: [string | null] | []): Tensor {
  if (rounding_mode.length === 0) return div__Tensor.call(self, wrapScalar(other)) as Tensor;
  return div__Tensor_mode.call(self, wrapScalar(other), rounding_mode[0]) as Tensor;
}

// true_divide is an alias of div (CompositeImplicitAutograd): each form calls div's.

export function true_divide(self: Tensor, other: Tensor | Scalar): Tensor {
  return (other instanceof Tensor ? div_Tensor.call(self, other) : div_Scalar.call(self, other)) as Tensor;
}

export function true_divide_(self: Tensor, other: Tensor | Scalar): Tensor {
  return (other instanceof Tensor ? div__Tensor.call(self, other) : div__Scalar.call(self, other)) as Tensor;
}

export function true_divide_out(self: Tensor, other: Tensor, out: Tensor): Tensor {
  return div_out_op.call(self, other, out) as Tensor;
}

// floor_divide is not structured in PyTorch 1.13: three functions around one iterator.

function floor_divide_impl(self: Tensor, other: Tensor, out: Tensor | null, isInplace: boolean): Tensor {
  const iter = TensorIterator.binary_op(self, other, { out, isInplace });
  if (hasData(iter)) div_floor_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** floor_divide (CPU, Meta) and floor_divide.Scalar (CompositeImplicitAutograd, which wraps the number). */
export function floor_divide(self: Tensor, other: Tensor | Scalar): Tensor {
  if (!(other instanceof Tensor)) return floor_divide_default.call(self, wrap(other)) as Tensor;
  return floor_divide_impl(self, other, null, false);
}

/** floor_divide_.Tensor (CPU, Meta) and floor_divide_.Scalar (CompositeImplicitAutograd). */
export function floor_divide_(self: Tensor, other: Tensor | Scalar): Tensor {
  if (!(other instanceof Tensor)) return floor_divide__Tensor.call(self, wrap(other)) as Tensor;
  return floor_divide_impl(self, other, self, true);
}

export function floor_divide_out(self: Tensor, other: Tensor, out: Tensor): Tensor {
  return floor_divide_impl(self, other, out, false);
}
