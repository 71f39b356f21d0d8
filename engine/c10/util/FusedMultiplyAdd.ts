// Fused multiply-add: a * b + c rounded once (std::fma / vfmadd). PyTorch's AVX2 kernels are
// built with -mfma and gcc contracts `x * y + z` into one instruction, so the single rounding
// is part of the numbers PyTorch produces; kernels that reproduce them call these.

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The neighbouring double of x, upwards or downwards (finite x). */
function nextDouble(x: number, up: boolean): number {
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  f64[0] = x;
  u64[0] += (x > 0) === up ? 1n : -1n;
  return f64[0];
}

function nextFloat(x: number, up: boolean): number {
  if (x === 0) return up ? 2 ** -149 : -(2 ** -149);
  f32[0] = x;
  u32[0] += (x > 0) === up ? 1 : -1;
  return f32[0];
}

/** Error-free transformation: a + b === s + t exactly (Knuth's TwoSum). */
export function twoSum(a: number, b: number): [number, number] {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

/** Dekker's exact product: a * b === p + e exactly (no overflow / underflow assumed). */
export function twoProduct(a: number, b: number): [number, number] {
  const p = a * b;
  const ta = 134217729 * a; // 2^27 + 1 splits a double into two 26-bit halves
  const ah = ta - (ta - a);
  const al = a - ah;
  const tb = 134217729 * b;
  const bh = tb - (tb - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

/** std::fma for doubles. */
export function fma(a: number, b: number, c: number): number {
  const prod = a * b;
  if (prod === 0 || c === 0 || !Number.isFinite(prod) || !Number.isFinite(c) || Math.abs(prod) < 2 ** -900) return prod + c;
  // twoProduct(a, b), then twoSum(p, c), twoSum(t, e), twoSum(s, u), inlined (no arrays per call)
  const p = prod;
  const ta = 134217729 * a; // 2^27 + 1 splits a double into two 26-bit halves
  const ah = ta - (ta - a);
  const al = a - ah;
  const tb = 134217729 * b;
  const bh = tb - (tb - b);
  const bl = b - bh;
  const e = ah * bh - p + ah * bl + al * bh + al * bl; // a * b === p + e exactly
  const s = p + c;
  const b1 = s - p;
  const t = p - (s - b1) + (c - b1); // p + c === s + t
  const u = t + e;
  const b2 = u - t;
  const v = t - (u - b2) + (e - b2); // t + e === u + v
  const r = s + u;
  const b3 = r - s;
  const w = s - (r - b3) + (u - b3); // s + u === r + w; exact result = r + w + v, and r = round(r + w)
  if (v === 0 || w === 0) return r;
  // r + w is a tie between r and its neighbour: v decides which side the exact value is on.
  const other = nextDouble(r, w > 0);
  if (other - r === 2 * w && v > 0 === w > 0) return other;
  return r;
}

/** std::fma for floats (a, b, c are float values): the product is exact in double. */
export function fmaf(a: number, b: number, c: number): number {
  // TwoSum of (a * b, c) inlined (no array per call: the random kernels call this per element)
  const p = a * b;
  const s = p + c;
  const bb = s - p;
  const t = p - (s - bb) + (c - bb); // exact result = s + t
  const r = Math.fround(s);
  if (r === s || t === 0) return r;
  // Only when s sits exactly halfway between two floats can t change the float rounding.
  const other = nextFloat(r, s > r);
  if (other - s === s - r && t > 0 === s > r) return other;
  return r;
}
