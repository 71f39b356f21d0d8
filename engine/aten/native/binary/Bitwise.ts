// bitwise_and, bitwise_or, bitwise_xor (aten/src/ATen/native/BinaryOps.cpp, cpu/BinaryOpsKernel.cpp):
// integer and bool dtypes only. The Scalar overloads wrap the number and call the Tensor overload.

import { ScalarType, isIntegralType } from "../../../c10/ScalarType.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary, type BinaryScalarOp } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import type { OperatorHandle } from "../../../dispatcher/index.js";
import * as and_ops from "../../../generated/bitwise_and.js";
import * as or_ops from "../../../generated/bitwise_or.js";
import * as xor_ops from "../../../generated/bitwise_xor.js";
import { hasData, notImplementedFor, structuredOutput, wrap, wrapScalar, type StructuredMode } from "./common.js";

const REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";

interface Ops {
  tensor: OperatorHandle;
  tensorInplace: OperatorHandle;
  tensorOut: OperatorHandle;
}

function bitwise(name: string, onBool: (a: boolean, b: boolean) => boolean, onInt: (a: number, b: number) => number, onBig: (a: bigint, b: bigint) => bigint, ops: () => Ops) {
  const stub = new DispatchStub<(iter: TensorIterator) => void>(`${name}_stub`, REF);
  stub.register("ts", (iter) => {
    const t = iter.commonDtype.scalarType;
    if (t === ScalarType.Bool) cpu_kernel_binary(iter, { number: (a, b) => (onBool(a !== 0, b !== 0) ? 1 : 0), bigint: onBig });
    else if (isIntegralType(t, false)) cpu_kernel_binary(iter, { number: onInt, bigint: onBig } satisfies BinaryScalarOp);
    else throw notImplementedFor(`${name}_cpu`, t);
  });
  /** <name>.Tensor_out (structured; CPU, Meta) and <name>.Scalar_out (CompositeExplicitAutograd, no mode). */
  const out = (self: Tensor, other: Tensor | Scalar, result: Tensor | null, mode?: StructuredMode): Tensor => {
    if (mode === undefined) return ops().tensorOut.call(self, wrapScalar(other), result) as Tensor;
    const iter = TensorIterator.binary_op(self, other as Tensor, structuredOutput(self, result, mode));
    if (hasData(iter)) stub.call(iter.output.device.type, iter);
    return iter.output;
  };
  /** <name>.Scalar (Tensor, Scalar) and <name>.Scalar_Tensor (Scalar, Tensor): wrap the number. */
  const functional = (self: Tensor | Scalar, other: Tensor | Scalar): Tensor => ops().tensor.call(wrap(self), wrap(other)) as Tensor;
  /** <name>_.Scalar (CompositeImplicitAutograd). */
  const inplace = (self: Tensor, other: Scalar | Tensor): Tensor => ops().tensorInplace.call(self, wrapScalar(other)) as Tensor;
  return { stub, out, functional, inplace };
}

const and = bitwise("bitwise_and", (a, b) => a && b, (a, b) => a & b, (a, b) => a & b, () => ({
  tensor: and_ops.bitwise_and_Tensor, tensorInplace: and_ops.bitwise_and__Tensor, tensorOut: and_ops.bitwise_and_Tensor_out,
}));
const or = bitwise("bitwise_or", (a, b) => a || b, (a, b) => a | b, (a, b) => a | b, () => ({
  tensor: or_ops.bitwise_or_Tensor, tensorInplace: or_ops.bitwise_or__Tensor, tensorOut: or_ops.bitwise_or_Tensor_out,
}));
const xor = bitwise("bitwise_xor", (a, b) => a !== b, (a, b) => a ^ b, (a, b) => a ^ b, () => ({
  tensor: xor_ops.bitwise_xor_Tensor, tensorInplace: xor_ops.bitwise_xor__Tensor, tensorOut: xor_ops.bitwise_xor_Tensor_out,
}));

export const { stub: bitwise_and_stub, out: bitwise_and_out, functional: bitwise_and, inplace: bitwise_and_ } = and;
export const { stub: bitwise_or_stub, out: bitwise_or_out, functional: bitwise_or, inplace: bitwise_or_ } = or;
export const { stub: bitwise_xor_stub, out: bitwise_xor_out, functional: bitwise_xor, inplace: bitwise_xor_ } = xor;
