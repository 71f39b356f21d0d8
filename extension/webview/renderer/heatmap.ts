// A 2-D tensor as a heat map: one cell per element on a canvas, a colour bar with the range, and
// the element under the pointer named below it.

import { cssColour, normalise, viridis } from "./colour_scale.js";
import { formatValue } from "./format.js";

export interface HeatmapData {
  rows: number;
  cols: number;
  values: (number | null)[];
  min: number;
  max: number;
}

const MAX_WIDTH = 480;
const MAX_HEIGHT = 360;

/** Pixel size of one element: as large as fits, at least 1 px, at most 32 px. */
export function cellSize(rows: number, cols: number): number {
  return Math.max(1, Math.min(32, Math.floor(Math.min(MAX_WIDTH / Math.max(cols, 1), MAX_HEIGHT / Math.max(rows, 1)))));
}

/** The element at canvas pixel (x, y), or undefined outside the grid. */
export function elementAt(data: Pick<HeatmapData, "rows" | "cols">, size: number, x: number, y: number): { row: number; col: number } | undefined {
  const row = Math.floor(y / size);
  const col = Math.floor(x / size);
  if (x < 0 || y < 0 || row >= data.rows || col >= data.cols) return undefined;
  return { row, col };
}

export function drawHeatmap(container: HTMLElement, data: HeatmapData): void {
  const size = cellSize(data.rows, data.cols);
  const canvas = document.createElement("canvas");
  canvas.className = "glasstorch-heatmap";
  canvas.width = data.cols * size;
  canvas.height = data.rows * size;
  const ctx = canvas.getContext("2d")!;
  for (let r = 0; r < data.rows; r++) {
    for (let c = 0; c < data.cols; c++) {
      const v = data.values[r * data.cols + c];
      // NaN (sent as null) is drawn grey: it has no place on the scale.
      ctx.fillStyle = v === null ? "rgb(128, 128, 128)" : cssColour(viridis(normalise(v, data.min, data.max)));
      ctx.fillRect(c * size, r * size, size, size);
    }
  }

  const row = document.createElement("div");
  row.className = "glasstorch-row";
  row.append(canvas, colourBar(data.min, data.max, canvas.height));
  const hover = document.createElement("div");
  hover.className = "glasstorch-hover";
  hover.textContent = `${data.rows} × ${data.cols} — hover for values`;
  canvas.addEventListener("mousemove", (e) => {
    const at = elementAt(data, size, e.offsetX, e.offsetY);
    if (at) hover.textContent = `[${at.row}, ${at.col}] = ${formatValue(data.values[at.row * data.cols + at.col])}`;
  });
  canvas.addEventListener("mouseleave", () => (hover.textContent = `${data.rows} × ${data.cols} — hover for values`));
  container.append(row, hover);
}

function colourBar(min: number, max: number, height: number): HTMLElement {
  const wrap = document.createElement("div");
  wrap.className = "glasstorch-colourbar";
  const bar = document.createElement("canvas");
  bar.width = 12;
  bar.height = Math.max(height, 48);
  const ctx = bar.getContext("2d")!;
  for (let y = 0; y < bar.height; y++) {
    ctx.fillStyle = cssColour(viridis(1 - y / (bar.height - 1)));
    ctx.fillRect(0, y, bar.width, 1);
  }
  const labels = document.createElement("div");
  labels.className = "glasstorch-colourbar-labels";
  labels.style.height = `${bar.height}px`;
  const top = document.createElement("span");
  top.textContent = formatValue(max);
  const bottom = document.createElement("span");
  bottom.textContent = formatValue(min);
  labels.append(top, bottom);
  wrap.append(bar, labels);
  return wrap;
}
