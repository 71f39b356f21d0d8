// remainder (Python's %: the result takes the divisor's sign) and fmod (C's fmod: the dividend's sign)
// (aten/src/ATen/native/BinaryOps.cpp, cpu/BinaryOpsKernel.cpp). Integers divided by zero raise.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isIntegralType } from "../../../c10/ScalarType.js";
import { Tensor, type Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary, type BinaryScalarOp } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import { remainder_Tensor, remainder__Tensor, remainder_Tensor_out } from "../../../generated/remainder.js";
import { fmod_Tensor, fmod__Tensor, fmod_Tensor_out } from "../../../generated/fmod.js";
import { hasData, notImplementedFor, structuredOutput, wrap, wrapScalar, noBigint, type StructuredMode } from "./common.js";

const REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";

function zeroDivision(): never {
  throw new RuntimeError("ZeroDivisionError");
}

function remainderOp(t: ScalarType): BinaryScalarOp {
  if (isIntegralType(t, false)) {
    return {
      number: (a, b) => {
        if (b === 0) zeroDivision();
        const r = a % b;
        return r !== 0 && r < 0 !== b < 0 ? r + b : r;
      },
      bigint: (a, b) => {
        if (b === 0n) zeroDivision();
        const r = a % b;
        return r !== 0n && r < 0n !== b < 0n ? r + b : r;
      },
    };
  }
  if (t === ScalarType.Bool) throw notImplementedFor("remainder_cpu", t);
  // mod + b is one rounding in the scalar type; the loop rounds the double sum once, which is the same
  return {
    number: (a, b) => {
      const mod = a % b;
      return mod !== 0 && b < 0 !== mod < 0 ? mod + b : mod;
    },
    bigint: noBigint,
  };
}

function fmodOp(t: ScalarType): BinaryScalarOp {
  if (isIntegralType(t, false)) {
    return {
      number: (a, b) => (b === 0 ? zeroDivision() : a % b),
      bigint: (a, b) => (b === 0n ? zeroDivision() : a % b),
    };
  }
  if (t === ScalarType.Bool) throw notImplementedFor("fmod_cpu", t);
  return { number: (a, b) => a % b, bigint: noBigint }; // JS % on doubles is std::fmod, exact
}

export const remainder_stub = new DispatchStub<(iter: TensorIterator) => void>("remainder_stub", REF);
remainder_stub.register("ts", (iter) => cpu_kernel_binary(iter, remainderOp(iter.commonDtype.scalarType)));
export const fmod_stub = new DispatchStub<(iter: TensorIterator) => void>("fmod_stub", REF);
fmod_stub.register("ts", (iter) => cpu_kernel_binary(iter, fmodOp(iter.commonDtype.scalarType)));

/**
 * remainder.Tensor_out (structured; CPU, Meta) and remainder.Scalar_out (CompositeExplicitAutograd)
 * share PyTorch's name. The structured forms always pass a mode; the composite one never does.
 */
export function remainder_out(self: Tensor, other: Tensor | Scalar, out: Tensor | null, mode?: StructuredMode): Tensor {
  if (mode === undefined) return remainder_Tensor_out.call(self, wrapScalar(other), out) as Tensor;
  const iter = TensorIterator.binary_op(self, other as Tensor, structuredOutput(self, out, mode));
  if (hasData(iter)) remainder_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** remainder.Scalar (Tensor self, Scalar other) and remainder.Scalar_Tensor (Scalar self, Tensor other). */
export function remainder(self: Tensor | Scalar, other: Tensor | Scalar): Tensor {
  return remainder_Tensor.call(wrap(self), wrap(other)) as Tensor;
}

export function remainder_(self: Tensor, other: Scalar | Tensor): Tensor {
  return remainder__Tensor.call(self, wrapScalar(other)) as Tensor;
}

/** fmod.Tensor_out (structured) and fmod.Scalar_out (CompositeExplicitAutograd), told apart as remainder_out's are. */
export function fmod_out(self: Tensor, other: Tensor | Scalar, out: Tensor | null, mode?: StructuredMode): Tensor {
  if (mode === undefined) return fmod_Tensor_out.call(self, wrapScalar(other), out) as Tensor;
  const iter = TensorIterator.binary_op(self, other as Tensor, structuredOutput(self, out, mode));
  if (hasData(iter)) fmod_stub.call(iter.output.device.type, iter);
  return iter.output;
}

export function fmod(self: Tensor, other: Scalar | Tensor): Tensor {
  return fmod_Tensor.call(self, wrapScalar(other)) as Tensor;
}

export function fmod_(self: Tensor, other: Scalar | Tensor): Tensor {
  return fmod__Tensor.call(self, wrapScalar(other)) as Tensor;
}
