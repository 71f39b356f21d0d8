// The Backward Graph's layout and drawing: the graph the engine host gave for (a*b).sum()
// (fixtures/graph_mul_sum.json), and timings for 2,000-node chains and trees.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { GraphGetResult, GraphNode } from "../../../extension/host/protocol.js";
import { drawLayout, fitView, FILL, type Canvas2D } from "../../../extension/webview/graph/draw.js";
import { boxAt, collapseChains, layoutGraph } from "../../../extension/webview/graph/layout.js";

const mulSum = JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures/graph_mul_sum.json"), "utf8")) as GraphGetResult;

/** Records what the drawing does (no canvas in Node): fills by colour, rects, texts. */
class Recorder implements Canvas2D {
  fillStyle = "";
  strokeStyle = "";
  lineWidth = 1;
  font = "";
  textBaseline: CanvasTextBaseline = "top";
  rects: { x: number; y: number; fill: string }[] = [];
  texts: string[] = [];
  lines = 0;
  save() {}
  restore() {}
  setTransform() {}
  clearRect() {}
  beginPath() {}
  moveTo() {}
  lineTo() {
    this.lines++;
  }
  rect(x: number, y: number) {
    this.rects.push({ x, y, fill: String(this.fillStyle) });
  }
  fill() {}
  stroke() {}
  fillText(text: string) {
    this.texts.push(text);
  }
}

const theme = { edge: "#888", text: "#000", focus: "#06f", ratio: 1 };

function node(id: number, name: string, extra: Partial<GraphNode> = {}): GraphNode {
  return { id, name, sequence_nr: id, saved: [], ...extra };
}

/** y = x; for i < n: y = y.exp() — a chain of n ExpBackward0 over one leaf. */
function chain(n: number): GraphGetResult {
  const nodes = [node(n + 1, "AccumulateGrad", { variable: { handle: 1, shape: [3], dtype: "torch.float32" } })];
  const edges = [];
  for (let i = 1; i <= n; i++) {
    nodes.push(node(i, "ExpBackward0", { saved: [{ name: "result", shape: [3], dtype: "torch.float32", version: 0 }] }));
    edges.push({ from: i, to: i < n ? i + 1 : n + 1, input_nr: 0 });
  }
  return { root: 1, nodes, edges, truncated: false };
}

/** A binary tree of AddBackward0 with 2^k leaves: (((l0+l1)+(l2+l3))+...). */
function tree(leaves: number): GraphGetResult {
  const nodes: GraphNode[] = [];
  const edges = [];
  let id = 0;
  let level = Array.from({ length: leaves }, () => {
    const n = node(++id, "AccumulateGrad", { variable: { handle: id, shape: [2, 2], dtype: "torch.float32" } });
    nodes.push(n);
    return n.id;
  });
  while (level.length > 1) {
    const next = [];
    for (let i = 0; i < level.length; i += 2) {
      const n = node(++id, "AddBackward0");
      nodes.push(n);
      edges.push({ from: n.id, to: level[i], input_nr: 0 }, { from: n.id, to: level[i + 1], input_nr: 1 });
      next.push(n.id);
    }
    level = next;
  }
  return { root: level[0], nodes, edges, truncated: false };
}

describe("backward graph layout", () => {
  it("lays out (a*b).sum() top-down as torchviz does: leaves above, the root at the bottom", async () => {
    const layout = await layoutGraph(mulSum);
    const byName = (name: string) => layout.boxes.filter((b) => b.lines[0] === name || mulSum.nodes.find((n) => n.id === b.id)?.name === name);
    const [sum] = byName("SumBackward0");
    const [mul] = byName("MulBackward0");
    const leaves = layout.boxes.filter((b) => b.kind === "leaf");
    expect(sum.kind).toBe("root");
    expect(mul.kind).toBe("op");
    expect(leaves).toHaveLength(2);
    for (const leaf of leaves) expect(leaf.y + leaf.height).toBeLessThanOrEqual(mul.y);
    expect(mul.y + mul.height).toBeLessThanOrEqual(sum.y);
    // A leaf shows its shape, dtype and .grad.
    expect(leaves.map((l) => l.lines)).toContainEqual(["(3)", "float32", ".grad tensor([4.5000, 5.0000, 6.0000])"]);
    expect(layout.routes).toHaveLength(3);
    expect(boxAt(layout, sum.x + 1, sum.y + 1)?.id).toBe(sum.id);
    expect(boxAt(layout, -50, -50)).toBeUndefined();
  });

  it("draws boxes in torchviz's colours with their text", async () => {
    const layout = await layoutGraph(mulSum);
    const ctx = new Recorder();
    const view = { ...theme, ...fitView(layout, 800, 600), width: 800, height: 600 };
    expect(drawLayout(ctx, layout, view)).toBe(4);
    const fills = ctx.rects.filter((r) => r.fill !== "").map((r) => r.fill);
    expect(fills.filter((f) => f === FILL.leaf)).toHaveLength(2);
    expect(fills.filter((f) => f === FILL.root)).toHaveLength(1);
    expect(ctx.texts).toContain("MulBackward0");
  });

  it("folds chains past the threshold, keeping leaves and the root", () => {
    const { groups, edges } = collapseChains(chain(10));
    expect(groups.map((g) => g.kind).sort()).toEqual(["collapsed", "leaf", "root"]);
    expect(groups.find((g) => g.kind === "collapsed")!.lines).toEqual(["9 Nodes", "ExpBackward0"]);
    expect(edges).toHaveLength(2);
  });

  it("lays big graphs out in layers without ELK: every edge from an input above to its user below", async () => {
    const layout = await layoutGraph(tree(512));
    const byId = new Map(layout.boxes.map((b) => [b.id, b]));
    expect(layout.routes).toHaveLength(1022);
    for (const r of layout.routes) expect(byId.get(r.to)!.y + byId.get(r.to)!.height).toBeLessThan(byId.get(r.from)!.y);
    // No two boxes of a layer overlap.
    const rows = new Map<number, typeof layout.boxes>();
    for (const b of layout.boxes) rows.set(b.y, [...(rows.get(b.y) ?? []), b]);
    for (const row of rows.values()) {
      const sorted = [...row].sort((a, b) => a.x - b.x);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i].x).toBeGreaterThanOrEqual(sorted[i - 1].x + sorted[i - 1].width);
    }
  });

  // The times are printed for reading (the fast layering measured ~50–120 ms for 2,000 nodes here; ELK,
  // used only for small graphs, 0.1–0.8 s), not asserted: speed belongs in bench/, not in a timed test.
  for (const [name, graph, options] of [
    ["a 2,000-node chain (folded)", chain(1999), {}],
    ["a 2,000-node chain, not folded", chain(1999), { collapseAbove: Infinity }],
    ["a 2,047-node tree", tree(1024), {}],
    ["a 31-node tree by ELK", tree(16), {}],
  ] as const) {
    it(`lays out and draws ${name}`, async () => {
      const t0 = performance.now();
      const layout = await layoutGraph(graph, options);
      const t1 = performance.now();
      const ctx = new Recorder();
      const fit = fitView(layout, 1200, 800);
      const drawn = drawLayout(ctx, layout, { ...theme, ...fit, width: 1200, height: 800 });
      const t2 = performance.now();
      console.log(`graph timing: ${name}: ${graph.nodes.length} nodes -> ${layout.boxes.length} boxes; layout ${(t1 - t0).toFixed(0)} ms, draw ${(t2 - t1).toFixed(1)} ms (${drawn} boxes drawn)`);
      expect(drawn).toBe(layout.boxes.length);
      expect(layout.boxes.reduce((n, b) => n + b.nodes.length, 0)).toBe(graph.nodes.length);
    }, 20_000);
  }
});
