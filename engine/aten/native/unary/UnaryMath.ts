// Scalar functions the unary kernels need and JavaScript's Math lacks: std::nearbyint (round half
// to even), erf/erfc, and PyTorch's calc_erfinv (aten/src/ATen/native/Math.h).
//
// erf and erfc follow FDLIBM's s_erf.c, the algorithm glibc's double erf/erfc use (glibc
// sysdeps/ieee754/dbl-64/s_erf.c), so PyTorch's scalar path and this file agree to the last bit
// wherever Math.exp (V8's port of FDLIBM's exp) agrees with glibc's. Error < 1 ulp.
//   FDLIBM: Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved. Developed at SunPro,
//   a Sun Microsystems, Inc. business. Permission to use, copy, modify, and distribute this
//   software is freely granted, provided that this notice is preserved.

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer); // little-endian: u32[1] is the high word

/** std::nearbyint in the default rounding mode: to the nearest integer, ties to even; keeps -0.0. */
export function nearbyint(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 52) return x;
  const f = Math.floor(x);
  const d = x - f; // exact
  const r = d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
  return r === 0 && (x < 0 || Object.is(x, -0)) ? -0 : r;
}

// ---- erf / erfc (FDLIBM s_erf.c) ----

const ERX = 8.45062911510467529297e-1; // (float)0.84506291151
const EFX = 1.28379167095512586316e-1;
const PP = [1.28379167095512558561e-1, -3.25042107247001499370e-1, -2.84817495755985104766e-2, -5.77027029648944159157e-3, -2.37630166566501626084e-5];
const QQ = [3.97917223959155352819e-1, 6.50222499887672944485e-2, 5.08130628187576562776e-3, 1.32494738004321644526e-4, -3.96022827877536812320e-6];
const PA = [
  -2.36211856075265944077e-3, 4.14856118683748331666e-1, -3.72207876035701323847e-1, 3.18346619901161753674e-1,
  -1.10894694282396677476e-1, 3.54783043256182359371e-2, -2.16637559486879084300e-3,
];
const QA = [1.06420880400844228286e-1, 5.40397917702171048937e-1, 7.18286544141962662868e-2, 1.26171219808761642112e-1, 1.36370839120290507362e-2, 1.19844998467991074170e-2];
const RA = [
  -9.86494403484714822705e-3, -6.93858572707181764372e-1, -1.05586262253232909814e1, -6.23753324503260060396e1,
  -1.62396669462573470355e2, -1.84605092906711035994e2, -8.12874355063065934246e1, -9.81432934416914548592,
];
const SA = [
  1.96512716674392571292e1, 1.37657754143519042600e2, 4.34565877475229228821e2, 6.45387271733267880336e2,
  4.29008140027567833386e2, 1.08635005541779435134e2, 6.57024977031928170135, -6.04244152148580987438e-2,
];
const RB = [
  -9.86494292470009928597e-3, -7.99283237680523006574e-1, -1.77579549177547519889e1, -1.60636384855821916062e2,
  -6.37566443368389627722e2, -1.02509513161107724954e3, -4.83519191608651397019e2,
];
const SB = [
  3.03380607434824582924e1, 3.25792512996573918826e2, 1.53672958608443695994e3, 3.19985821950859553908e3,
  2.55305040643316442583e3, 4.74528541206955367215e2, -2.24409524465858183362e1,
];

/** c0 + z*(c1 + z*(c2 + ...)), Horner's rule as FDLIBM writes it. */
function poly(c: readonly number[], z: number): number {
  let r = c[c.length - 1];
  for (let i = c.length - 2; i >= 0; i--) r = c[i] + z * r;
  return r;
}

/** 1 + z*(c0 + z*(c1 + ...)): FDLIBM's denominators. */
const poly1 = (c: readonly number[], z: number) => 1 + z * poly(c, z);

/** The high word of |x|'s bits, FDLIBM's `ix`. */
function highWord(x: number): number {
  f64[0] = x;
  return u32[1] & 0x7fffffff;
}

/** exp(-x*x - 0.5625 + R/S) for x >= 1.25, split so that -x*x loses nothing (FDLIBM's Note1). */
function erfcTail(x: number, ix: number): number {
  const s = 1 / (x * x);
  const [R, S] = ix < 0x4006db6e ? [poly(RA, s), poly1(SA, s)] : [poly(RB, s), poly1(SB, s)];
  f64[0] = x;
  u32[0] = 0; // z: x with its low 32 bits cleared, so z*z is exact
  const z = f64[0];
  return (Math.exp(-z * z - 0.5625) * Math.exp((z - x) * (z + x) + R / S)) / x;
}

export function erf(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return x > 0 ? 1 : -1;
  const ix = highWord(x);
  if (ix < 0x3feb0000) {
    // |x| < 0.84375
    if (ix < 0x3e300000) return x + EFX * x; // |x| < 2**-28 (FDLIBM scales subnormals; the product is the same)
    const z = x * x;
    return x + x * (poly(PP, z) / poly1(QQ, z));
  }
  if (ix < 0x3ff40000) {
    // 0.84375 <= |x| < 1.25
    const s = Math.abs(x) - 1;
    const pq = poly(PA, s) / poly1(QA, s);
    return x >= 0 ? ERX + pq : -ERX - pq;
  }
  if (ix >= 0x40180000) return x >= 0 ? 1 : -1; // |x| >= 6: 1 - tiny rounds to 1
  const r = erfcTail(Math.abs(x), ix);
  return x >= 0 ? 1 - r : r - 1;
}

export function erfc(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return x > 0 ? 0 : 2;
  const ix = highWord(x);
  if (ix < 0x3feb0000) {
    // |x| < 0.84375
    if (ix < 0x3c700000) return 1 - x; // |x| < 2**-56
    const z = x * x;
    const y = poly(PP, z) / poly1(QQ, z);
    if (x < 0.25) return 1 - (x + x * y);
    return 0.5 - (x * y + (x - 0.5));
  }
  if (ix < 0x3ff40000) {
    // 0.84375 <= |x| < 1.25
    const s = Math.abs(x) - 1;
    const pq = poly(PA, s) / poly1(QA, s);
    return x >= 0 ? 1 - ERX - pq : 1 + (ERX + pq);
  }
  if (ix < 0x403c0000) {
    // |x| < 28
    if (x < 0 && ix >= 0x40180000) return 2; // x < -6: 2 - tiny
    const r = erfcTail(Math.abs(x), ix);
    return x > 0 ? r : 2 - r;
  }
  return x > 0 ? 0 : 2; // tiny*tiny underflows to 0
}

// ---- erfinv (Math.h calc_erfinv) ----

const ERFINV_A = [0.886226899, -1.645349621, 0.914624893, -0.140543331];
const ERFINV_B = [-2.118377725, 1.442710462, -0.329097515, 0.012229801];
const ERFINV_C = [-1.970840454, -1.624906493, 3.429567803, 1.641345311];
const ERFINV_D = [3.5438892, 1.6370678];

/**
 * calc_erfinv<T>: a rational first guess refined by two Newton steps. `round` is the arithmetic
 * type T: Math.fround for float (every operation rounds to float, erf and exp are erff/expf), the
 * identity for double. PyTorch computes float inputs with float arithmetic, so the float result is
 * not the correctly rounded erfinv; reproducing the float steps keeps it within an ulp or two.
 */
export function calc_erfinv(y: number, round: (v: number) => number = (v) => v): number {
  const r = round;
  const [a, b, c, d] = [ERFINV_A, ERFINV_B, ERFINV_C, ERFINV_D].map((k) => k.map(r));
  const yAbs = Math.abs(y);
  if (yAbs > 1) return NaN;
  if (yAbs === 1) return y > 0 ? Infinity : -Infinity;
  if (Number.isNaN(y)) return y;
  let x: number;
  if (yAbs <= r(0.7)) {
    const z = r(y * y);
    const num = r(r(r(r(r(r(a[3] * z) + a[2]) * z) + a[1]) * z) + a[0]);
    const dem = r(r(r(r(r(r(r(r(b[3] * z) + b[2]) * z) + b[1]) * z) + b[0]) * z) + 1);
    x = r(r(y * num) / dem);
  } else {
    const z = r(Math.sqrt(r(-r(Math.log(r(r(1 - yAbs) / 2))))));
    const num = r(r(r(r(r(r(c[3] * z) + c[2]) * z) + c[1]) * z) + c[0]);
    const dem = r(r(r(r(d[1] * z) + d[0]) * z) + 1);
    x = r((y < 0 ? -Math.abs(num) : Math.abs(num)) / dem);
  }
  const twoOverSqrtPi = r(2 / r(Math.sqrt(Math.PI)));
  for (let i = 0; i < 2; i++) {
    x = r(x - r(r(r(erf(x)) - y) / r(twoOverSqrtPi * r(Math.exp(r(-x * x))))));
  }
  return x;
}
