// cpu_kernel for three inputs (aten/src/ATen/native/cpu/Loops.h): lerp with a weight tensor, addcmul,
// addcdiv. Each input is read converted to the common dtype; the result is stored in the output's dtype.

import { ScalarType } from "../../../c10/ScalarType.js";
import { toCommon } from "../Loops.js";
import { typedView, toRaw, readNumber, type TypedView } from "../../../c10/ElementAccess.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import type { TensorIterator } from "../TensorIterator.js";

export interface TernaryScalarOp {
  /** The op on numbers already in the common dtype; its result is rounded to that dtype once more. */
  number(a: number, b: number, c: number): number;
  /** The op on int64 values (wrapped to 64 bits after). */
  bigint?(a: bigint, b: bigint, c: bigint): bigint;
}


export function cpu_kernel_ternary(iter: TensorIterator, op: TernaryScalarOp): void {
  const out = iter.output._impl;
  if (!out.storage.hasData()) return; // meta: shapes and dtypes only
  const common = iter.commonDtype.scalarType;
  const ot = out.dtype.scalarType;
  const outView = typedView(out.storage, out.dtype) as unknown as (number | bigint)[];
  const ins = iter.inputs.map((t) => ({ view: typedView(t._impl.storage, t._impl.dtype), t: t._impl.dtype.scalarType }));
  const [a, b, c] = ins;
  if (common === ScalarType.Long && op.bigint) {
    const big = (x: { view: TypedView; t: ScalarType }, off: number) =>
      x.t === ScalarType.Long ? (x.view[off] as bigint) : BigInt(Math.trunc(readNumber(x.view, x.t, off)));
    const f = op.bigint;
    iter.forEachOffsets((o) => {
      const r = BigInt.asIntN(64, f(big(a, o[1]), big(b, o[2]), big(c, o[3])));
      outView[o[0]] = ot === ScalarType.Long ? r : toRaw(ot, Number(r));
    });
    return;
  }
  iter.forEachOffsets((o) => {
    const r = op.number(toCommon(common, readNumber(a.view, a.t, o[1])), toCommon(common, readNumber(b.view, b.t, o[2])), toCommon(common, readNumber(c.view, c.t, o[3])));
    outView[o[0]] = toRaw(ot, roundToScalarType(common, r));
  });
}
