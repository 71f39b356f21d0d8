// The heat map's colour scale: viridis (perceptually uniform, readable in light and dark themes),
// as 9 stops interpolated linearly.

const VIRIDIS: [number, number, number][] = [
  [68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37],
];

/** Colour of t in [0, 1] (clamped) as [r, g, b]. */
export function viridis(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [VIRIDIS[i], VIRIDIS[i + 1]];
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * f)) as [number, number, number];
}

/** Where a value sits between min and max; a constant tensor sits in the middle. */
export function normalise(value: number, min: number, max: number): number {
  if (!(max > min)) return 0.5;
  return (value - min) / (max - min);
}

export function cssColour([r, g, b]: [number, number, number]): string {
  return `rgb(${r}, ${g}, ${b})`;
}
