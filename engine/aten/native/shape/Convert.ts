// c10::convert<dst_t>(src) (c10/util/TypeCast.h) on raw stored elements: what copy_ writes when the
// dtypes differ. C++ leaves float -> integer undefined when the value does not fit; the answers here
// are x86's (the AVX2 build PyTorch's fixtures come from):
//   float -> int32/int16/int8: cvttss2si to int32 (INT32_MIN when out of range or NaN), then the low bits;
//   float -> uint8: through int64 first (TypeCast.h's static_cast_with_inter_type<uint8_t>), then the low byte;
//   float -> int64: INT64_MIN when out of range or NaN.
// int64 values are BigInts, so int64 -> narrower ints keeps every bit.

import { ScalarType } from "../../../c10/ScalarType.js";
import { fromRaw, toRaw } from "../../../c10/ElementAccess.js";

type Raw = number | bigint;

const INT32_MIN = -(2 ** 31);

function isFloat(t: ScalarType): boolean {
  return t === ScalarType.Float || t === ScalarType.Double || t === ScalarType.Half || t === ScalarType.BFloat16;
}

/** A floating value as the int32 cvttss2si gives. */
function truncToInt32(v: number): number {
  if (!Number.isFinite(v)) return INT32_MIN;
  const t = Math.trunc(v);
  return t >= -(2 ** 31) && t < 2 ** 31 ? t : INT32_MIN;
}

/** The function that turns a raw `src` element into the raw `dst` element. */
export function converter(src: ScalarType, dst: ScalarType): (raw: Raw) => Raw {
  if (src === dst) return (r) => r;
  if (src === ScalarType.Long) {
    // keep all 64 bits for integers; typed arrays wrap int32 values to the narrower types
    switch (dst) {
      case ScalarType.Bool: return (r) => ((r as bigint) !== 0n ? 1 : 0);
      case ScalarType.Int:
      case ScalarType.Short:
      case ScalarType.Char:
      case ScalarType.Byte: return (r) => Number(BigInt.asIntN(32, r as bigint));
      default: return (r) => toRaw(dst, Number(r as bigint));
    }
  }
  if (isFloat(src)) {
    const read = (r: Raw) => fromRaw(src, r) as number;
    switch (dst) {
      case ScalarType.Int:
      case ScalarType.Short:
      case ScalarType.Char: return (r) => truncToInt32(read(r));
      case ScalarType.Byte: return (r) => Number(BigInt.asUintN(8, toRaw(ScalarType.Long, read(r)) as bigint));
      default: return (r) => toRaw(dst, read(r));
    }
  }
  // bool, uint8, int8, int16, int32: exact as numbers
  const read = (r: Raw) => Number(r);
  if (dst === ScalarType.Long) return (r) => BigInt(read(r));
  return (r) => toRaw(dst, read(r));
}
