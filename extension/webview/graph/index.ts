// The Backward Graph webview: receives a GraphGetResult from the extension (validated), lays it out
// (layout.ts: ELK or the fast layering) and draws it on one canvas (draw.ts). Drag pans, the wheel
// zooms, a click selects a Node and shows its details (class, saved tensors with shape, dtype and
// version, the derivative formula, next edges, a leaf's .grad). Nothing here runs user code.

import type { GraphGetResult, GraphNode } from "../../host/protocol.js";
import { drawLayout, fitView, type View } from "./draw.js";
import { boxAt, layoutGraph, type Layout } from "./layout.js";
import { parseToGraphView, type FromGraphView } from "./messages.js";
import { layoutToSvg } from "./svg.js";

declare function acquireVsCodeApi(): { postMessage(msg: FromGraphView): void };
const vscode = acquireVsCodeApi();

const canvasHost = document.getElementById("graph-canvas")!;
const details = document.getElementById("graph-details")!;
const status = document.getElementById("graph-status")!;
const title = document.getElementById("graph-title")!;
// "Go to a node": the boxes by name, for finding one in a big graph without a mouse hunt.
const finder = document.getElementById("graph-find") as HTMLSelectElement;
const MAX_FINDER_ENTRIES = 2000;
const canvas = document.createElement("canvas");
canvasHost.appendChild(canvas);
const ctx = canvas.getContext("2d")!;

let graph: GraphGetResult | undefined;
let layout: Layout | undefined;
let view: Pick<View, "x" | "y" | "scale" | "selected"> = { x: 0, y: 0, scale: 1 };
let generation = 0;

function themeColour(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function redraw(): number {
  const ratio = window.devicePixelRatio || 1;
  const width = canvasHost.clientWidth;
  const height = canvasHost.clientHeight;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  if (!layout) {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    return 0;
  }
  return drawLayout(ctx, layout, {
    ...view,
    width,
    height,
    ratio,
    edge: themeColour("--vscode-editor-foreground", "#888"),
    text: "#000",
    focus: themeColour("--vscode-focusBorder", "#06f"),
  });
}

function describe(node: GraphNode, g: GraphGetResult): string {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const lines = [node.name, `sequence_nr: ${node.sequence_nr}`];
  if (node.callSite) lines.push(`created at ${node.callSite}`);
  if (node.variable) {
    lines.push(`leaf: shape (${node.variable.shape.join(", ")}), ${node.variable.dtype}`);
    lines.push(node.variable.grad ? `.grad:\n${node.variable.grad.repr}` : ".grad: None");
  }
  if (node.saved.length) {
    lines.push("saved tensors:");
    for (const s of node.saved) lines.push(`  _saved_${s.name}: (${s.shape.join(", ")}) ${s.dtype} version ${s.version}`);
  }
  if (node.formula) lines.push(`formula:\n${node.formula.replace(/^/gm, "  ")}`);
  const next = g.edges.filter((e) => e.from === node.id).sort((a, b) => a.input_nr - b.input_nr);
  if (next.length) lines.push(`next_functions:\n${next.map((e) => `  (${byId.get(e.to)?.name ?? "?"}, ${e.input_nr})`).join("\n")}`);
  return lines.join("\n");
}

async function show(g: GraphGetResult, name: string): Promise<void> {
  const mine = ++generation;
  graph = g;
  title.textContent = name;
  status.textContent = `laying out ${g.nodes.length} nodes…`;
  const t0 = performance.now();
  const laid = await layoutGraph(g);
  if (mine !== generation) return; // a newer graph arrived meanwhile
  const t1 = performance.now();
  layout = laid;
  const fit = fitView(laid, canvasHost.clientWidth, canvasHost.clientHeight);
  const keep = view.selected !== undefined && g.nodes.some((n) => n.id === view.selected);
  view = { ...fit, selected: keep ? view.selected : undefined };
  const drawn = redraw();
  const t2 = performance.now();
  canvas.dataset.nodes = String(g.nodes.length);
  canvas.dataset.boxes = String(laid.boxes.length);
  status.textContent =
    `${g.nodes.length} nodes${g.truncated ? " (truncated)" : ""}, ${drawn} boxes drawn` +
    `${laid.collapsedNodes ? `, ${laid.collapsedNodes} folded into chains` : ""}; layout ${Math.round(t1 - t0)} ms, draw ${Math.round(t2 - t1)} ms`;
  details.textContent = view.selected !== undefined ? describe(g.nodes.find((n) => n.id === view.selected)!, g) : "Click a node for its details.";
  fillFinder(laid);
}

function fillFinder(laid: Layout): void {
  const options = [new Option(`Go to a node (${laid.boxes.length})…`, "")];
  for (const box of laid.boxes.slice(0, MAX_FINDER_ENTRIES)) options.push(new Option(`${box.lines[0]} #${box.id}`, String(box.id)));
  finder.replaceChildren(...options);
}

/** Selects a box: its details, the extension told (it opens the Node's call site), the view centred on it. */
function selectBox(box: Layout["boxes"][number], centre: boolean): void {
  if (!graph || !layout) return;
  view.selected = box.id;
  const node = graph.nodes.find((n) => n.id === box.id)!;
  details.textContent = box.nodes.length > 1 ? `${box.nodes.length} Nodes folded into a chain:\n${box.lines[1]}\n\n${describe(node, graph)}` : describe(node, graph);
  vscode.postMessage({ type: "select", node: box.id });
  if (centre) {
    view.x = box.x + box.width / 2 - canvasHost.clientWidth / 2 / view.scale;
    view.y = box.y + box.height / 2 - canvasHost.clientHeight / 2 / view.scale;
  }
  redraw();
}

finder.addEventListener("change", () => {
  const box = layout?.boxes.find((b) => String(b.id) === finder.value);
  if (box) selectBox(box, true);
});

window.addEventListener("message", (event) => {
  const msg = parseToGraphView(event.data);
  if (!msg) return; // not ours, or malformed
  if (msg.type === "empty") {
    generation++;
    graph = undefined;
    layout = undefined;
    title.textContent = "";
    status.textContent = msg.message;
    details.textContent = "";
    finder.replaceChildren();
    canvas.dataset.nodes = "0";
    redraw();
    return;
  }
  void show(msg.graph, msg.title);
});

// Pan with the mouse, zoom with the wheel (around the pointer).
let drag: { x: number; y: number; moved: boolean } | undefined;
canvas.addEventListener("mousedown", (e) => (drag = { x: e.clientX, y: e.clientY, moved: false }));
window.addEventListener("mouseup", (e) => {
  if (drag && !drag.moved && layout && graph) {
    const rect = canvas.getBoundingClientRect();
    const box = boxAt(layout, view.x + (e.clientX - rect.left) / view.scale, view.y + (e.clientY - rect.top) / view.scale);
    if (box) selectBox(box, false);
    else {
      view.selected = undefined;
      redraw();
    }
  }
  drag = undefined;
});
window.addEventListener("mousemove", (e) => {
  if (!drag) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
  view.x -= dx / view.scale;
  view.y -= dy / view.scale;
  drag.x = e.clientX;
  drag.y = e.clientY;
  redraw();
});
canvas.addEventListener(
  "wheel",
  (e) => {
    e.preventDefault();
    const rect = canvas.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    const gx = view.x + px / view.scale;
    const gy = view.y + py / view.scale;
    view.scale = Math.min(4, Math.max(0.02, view.scale * Math.exp(-e.deltaY / 400)));
    view.x = gx - px / view.scale;
    view.y = gy - py / view.scale;
    redraw();
  },
  { passive: false },
);
document.getElementById("graph-fit")!.addEventListener("click", () => {
  if (!layout) return;
  view = { ...fitView(layout, canvasHost.clientWidth, canvasHost.clientHeight), selected: view.selected };
  redraw();
});
document.getElementById("graph-svg")!.addEventListener("click", () => {
  if (layout) vscode.postMessage({ type: "svg", svg: layoutToSvg(layout) });
});
new ResizeObserver(() => redraw()).observe(canvasHost);

vscode.postMessage({ type: "ready" });
