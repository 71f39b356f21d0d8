// log256_ps and sincos256_ps from aten/src/ATen/native/cpu/avx_mathfun.h (Cephes polynomials,
// Julien Pommier / Giovanni Garberoglio), one lane at a time, in float32 arithmetic.
//
// PyTorch's AVX2 randn kernel (normal_fill_AVX2) uses them, so these define the float32 normals
// for n >= 16. Every _mm256 operation is one float rounding (Math.fround); where gcc contracted a
// multiply and an add into one vfmadd instruction in the shipped libtorch_cpu.so (PyTorch 1.13.1,
// Debian, AVX2 build) we use a single-rounding fmaf instead. Those spots are marked "fused".

import { fmaf } from "../../c10/util/FusedMultiplyAdd.js";

const fround = Math.fround;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

function bitsOf(x: number): number {
  f32[0] = x;
  return u32[0];
}

function fromBits(b: number): number {
  u32[0] = b >>> 0;
  return f32[0];
}

const SQRTHF = fround(0.707106781186547524);
const LOG_P = [
  7.0376836292e-2, -1.151461031e-1, 1.167699874e-1, -1.2420140846e-1, +1.4249322787e-1, -1.6668057665e-1,
  +2.0000714765e-1, -2.4999993993e-1, +3.3333331174e-1,
].map(fround);
const LOG_Q1 = fround(-2.1219444e-4);
const LOG_Q2 = fround(0.693359375);
const MIN_NORM_POS = fromBits(0x00800000);

/** log256_ps for one lane: natural log of a float (NaN for x <= 0). */
export function log256_ps(x: number): number {
  if (!(x > 0)) return NaN; // invalid_mask
  x = Math.max(x, MIN_NORM_POS); // cut off denormals
  const bits = bitsOf(x);
  // x = m * 2^e with m in [0.5, 1)
  let e = fround((bits >>> 23) - 0x7f + 1);
  x = fromBits((bits & ~0x7f800000) | 0x3f000000);
  // if (x < SQRTHF) { e -= 1; x = x + x - 1 } else { x = x - 1 }
  const small = x < SQRTHF;
  const tmp = small ? x : 0;
  x = fround(x - 1);
  e = fround(e - (small ? 1 : 0));
  const q1term = fround(e * LOG_Q1);
  x = fround(x + tmp);
  let y = LOG_P[0];
  for (let i = 1; i < LOG_P.length; i++) y = fmaf(y, x, LOG_P[i]); // fused
  const z = fround(x * x);
  y = fround(y * x);
  y = fmaf(y, z, q1term); // fused: y * z + e * q1
  y = fmaf(-z, 0.5, y); // fused: y - z * 0.5
  x = fround(x + y);
  return fmaf(e, LOG_Q2, x); // fused: x + e * q2
}

const FOPI = fround(1.27323954473516); // 4 / pi
const MINUS_DP1 = fround(-0.78515625);
const MINUS_DP2 = fround(-2.4187564849853515625e-4);
const MINUS_DP3 = fround(-3.77489497744594108e-8);
const SINCOF_P0 = fround(-1.9515295891e-4);
const SINCOF_P1 = fround(8.3321608736e-3);
const SINCOF_P2 = fround(-1.6666654611e-1);
const COSCOF_P0 = fround(2.443315711809948e-5);
const COSCOF_P1 = fround(-1.388731625493765e-3);
const COSCOF_P2 = fround(4.166664568298827e-2);

/** sincos256_ps for one lane: [sin(x), cos(x)] of a float, Cephes-style (accurate for |x| < 8192). */
export function sincos256_ps(x: number): [number, number] {
  const out = new Float64Array(2);
  sincos256_ps_to(x, out);
  return [out[0], out[1]];
}

/** sincos256_ps writing sin to out[0] and cos to out[1] (no array per call, for the hot loops). */
export function sincos256_ps_to(x: number, out: Float64Array): void {
  let signSin = x < 0 || Object.is(x, -0);
  x = Math.abs(x);
  // j = (int(x * 4/pi) + 1) & ~1: the octant, rounded to even
  let j = Math.trunc(fround(x * FOPI)) | 0;
  j = (j + 1) & ~1;
  const y = j; // exact in float
  if (j & 4) signSin = !signSin;
  const polyIsSin = (j & 2) === 0;
  const signCos = (~(j - 2) & 4) !== 0;
  // Extended precision modular arithmetic: x = ((x - y*DP1) - y*DP2) - y*DP3
  x = fmaf(y, MINUS_DP1, x); // fused
  x = fmaf(y, MINUS_DP2, x); // fused
  x = fmaf(y, MINUS_DP3, x); // fused
  const z = fround(x * x);
  // cos polynomial on [0, pi/4]
  let yc = fmaf(z, COSCOF_P0, COSCOF_P1); // fused
  yc = fmaf(z, yc, COSCOF_P2); // fused
  const half = fround(z * 0.5);
  yc = fround(yc * z);
  yc = fmaf(yc, z, -half); // fused: yc * z - z * 0.5
  yc = fround(yc + 1);
  // sin polynomial on [0, pi/4]
  let ys = fmaf(SINCOF_P0, z, SINCOF_P1); // fused
  ys = fmaf(z, ys, SINCOF_P2); // fused
  ys = fround(ys * z);
  ys = fmaf(ys, x, x); // fused
  let s = polyIsSin ? ys : yc;
  let c = polyIsSin ? yc : ys;
  if (signSin) s = -s;
  if (signCos) c = -c;
  out[0] = s;
  out[1] = c;
}
