// Where each autograd Node was made: the user's cell line of the forward call whose Autograd kernel
// created it (GraphNode.callSite). Read from the trace the host records anyway — a call event
// carries the user's call site, a Node-created event names its call — so it is known for Nodes made
// while tracing is on; anomaly mode's own record (Node.forward_call_site) covers the rest.

import type { SourceLocation, TraceEvent } from "../../engine/trace/events.js";
import type { Node } from "../../engine/autograd/function.js";
import { traced_node_id } from "../../engine/autograd/trace_events.js";

/** Nodes remembered at most (oldest forgotten first): a long session makes many. */
const MAX_NODES = 200_000;

export class NodeSites {
  /** This run's calls: call id -> the user's line (a nested call inherits its parent's). */
  private calls = new Map<number, SourceLocation | null>();
  /** Trace NodeRef id -> call site. NodeRef ids are never reused within the process. */
  private readonly nodes = new Map<number, SourceLocation>();

  /** A new recording starts: call ids (= seq) start again. */
  startRun(): void {
    this.calls = new Map();
  }

  readonly observe = (e: TraceEvent): void => {
    if (e.type === "call") {
      this.calls.set(e.id, e.callSite ?? (e.parent !== null ? (this.calls.get(e.parent) ?? null) : null));
    } else if (e.type === "autograd.node" && e.call !== null) {
      const site = this.calls.get(e.call);
      if (!site) return;
      this.nodes.set(e.node.id, site);
      if (this.nodes.size > MAX_NODES) this.nodes.delete(this.nodes.keys().next().value!);
    }
  };

  /** "file:line:column" of the forward call that made `fn`, when known. */
  of(fn: Node): string | undefined {
    const id = traced_node_id(fn);
    const site = (id !== undefined ? this.nodes.get(id) : undefined) ?? fn.forward_call_site;
    return site ? `${site.file}:${site.line}:${site.column}` : undefined;
  }
}
