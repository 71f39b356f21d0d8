// Fused multiply-add, as the C++ compiler emits it when it contracts `a * b + c` (GCC does by default
// with -mfma). PyTorch's CPU range kernels round once where a plain JS expression would round twice,
// so reproducing its numbers needs fma in float64 and float32.

const SPLITTER = 134217729; // 2^27 + 1, Veltkamp's constant for splitting a double into two halves

function twoProduct(a: number, b: number): [number, number] {
  const p = a * b;
  const ca = SPLITTER * a, ah = ca - (ca - a), al = a - ah;
  const cb = SPLITTER * b, bh = cb - (cb - b), bl = b - bh;
  const err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return [p, err];
}

function twoSum(a: number, b: number): [number, number] {
  const s = a + b;
  const bb = s - a;
  return [s, (a - (s - bb)) + (b - bb)];
}

/** round(a*b + c) with a single rounding to float64 (exact error terms; correct except in rare double-tie cases). */
export function fma64(a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c)) return a * b + c;
  const [p, ep] = twoProduct(a, b);
  const [s, es] = twoSum(p, c);
  return s + (ep + es);
}

/** round(a*b + c) with a single rounding to float32, for float32 inputs (a*b is exact in float64). */
export function fma32(a: number, b: number, c: number): number {
  const p = a * b;
  const [s, es] = twoSum(p, c);
  const r = Math.fround(s);
  if (es === 0 || !Number.isFinite(r)) return r;
  // s sits exactly halfway between two floats: the lost low bits (es) decide the direction
  const other = Math.fround(2 * s - r);
  if (other !== r && Math.abs(s - r) === Math.abs(other - s)) return (es > 0) === (other > r) ? other : r;
  return r;
}
