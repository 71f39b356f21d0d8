// The Backward Graph's layout: GraphGetResult -> boxes and edge routes, with elkjs's layered
// algorithm, drawn the way torchviz draws (make_dot): top-down, inputs above what uses them — leaves
// (AccumulateGrad's variables) light blue at the top, backward Nodes light grey, the root (the
// tensor's grad_fn) green at the bottom. Pure (no DOM): the webview runs it, the tests time it.
//
// Big graphs: past `collapseAbove` nodes, chains of single-input single-output Nodes fold into one
// "N Nodes" box, so ELK and the canvas see a few hundred boxes instead of thousands.

import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkNode } from "elkjs/lib/elk-api.js";
import type { GraphEdge, GraphGetResult, GraphNode } from "../../host/protocol.js";

export type BoxKind = "leaf" | "op" | "root" | "collapsed";

export interface Box {
  /** The GraphNode id, or the first id of a collapsed chain. */
  id: number;
  kind: BoxKind;
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
  /** The graph nodes the box stands for (one, or a collapsed chain's). */
  nodes: number[];
}

export interface Route {
  from: number;
  to: number;
  points: { x: number; y: number }[];
}

export interface Layout {
  boxes: Box[];
  routes: Route[];
  width: number;
  height: number;
  /** Graph nodes folded into collapsed boxes. */
  collapsedNodes: number;
}

export const LINE_HEIGHT = 14;
export const CHAR_WIDTH = 7;
const PADDING = 6;

/** The text of a box, as torchviz labels: class name, then saved tensors (or the leaf's shape and .grad). */
export function boxLines(node: GraphNode): string[] {
  if (node.variable) {
    const v = node.variable;
    const lines = [`(${v.shape.join(", ")})`, v.dtype.replace(/^torch\./, "")];
    if (v.grad) lines.push(`.grad ${firstLine(v.grad.repr)}`);
    return lines;
  }
  const lines = [node.name];
  for (const s of node.saved) lines.push(`${s.name}: (${s.shape.join(", ")}) ${s.dtype.replace(/^torch\./, "")} v${s.version}`);
  return lines;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0];
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}

function sizeOf(lines: string[]): { width: number; height: number } {
  const longest = Math.max(...lines.map((l) => l.length));
  return { width: Math.max(40, longest * CHAR_WIDTH + 2 * PADDING), height: lines.length * LINE_HEIGHT + 2 * PADDING };
}

interface Group {
  id: number;
  kind: BoxKind;
  lines: string[];
  nodes: number[];
}

/**
 * Folds chains: a node with exactly one input edge and one output edge, whose neighbour along the
 * chain is the same, joins its predecessor's group. Leaves and the root stay boxes of their own.
 */
export function collapseChains(graph: GraphGetResult): { groups: Group[]; edges: { from: number; to: number }[]; groupOf: Map<number, number> } {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const outs = new Map<number, number[]>(); // node -> its next nodes (edges from -> to)
  const ins = new Map<number, number[]>();
  for (const e of graph.edges) {
    if (!byId.has(e.from) || !byId.has(e.to)) continue;
    (outs.get(e.from) ?? outs.set(e.from, []).get(e.from)!).push(e.to);
    (ins.get(e.to) ?? ins.set(e.to, []).get(e.to)!).push(e.from);
  }
  const chainable = (id: number) => {
    const n = byId.get(id)!;
    return !n.variable && id !== graph.root && (outs.get(id)?.length ?? 0) === 1 && (ins.get(id)?.length ?? 0) === 1;
  };
  const groupOf = new Map<number, number>();
  const groups: Group[] = [];
  for (const n of graph.nodes) {
    if (groupOf.has(n.id)) continue;
    if (!chainable(n.id)) {
      groups.push({ id: n.id, kind: kindOf(n, graph.root), lines: boxLines(n), nodes: [n.id] });
      groupOf.set(n.id, n.id);
      continue;
    }
    // Walk back to the chain's start, then forward while the chain continues.
    let start = n.id;
    for (let p = ins.get(start)![0]; chainable(p) && !groupOf.has(p) && outs.get(p)![0] === start; p = ins.get(p)![0]) start = p;
    const members: number[] = [];
    for (let c: number | undefined = start; c !== undefined && chainable(c) && !groupOf.has(c); ) {
      members.push(c);
      groupOf.set(c, start);
      const next: number = outs.get(c)![0];
      c = ins.get(next)?.length === 1 ? next : undefined;
    }
    const names = [...new Set(members.map((m) => byId.get(m)!.name))];
    groups.push(
      members.length === 1
        ? { id: start, kind: "op", lines: boxLines(byId.get(start)!), nodes: members }
        : { id: start, kind: "collapsed", lines: [`${members.length} Nodes`, names.slice(0, 3).join(", ") + (names.length > 3 ? ", …" : "")], nodes: members },
    );
  }
  const seen = new Set<string>();
  const edges: { from: number; to: number }[] = [];
  for (const e of graph.edges) {
    const from = groupOf.get(e.from);
    const to = groupOf.get(e.to);
    if (from === undefined || to === undefined || from === to) continue;
    const key = `${from}>${to}`;
    if (!seen.has(key)) {
      seen.add(key);
      edges.push({ from, to });
    }
  }
  return { groups, edges, groupOf };
}

function kindOf(n: GraphNode, root: number | null): BoxKind {
  if (n.variable) return "leaf";
  return n.id === root ? "root" : "op";
}

export interface LayoutOptions {
  /** Fold chains when the graph has more nodes than this. */
  collapseAbove?: number;
  /** Boxes past which ELK (seconds for thousands of boxes) gives way to the linear-time layering below. */
  elkLimit?: number;
}

const elk = new ELK();
/** ELK's layered layout took 0.6–0.8 s for 63 boxes, 1.4 s for 127 and 13 s for 2,000 on this shared 2-core machine: past this, fastLayered. */
export const ELK_LIMIT = 40;

/** Lays the graph out top-down: an edge runs from a Node's next Node (its input) down to it. */
export async function layoutGraph(graph: GraphGetResult, options: LayoutOptions = {}): Promise<Layout> {
  const collapse = graph.nodes.length > (options.collapseAbove ?? 400);
  const { groups, edges } = collapse
    ? collapseChains(graph)
    : {
        groups: graph.nodes.map((n) => ({ id: n.id, kind: kindOf(n, graph.root), lines: boxLines(n), nodes: [n.id] })),
        edges: dedupe(graph.edges),
      };
  const ids = new Set(groups.map((g) => g.id));
  if (groups.length > (options.elkLimit ?? ELK_LIMIT)) return fastLayered(groups, edges.filter((e) => ids.has(e.from) && ids.has(e.to)), graph.root);
  const elkGraph: ElkNode = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "DOWN",
      "elk.layered.spacing.nodeNodeBetweenLayers": "24",
      "elk.spacing.nodeNode": "16",
      "elk.edgeRouting": "POLYLINE",
    },
    children: groups.map((g) => ({ id: String(g.id), ...sizeOf(g.lines) })),
    // Input (the next Node) above the Node that uses it, as torchviz draws.
    edges: edges.filter((e) => ids.has(e.from) && ids.has(e.to)).map((e, i) => ({ id: `e${i}`, sources: [String(e.to)], targets: [String(e.from)] })),
  };
  const laid = await elk.layout(elkGraph);
  const pos = new Map((laid.children ?? []).map((c) => [Number(c.id), c]));
  const boxes: Box[] = groups.map((g) => {
    const c = pos.get(g.id)!;
    return { id: g.id, kind: g.kind, x: c.x ?? 0, y: c.y ?? 0, width: c.width ?? 0, height: c.height ?? 0, lines: g.lines, nodes: g.nodes };
  });
  const routes: Route[] = (laid.edges ?? []).map((e) => {
    const s = e.sections?.[0];
    const points = s ? [s.startPoint, ...(s.bendPoints ?? []), s.endPoint] : [];
    return { from: Number(e.targets[0]), to: Number(e.sources[0]), points };
  });
  return {
    boxes,
    routes,
    width: laid.width ?? 0,
    height: laid.height ?? 0,
    collapsedNodes: boxes.filter((b) => b.kind === "collapsed").reduce((n, b) => n + b.nodes.length, 0),
  };
}

const LAYER_GAP = 28;
const NODE_GAP = 16;

/**
 * A layered layout in linear time for big graphs: each box's layer is its longest path from the
 * root (so every edge points up), layers are ordered by the mean position of the boxes that use
 * them (one sweep from the root), packed left to right and centred; edges are straight lines.
 */
export function fastLayered(groups: Group[], edges: { from: number; to: number }[], root: number | null): Layout {
  const index = new Map(groups.map((g, i) => [g.id, i]));
  const sizes = groups.map((g) => sizeOf(g.lines));
  const outs: number[][] = groups.map(() => []);
  const ins: number[][] = groups.map(() => []);
  const indeg = new Array<number>(groups.length).fill(0);
  for (const e of edges) {
    const a = index.get(e.from)!;
    const b = index.get(e.to)!;
    outs[a].push(b);
    ins[b].push(a);
    indeg[b]++;
  }
  // Longest-path layering in topological order (Kahn); the graph is a DAG.
  const layer = new Array<number>(groups.length).fill(0);
  const queue: number[] = [];
  for (let i = 0; i < groups.length; i++) if (indeg[i] === 0) queue.push(i);
  const topo: number[] = [];
  for (let q = 0; q < queue.length; q++) {
    const a = queue[q];
    topo.push(a);
    for (const b of outs[a]) {
      layer[b] = Math.max(layer[b], layer[a] + 1);
      if (--indeg[b] === 0) queue.push(b);
    }
  }
  const depth = Math.max(0, ...layer);
  const layers: number[][] = Array.from({ length: depth + 1 }, () => []);
  const order = new Array<number>(groups.length).fill(0);
  for (const a of topo) {
    // Order a layer by the mean slot of the boxes using it (already placed: they sit in lower layers).
    const users = ins[a];
    order[a] = users.length ? users.reduce((s, u) => s + order[u], 0) / users.length : layers[layer[a]].length;
    layers[layer[a]].push(a);
  }
  const x = new Array<number>(groups.length).fill(0);
  const y = new Array<number>(groups.length).fill(0);
  let width = 0;
  const rowWidths = layers.map((row) => {
    row.sort((p, q) => order[p] - order[q]);
    row.forEach((a, slot) => (order[a] = slot));
    return row.reduce((w, a) => w + sizes[a].width + NODE_GAP, -NODE_GAP);
  });
  width = Math.max(0, ...rowWidths);
  // The root's layer (0) at the bottom, inputs above it.
  let top = 0;
  for (let l = depth; l >= 0; l--) {
    const row = layers[l];
    let left = (width - rowWidths[l]) / 2;
    const rowHeight = Math.max(0, ...row.map((a) => sizes[a].height));
    for (const a of row) {
      x[a] = left;
      y[a] = top;
      left += sizes[a].width + NODE_GAP;
    }
    top += rowHeight + LAYER_GAP;
  }
  const boxes: Box[] = groups.map((g, i) => ({ id: g.id, kind: g.kind, x: x[i], y: y[i], width: sizes[i].width, height: sizes[i].height, lines: g.lines, nodes: g.nodes }));
  const routes: Route[] = edges.map((e) => {
    const a = index.get(e.from)!;
    const b = index.get(e.to)!;
    return { from: e.from, to: e.to, points: [{ x: x[b] + sizes[b].width / 2, y: y[b] + sizes[b].height }, { x: x[a] + sizes[a].width / 2, y: y[a] }] };
  });
  void root;
  return { boxes, routes, width, height: Math.max(0, top - LAYER_GAP), collapsedNodes: boxes.filter((b) => b.kind === "collapsed").reduce((n, b) => n + b.nodes.length, 0) };
}

function dedupe(edges: GraphEdge[]): { from: number; to: number }[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const key = `${e.from}>${e.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The box under a point (hit testing for clicks), or undefined. */
export function boxAt(layout: Layout, x: number, y: number): Box | undefined {
  return layout.boxes.find((b) => x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height);
}
