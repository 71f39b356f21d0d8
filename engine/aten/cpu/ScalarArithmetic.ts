// Rounding a double to the arithmetic type a CPU kernel computes in, so TypeScript reproduces float32/half math.

import { ScalarType } from "../../c10/ScalarType.js";
import { bfloat16BitsFromNumber, bfloat16BitsToNumber, halfBitsFromNumber, halfBitsToNumber } from "../../c10/util/Half.js";

export function roundToScalarType(t: ScalarType, x: number): number {
  switch (t) {
    case ScalarType.Float: return Math.fround(x);
    case ScalarType.Half: return halfBitsToNumber(halfBitsFromNumber(x));
    case ScalarType.BFloat16: return bfloat16BitsToNumber(bfloat16BitsFromNumber(x));
    default: return x;
  }
}
