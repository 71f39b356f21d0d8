// C++ scalar functions the binary kernels use, written for JS numbers: std::copysign, and integer
// wrap-around per dtype (C++ integer arithmetic is modular; JS numbers are not).

import { ScalarType } from "../../../c10/ScalarType.js";

/** std::copysign: |a| with the sign of b, -0.0 counting as negative. */
export function copysign(a: number, b: number): number {
  const negative = b < 0 || Object.is(b, -0);
  const m = Math.abs(a);
  return negative ? -m : m;
}

/** static_cast<T>(x) for an integer x of any size: wrap into T's range, as two's complement does. */
export function wrapInteger(t: ScalarType, x: number): number {
  switch (t) {
    case ScalarType.Byte: return x & 0xff;
    case ScalarType.Char: return (x << 24) >> 24;
    case ScalarType.Short: return (x << 16) >> 16;
    case ScalarType.Int: return x | 0;
    default: return x;
  }
}

/**
 * x * y in an integer type narrower than 64 bits, wrapped. int32 uses Math.imul (a double product
 * of two int32s can exceed 2^53); the narrower ones multiply exactly and wrap.
 */
export function mulInteger(t: ScalarType, x: number, y: number): number {
  return t === ScalarType.Int ? Math.imul(x, y) : wrapInteger(t, x * y);
}

/** hypot's infinities win over NaN: hypot(inf, nan) is inf. */
function hypotSpecial(a: number, b: number): number | null {
  if (a === Infinity || a === -Infinity || b === Infinity || b === -Infinity) return Infinity;
  if (a !== a || b !== b) return NaN;
  return null;
}

/**
 * glibc's hypotf (sysdeps/ieee754/flt-32/e_hypotf.c) for float and bfloat16 (which converts to float):
 * the squares are exact in double, their sum is rounded once, then the square root; the caller rounds.
 */
export function hypotf(a: number, b: number): number {
  return hypotSpecial(a, b) ?? Math.sqrt(a * a + b * b);
}

/**
 * glibc 2.36's hypot for double (sysdeps/ieee754/dbl-64/e_hypot.c, without FMA): Borges' corrected
 * square root, scaled by 2^-600 / 2^600 for huge (> 2^511) or tiny (< 2^-459) operands. Not always correctly rounded, and
 * not Math.hypot either: this reproduces the C library PyTorch calls.
 */
export function hypot(a: number, b: number): number {
  const special = hypotSpecial(a, b);
  if (special !== null) return special;
  const x = Math.abs(a), y = Math.abs(b);
  const ax = x < y ? y : x, ay = x < y ? x : y;
  const SCALE = 2 ** -600, EPS = 2 ** -54;
  if (ax > 2 ** 511) return ay <= ax * EPS ? ax + ay : hypotKernel(ax * SCALE, ay * SCALE) / SCALE;
  if (ay < 2 ** -459) return ax >= ay / EPS ? ax + ay : hypotKernel(ax / SCALE, ay / SCALE) * SCALE;
  return ay <= ax * EPS ? ax + ay : hypotKernel(ax, ay);
}

function hypotKernel(ax: number, ay: number): number {
  let h = Math.sqrt(ax * ax + ay * ay);
  let t1: number, t2: number;
  if (h <= 2 * ay) {
    const delta = h - ay;
    t1 = ax * (2 * delta - ax);
    t2 = (delta - 2 * (ax - ay)) * delta;
  } else {
    const delta = h - ax;
    t1 = 2 * delta * (ax - 2 * ay);
    t2 = (4 * delta - ay) * ay + delta * delta;
  }
  h -= (t1 + t2) / (2 * h);
  return h;
}
