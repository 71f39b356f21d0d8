// Exports of the Dispatch Trace: the runs' events as JSON lines (the engine's JSONL trace format:
// a header line, then one event per line) and the tree as Markdown. Pure.

import { TRACE_SCHEMA_VERSION, type TraceEvent, type TraceHeader } from "../../../../engine/trace/events.js";
import type { TraceNode } from "./trace_model.js";

export function toJsonLines(events: readonly TraceEvent[], header: Omit<TraceHeader, "schemaVersion" | "type" | "engine"> | undefined): string {
  const head: TraceHeader = {
    type: "header",
    schemaVersion: TRACE_SCHEMA_VERSION,
    engine: "glasstorch",
    timeOrigin: header?.timeOrigin ?? 0,
    createdAt: header?.createdAt ?? new Date().toISOString(),
    capacity: header?.capacity ?? events.length,
    dropped: header?.dropped ?? 0,
  };
  return [head, ...events].map((e) => JSON.stringify(e)).join("\n") + "\n";
}

/** The tree as a nested Markdown list: label, then the description in italics, PyTorch refs as code. */
export function toMarkdown(roots: readonly TraceNode[], title = "Glasstorch dispatch trace"): string {
  const out = [`# ${title}`, ""];
  const walk = (n: TraceNode, depth: number) => {
    const indent = "  ".repeat(depth);
    const desc = n.description ? ` — *${escapeMd(n.description)}*` : "";
    out.push(`${indent}- ${depth === 0 ? "**" : ""}${escapeMd(n.label)}${depth === 0 ? "**" : ""}${desc}`);
    for (const c of n.children) walk(c, depth + 1);
  };
  for (const r of roots) walk(r, 0);
  return out.join("\n") + "\n";
}

function escapeMd(s: string): string {
  return s.replace(/([\\`*_[\]<>|])/g, "\\$1");
}
