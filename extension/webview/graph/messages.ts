// The messages between the Backward Graph webview and the extension, with validators used on both
// sides: the webview checks what the extension posts, the extension checks what the webview posts
// (a webview is a web page; nothing it sends is trusted as-is).

import type { GraphGetResult } from "../../host/protocol.js";

/** Extension -> webview. */
export type ToGraphView =
  | { type: "graph"; title: string; graph: GraphGetResult; readOnly: boolean }
  | { type: "empty"; message: string };

/** Webview -> extension. */
export type FromGraphView =
  | { type: "ready" }
  /** A box was clicked: the Node's id. */
  | { type: "select"; node: number }
  /** The drawing as SVG text, for "Export SVG". */
  | { type: "svg"; svg: string };

const MAX_SVG = 20 * 1024 * 1024;
const MAX_TEXT = 10_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);
const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === "string" && v.length <= max;
const isIntArray = (v: unknown): v is number[] => Array.isArray(v) && v.every(isInt);

export function parseFromGraphView(msg: unknown): FromGraphView | undefined {
  if (!isObject(msg)) return undefined;
  switch (msg.type) {
    case "ready":
      return { type: "ready" };
    case "select":
      return isInt(msg.node) ? { type: "select", node: msg.node } : undefined;
    case "svg":
      return isText(msg.svg, MAX_SVG) && msg.svg.startsWith("<svg") ? { type: "svg", svg: msg.svg } : undefined;
    default:
      return undefined;
  }
}

export function parseToGraphView(msg: unknown): ToGraphView | undefined {
  if (!isObject(msg)) return undefined;
  if (msg.type === "empty") return isText(msg.message) ? { type: "empty", message: msg.message } : undefined;
  if (msg.type !== "graph" || !isText(msg.title) || typeof msg.readOnly !== "boolean" || !isGraph(msg.graph)) return undefined;
  return { type: "graph", title: msg.title, graph: msg.graph, readOnly: msg.readOnly };
}

function isGraph(g: unknown): g is GraphGetResult {
  if (!isObject(g) || !(g.root === null || isInt(g.root)) || typeof g.truncated !== "boolean") return false;
  if (!Array.isArray(g.nodes) || !Array.isArray(g.edges)) return false;
  return g.nodes.every(isNode) && g.edges.every((e) => isObject(e) && isInt(e.from) && isInt(e.to) && isInt(e.input_nr));
}

function isNode(n: unknown): boolean {
  if (!isObject(n) || !isInt(n.id) || !isText(n.name) || !isInt(n.sequence_nr) || !Array.isArray(n.saved)) return false;
  if (!n.saved.every((s) => isObject(s) && isText(s.name) && isIntArray(s.shape) && isText(s.dtype) && isInt(s.version))) return false;
  if (n.formula !== undefined && !isText(n.formula)) return false;
  if (n.callSite !== undefined && !isText(n.callSite)) return false;
  if (n.variable !== undefined) {
    const v = n.variable;
    if (!isObject(v) || !isInt(v.handle) || !isIntArray(v.shape) || !isText(v.dtype)) return false;
    if (v.grad !== undefined && !(isObject(v.grad) && isInt(v.grad.handle) && isText(v.grad.repr))) return false;
  }
  return true;
}
