// IEEE half (float16) and bfloat16 conversions, bit-exact with c10/util/Half.h and c10/util/BFloat16.h.
// Both types are stored as uint16 bit patterns; conversions from a JS number first round to float32,
// because c10::Half and c10::BFloat16 are constructed from float (so double -> half rounds twice, as in PyTorch).

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float32 bits of a number (after rounding it to float32). */
function floatBits(value: number): number {
  f32[0] = value;
  return u32[0];
}

function floatFromBits(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0];
}

/** number -> float16 bits, round to nearest even (c10::detail::fp16_ieee_from_fp32_value). */
export function halfBitsFromNumber(value: number): number {
  const x = floatBits(value);
  const sign = (x >>> 16) & 0x8000;
  const absBits = x & 0x7fffffff;
  if (absBits >= 0x7f800000) {
    // inf stays inf; every NaN becomes the canonical quiet NaN 0x7E00 (with its sign)
    return absBits > 0x7f800000 ? sign | 0x7e00 : sign | 0x7c00;
  }
  const exp = absBits >>> 23; // biased float32 exponent
  if (exp >= 143) return sign | 0x7c00; // >= 2^16: overflows to inf
  if (exp >= 113) {
    // normal half: keep 10 mantissa bits, round the 13 dropped bits to nearest even
    let mant = absBits & 0x7fffff;
    let h = ((exp - 112) << 10) | (mant >>> 13);
    const rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h += 1; // carry may overflow into exponent/inf, which is correct
    return sign | h;
  }
  if (exp < 102) return sign; // below half of the smallest subnormal: rounds to zero
  // subnormal half: value = mant * 2^-24
  const mant = (absBits & 0x7fffff) | 0x800000;
  const shift = 126 - exp; // 14..24
  let h = mant >>> shift;
  const rest = mant & ((1 << shift) - 1);
  const halfway = 1 << (shift - 1);
  if (rest > halfway || (rest === halfway && (h & 1))) h += 1;
  return sign | h;
}

/** float16 bits -> number (exact). */
export function halfBitsToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1024 + mant) * 2 ** (exp - 25);
}

/** number -> bfloat16 bits, round to nearest even (c10::detail::round_to_nearest_even). */
export function bfloat16BitsFromNumber(value: number): number {
  if (Number.isNaN(value)) return 0x7fc0;
  const x = floatBits(value);
  const roundingBias = ((x >>> 16) & 1) + 0x7fff;
  return ((x + roundingBias) >>> 16) & 0xffff;
}

/** bfloat16 bits -> number (exact). */
export function bfloat16BitsToNumber(b: number): number {
  return floatFromBits((b & 0xffff) << 16);
}
