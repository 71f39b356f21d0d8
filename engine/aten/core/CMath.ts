// log, sin and cos for doubles the way PyTorch gets them from the C library (glibc on Linux):
// correctly rounded in practice.
//
// Why not Math.log/sin/cos: V8's are fdlibm ports whose results are off by one ulp for a few
// percent of arguments, while glibc's are correctly rounded except in about one case in a
// thousand. So we evaluate each function in double-double arithmetic (~106 bits: a value is an
// unevaluated sum hi + lo of two doubles) and round once. That reproduces glibc's double results
// — and so PyTorch's float64 randn / normal_ / exponential_ — in all but those rare cases.

// twoSum (a + b === s + e exactly) and twoProd (a * b === p + e exactly) are shared with fma.
import { twoSum, twoProduct as twoProd } from "../../c10/util/FusedMultiplyAdd.js";

/** A double-double: the exact value is hi + lo, with |lo| <= ulp(hi) / 2. */
type DD = [number, number];

// ---------------------------------------------------------------------------------------------
// Error-free transformations and double-double arithmetic (Dekker, Knuth, Bailey's QD library).

/** a + b === s + e exactly, given |a| >= |b|. */
function quickTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}

function add(a: DD, b: DD): DD {
  const [s, e1] = twoSum(a[0], b[0]);
  const [t, f] = twoSum(a[1], b[1]);
  const [s2, e2] = quickTwoSum(s, e1 + t);
  return quickTwoSum(s2, e2 + f);
}

// Pair-returning versions, for the one-off steps (clear, not hot).

function mul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return quickTwoSum(p, e + (a[0] * b[1] + a[1] * b[0]));
}

function div(a: DD, b: DD): DD {
  const q1 = a[0] / b[0];
  const r = add(a, neg(mul(b, [q1, 0])));
  const q2 = r[0] / b[0];
  const r2 = add(r, neg(mul(b, [q2, 0])));
  const q3 = r2[0] / b[0];
  return add(quickTwoSum(q1, q2), [q3, 0]);
}

function neg(a: DD): DD {
  return [-a[0], -a[1]];
}

// ---------------------------------------------------------------------------------------------
// Hot loops use these register-style versions: the high part is returned, the low part left in
// LO, so no pairs are allocated per step.

let LO = 0;

/** (ah + al) * (bh + bl) -> hi, LO. */
function mulR(ah: number, al: number, bh: number, bl: number): number {
  const p = ah * bh;
  const ta = 134217729 * ah;
  const ahh = ta - (ta - ah);
  const alo = ah - ahh;
  const tb = 134217729 * bh;
  const bhh = tb - (tb - bh);
  const blo = bh - bhh;
  const e = ahh * bhh - p + ahh * blo + alo * bhh + alo * blo + (ah * bl + al * bh);
  const hi = p + e;
  LO = e - (hi - p);
  return hi;
}

/** (ah + al) + (bh + bl) -> hi, LO, for operands without catastrophic cancellation. */
function addR(ah: number, al: number, bh: number, bl: number): number {
  const s = ah + bh;
  const bb = s - ah;
  const e = ah - (s - bb) + (bh - bb) + (al + bl);
  const hi = s + e;
  LO = e - (hi - s);
  return hi;
}

/** Horner: sum of coeffs[n] * x^n, x = xh + xl, all double-doubles -> hi, LO. */
function hornerR(coeffs: DD[], xh: number, xl: number): number {
  const last = coeffs[coeffs.length - 1];
  let ph = last[0];
  let pl = last[1];
  for (let n = coeffs.length - 2; n >= 0; n--) {
    const mh = mulR(xh, xl, ph, pl);
    ph = addR(coeffs[n][0], coeffs[n][1], mh, LO);
    pl = LO;
  }
  return ph;
}

// ---------------------------------------------------------------------------------------------
// log

const LN2: DD = [0.6931471805599453, 2.3190468138462996e-17];
const SQRT2 = Math.SQRT2;

/** 1/(2n+1) for the atanh series, as double-doubles (s^2 <= 0.0295: 22 terms reach 2^-110). */
const ATANH_COEFFS: DD[] = Array.from({ length: 22 }, (_, n) => div([1, 0], [2 * n + 1, 0]));

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** log(x): x = m * 2^k with m in [sqrt(1/2), sqrt(2)); log(m) = 2 atanh((m - 1) / (m + 1)). */
export function log(x: number): number {
  if (!(x > 0) || x === Infinity) return Math.log(x); // NaN, negative, 0, +inf
  if (x === 1) return 0;
  let shift = 0;
  if (x < 2 ** -1022) {
    x *= 2 ** 54; // subnormal: scale up so the exponent bits are meaningful
    shift = -54;
  }
  f64[0] = x;
  const e = ((u32[1] >>> 20) & 0x7ff) - 1023;
  let m = x * 2 ** -e; // in [1, 2), exact: a power-of-two scaling
  let k = e + shift;
  if (m > SQRT2) {
    m /= 2;
    k += 1;
  }
  const s = div([m - 1, 0], twoSum(m, 1)); // m - 1 is exact (Sterbenz)
  const s2h = mulR(s[0], s[1], s[0], s[1]);
  const ph = hornerR(ATANH_COEFFS, s2h, LO);
  const logm = mulR(2 * s[0], 2 * s[1], ph, LO);
  const logmLo = LO;
  const kln2 = mulR(LN2[0], LN2[1], k, 0);
  return addR(logm, logmLo, kln2, LO) + LO;
}

// ---------------------------------------------------------------------------------------------
// sin and cos: reduce by the nearest multiple of pi/2, then Taylor series on [-pi/4, pi/4].

// pi/2 = PIO2_1 + PIO2_2 + PIO2_3 to about 160 bits.
const PIO2_1 = 1.5707963267948966;
const PIO2_2 = 6.123233995736766e-17;
const PIO2_3 = -1.4973849048591698e-33;

/** (-1)^n / (2n+1)! and (-1)^n / (2n)! as double-doubles (|r| <= pi/4: 15 terms reach 2^-110). */
const SIN_COEFFS: DD[] = [];
const COS_COEFFS: DD[] = [];
{
  let f: DD = [1, 0]; // 1/j!
  for (let j = 0; j <= 29; j++) {
    if (j > 0) f = div(f, [j, 0]);
    const signed: DD = (j >> 1) % 2 === 0 ? f : neg(f);
    (j % 2 === 0 ? COS_COEFFS : SIN_COEFFS).push(signed);
  }
}

/**
 * [sin(x), cos(x)], each correctly rounded in practice (glibc's sincos gives the same values as
 * its sin and cos). Meant for the arguments PyTorch's kernels pass (|x| a few times 2*pi); beyond
 * 2^20 it falls back to Math.sin/cos.
 */
export function sincos(x: number): [number, number] {
  if (!Number.isFinite(x) || Math.abs(x) > 2 ** 20) return [Math.sin(x), Math.cos(x)];
  if (x === 0) return [x, 1];
  const q = Math.round(x / PIO2_1);
  // r = x - q * pi/2 with an exact product for each part of pi/2 (accurate, cancelling adds).
  let r = add([x, 0], neg(twoProd(q, PIO2_1)));
  r = add(r, neg(twoProd(q, PIO2_2)));
  r = add(r, [-q * PIO2_3, 0]);
  const r2h = mulR(r[0], r[1], r[0], r[1]);
  const r2l = LO;
  const sp = hornerR(SIN_COEFFS, r2h, r2l);
  const s = mulR(r[0], r[1], sp, LO) + LO;
  const c = hornerR(COS_COEFFS, r2h, r2l) + LO;
  switch (((q % 4) + 4) % 4) {
    case 0:
      return [s, c];
    case 1:
      return [c, -s];
    case 2:
      return [-s, -c];
    default:
      return [-c, s];
  }
}

export function sin(x: number): number {
  return sincos(x)[0];
}

export function cos(x: number): number {
  return sincos(x)[1];
}
