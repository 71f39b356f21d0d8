// Exports of the Dispatch Trace: the runs' events as JSON lines (the engine's JSONL trace format:
// a header line, then one event per line), as a Chrome trace (chrome://tracing, Perfetto) and the
// tree as Markdown. Pure.

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

export interface ChromeEvent {
  name: string;
  cat: string;
  ph: "X" | "i";
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  s?: "t";
  args?: Record<string, unknown>;
}

/**
 * Complete ("X") events for calls, dispatch steps, kernels and backward Nodes, instants for Nodes
 * created and .grad writes; nesting shows by time on one thread, as the profiler's traces do.
 */
export function toChromeTrace(events: readonly TraceEvent[]): { traceEvents: ChromeEvent[]; displayTimeUnit: "ms" } {
  const out: ChromeEvent[] = [];
  const calls = new Map<number, ChromeEvent>();
  const steps = new Map<number, ChromeEvent>();
  const firstStepOf = new Map<number, ChromeEvent>();
  const base = { pid: 1, tid: 1 };
  for (const e of events) {
    switch (e.type) {
      case "call": {
        const c: ChromeEvent = { ...base, name: e.name, cat: "op", ph: "X", ts: e.ts, args: { schema: e.schema, apiBinding: e.apiBinding, callSite: e.callSite } };
        calls.set(e.id, c);
        out.push(c);
        break;
      }
      case "dispatch": {
        const st: ChromeEvent = { ...base, name: `${e.key}: ${e.kernel.name}`, cat: "dispatch", ph: "X", ts: e.ts, args: { provenance: e.kernel.provenance, keySet: e.keySet, pytorchRef: e.kernel.pytorchRef } };
        steps.set(e.id, st);
        if (!e.redispatch) firstStepOf.set(e.call, st);
        out.push(st);
        break;
      }
      case "step_end": {
        const st = steps.get(e.step);
        if (st) st.dur = e.dur;
        break;
      }
      case "return": {
        const c = calls.get(e.call);
        if (c) c.dur = e.dur;
        const first = firstStepOf.get(e.call);
        if (first) first.dur = Math.max(0, e.ts - first.ts);
        break;
      }
      case "kernel":
        out.push({ ...base, name: `${e.stub} (${e.impl} ${e.capability})`, cat: "kernel", ph: "X", ts: e.ts, dur: e.dur, args: { pytorchRef: e.pytorchRef } });
        break;
      case "autograd.exec":
        out.push({ ...base, name: e.node.name, cat: "autograd", ph: "X", ts: e.ts, dur: e.dur, args: { pytorchRef: e.pytorchRef } });
        break;
      case "autograd.node":
        out.push({ ...base, name: `created ${e.node.name}`, cat: "autograd", ph: "i", s: "t", ts: e.ts });
        break;
      case "autograd.accumulate":
        out.push({ ...base, name: "AccumulateGrad .grad", cat: "autograd", ph: "i", s: "t", ts: e.ts });
        break;
      case "autograd.hook":
        out.push({ ...base, name: `hook ${e.hook}`, cat: "autograd", ph: "i", s: "t", ts: e.ts });
        break;
    }
  }
  for (const x of out) if (x.ph === "X" && x.dur === undefined) x.dur = 0;
  return { traceEvents: out.sort((a, b) => a.ts - b.ts), displayTimeUnit: "ms" };
}
