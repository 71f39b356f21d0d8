// logical_and, logical_or, logical_xor (aten/src/ATen/native/BinaryOps.cpp): each operand counts as
// true when nonzero (NaN included); the result is bool, or 1/0 in out='s (or self's) dtype. Only the out=
// form has a kernel; the functional form allocates an empty bool tensor and calls it (comparison_op).

import { bool } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary, type BinaryScalarOp } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import type { OperatorHandle } from "../../../dispatcher/index.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { logical_and_out as logical_and_out_op } from "../../../generated/logical_and.js";
import { logical_or_out as logical_or_out_op } from "../../../generated/logical_or.js";
import { logical_xor_out as logical_xor_out_op } from "../../../generated/logical_xor.js";
import { hasData } from "./common.js";

const REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";

function logical(name: string, f: (a: boolean, b: boolean) => boolean, outOp: () => OperatorHandle) {
  const op: BinaryScalarOp = {
    number: (a, b) => (f(a !== 0, b !== 0) ? 1 : 0),
    bigint: (a, b) => (f(a !== 0n, b !== 0n) ? 1n : 0n),
  };
  const stub = new DispatchStub<(iter: TensorIterator) => void>(`${name}_stub`, REF);
  stub.register("ts", (iter) => cpu_kernel_binary(iter, op));
  /** <name>.out (CPU, Meta): comparison_op_out. */
  const out = (self: Tensor, other: Tensor, result: Tensor): Tensor => {
    const iter = TensorIterator.comparison_op(self, other, { out: result, isInplace: false });
    if (hasData(iter)) stub.call(iter.output.device.type, iter);
    return result;
  };
  /** <name> (CompositeExplicitAutograd): an empty bool tensor, filled by <name>.out. */
  const functional = (self: Tensor, other: Tensor): Tensor => {
    const result = empty_memory_format.call([0], bool, null, self.device, null, null) as Tensor;
    return outOp().call(self, other, result) as Tensor;
  };
  /** <name>_ (CompositeExplicitAutograd): <name>.out into self. */
  const inplace = (self: Tensor, other: Tensor): Tensor => outOp().call(self, other, self) as Tensor;
  return { stub, out, functional, inplace };
}

const and = logical("logical_and", (a, b) => a && b, () => logical_and_out_op);
const or = logical("logical_or", (a, b) => a || b, () => logical_or_out_op);
const xor = logical("logical_xor", (a, b) => a !== b, () => logical_xor_out_op);

export const { stub: logical_and_stub, out: logical_and_out, functional: logical_and, inplace: logical_and_ } = and;
export const { stub: logical_or_stub, out: logical_or_out, functional: logical_or, inplace: logical_or_ } = or;
export const { stub: logical_xor_stub, out: logical_xor_out, functional: logical_xor, inplace: logical_xor_ } = xor;
