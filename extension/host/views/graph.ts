// The Backward Graph view's data: the grad_fn Nodes reachable from a tensor through
// next_functions, each with its sequence_nr, its saved tensors (the Node's `_saved_*` fields, as
// PyTorch exposes them), the derivatives.yaml formula it evaluates, and for AccumulateGrad the leaf
// variable and its .grad.

import { Tensor } from "../../../engine/aten/core/Tensor.js";
import { Node } from "../../../engine/autograd/function.js";
import { AccumulateGrad } from "../../../engine/autograd/functions/accumulate_grad.js";
import type { GraphEdge, GraphGetResult, GraphNode } from "../protocol.js";
import type { HandleRegistry } from "../handles.js";
import type { DerivativeFormulas } from "./derivative_formulas.js";
import type { NodeSites } from "../node_sites.js";

const nodeIds = new WeakMap<Node, number>();
let nextNodeId = 1;

function idOf(n: Node): number {
  let id = nodeIds.get(n);
  if (id === undefined) {
    id = nextNodeId++;
    nodeIds.set(n, id);
  }
  return id;
}

/** The names of a Node's `_saved_*` getters (generated Node classes define them on their prototype). */
function savedFieldNames(n: Node): string[] {
  const names: string[] = [];
  for (let p = Object.getPrototypeOf(n); p && p !== Node.prototype; p = Object.getPrototypeOf(p)) {
    for (const k of Object.getOwnPropertyNames(p)) if (k.startsWith("_saved_") && !names.includes(k)) names.push(k);
  }
  return names;
}

function savedTensors(n: Node): GraphNode["saved"] {
  const out: GraphNode["saved"] = [];
  for (const field of savedFieldNames(n)) {
    let v: unknown;
    try {
      v = (n as unknown as Record<string, unknown>)[field];
    } catch {
      continue; // freed by a backward pass without retain_graph: PyTorch raises here too
    }
    const name = field.slice("_saved_".length);
    const add = (t: Tensor, label: string) => out.push({ name: label, shape: [...t.shape], dtype: String(t.dtype), version: t._version });
    if (v instanceof Tensor) add(v, name);
    else if (Array.isArray(v)) v.forEach((t, i) => t instanceof Tensor && add(t, `${name}[${i}]`));
  }
  return out;
}

export function buildGraph(root: Tensor, maxNodes: number, tensors: HandleRegistry<Tensor>, formulas: DerivativeFormulas, sites?: NodeSites): GraphGetResult {
  const start = root.grad_fn;
  if (!start) return { root: null, nodes: [], edges: [], truncated: false };
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const seen = new Set<Node>([start]);
  const queue: Node[] = [start];
  let truncated = false;
  while (queue.length > 0) {
    const n = queue.shift()!;
    if (nodes.length >= maxNodes) {
      truncated = true;
      break;
    }
    const g: GraphNode = { id: idOf(n), name: n.name(), sequence_nr: n.sequence_nr, saved: savedTensors(n) };
    const formula = formulas.forNode(g.name);
    if (formula) g.formula = formula;
    const site = sites?.of(n);
    if (site) g.callSite = site;
    if (n instanceof AccumulateGrad) {
      const v = n.variable;
      g.variable = { handle: tensors.handleOf(v), shape: [...v.shape], dtype: String(v.dtype) };
      const grad = v.grad;
      if (grad) g.variable.grad = { handle: tensors.handleOf(grad), repr: String(grad) };
    }
    nodes.push(g);
    for (const [next, input_nr] of n.next_functions) {
      if (!next) continue;
      edges.push({ from: g.id, to: idOf(next), input_nr });
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  if (truncated) {
    const kept = new Set(nodes.map((n) => n.id));
    return { root: idOf(start), nodes, edges: edges.filter((e) => kept.has(e.to)), truncated };
  }
  return { root: idOf(start), nodes, edges, truncated };
}
