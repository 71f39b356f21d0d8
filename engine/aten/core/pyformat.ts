// Python's float formatting, exactly: '{:.Nf}'.format(x) and '{:.Ne}'.format(x).
//
// torch/_tensor_str.py prints every element through these two format specs, so matching
// PyTorch's repr character for character starts here. Python (Python/dtoa.c) rounds the
// *exact* binary value of the double, and an exact tie goes to the even digit:
//   '{:.4f}'.format(0.03125) == '0.0312'   (0.03125 is exactly 312.5 / 10^4)
//   '{:.0f}'.format(2.5)     == '2'
// JavaScript's toFixed / toExponential also use the exact value but send ties away from
// zero ('0.0313', '3'), and write exponents without padding ('1e-5' vs Python's '1e-05').
// So we do the arithmetic ourselves, on BigInts: a finite double is exactly
// mantissa * 2^exponent, and everything below is integer arithmetic on that.

/** The exact value of |x| (finite) as mant * 2^exp, with mant a non-negative integer. */
function decompose(x: number): { mant: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biasedExp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biasedExp === 0) return { mant, exp: -1074 }; // zero or subnormal: no implicit leading 1
  mant |= 1n << 52n;
  return { mant, exp: biasedExp - 1075 };
}

const powersOfTen: bigint[] = [1n];
function pow10(n: number): bigint {
  while (powersOfTen.length <= n) powersOfTen.push(powersOfTen[powersOfTen.length - 1]! * 10n);
  return powersOfTen[n]!;
}

/** num / den rounded to the nearest integer, exact ties to the even one (IEEE / Python). */
function divRoundHalfEven(num: bigint, den: bigint): bigint {
  const q = num / den;
  const twiceRem = (num % den) * 2n;
  if (twiceRem > den || (twiceRem === den && q % 2n === 1n)) return q + 1n;
  return q;
}

/** Python keeps the sign of negative values that round to zero, and of -0.0: '-0.0000'. */
function signOf(x: number): string {
  return x < 0 || Object.is(x, -0) ? "-" : "";
}

/** nan / inf / -inf as Python writes them for the 'f' and 'e' presentation types. */
function nonFinite(x: number): string {
  if (Number.isNaN(x)) return "nan"; // Python prints a negative NaN as 'nan' too
  return x < 0 ? "-inf" : "inf";
}

/** '{:.<digits>f}'.format(x) — fixed point with `digits` decimals. */
export function formatFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const { mant, exp } = decompose(Math.abs(x));
  // n = round(|x| * 10^digits), computed on the exact value.
  const n = exp >= 0 ? (mant << BigInt(exp)) * pow10(digits) : divRoundHalfEven(mant * pow10(digits), 1n << BigInt(-exp));
  let s = n.toString();
  if (digits > 0) {
    s = s.padStart(digits + 1, "0");
    s = `${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}`;
  }
  return signOf(x) + s;
}

/** '{:.<digits>e}'.format(x) — one digit, `digits` decimals, exponent with sign and at least two digits. */
export function formatExponent(x: number, digits: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  if (x === 0) return `${signOf(x)}${digits > 0 ? "0." + "0".repeat(digits) : "0"}e+00`;

  // |x| = num / den exactly.
  const { mant, exp } = decompose(Math.abs(x));
  const num = exp >= 0 ? mant << BigInt(exp) : mant;
  const den = exp >= 0 ? 1n : 1n << BigInt(-exp);

  // The decimal exponent e with 10^e <= |x| < 10^(e+1); log10 only gives a first guess.
  const atLeastPow10 = (e: number): boolean => (e >= 0 ? num >= den * pow10(e) : num * pow10(-e) >= den);
  let e = Math.floor(Math.log10(Math.abs(x)));
  while (!atLeastPow10(e)) e--;
  while (atLeastPow10(e + 1)) e++;

  // n = round(|x| * 10^(digits - e)): the digits+1 significant digits.
  const shift = digits - e;
  let n = shift >= 0 ? divRoundHalfEven(num * pow10(shift), den) : divRoundHalfEven(num, den * pow10(-shift));
  if (n === pow10(digits + 1)) {
    // Rounded up to the next power of ten (9.99995 -> 10.0000): renormalize.
    n = pow10(digits);
    e += 1;
  }
  const s = n.toString();
  const significand = digits > 0 ? `${s[0]}.${s.slice(1)}` : s;
  const exponent = `${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  return `${signOf(x)}${significand}e${exponent}`;
}
