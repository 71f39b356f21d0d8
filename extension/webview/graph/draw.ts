// Draws a Layout on a canvas: one path per box and per edge, no DOM per node, so thousands of
// Nodes draw in one frame. Only what is inside the viewport is drawn. Colours follow torchviz
// (lightblue leaves, lightgrey ops, darkolivegreen1 for the output's grad_fn); a selected box gets
// an outline in the theme's focus colour.

import { LINE_HEIGHT, type Box, type Layout } from "./layout.js";

/** The part of CanvasRenderingContext2D the drawing uses (a test passes a recorder). */
export interface Canvas2D {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  font: string;
  textBaseline: CanvasTextBaseline;
  save(): void;
  restore(): void;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  rect(x: number, y: number, w: number, h: number): void;
  fill(): void;
  stroke(): void;
  fillText(text: string, x: number, y: number): void;
}

export const FILL: Record<Box["kind"], string> = {
  leaf: "#add8e6", // torchviz: lightblue
  op: "#d3d3d3", // lightgrey
  root: "#caff70", // darkolivegreen1
  collapsed: "#e8e8e8",
};

export interface View {
  /** Pan offset (graph coordinates of the viewport's top-left) and zoom. */
  x: number;
  y: number;
  scale: number;
  width: number;
  height: number;
  /** Device pixels per CSS pixel. */
  ratio: number;
  selected?: number;
  /** Theme colours: edges/text/selection. */
  edge: string;
  text: string;
  focus: string;
}

/** Draws the visible part of the layout; returns how many boxes were drawn. */
export function drawLayout(ctx: Canvas2D, layout: Layout, view: View): number {
  const { scale, ratio } = view;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, view.width, view.height);
  ctx.setTransform(ratio * scale, 0, 0, ratio * scale, -view.x * scale * ratio, -view.y * scale * ratio);
  const left = view.x;
  const top = view.y;
  const right = view.x + view.width / scale;
  const bottom = view.y + view.height / scale;
  const visible = (x0: number, y0: number, x1: number, y1: number) => x1 >= left && x0 <= right && y1 >= top && y0 <= bottom;

  // Edges: one path for all of them.
  ctx.strokeStyle = view.edge;
  ctx.lineWidth = 1 / scale;
  ctx.beginPath();
  for (const r of layout.routes) {
    if (r.points.length < 2) continue;
    const xs = r.points.map((p) => p.x);
    const ys = r.points.map((p) => p.y);
    if (!visible(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys))) continue;
    ctx.moveTo(r.points[0].x, r.points[0].y);
    for (const p of r.points.slice(1)) ctx.lineTo(p.x, p.y);
    // Arrow head at the end (the Node that uses the input).
    const a = r.points[r.points.length - 2];
    const b = r.points[r.points.length - 1];
    const angle = Math.atan2(b.y - a.y, b.x - a.x);
    ctx.moveTo(b.x, b.y);
    ctx.lineTo(b.x - 6 * Math.cos(angle - 0.4), b.y - 6 * Math.sin(angle - 0.4));
    ctx.moveTo(b.x, b.y);
    ctx.lineTo(b.x - 6 * Math.cos(angle + 0.4), b.y - 6 * Math.sin(angle + 0.4));
  }
  ctx.stroke();

  // Boxes, grouped by fill so each colour is one fill call.
  const drawn: Box[] = layout.boxes.filter((b) => visible(b.x, b.y, b.x + b.width, b.y + b.height));
  for (const kind of Object.keys(FILL) as Box["kind"][]) {
    ctx.fillStyle = FILL[kind];
    ctx.beginPath();
    for (const b of drawn) if (b.kind === kind) ctx.rect(b.x, b.y, b.width, b.height);
    ctx.fill();
  }
  ctx.strokeStyle = "#555555";
  ctx.beginPath();
  for (const b of drawn) ctx.rect(b.x, b.y, b.width, b.height);
  ctx.stroke();

  // Text only when it is big enough to read.
  if (scale * LINE_HEIGHT >= 6) {
    ctx.fillStyle = "#000000";
    ctx.font = "12px monospace";
    ctx.textBaseline = "top";
    for (const b of drawn) b.lines.forEach((line, i) => ctx.fillText(line, b.x + 6, b.y + 6 + i * LINE_HEIGHT));
  }

  const sel = view.selected === undefined ? undefined : drawn.find((b) => b.nodes.includes(view.selected!));
  if (sel) {
    ctx.strokeStyle = view.focus;
    ctx.lineWidth = 3 / scale;
    ctx.beginPath();
    ctx.rect(sel.x - 2, sel.y - 2, sel.width + 4, sel.height + 4);
    ctx.stroke();
  }
  return drawn.length;
}

/** A view that fits the whole layout into width x height (never zooming in past 1). */
export function fitView(layout: Layout, width: number, height: number): { x: number; y: number; scale: number } {
  const scale = Math.min(1, width / Math.max(1, layout.width + 20), height / Math.max(1, layout.height + 20));
  return { x: -10, y: -10, scale };
}
