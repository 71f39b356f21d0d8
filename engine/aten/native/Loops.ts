// cpu_kernel for binary pointwise ops (aten/src/ATen/native/cpu/Loops.h): read each input converted
// to the common dtype, apply the scalar function, store into the output's dtype. int64 is computed
// with BigInt so it wraps exactly as C++ does.

import { ScalarType } from "../../c10/ScalarType.js";
import { typedView, toRaw, readNumber } from "../../c10/ElementAccess.js";
import { roundToScalarType } from "../cpu/ScalarArithmetic.js";
import type { TensorIterator } from "./TensorIterator.js";

export interface BinaryScalarOp {
  /** The op on numbers already in the common dtype (floats, or integers that wrap on store). */
  number(a: number, b: number): number;
  /** The op on int64 values. */
  bigint(a: bigint, b: bigint): bigint;
}

/** static_cast<common>(value): what an input element becomes when computed in the common dtype. */
export function toCommon(t: ScalarType, v: number): number {
  switch (t) {
    case ScalarType.Float:
    case ScalarType.Half:
    case ScalarType.BFloat16:
    case ScalarType.Double:
      return roundToScalarType(t, v);
    case ScalarType.Bool:
      return v !== 0 ? 1 : 0;
    default:
      return Math.trunc(v);
  }
}

/**
 * float32 and float64 operands already in the common dtype: reading converts nothing and the store
 * rounds as roundToScalarType would, so the element loop can index the typed arrays directly.
 */
function isPlainFloat(common: ScalarType, ...types: ScalarType[]): boolean {
  if (common !== ScalarType.Float && common !== ScalarType.Double) return false;
  for (const t of types) if (t !== common) return false;
  return true;
}

export function cpu_kernel_binary(iter: TensorIterator, op: BinaryScalarOp): void {
  const out = iter.output._impl;
  if (!out.storage.hasData()) return; // meta: shapes and dtypes only
  const a = iter.inputs[0]._impl, b = iter.inputs[1]._impl;
  const common = iter.commonDtype.scalarType;
  const outView = typedView(out.storage, out.dtype) as unknown as (number | bigint)[];
  const aView = typedView(a.storage, a.dtype), bView = typedView(b.storage, b.dtype);
  const at = a.dtype.scalarType, bt = b.dtype.scalarType, ot = out.dtype.scalarType;
  if (isPlainFloat(common, at, bt, ot)) {
    const o = outView as unknown as Float64Array, x = aView as Float64Array, y = bView as Float64Array;
    const flat = iter.flatOffsets();
    if (flat !== null) {
      const n = iter.numel(), [oo, xo, yo] = flat;
      for (let i = 0; i < n; i++) o[oo + i] = op.number(x[xo + i], y[yo + i]);
    } else {
      iter.forEach((oi, xi, yi) => { o[oi] = op.number(x[xi], y[yi]); });
    }
    return;
  }
  if (common === ScalarType.Long) {
    const big = (view: typeof aView, t: ScalarType, off: number) => (t === ScalarType.Long ? (view[off] as bigint) : BigInt(Math.trunc(readNumber(view, t, off))));
    iter.forEach((o, x, y) => {
      const r = BigInt.asIntN(64, op.bigint(big(aView, at, x), big(bView, bt, y)));
      outView[o] = ot === ScalarType.Long ? r : toRaw(ot, Number(r));
    });
    return;
  }
  iter.forEach((o, x, y) => {
    const r = op.number(toCommon(common, readNumber(aView, at, x)), toCommon(common, readNumber(bView, bt, y)));
    outView[o] = toRaw(ot, roundToScalarType(common, r));
  });
}

export interface UnaryScalarOp {
  number(a: number): number;
  /** int64 inputs computed exactly (neg, abs...); without it int64 values go through number. */
  bigint?(a: bigint): bigint;
}

/** cpu_kernel for unary ops: out[i] = op(input[i]) with the input converted to the common dtype. */
export function cpu_kernel_unary(iter: TensorIterator, op: UnaryScalarOp): void {
  const out = iter.output._impl;
  if (!out.storage.hasData()) return;
  const a = iter.inputs[0]._impl;
  const common = iter.commonDtype.scalarType;
  const outView = typedView(out.storage, out.dtype) as unknown as (number | bigint)[];
  const aView = typedView(a.storage, a.dtype);
  const at = a.dtype.scalarType, ot = out.dtype.scalarType;
  if (isPlainFloat(common, at, ot)) {
    const o = outView as unknown as Float64Array, x = aView as Float64Array;
    const flat = iter.flatOffsets();
    if (flat !== null) {
      const n = iter.numel(), oo = flat[0], xo = flat[1];
      for (let i = 0; i < n; i++) o[oo + i] = op.number(x[xo + i]);
    } else {
      iter.forEachOffsets((offs) => { o[offs[0]] = op.number(x[offs[1]]); });
    }
    return;
  }
  if (common === ScalarType.Long && op.bigint) {
    const big = op.bigint;
    iter.forEachOffsets((o) => {
      const x = at === ScalarType.Long ? (aView[o[1]] as bigint) : BigInt(Math.trunc(readNumber(aView, at, o[1])));
      const r = BigInt.asIntN(64, big(x));
      outView[o[0]] = ot === ScalarType.Long ? r : toRaw(ot, Number(r));
    });
    return;
  }
  iter.forEachOffsets((o) => {
    const r = op.number(toCommon(common, readNumber(aView, at, o[1])));
    outView[o[0]] = toRaw(ot, roundToScalarType(common, r));
  });
}
