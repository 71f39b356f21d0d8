// torch.result_type / promote_types / can_cast (aten/src/ATen/native/TypeProperties.cpp).
// Operands fall in three priority groups: dimensioned tensors > zero-dim tensors > wrapped numbers (JS scalars).
// A lower group only matters when it is of a higher *category* (bool < integral < floating < complex).

import { ScalarType, dtype, dtypeOf, isComplexType, isFloatingType } from "../c10/ScalarType.js";
import { promoteTypes, canCast } from "../c10/PromoteTypes.js";
import { get_default_dtype } from "../c10/DefaultDtype.js";
import { Tensor, type Scalar } from "./core/Tensor.js";

type MaybeType = ScalarType | undefined;

export interface ResultTypeState {
  dimResult: MaybeType;
  zeroResult: MaybeType;
  wrappedResult: MaybeType;
}

function promoteSkipUndefined(a: MaybeType, b: MaybeType): MaybeType {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return promoteTypes(a, b);
}

function toComplexType(t: ScalarType): ScalarType {
  switch (t) {
    case ScalarType.Half: return ScalarType.ComplexHalf;
    case ScalarType.Float: return ScalarType.ComplexFloat;
    case ScalarType.Double: return ScalarType.ComplexDouble;
    default: throw new Error(`Unknown Complex ScalarType for ${ScalarType[t]}`);
  }
}

/** The dtype a JS scalar has as a wrapped number: an integral number is a Python int (int64). */
export function scalarTypeOfScalar(s: Scalar): ScalarType {
  if (typeof s === "boolean") return ScalarType.Bool;
  return Number.isInteger(s) ? ScalarType.Long : ScalarType.Double;
}

function defaultComplex(): ScalarType {
  return get_default_dtype().scalarType === ScalarType.Double ? ScalarType.ComplexDouble : ScalarType.ComplexFloat;
}

/** update_result_type_state: file one operand into its priority group. */
export function updateResultTypeState(operand: Tensor | Scalar, state: ResultTypeState): ResultTypeState {
  const wrapped = !(operand instanceof Tensor) || operand._impl.is_wrapped_number;
  let current = operand instanceof Tensor ? operand.dtype.scalarType : scalarTypeOfScalar(operand);
  if (wrapped) {
    // a wrapped float takes the default dtype, a wrapped complex the default complex dtype
    if (isComplexType(current)) current = defaultComplex();
    else if (isFloatingType(current)) current = get_default_dtype().scalarType;
  }
  const next = { ...state };
  if (operand instanceof Tensor && operand.dim() > 0) next.dimResult = promoteSkipUndefined(state.dimResult, current);
  else if (wrapped) next.wrappedResult = promoteSkipUndefined(state.wrappedResult, current);
  else next.zeroResult = promoteSkipUndefined(state.zeroResult, current);
  return next;
}

/** combine_categories: the lower group counts only if it raises the category. */
function combineCategories(higher: MaybeType, lower: MaybeType): MaybeType {
  if (higher === undefined) return lower;
  if (lower === undefined) return higher;
  if (isComplexType(higher)) return higher;
  if (isFloatingType(higher)) {
    // float64 + complex64 scalar -> complex128: keep the higher group's precision
    return isComplexType(lower) ? toComplexType(higher) : higher;
  }
  if (higher === ScalarType.Bool || isFloatingType(lower) || isComplexType(lower)) return promoteSkipUndefined(higher, lower);
  return higher;
}

export function resultTypeFromState(state: ResultTypeState): ScalarType {
  const t = combineCategories(state.dimResult, combineCategories(state.zeroResult, state.wrappedResult));
  if (t === undefined) throw new Error("result_type needs at least one operand");
  return t;
}

/** The common dtype of any number of operands (at::native::result_type). */
export function resultTypeOf(operands: readonly (Tensor | Scalar)[]): ScalarType {
  let state: ResultTypeState = { dimResult: undefined, zeroResult: undefined, wrappedResult: undefined };
  for (const op of operands) state = updateResultTypeState(op, state);
  return resultTypeFromState(state);
}

// ---- the torch.* functions ----

export function result_type(a: Tensor | Scalar, b: Tensor | Scalar): dtype {
  return dtypeOf(resultTypeOf([a, b]));
}

export function promote_types(a: dtype, b: dtype): dtype {
  return dtypeOf(promoteTypes(a.scalarType, b.scalarType));
}

export function can_cast(from: dtype, to: dtype): boolean {
  return canCast(from.scalarType, to.scalarType);
}
