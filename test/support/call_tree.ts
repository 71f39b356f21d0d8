// The recorded calls as a tree of op names (children = the ops a kernel called), the shape in which
// the fixtures store PyTorch's profiler tree, so a decomposition can be compared with PyTorch's.
import { it, expect } from "vitest";
import * as torch from "../../engine/index.js";
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

/**
 * One `it` per tree PyTorch's profiler recorded (fixture `trees`): running `calls[name]()`'s function
 * under the trace gives the same tree, both pruned by `prune` (below ops whose internals are loops
 * here); and every recorded tree has a call.
 */
export function itMatchesPyTorchTrees(
  trees: readonly { name: string; tree: CallNode[] }[],
  calls: Record<string, () => () => unknown>,
  prune: (nodes: CallNode[]) => CallNode[] = (nodes) => nodes,
  skip: ReadonlySet<string> = new Set(),
): void {
  for (const d of trees) {
    (skip.has(d.name) ? it.skip : it)(d.name, () => {
      const { events } = torch.trace.record(calls[d.name]());
      expect(prune(callTree(events))).toEqual(prune(d.tree));
    });
  }
  it("every tree in the fixture is exercised", () => {
    expect(Object.keys(calls).sort()).toEqual(trees.map((d) => d.name).sort());
  });
}
