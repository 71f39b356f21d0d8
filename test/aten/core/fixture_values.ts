// Decodes the element encoding of test/fixtures/repr.json and pyformat.json (see gen_repr.py):
// floats as Python's float.hex() ('0x1.8p+1', '-0x0p+0', 'nan', 'inf', '-inf'), ints as JSON
// numbers or decimal strings beyond 2**53, bools as JSON booleans.

/** float.fromhex(s), exactly. */
export function floatFromHex(s: string): number {
  if (s === "nan") return NaN;
  if (s === "inf") return Infinity;
  if (s === "-inf") return -Infinity;
  const m = /^(-)?0x([0-9a-f]+)(?:\.([0-9a-f]*))?p([+-]\d+)$/i.exec(s);
  if (!m) throw new Error(`not a float.hex() string: ${s}`);
  const [, sign, intDigits, fracDigits = "", exp] = m;
  // At most 53 significant bits, so Number() of the digits is exact, and so is scaling by a power of two.
  const digits = Number(BigInt("0x" + intDigits + fracDigits));
  const value = digits * 2 ** (Number(exp) - 4 * fracDigits.length);
  return sign ? -value : value;
}

export type EncodedValue = string | number | boolean;

/** One fixture element, as ReprInput.get returns it for the given dtype. */
export function decodeValue(v: EncodedValue, dtype: string): number | bigint | boolean {
  if (typeof v === "boolean") return v;
  if (dtype.startsWith("float") || dtype === "bfloat16") return floatFromHex(v as string);
  return typeof v === "string" ? BigInt(v) : v; // ints beyond 2**53 come as decimal strings
}
