// The per-sample transformations behind PyTorch's CPU random ops: raw mt19937 words in, one
// value of a distribution out. Mirrors aten/src/ATen/core/DistributionsHelper.h and
// aten/src/ATen/core/TransformationHelper.h (PyTorch 1.13).
//
// Precision: PyTorch computes in the distribution's "dist_acctype" — float for float/half/bfloat16,
// double for double — so every float operation here is wrapped in Math.fround, and values for
// half/bfloat16 go through float first (c10::Half and c10::BFloat16 are only constructible from float).

import type { CPUGeneratorImpl } from "./CPUGeneratorImpl.js";
import * as CMath from "./CMath.js";
import { fma, fmaf } from "../../c10/util/FusedMultiplyAdd.js";
export { fma, fmaf };
import { bfloat16BitsFromNumber, bfloat16BitsToNumber, halfBitsFromNumber, halfBitsToNumber } from "../../c10/util/Half.js";

export type FloatDtype = "float32" | "float64" | "float16" | "bfloat16";
export type IntDtype = "int8" | "uint8" | "int16" | "int32" | "int64" | "bool";
export type RandomDtype = FloatDtype | IntDtype;

/** std::numeric_limits<T>::digits: the significand bits uniform_real keeps from a random word. */
export const DIGITS: Record<FloatDtype, number> = { float32: 24, float64: 53, float16: 11, bfloat16: 8 };

export function isFloatDtype(dtype: RandomDtype): dtype is FloatDtype {
  return dtype === "float32" || dtype === "float64" || dtype === "float16" || dtype === "bfloat16";
}

const fround = Math.fround;

export function toHalf(x: number): number {
  return halfBitsToNumber(halfBitsFromNumber(x));
}

export function toBFloat16(x: number): number {
  return bfloat16BitsToNumber(bfloat16BitsFromNumber(x));
}

/** static_cast<scalar_t>(x) for a floating dtype: double -> float -> half/bfloat16, as c10 does it. */
export function castToFloatDtype(dtype: FloatDtype, x: number): number {
  switch (dtype) {
    case "float64":
      return x;
    case "float32":
      return fround(x);
    case "float16":
      return toHalf(x);
    case "bfloat16":
      return toBFloat16(x);
  }
}

/** static_cast<scalar_t>(int64 value) for every dtype (integers wrap like C++ narrowing casts). */
export function castInt64To(dtype: RandomDtype, v: number): number {
  switch (dtype) {
    case "int64":
    case "float64":
      return v;
    case "int32":
      return v | 0;
    case "int16":
      return (v << 16) >> 16;
    case "int8":
      return (v << 24) >> 24;
    case "uint8":
      return v & 0xff;
    case "bool":
      return v !== 0 ? 1 : 0;
    default:
      return castToFloatDtype(dtype, v);
  }
}

// ---------------------------------------------------------------------------------------------
// The C math library. PyTorch calls glibc's log/sin/cos (double) and logf/sinf/cosf (float).
// CMath.ts evaluates them to ~106 bits and rounds once, which is what glibc returns except in
// about one case in a thousand (V8's Math.log/sin/cos differ from glibc far more often).
// glibc's float functions are not correctly rounded in ~1% of cases; rounding the double result
// to float is the closest we get without glibc's own polynomials.

export const c_log = CMath.log;
export const c_sincos = CMath.sincos;
export const c_sin = CMath.sin;
export const c_cos = CMath.cos;
export const c_sqrt = Math.sqrt; // IEEE sqrt is correctly rounded everywhere
export const c_logf = (x: number): number => fround(CMath.log(x));
export const c_sincosf = (x: number): [number, number] => {
  const [s, c] = CMath.sincos(x);
  return [fround(s), fround(c)];
};

// ---------------------------------------------------------------------------------------------
// Raw bits -> [0, 1). transformation::uniform_real keeps the low `digits` bits of a random word
// and scales them by 2^-digits, so the result has exactly the type's precision.

const TWO_POW_M24 = 2 ** -24;
const TWO_POW_M53 = 2 ** -53;
const TWO_POW_32 = 2 ** 32;

/** A float in [0, 1) from one 32-bit word (uniform_real<float>(random(), 0, 1)). */
export function uniform_float01(gen: CPUGeneratorImpl): number {
  return (gen.random() & 0xffffff) * TWO_POW_M24;
}

/**
 * A double in [0, 1) from one 64-bit draw (uniform_real<double>(random64(), 0, 1)):
 * the low 53 bits of (hi << 32 | lo), i.e. 21 bits of the first word and all of the second.
 */
export function uniform_double01(gen: CPUGeneratorImpl): number {
  const hi = gen.random();
  const lo = gen.random();
  return ((hi & 0x1fffff) * TWO_POW_32 + lo) * TWO_POW_M53;
}

/**
 * uniform_real_distribution<T>(from, to): returns a sampler giving dist_acctype<T> values
 * (double for float64, float otherwise; the caller casts to T). `from`/`to` must already be
 * values of T. PyTorch computes `x * (to - from) + from`; the AVX2 build of the kernel contracts
 * that to one fused multiply-add (gcc -mfma, -ffp-contract=fast).
 */
export function uniform_real_distribution(dtype: FloatDtype, from: number, to: number): (gen: CPUGeneratorImpl) => number {
  switch (dtype) {
    case "float64": {
      const range = to - from;
      if (from === 0 && range === 1) return uniform_double01;
      return (gen) => fma(uniform_double01(gen), range, from);
    }
    case "float32": {
      const range = fround(to - from);
      if (from === 0 && range === 1) return uniform_float01;
      return (gen) => fmaf(uniform_float01(gen), range, from);
    }
    case "float16":
    case "bfloat16": {
      // (to - from) is Half - Half: computed in float, rounded back to the 16-bit type.
      const range = castToFloatDtype(dtype, to - from);
      const bits = DIGITS[dtype];
      const mask = (1 << bits) - 1;
      const scale = 2 ** -bits;
      return (gen) => fmaf((gen.random() & mask) * scale, range, from);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// normal_distribution<double>: Box-Muller, two uniforms -> two normals; the second is cached in
// the generator and returned by the next call (whatever mean/std that call asks for).

export function normal_distribution_double(gen: CPUGeneratorImpl, mean: number, std: number): number {
  const cached = gen.next_double_normal_sample();
  if (cached !== undefined) {
    gen.set_next_double_normal_sample(undefined);
    return fma(cached, std, mean);
  }
  const u1 = uniform_double01(gen);
  const u2 = uniform_double01(gen);
  const r = c_sqrt(-2.0 * c_log(1.0 - u2));
  const theta = 2.0 * Math.PI * u1;
  const [sin, cos] = c_sincos(theta); // gcc merges ::sin and ::cos of one angle into sincos
  gen.set_next_double_normal_sample(r * sin);
  return fma(r * cos, std, mean);
}

/** bernoulli_distribution<double>(p): a 53-bit uniform compared with p. */
export function bernoulli_distribution_double(gen: CPUGeneratorImpl, p: number): boolean {
  return uniform_double01(gen) < p;
}

/** bernoulli_distribution<float>(p): a 24-bit uniform compared with p (p already a float). */
export function bernoulli_distribution_float(gen: CPUGeneratorImpl, p: number): boolean {
  return uniform_float01(gen) < p;
}

/** exponential_distribution<double>(lambda): -1/lambda * log(1 - u). */
export function exponential_distribution_double(gen: CPUGeneratorImpl, lambda: number): number {
  const u = uniform_double01(gen);
  return (-1.0 / lambda) * c_log(1.0 - u);
}

// ---------------------------------------------------------------------------------------------
// Integers. transformation::uniform_int_from_to: (word % range) + base, computed in uint64 and
// read back as int64. A 64-bit draw is used only for range >= 2^32 and only for the types that
// can hold such values (int64, double, float, bfloat16: uniform_int_from_to_distribution).

const U64 = 1n << 64n;

/** Wraps an unbounded bigint to int64 (two's complement), like static_cast<int64_t>(uint64). */
export function wrapInt64(v: bigint): bigint {
  const m = ((v % U64) + U64) % U64;
  return m >= 1n << 63n ? m - U64 : m;
}

/** Whether uniform_int_from_to_distribution<T> takes 64-bit draws for this range. */
export function uses_random64_for_range(dtype: RandomDtype, range: bigint): boolean {
  const wide = dtype === "int64" || dtype === "float64" || dtype === "float32" || dtype === "bfloat16";
  return wide && range >= 1n << 32n;
}

/** One int64 value in [base, base + range) from a 64-bit draw, exact (bigint). */
export function uniform_int_from_to_64(gen: CPUGeneratorImpl, range: bigint, base: bigint): bigint {
  return wrapInt64((gen.random64() % range) + base);
}

/** uniform_int_full_range: the whole 64-bit word read as an int64. */
export function uniform_int_full_range(gen: CPUGeneratorImpl): bigint {
  return BigInt.asIntN(64, gen.random64());
}
