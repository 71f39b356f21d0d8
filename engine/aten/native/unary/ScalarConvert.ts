// Scalar::to<scalar_t>() (c10/core/Scalar.h, c10/util/TypeCast.h checked_convert): a kernel turns
// its Scalar arguments into its compute dtype, refusing values the dtype cannot hold. Unsigned
// types let negative values wrap as two's complement (-1 -> 255 for uint8), as c10's overflows() does.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Scalar } from "../../core/Tensor.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";

/** The C++ type name checked_convert reports, and the range of the integral ones. */
const INTEGRAL: Partial<Record<ScalarType, { name: string; min: number; max: number; bits: number }>> = {
  [ScalarType.Byte]: { name: "uint8_t", min: 0, max: 255, bits: 8 },
  [ScalarType.Char]: { name: "int8_t", min: -128, max: 127, bits: 8 },
  [ScalarType.Short]: { name: "int16_t", min: -32768, max: 32767, bits: 16 },
  [ScalarType.Int]: { name: "int", min: -(2 ** 31), max: 2 ** 31 - 1, bits: 32 },
  [ScalarType.Long]: { name: "int64_t", min: -(2 ** 63), max: 2 ** 63 - 1, bits: 64 }, // max rounds to 2^63 as a double
};

const FLOATING: Partial<Record<ScalarType, { name: string; max: number }>> = {
  [ScalarType.Float]: { name: "float", max: 3.4028234663852886e38 },
  [ScalarType.Half]: { name: "at::Half", max: 65504 },
  [ScalarType.BFloat16]: { name: "at::BFloat16", max: 3.3895313892515355e38 },
};

const overflow = (name: string) => new RuntimeError(`value cannot be converted to type ${name} without overflow`);

/** The Scalar as a value of dtype t: a number, or a bigint for int64. */
export function scalar_to(s: Scalar, t: ScalarType): number | bigint {
  const v = Number(s);
  if (t === ScalarType.Bool) return v !== 0 ? 1 : 0;
  if (t === ScalarType.Double) return v;
  const fl = FLOATING[t];
  if (fl) {
    if (Number.isFinite(v) && Math.abs(v) > fl.max) throw overflow(fl.name);
    return roundToScalarType(t, v);
  }
  const int = INTEGRAL[t]!;
  const unsigned = int.min === 0;
  const tooBig = t === ScalarType.Long ? v >= 2 ** 63 : v > int.max;
  if (tooBig || (unsigned ? -v > int.max : v < int.min)) throw overflow(int.name);
  if (t === ScalarType.Long) return BigInt(Math.trunc(v));
  const w = Math.trunc(v);
  const m = 2 ** int.bits;
  const wrapped = ((w % m) + m) % m;
  return unsigned || wrapped <= int.max ? wrapped : wrapped - m;
}
