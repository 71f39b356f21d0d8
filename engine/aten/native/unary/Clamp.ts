// clamp, clamp_min, clamp_max with Scalar or Tensor bounds (aten/src/ATen/native/TensorCompare.cpp
// meta/impl functions; kernels in cpu/TensorCompareKernel.cpp, and maximum/minimum in
// cpu/BinaryOpsKernel.cpp, which clamp.Tensor with one bound runs).
//
// Scalar bounds: the result dtype is result_type(self, min, max) for non-float self (clamp(int, 0.5)
// is float), an in-place clamp may not change self's dtype, and the op computes in that dtype.
// Tensor bounds: self and the bounds broadcast and promote like a binary op.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, dtypeOf, isFloatingType } from "../../../c10/ScalarType.js";
import { resultTypeFromState, updateResultTypeState, type ResultTypeState } from "../../TypeProperties.js";
import type { Scalar, Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import type { TensorIterator } from "../TensorIterator.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { AT_DISPATCH, ALL_TYPES_AND_BFLOAT16, ALL_TYPES_AND_BOOL } from "./Dispatch.js";
import { cpu_kernel_nary } from "./NaryLoop.js";
import { scalar_to } from "./ScalarConvert.js";
import { build_unary, hasData, type StructuredMode } from "./UnaryIterator.js";
import { below_ADInplaceOrView } from "./Nested.js";

const REF = "aten/src/ATen/native/cpu/TensorCompareKernel.cpp";
const BINARY_REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";

// std::max(a, b) = a < b ? b : a; std::min(a, b) = b < a ? b : a: a NaN `a` passes through both.
const stdMax = <T extends number | bigint>(a: T, b: T): T => (a < b ? b : a);
const stdMin = <T extends number | bigint>(a: T, b: T): T => (b < a ? b : a);

// ---- Scalar bounds: the iterator computes in the output's dtype (self.to(result_type)) ----

type ScalarBoundFn = (iter: TensorIterator, a: Scalar, b?: Scalar) => void;

function scalarClamp(name: string, pick: (a: any, lo: any, hi: any) => any): ScalarBoundFn {
  return (iter, x, y) => {
    const t = iter.output.dtype.scalarType;
    AT_DISPATCH(name, t, ALL_TYPES_AND_BFLOAT16);
    const lo = scalar_to(x, t);
    const hi = y === undefined ? lo : scalar_to(y, t);
    cpu_kernel_nary(iter, t, { number: (a) => pick(a, lo, hi), bigint: (a) => pick(a, lo, hi) });
  };
}

export const clamp_scalar_stub = new DispatchStub<ScalarBoundFn>("clamp_scalar_stub", REF);
clamp_scalar_stub.register("ts", scalarClamp("clamp_scalar_cpu", (a, lo, hi) => stdMin(stdMax(a, lo), hi)));
export const clamp_min_scalar_stub = new DispatchStub<ScalarBoundFn>("clamp_min_scalar_stub", REF);
clamp_min_scalar_stub.register("ts", scalarClamp("clamp_min_cpu", (a, lo) => stdMax(a, lo)));
export const clamp_max_scalar_stub = new DispatchStub<ScalarBoundFn>("clamp_max_scalar_stub", REF);
clamp_max_scalar_stub.register("ts", scalarClamp("clamp_max_scalar_cpu", (a, hi) => stdMin(a, hi)));

// ---- Tensor bounds: computed in the common dtype of self and the bounds ----

type TensorBoundFn = (iter: TensorIterator) => void;

/** Any NaN operand gives NaN (vec::minimum/maximum propagate it; the scalar path checks). */
const nanOr = (f: (...xs: number[]) => number) => (...xs: number[]) => (xs.some(Number.isNaN) ? NaN : f(...xs));

export const clamp_stub = new DispatchStub<TensorBoundFn>("clamp_stub", REF);
clamp_stub.register("ts", (iter) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("clamp_cpu", t, ALL_TYPES_AND_BFLOAT16);
  cpu_kernel_nary(iter, t, { number: nanOr((a, lo, hi) => stdMin(stdMax(a, lo), hi)), bigint: (a, lo, hi) => stdMin(stdMax(a, lo), hi) });
});

/** maximum/minimum (BinaryOpsKernel.cpp): NaN-propagating for floats, || and && for bool. Equal values
 * give the second operand, as the AVX2 _mm256_max_ps / _mm256_min_ps do. */
function extremum(name: string, greater: boolean): TensorBoundFn {
  return (iter) => {
    const t = iter.commonDtype.scalarType;
    AT_DISPATCH(name, t, ALL_TYPES_AND_BOOL);
    const pick = greater ? (a: any, b: any) => (a > b ? a : b) : (a: any, b: any) => (a < b ? a : b);
    cpu_kernel_nary(iter, t, { number: nanOr(pick), bigint: pick });
  };
}

export const maximum_stub = new DispatchStub<TensorBoundFn>("maximum_stub", BINARY_REF);
maximum_stub.register("ts", extremum("maximum_cpu", true));
export const minimum_stub = new DispatchStub<TensorBoundFn>("minimum_stub", BINARY_REF);
minimum_stub.register("ts", extremum("minimum_cpu", false));

// ---- the structured kernels ----

/** TypeMeta names (what `self.dtype()` prints in clamp's in-place check). */
const TYPE_META_NAME: Partial<Record<ScalarType, string>> = {
  [ScalarType.Byte]: "unsigned char",
  [ScalarType.Char]: "signed char",
  [ScalarType.Short]: "short int",
  [ScalarType.Int]: "int",
  [ScalarType.Long]: "long int",
  [ScalarType.Bool]: "bool",
};

const noBounds = () => new RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None");

/** clamp's manual type promotion: scalars take part; an in-place (or out=self) clamp may not change self's dtype. */
function scalarResultType(self: Tensor, bounds: readonly Scalar[], out: Tensor | null, mode: StructuredMode): ScalarType {
  const selfType = self.dtype.scalarType;
  if (isFloatingType(selfType)) return selfType;
  let state: ResultTypeState = { dimResult: undefined, zeroResult: undefined, wrappedResult: undefined };
  for (const operand of [self, ...bounds]) state = updateResultTypeState(operand, state);
  const result = resultTypeFromState(state);
  const writesSelf = mode === "inplace" || (mode === "out" && out !== null && out._impl === self._impl);
  if (result !== selfType && writesSelf) {
    throw new RuntimeError(`result type ${ScalarType[result]} can't be cast to the desired output type ${TYPE_META_NAME[selfType]}`);
  }
  return result;
}

function clampScalarIter(self: Tensor, bounds: readonly Scalar[], out: Tensor | null, mode: StructuredMode): TensorIterator {
  const dtype = dtypeOf(scalarResultType(self, bounds, out, mode));
  return build_unary({ config: "unary_op", inputs: [self], out, mode, dtype });
}

/** at::fill_(result, NaN): the clamp of anything with a NaN bound. */
function fillNaN(result: Tensor): void {
  below_ADInplaceOrView(() => fill__Scalar.call(result, NaN));
}

export function clamp_out(self: Tensor, min: Scalar | null, max: Scalar | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (min === null && max === null) throw noBounds();
  const iter = clampScalarIter(self, [min, max].filter((b): b is Scalar => b !== null), out, mode);
  if (!hasData(iter)) return iter.output;
  const device = iter.output.device.type;
  if (min !== null && max !== null) {
    if (Number.isNaN(Number(min)) || Number.isNaN(Number(max))) fillNaN(iter.output);
    else clamp_scalar_stub.call(device, iter, min, max);
  } else if (max !== null) clamp_max_scalar_stub.call(device, iter, max);
  else clamp_min_scalar_stub.call(device, iter, min!);
  return iter.output;
}

export function clamp_min_out(self: Tensor, min: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = clampScalarIter(self, [min], out, mode);
  if (!hasData(iter)) return iter.output;
  if (Number.isNaN(Number(min))) fillNaN(iter.output); // unlike clamp(min=nan), which leaves self as is
  else clamp_min_scalar_stub.call(iter.output.device.type, iter, min);
  return iter.output;
}

export function clamp_max_out(self: Tensor, max: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = clampScalarIter(self, [max], out, mode);
  if (!hasData(iter)) return iter.output;
  if (Number.isNaN(Number(max))) fillNaN(iter.output);
  else clamp_max_scalar_stub.call(iter.output.device.type, iter, max);
  return iter.output;
}

export function clamp_Tensor_out(self: Tensor, min: Tensor | null, max: Tensor | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (min === null && max === null) throw noBounds();
  const bounds = [min, max].filter((b): b is Tensor => b !== null);
  const iter = build_unary({ config: "promoting", inputs: [self, ...bounds], out, mode });
  if (!hasData(iter)) return iter.output;
  const stub = min !== null && max !== null ? clamp_stub : min !== null ? maximum_stub : minimum_stub;
  stub.call(iter.output.device.type, iter);
  return iter.output;
}

export function clamp_min_Tensor_out(self: Tensor, min: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [self, min], out, mode });
  if (hasData(iter)) maximum_stub.call(iter.output.device.type, iter);
  return iter.output;
}

export function clamp_max_Tensor_out(self: Tensor, max: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [self, max], out, mode });
  if (hasData(iter)) minimum_stub.call(iter.output.device.type, iter);
  return iter.output;
}
