// eq, ne, lt, le, gt, ge (aten/src/ATen/native/BinaryOps.cpp, cpu/BinaryOpsKernel.cpp): compare in the
// common dtype, return bool (or out='s dtype; an in-place comparison writes 1/0 in self's dtype).
// The Scalar overloads wrap the number and compare the same way (build_borrowing_except_last_argument_comparison_op).

import type { Tensor, Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary, type BinaryScalarOp } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import { hasData, structuredOutput, wrapScalar, type StructuredMode } from "./common.js";

const REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";

type Compare = <T extends number | bigint>(a: T, b: T) => boolean;

function comparison(name: string, cmp: Compare) {
  const op: BinaryScalarOp = {
    number: (a, b) => (cmp(a, b) ? 1 : 0),
    bigint: (a, b) => (cmp(a, b) ? 1n : 0n),
  };
  const stub = new DispatchStub<(iter: TensorIterator) => void>(`${name}_stub`, REF);
  stub.register("ts", (iter) => cpu_kernel_binary(iter, op));
  /** <name>.Tensor_out, and through structured_delegate <name>.Tensor / <name>_.Tensor. */
  const tensorOut = (self: Tensor, other: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor => {
    const iter = TensorIterator.comparison_op(self, other, structuredOutput(self, out, mode));
    if (hasData(iter)) stub.call(iter.output.device.type, iter);
    return iter.output;
  };
  /** <name>.Scalar_out, and through structured_delegate <name>.Scalar / <name>_.Scalar. */
  const scalarOut = (self: Tensor, other: Scalar | Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor =>
    tensorOut(self, wrapScalar(other), out, mode);
  return { stub, tensorOut, scalarOut };
}

const eq = comparison("eq", (a, b) => a === b);
const ne = comparison("ne", (a, b) => a !== b);
const lt = comparison("lt", (a, b) => a < b);
const le = comparison("le", (a, b) => a <= b);
const gt = comparison("gt", (a, b) => a > b);
const ge = comparison("ge", (a, b) => a >= b);

export const { stub: eq_stub, tensorOut: eq_Tensor_out, scalarOut: eq_Scalar_out } = eq;
export const { stub: ne_stub, tensorOut: ne_Tensor_out, scalarOut: ne_Scalar_out } = ne;
export const { stub: lt_stub, tensorOut: lt_Tensor_out, scalarOut: lt_Scalar_out } = lt;
export const { stub: le_stub, tensorOut: le_Tensor_out, scalarOut: le_Scalar_out } = le;
export const { stub: gt_stub, tensorOut: gt_Tensor_out, scalarOut: gt_Scalar_out } = gt;
export const { stub: ge_stub, tensorOut: ge_Tensor_out, scalarOut: ge_Scalar_out } = ge;
