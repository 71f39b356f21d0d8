// Numbers as the hover labels and axes show them: short, but exact for small integers.

export function formatValue(v: number | null): string {
  if (v === null) return "nan";
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  if (v === Infinity) return "inf";
  if (v === -Infinity) return "-inf";
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e6)) return v.toExponential(4);
  return String(Number(v.toPrecision(6)));
}
