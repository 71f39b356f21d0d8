// A tensor too large (or not 2-D) for a heat map, as a histogram of its finite values.

import { formatValue } from "./format.js";

export interface HistogramData {
  edges: number[];
  counts: number[];
  min: number;
  max: number;
  nonFinite: number;
}

const WIDTH = 480;
const HEIGHT = 160;

/** The bin under canvas x, or undefined between/outside bars. */
export function binAt(counts: number[], width: number, x: number): number | undefined {
  if (x < 0 || x >= width || counts.length === 0) return undefined;
  return Math.min(counts.length - 1, Math.floor((x / width) * counts.length));
}

export function drawHistogram(container: HTMLElement, data: HistogramData): void {
  const canvas = document.createElement("canvas");
  canvas.className = "glasstorch-histogram";
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const ctx = canvas.getContext("2d")!;
  const peak = Math.max(1, ...data.counts);
  const barWidth = WIDTH / Math.max(1, data.counts.length);
  const colour = getComputedStyle(container).getPropertyValue("--vscode-charts-blue").trim() || "#3794ff";
  ctx.fillStyle = colour;
  data.counts.forEach((count, i) => {
    const h = Math.round((count / peak) * (HEIGHT - 4));
    ctx.fillRect(Math.floor(i * barWidth), HEIGHT - h, Math.max(1, Math.ceil(barWidth) - 1), h);
  });

  const axis = document.createElement("div");
  axis.className = "glasstorch-axis";
  axis.style.width = `${WIDTH}px`;
  const lo = document.createElement("span");
  lo.textContent = formatValue(data.edges[0] ?? data.min);
  const hi = document.createElement("span");
  hi.textContent = formatValue(data.edges[data.edges.length - 1] ?? data.max);
  axis.append(lo, hi);

  const total = data.counts.reduce((a, b) => a + b, 0);
  const summary = `${total} finite values${data.nonFinite ? `, ${data.nonFinite} nan/inf` : ""} — hover for bins`;
  const hover = document.createElement("div");
  hover.className = "glasstorch-hover";
  hover.textContent = summary;
  canvas.addEventListener("mousemove", (e) => {
    const i = binAt(data.counts, WIDTH, e.offsetX);
    if (i !== undefined) hover.textContent = `[${formatValue(data.edges[i])}, ${formatValue(data.edges[i + 1])}): ${data.counts[i]}`;
  });
  canvas.addEventListener("mouseleave", () => (hover.textContent = summary));
  container.append(canvas, axis, hover);
}
