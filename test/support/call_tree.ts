// The recorded calls as a tree of op names (children = the ops a kernel called), the shape in which
// the fixtures store PyTorch's profiler tree, so a decomposition can be compared with PyTorch's.
import type { CallEvent, TraceEvent } from "../../engine/trace/events.js";

export type CallNode = { op: string; children: CallNode[] };

export function callTree(events: readonly TraceEvent[]): CallNode[] {
  const nodes = new Map<number, CallNode>();
  const roots: CallNode[] = [];
  for (const e of events) {
    if (e.type !== "call") continue;
    const c = e as CallEvent;
    const n: CallNode = { op: c.op, children: [] };
    nodes.set(c.id, n);
    (c.parent === null ? roots : nodes.get(c.parent)!.children).push(n);
  }
  return roots;
}
