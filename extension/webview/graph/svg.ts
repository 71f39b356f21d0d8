// The laid-out graph as standalone SVG text ("Export SVG"), in the same colours as the canvas.

import { FILL } from "./draw.js";
import { LINE_HEIGHT, type Layout } from "./layout.js";

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export function layoutToSvg(layout: Layout): string {
  const w = Math.ceil(layout.width + 20);
  const hgt = Math.ceil(layout.height + 20);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${hgt}" viewBox="-10 -10 ${w} ${hgt}" font-family="monospace" font-size="12">`,
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>`,
  ];
  for (const r of layout.routes) {
    if (r.points.length < 2) continue;
    out.push(`<polyline fill="none" stroke="#555" marker-end="url(#arrow)" points="${r.points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ")}"/>`);
  }
  for (const b of layout.boxes) {
    out.push(`<g><rect x="${b.x.toFixed(1)}" y="${b.y.toFixed(1)}" width="${b.width.toFixed(1)}" height="${b.height.toFixed(1)}" fill="${FILL[b.kind]}" stroke="#555"/>`);
    b.lines.forEach((line, i) => out.push(`<text x="${(b.x + 6).toFixed(1)}" y="${(b.y + 6 + (i + 0.8) * LINE_HEIGHT).toFixed(1)}">${esc(line)}</text>`));
    out.push(`</g>`);
  }
  out.push(`</svg>`);
  return out.join("\n");
}
