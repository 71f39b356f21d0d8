// promoteTypes and canCast (c10/core/ScalarType.h): the lattice every op's result dtype comes from.

import { ScalarType, isComplexType, isFloatingType, isIntegralType } from "./ScalarType.js";

const S = ScalarType;
const b1 = S.Bool, u1 = S.Byte, i1 = S.Char, i2 = S.Short, i4 = S.Int, i8 = S.Long;
const f2 = S.Half, bf = S.BFloat16, f4 = S.Float, f8 = S.Double, c2 = S.ComplexHalf, c4 = S.ComplexFloat, c8 = S.ComplexDouble;

const order = [b1, u1, i1, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8];

// Row = first type, column = second type, in `order`. Note int + half = half, and bfloat16 + half = float.
const table: ScalarType[][] = [
  /* b1 */ [b1, u1, i1, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8],
  /* u1 */ [u1, u1, i2, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8],
  /* i1 */ [i1, i2, i1, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8],
  /* i2 */ [i2, i2, i2, i2, i4, i8, f2, bf, f4, f8, c2, c4, c8],
  /* i4 */ [i4, i4, i4, i4, i4, i8, f2, bf, f4, f8, c2, c4, c8],
  /* i8 */ [i8, i8, i8, i8, i8, i8, f2, bf, f4, f8, c2, c4, c8],
  /* f2 */ [f2, f2, f2, f2, f2, f2, f2, f4, f4, f8, c2, c4, c8],
  /* bf */ [bf, bf, bf, bf, bf, bf, f4, bf, f4, f8, c4, c4, c8],
  /* f4 */ [f4, f4, f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8],
  /* f8 */ [f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8],
  /* c2 */ [c2, c2, c2, c2, c2, c2, c2, c4, c4, c8, c2, c4, c8],
  /* c4 */ [c4, c4, c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8],
  /* c8 */ [c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8],
];

const indexOf = new Map(order.map((t, i) => [t, i]));

export function promoteTypes(a: ScalarType, b: ScalarType): ScalarType {
  if (a === b) return a;
  const i = indexOf.get(a), j = indexOf.get(b);
  if (i === undefined || j === undefined) throw new Error(`Promotion for ${ScalarType[a]} and ${ScalarType[b]} is not supported`);
  return table[i][j];
}

/** canCast(from, to): no complex -> real, no floating -> integral, no non-bool -> bool. */
export function canCast(from: ScalarType, to: ScalarType): boolean {
  if (isComplexType(from) && !isComplexType(to)) return false;
  if (isFloatingType(from) && isIntegralType(to, false)) return false;
  if (from !== ScalarType.Bool && to === ScalarType.Bool) return false;
  return true;
}
