// Chrome trace event format (the JSON that chrome://tracing and ui.perfetto.dev open): every call
// and every dispatch step becomes a complete ('X') slice, so a call's steps and the calls its
// kernels made stack under it on one track. Kernel and backward-node runs are slices too; other
// autograd events are instants. Times are microseconds, as the format expects.

import type { CallEvent, DispatchStepEvent, ReturnEvent, StepEndEvent, TraceEvent, TraceHeader } from "../events.js";

export interface ChromeTraceEvent {
  name: string;
  cat?: string;
  ph: "X" | "i" | "M";
  ts?: number;
  dur?: number;
  pid: number;
  tid: number;
  s?: "t" | "p" | "g";
  args?: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: ChromeTraceEvent[];
  displayTimeUnit: "ms" | "ns";
  otherData?: Record<string, unknown>;
}

const PID = 1;
const TID = 1;

// Nanosecond precision is plenty, and it keeps the JSON short.
function r(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function slice(name: string, cat: string, start: number, end: number, args: Record<string, unknown>): ChromeTraceEvent {
  const ts = r(start);
  // Rounding start and end separately keeps a child inside its parent after rounding.
  return { name, cat, ph: "X", ts, dur: Math.max(0, r(r(end) - ts)), pid: PID, tid: TID, args };
}

export function toChromeTrace(events: readonly TraceEvent[], header?: TraceHeader): ChromeTrace {
  const returns = new Map<number, ReturnEvent>();
  const stepEnds = new Map<number, StepEndEvent>();
  const firstStep = new Map<number, number>();
  let last = 0;
  for (const e of events) {
    if (e.type === "return") returns.set(e.call, e);
    else if (e.type === "step_end") stepEnds.set(e.step, e);
    else if (e.type === "dispatch" && !firstStep.has(e.call)) firstStep.set(e.call, e.id);
    last = Math.max(last, e.ts + ("dur" in e && e.type !== "return" && e.type !== "step_end" ? e.dur : 0));
  }
  const callEnd = (id: number): number => returns.get(id)?.ts ?? last;

  const out: ChromeTraceEvent[] = [];
  for (const e of events) {
    switch (e.type) {
      case "call":
        out.push(callSlice(e, returns.get(e.id), last));
        break;
      case "dispatch":
        out.push(stepSlice(e, firstStep.get(e.call) === e.id ? callEnd(e.call) : (stepEnds.get(e.id)?.ts ?? callEnd(e.call)), stepEnds.get(e.id)));
        break;
      case "kernel":
        out.push(slice(`${e.stub} (${e.impl}:${e.capability})`, "kernel", e.ts, e.ts + e.dur, { ...e }));
        break;
      case "autograd.exec":
        out.push(slice(e.node.name, "autograd", e.ts, e.ts + e.dur, { ...e }));
        break;
      case "autograd.node":
      case "autograd.accumulate":
      case "autograd.hook":
        out.push({ name: e.type, cat: "autograd", ph: "i", s: "t", ts: r(e.ts), pid: PID, tid: TID, args: { ...e } });
        break;
      default:
        break; // returns and step ends closed their slices above
    }
  }
  // Viewers want ts order; at equal ts the longer slice (the parent) must come first.
  out.sort((a, b) => a.ts! - b.ts! || (b.dur ?? 0) - (a.dur ?? 0));
  const meta: ChromeTraceEvent[] = [
    { name: "process_name", ph: "M", pid: PID, tid: TID, args: { name: "glasstorch" } },
    { name: "thread_name", ph: "M", pid: PID, tid: TID, args: { name: "dispatch" } },
  ];
  return { traceEvents: [...meta, ...out], displayTimeUnit: "ms", otherData: header ? { ...header } : undefined };
}

function callSlice(e: CallEvent, ret: ReturnEvent | undefined, last: number): ChromeTraceEvent {
  const args: Record<string, unknown> = {
    id: e.id,
    parent: e.parent,
    schema: e.schema,
    args: e.args,
    callSite: e.callSite,
    apiBinding: e.apiBinding,
  };
  if (ret?.result) args.result = ret.result;
  if (ret?.error) args.error = ret.error;
  if (!ret) args.unfinished = true;
  return slice(e.name, "call", e.ts, ret?.ts ?? last, args);
}

function stepSlice(e: DispatchStepEvent, end: number, stepEnd: StepEndEvent | undefined): ChromeTraceEvent {
  const args: Record<string, unknown> = {
    id: e.id,
    call: e.call,
    redispatch: e.redispatch,
    key: e.key,
    keySet: e.keySet,
    tlsIncluded: e.tlsIncluded,
    tlsExcluded: e.tlsExcluded,
    mask: e.mask,
    kernel: e.kernel,
  };
  if (stepEnd?.error) args.error = stepEnd.error;
  return slice(`${e.key}: ${e.kernel.name}`, e.redispatch ? "redispatch" : "dispatch", e.ts, end, args);
}

/** The trace as the JSON text a viewer opens. */
export function toChromeTraceJSON(events: readonly TraceEvent[], header?: TraceHeader): string {
  return JSON.stringify(toChromeTrace(events, header));
}
