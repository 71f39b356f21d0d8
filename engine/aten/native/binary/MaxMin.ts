// maximum, minimum, fmax, fmin (aten/src/ATen/native/BinaryOps.cpp, cpu/BinaryOpsKernel.cpp).
// maximum/minimum propagate NaN; fmax/fmin (C's fmax/fmin) return the other operand instead.

import { ScalarType, isFloatingType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_binary, type BinaryScalarOp } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import { hasData, structuredOutput, type StructuredMode } from "./common.js";

const REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";

// std::max(a, b) is (a < b) ? b : a and std::min(a, b) is (b < a) ? b : a: which zero wins a tie matters
const stdMax = (a: number, b: number) => (a < b ? b : a);
const stdMin = (a: number, b: number) => (b < a ? b : a);

function maximumOp(t: ScalarType): BinaryScalarOp {
  if (t === ScalarType.Bool) return { number: (a, b) => (a || b ? 1 : 0), bigint: (a, b) => (a > b ? a : b) };
  if (!isFloatingType(t)) return { number: stdMax, bigint: (a, b) => (a < b ? b : a) };
  return { number: (a, b) => (a !== a || b !== b ? NaN : stdMax(a, b)), bigint: (a, b) => (a < b ? b : a) };
}

function minimumOp(t: ScalarType): BinaryScalarOp {
  if (t === ScalarType.Bool) return { number: (a, b) => (a && b ? 1 : 0), bigint: (a, b) => (a < b ? a : b) };
  if (!isFloatingType(t)) return { number: stdMin, bigint: (a, b) => (b < a ? b : a) };
  return { number: (a, b) => (a !== a || b !== b ? NaN : stdMin(a, b)), bigint: (a, b) => (b < a ? b : a) };
}

/** glibc's fmax on x86-64 is maxsd: NaN loses, and of two equal values (±0) the second is returned. */
function c_fmax(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a > b ? a : b;
}

function c_fmin(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a < b ? a : b;
}

export const maximum_stub = new DispatchStub<(iter: TensorIterator) => void>("maximum_stub", REF);
maximum_stub.register("ts", (iter) => cpu_kernel_binary(iter, maximumOp(iter.commonDtype.scalarType)));
export const minimum_stub = new DispatchStub<(iter: TensorIterator) => void>("minimum_stub", REF);
minimum_stub.register("ts", (iter) => cpu_kernel_binary(iter, minimumOp(iter.commonDtype.scalarType)));

// fmax/fmin on integers and bool are maximum/minimum (fmax_kernel calls maximum_kernel)
export const fmax_stub = new DispatchStub<(iter: TensorIterator) => void>("fmax_stub", REF);
fmax_stub.register("ts", (iter) => {
  const t = iter.commonDtype.scalarType;
  cpu_kernel_binary(iter, isFloatingType(t) ? { number: c_fmax, bigint: (a, b) => (a < b ? b : a) } : maximumOp(t));
});
export const fmin_stub = new DispatchStub<(iter: TensorIterator) => void>("fmin_stub", REF);
fmin_stub.register("ts", (iter) => {
  const t = iter.commonDtype.scalarType;
  cpu_kernel_binary(iter, isFloatingType(t) ? { number: c_fmin, bigint: (a, b) => (b < a ? b : a) } : minimumOp(t));
});

function structured(stub: DispatchStub<(iter: TensorIterator) => void>) {
  return (self: Tensor, other: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor => {
    const iter = TensorIterator.binary_op(self, other, structuredOutput(self, out, mode));
    if (hasData(iter)) stub.call(iter.output.device.type, iter);
    return iter.output;
  };
}

/** maximum.out, and through structured_delegate maximum. */
export const maximum_out = structured(maximum_stub);
/** minimum.out, and through structured_delegate minimum. */
export const minimum_out = structured(minimum_stub);
/** fmax.out, and through structured_delegate fmax. */
export const fmax_out = structured(fmax_stub);
/** fmin.out, and through structured_delegate fmin. */
export const fmin_out = structured(fmin_stub);
