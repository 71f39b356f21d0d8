// The gamma family's scalar functions (aten/src/ATen/native/Math.h): lgamma, calc_digamma,
// calc_trigamma, the Hurwitz zeta and calc_polygamma.
//
// digamma, trigamma, zeta and polygamma follow PyTorch's algorithms step for step (Cephes' psi and
// zeta), `round` being the arithmetic of the dtype PyTorch computes in: identity for float64, fround for
// float32 (Math.h's float overloads), so the same steps round the same way. lgamma is std::lgamma in
// PyTorch (glibc); JavaScript has none, so it is computed here from series whose coefficients are
// Bernoulli numbers and zeta values (no tables to trust): error a few ulps of float64, also near the
// zeros at 1 and 2, where a plain Stirling or Lanczos sum loses all relative accuracy.

type Round = (v: number) => number;
const identity: Round = (v) => v;

/** Bernoulli numbers B2, B4, ..., B24 as fractions: the asymptotic series below are built from them. */
const BERNOULLI: ReadonlyArray<readonly [number, number]> = [
  [1, 6], [-1, 30], [1, 42], [-1, 30], [5, 66], [-691, 2730], [7, 6], [-3617, 510], [43867, 798], [-174611, 330],
  [854513, 138], [-236364091, 2730],
];
const factorial = (n: number) => { let f = 1; for (let i = 2; i <= n; i++) f *= i; return f; };

// ---- Hurwitz zeta (Math.h zeta: Cephes' zeta.c) ----

const MACHEP = 1.11022302462515654042e-16; // 2^-53
/** (2k)! / B_2k for k = 1..12: the Euler-Maclaurin correction terms' denominators (12, -720, 30240, ...). */
const ZETA_A = BERNOULLI.map(([p, q], i) => (factorial(2 * i + 2) * q) / p);

/**
 * zeta(x, q) = sum over k >= 0 of (k + q)^-x: direct terms until q + k > 9, then Euler-Maclaurin. `r`
 * rounds each step to the accumulation type (at::acc_type: double for float32, float for bfloat16).
 */
export function zeta(x: number, q: number, r: Round = identity): number {
  if (x === 1) return Infinity;
  if (x < 1) return NaN;
  if (q <= 0) {
    if (q === Math.floor(q)) return Infinity;
    if (x !== Math.floor(x)) return NaN; // q^-x would be complex
  }
  let s = r(Math.pow(q, -x));
  let a = q;
  let i = 0;
  let b = 0;
  while (i < 9 || a <= 9) {
    i += 1;
    a = r(a + 1);
    b = r(Math.pow(a, -x));
    s = r(s + b);
    if (-MACHEP * s < b && b < MACHEP * s) return s;
  }
  const w = a;
  s = r(s + r(r(b * w) / r(x - 1)));
  s = r(s - r(0.5 * b));
  let fac = 1;
  let k = 0;
  for (let j = 0; j < 12; j++) {
    fac = r(fac * r(x + k));
    b = r(b / w);
    const t = r(r(fac * b) / r(ZETA_A[j]!));
    s = r(s + t);
    if (Math.abs(r(t / s)) < MACHEP) return s;
    k += 1;
    fac = r(fac * r(x + k));
    b = r(b / w);
    k += 1;
  }
  return s;
}

// ---- lgamma ----

const EULER = 0.5772156649015329;
const HALF_LOG_2PI = 0.9189385332046728;
/** lgamma(2 + z) = (1 - gamma) z + sum_{k >= 2} (-1)^k (zeta(k) - 1) / k z^k: coefficient k at index k. */
const LGAMMA2_SERIES: readonly number[] = (() => {
  const c = [0, 1 - EULER];
  for (let k = 2; k <= 48; k++) c.push(((k % 2 === 0 ? 1 : -1) * zeta(k, 2)) / k);
  return c;
})();
/** B_2k / (2k (2k - 1)): Stirling's series for lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2). */
const STIRLING = BERNOULLI.slice(0, 8).map(([p, q], i) => p / q / ((2 * i + 2) * (2 * i + 1)));

/** lgamma(2 + z) for |z| <= 0.5 (the series converges as 4^-k there). */
function lgamma2(z: number): number {
  let s = 0;
  for (let k = LGAMMA2_SERIES.length - 1; k >= 1; k--) s = s * z + LGAMMA2_SERIES[k]!;
  return s * z;
}

/** sin(pi x) with x reduced first, so integers give exactly 0 and the result keeps its accuracy. */
function sinpi(x: number): number {
  const ax = Math.abs(x);
  const f = ax - 2 * Math.floor(ax / 2); // in [0, 2)
  const s = f <= 0.5 ? Math.sin(Math.PI * f) : f <= 1.5 ? Math.sin(Math.PI * (1 - f)) : -Math.sin(Math.PI * (2 - f));
  return x < 0 ? -s : s;
}

/** log |Gamma(x)|, as std::lgamma: +inf at the poles (0, -0 and the negative integers) and at +-inf. */
export function lgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Infinity;
  if (x <= 0 && x === Math.floor(x)) return Infinity;
  if (x < 0) {
    // reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x)
    if (x > -1e-300) return -Math.log(-x);
    return Math.log(Math.PI / Math.abs(sinpi(x))) - lgamma(1 - x);
  }
  if (x < 0.5) return lgamma2(x) - Math.log1p(x) - Math.log(x); // lgamma(1 + x) - log x
  if (x < 1.5) return lgamma2(x - 1) - Math.log1p(x - 1);
  if (x < 2.5) return lgamma2(x - 2);
  if (x < 10) {
    // Gamma(x) = (x - 1)(x - 2)...(x - n) Gamma(x - n), x - n in [1.5, 2.5)
    let p = 1;
    let y = x;
    while (y >= 2.5) { y -= 1; p *= y; }
    return lgamma(y) + Math.log(p);
  }
  const r = 1 / x;
  const r2 = r * r;
  let s = 0;
  for (let k = STIRLING.length - 1; k >= 0; k--) s = s * r2 + STIRLING[k]!;
  const lx = Math.log(x);
  return (x - 0.5) * (lx - 1) + (HALF_LOG_2PI - 0.5) + s * r;
}

// ---- digamma, trigamma, polygamma (Math.h) ----

const PSI_10 = 2.25175258906672110764; // digamma(10)
/** The asymptotic series' coefficients B_2k / 2k, highest power first (polevl's order). */
const PSI_A = [
  8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3, -4.16666666666666666667e-3,
  3.96825396825396825397e-3, -8.33333333333333333333e-3, 8.33333333333333333333e-2,
];
const PSI_A_F32 = PSI_A.map(Math.fround);

/** calc_digamma: reflection for x < 0, the recurrence up to x >= 10, then the asymptotic series; `r` rounds each step. */
export function calc_digamma(x: number, r: Round = identity): number {
  if (x === 0) return Object.is(x, -0) ? Infinity : -Infinity; // copysign(inf, -x)
  if (x < 0) {
    if (x === Math.trunc(x)) return NaN;
    // tan(pi * frac(x)) is more accurate than tan(pi * x); computed in double for both dtypes
    const frac = x - Math.trunc(x);
    const piOverTan = r(Math.PI / Math.tan(Math.PI * frac));
    return r(calc_digamma(r(1 - x), r) - piOverTan);
  }
  let result = 0;
  while (x < 10) {
    result = r(result - r(1 / x));
    x = r(x + 1);
  }
  if (x === 10) return r(result + r(PSI_10));
  let y = 0;
  if (x < 1e17) {
    const z = r(1 / r(x * x));
    const A = r === identity ? PSI_A : PSI_A_F32;
    let p = 0;
    for (const a of A) p = r(r(p * z) + a);
    y = r(z * p);
  }
  return r(r(r(result + r(Math.log(x))) - r(0.5 / x)) - y);
}

/** calc_trigamma: reflection below 1/2, six recurrence steps, then the asymptotic series. */
export function calc_trigamma(x: number, r: Round = identity): number {
  const pi = r(Math.PI);
  let sign = 1;
  let result = 0;
  if (x < 0.5) {
    sign = -1;
    const s = r(Math.sin(r(pi * x)));
    result = r(result - r(r(pi * pi) / r(s * s)));
    x = r(1 - x);
  }
  for (let i = 0; i < 6; i++) {
    result = r(result + r(1 / r(x * x)));
    x = r(x + 1);
  }
  const ixx = r(1 / r(x * x));
  const tail = r(ixx * r(r(1 / 6) - r(ixx * r(r(1 / 30) - r(ixx * r(1 / 42))))));
  result = r(result + r(r(r(1 + r(1 / r(2 * x))) + tail) / x));
  return r(sign * result);
}

/**
 * calc_polygamma for n >= 2: (-1)^(n+1) n! zeta(n + 1, x) in the dtype's steps `r`, the zeta in its
 * accumulation type's steps `acc` (double for float32 and float64, float for bfloat16).
 */
export function calc_polygamma(n: number, x: number, r: Round = identity, acc: Round = identity): number {
  const sign = n % 2 ? 1 : -1;
  return r(r(sign * r(Math.exp(r(lgamma(n + 1))))) * r(zeta(n + 1, x, acc)));
}
