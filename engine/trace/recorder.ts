// TraceRecorder: turns the dispatcher's observer callbacks into trace events (events.ts).
// It keeps a stack of open calls so that a call made from inside a kernel becomes a child of the
// call whose kernel made it, and a redispatch becomes a step of the call that is running.
// Events go to a bounded ring buffer and to any listeners (streaming sinks).

import { dispatchKeyName, type DispatchKey } from "../c10/DispatchKey.js";
import { captureCallSite } from "./callsite.js";
import type {
  ArgSummary,
  AutogradEvent,
  CallEvent,
  DispatchStepEvent,
  KernelEvent,
  ReturnEvent,
  StepEndEvent,
  TraceEvent,
  TraceHeader,
} from "./events.js";
import { TRACE_SCHEMA_VERSION } from "./events.js";
import type { DispatchEvent, DispatchObserver, OperatorHandleLike, SchemaLike } from "./hook.js";
import { pytorchRefFor } from "./pytorch_refs.js";
import { Ring } from "./ring.js";
import { Summarizer, defaultSummaryLimits, keyNamesOf, type SummaryLimits } from "./summarize.js";

export const DEFAULT_CAPACITY = 100_000;

export interface RecorderOptions {
  /** Events the ring buffer keeps (oldest dropped first). Default 100,000. */
  capacity?: number;
  /** Capture the user's call site for every call (costs one stack capture per call). Default true. */
  callSites?: boolean;
  /** Extra frames to treat as not the user's (e.g. a notebook host's wrapper). */
  skipFrame?: (file: string) => boolean;
  /** Caps for argument/result summaries. */
  limits?: Partial<SummaryLimits>;
}

export type TraceListener = (e: TraceEvent) => void;

/** Microseconds on the monotonic clock that every `ts` uses. */
export function nowUs(): number {
  return performance.now() * 1000;
}

interface OpenStep {
  id: number;
  ts: number;
}

interface OpenCall {
  id: number;
  ts: number;
  depth: number;
  /** Open steps, entry first; the last one is the kernel running now. */
  steps: OpenStep[];
}

type Emittable<T> = T extends TraceEvent ? Omit<T, "seq" | "ts"> & { ts?: number } : never;

function keyNames(ks: (Iterable<DispatchKey> & { repr?: number }) | undefined): string[] {
  return ks ? keyNamesOf(ks) : [];
}

export class TraceRecorder implements DispatchObserver {
  private ring: Ring<TraceEvent>;
  private nextSeq = 0;
  private stack: OpenCall[] = [];
  private handles = new Map<number, { call: OpenCall; step: OpenStep }>();
  private listeners = new Set<TraceListener>();
  private pendingBinding: string | null = null;
  private summarizer: Summarizer;
  private callSites: boolean;
  private skipFrame: ((file: string) => boolean) | undefined;
  private internalErrors = 0;

  constructor(opts: RecorderOptions = {}) {
    this.ring = new Ring(opts.capacity ?? DEFAULT_CAPACITY);
    this.callSites = opts.callSites ?? true;
    this.skipFrame = opts.skipFrame;
    this.summarizer = new Summarizer({ ...defaultSummaryLimits, ...opts.limits });
  }

  /** Changes options; a new capacity starts a new (empty) ring. */
  configure(opts: RecorderOptions): void {
    if (opts.capacity !== undefined && opts.capacity !== this.ring.capacity) this.ring = new Ring(opts.capacity);
    if (opts.callSites !== undefined) this.callSites = opts.callSites;
    if ("skipFrame" in opts) this.skipFrame = opts.skipFrame;
    if (opts.limits) this.summarizer = new Summarizer({ ...this.summarizer.limits, ...opts.limits });
  }

  // ---- DispatchObserver ----

  onDispatch(e: DispatchEvent): number {
    try {
      return this.dispatch(e);
    } catch (err) {
      this.internalError(err); // tracing must never break the user's program
      return -1;
    }
  }

  onReturn(id: number, result: unknown, error?: unknown): void {
    try {
      this.return_(id, result, error);
    } catch (err) {
      this.internalError(err);
    }
  }

  // ---- events from other layers (kernels, autograd) ----

  /** The API binding ("torch.add", "Tensor.add") of the next call that opens; bindings call this
   * just before they enter the dispatcher, when tracing is on. */
  noteApiBinding(name: string): void {
    this.pendingBinding = name;
  }

  /** The call and step running now (for kernel and autograd events). */
  context(): { call: number | null; step: number | null } {
    const top = this.stack[this.stack.length - 1];
    if (!top) return { call: null, step: null };
    const step = top.steps[top.steps.length - 1];
    return { call: top.id, step: step ? step.id : null };
  }

  /** A DispatchStub's choice; `call`/`step` default to the step running now. */
  emitKernel(e: Omit<KernelEvent, "type" | "seq" | "call" | "step" | "ts" | "pytorchRef"> & Partial<Pick<KernelEvent, "call" | "step" | "ts" | "pytorchRef">>): KernelEvent {
    const ctx = this.context();
    return this.emit({ type: "kernel", call: ctx.call, step: ctx.step, pytorchRef: null, ...e });
  }

  /** An autograd event (node created/executed, accumulate grad, hook). */
  emitAutograd(e: Emittable<AutogradEvent>): AutogradEvent {
    return this.emit(e) as AutogradEvent;
  }

  /** Summaries with this recording's tensor identities, for other layers' events. */
  get summaries(): Summarizer {
    return this.summarizer;
  }

  // ---- reading ----

  /** Buffered events, oldest first. */
  events(): TraceEvent[] {
    return this.ring.toArray();
  }

  /** Buffered events with seq >= `seq` (what happened since a given point). */
  eventsSince(seq: number): TraceEvent[] {
    return this.ring.toArray().filter((e) => e.seq >= seq);
  }

  /** The seq the next event will get. */
  get position(): number {
    return this.nextSeq;
  }

  /** Events the ring buffer dropped since the last clear(). */
  get dropped(): number {
    return this.ring.dropped;
  }

  get capacity(): number {
    return this.ring.capacity;
  }

  /** Errors the recorder caught in itself (a bug here must not surface in user code). */
  get errors(): number {
    return this.internalErrors;
  }

  header(): TraceHeader {
    return {
      type: "header",
      schemaVersion: TRACE_SCHEMA_VERSION,
      engine: "glasstorch",
      timeOrigin: performance.timeOrigin,
      createdAt: new Date().toISOString(),
      capacity: this.ring.capacity,
      dropped: this.ring.dropped,
    };
  }

  /** Empties the buffer. Open calls stay open and seq keeps counting, so ids stay unique. */
  clear(): void {
    this.ring.clear();
  }

  /** Forgets open calls too (after an interrupted run). */
  reset(): void {
    this.ring.clear();
    this.stack = [];
    this.handles.clear();
    this.pendingBinding = null;
  }

  /** Adds a streaming listener; returns the function that removes it. A listener that throws is removed. */
  subscribe(listener: TraceListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  // ---- internals ----

  private dispatch(e: DispatchEvent): number {
    const ts = nowUs();
    const op = opInfo(e.op);
    const name = op.name;
    let call = this.stack[this.stack.length - 1];
    const first = !e.redispatch || call === undefined;
    if (first) call = this.openCall(e, op, ts);
    const key = dispatchKeyName(e.key);
    const k = e.kernel;
    const seq = this.nextSeq++;
    const step: DispatchStepEvent = {
      type: "dispatch",
      seq,
      ts,
      id: seq,
      call: call.id,
      op: name,
      redispatch: e.redispatch,
      tlsIncluded: keyNames(e.tlsIncluded),
      tlsExcluded: keyNames(e.tlsExcluded),
      keySet: keyNames(e.keySet),
      mask: e.mask ? keyNames(e.mask) : null,
      key,
      kernel: {
        name: k.name,
        provenance: k.provenance,
        registeredAt: k.registeredAt,
        kind: k.kind,
        generatedAt: k.generatedAt ?? null,
        pytorchRef: k.pytorchRef ?? pytorchRefFor(op.op, key, k.kind, k.provenance),
      },
    };
    this.publish(step);
    const open: OpenStep = { id: step.id, ts };
    call.steps.push(open);
    this.handles.set(step.id, { call, step: open });
    return step.id;
  }

  private openCall(e: DispatchEvent, op: OpInfo, ts: number): OpenCall {
    const parent = this.stack[this.stack.length - 1];
    const argNames = op.arguments;
    const args: ArgSummary[] = e.args.map((v, i) => {
      const a: ArgSummary = { value: this.summarizer.value(v) };
      const n = argNames?.[i]?.name;
      if (n !== undefined) a.name = n;
      return a;
    });
    const binding = (e as { binding?: string }).binding ?? this.pendingBinding;
    this.pendingBinding = null;
    const callSite = this.callSites ? captureCallSite(this.skipFrame) : null;
    const seq = this.nextSeq++;
    const ev: CallEvent = {
      type: "call",
      seq,
      ts,
      id: seq,
      parent: parent ? parent.id : null,
      parentStep: parent && parent.steps.length ? parent.steps[parent.steps.length - 1].id : null,
      depth: parent ? parent.depth + 1 : 0,
      op: op.op,
      overload: op.overload,
      name: op.name,
      schema: op.schema,
      args,
      callSite,
      apiBinding: binding,
    };
    this.publish(ev);
    const call: OpenCall = { id: ev.id, ts, depth: ev.depth, steps: [] };
    this.stack.push(call);
    return call;
  }

  private return_(id: number, result: unknown, error: unknown): void {
    const h = this.handles.get(id);
    if (!h) return; // opened before recording started, or already closed
    const ts = nowUs();
    const { call, step } = h;
    const isEntry = call.steps[0] === step;
    if (!isEntry) {
      this.closeStepsAbove(call, step);
      call.steps.pop();
      this.handles.delete(step.id);
      const ev: StepEndEvent = { type: "step_end", seq: this.nextSeq++, ts, step: step.id, call: call.id, dur: ts - step.ts };
      if (error !== undefined) ev.error = this.summarizer.error(error);
      this.publish(ev);
      return;
    }
    // The call ends. Anything still open above it lost its onReturn (an engine bug or an exception
    // that skipped it): drop it so the stack stays true.
    const at = this.stack.lastIndexOf(call);
    for (const stale of this.stack.splice(at)) for (const s of stale.steps) this.handles.delete(s.id);
    const ev: ReturnEvent = { type: "return", seq: this.nextSeq++, ts, call: call.id, dur: ts - call.ts };
    if (error !== undefined) ev.error = this.summarizer.error(error);
    else ev.result = this.summarizer.value(result);
    this.publish(ev);
  }

  private closeStepsAbove(call: OpenCall, step: OpenStep): void {
    const at = call.steps.lastIndexOf(step);
    for (const s of call.steps.splice(at + 1)) this.handles.delete(s.id);
    const callAt = this.stack.lastIndexOf(call);
    if (callAt >= 0) for (const stale of this.stack.splice(callAt + 1)) for (const s of stale.steps) this.handles.delete(s.id);
  }

  /** For events other layers hand in without seq (and maybe without ts). */
  private emit<T extends TraceEvent>(partial: Emittable<T>): T {
    const ev = { ...partial, seq: this.nextSeq++, ts: partial.ts ?? nowUs() } as unknown as T;
    this.publish(ev);
    return ev;
  }

  private publish(ev: TraceEvent): void {
    this.ring.push(ev);
    for (const l of this.listeners) {
      try {
        l(ev);
      } catch (err) {
        this.listeners.delete(l);
        process.emitWarning(`glasstorch trace: a listener threw and was removed: ${String(err)}`);
      }
    }
  }

  private internalError(err: unknown): void {
    if (this.internalErrors++ === 0) process.emitWarning(`glasstorch trace: recorder error (tracing continues): ${String(err)}`);
  }
}

/** "aten::add.Tensor"; "aten::sum" for the default overload, as PyTorch prints an OperatorName. */
export function qualifiedName(name: string, overload: string): string {
  return overload ? `${name}.${overload}` : name;
}

interface OpInfo {
  op: string;
  overload: string;
  name: string;
  schema: string;
  arguments: readonly { name: string }[] | undefined;
}

// Keyed by the schema object, so a re-registered schema is read afresh.
const opInfoCache = new WeakMap<object, OpInfo>();

/** Name, overload and schema text of an op handle, whichever shape it has (see hook.ts). */
function opInfo(h: OperatorHandleLike): OpInfo {
  const raw = (h as { schema: unknown }).schema;
  let schema: SchemaLike | null;
  if (typeof raw === "function") {
    const m = h as { schema(): SchemaLike; hasSchema?(): boolean };
    schema = m.hasSchema?.() === false ? null : m.schema();
  } else {
    schema = raw as SchemaLike;
  }
  if (schema === null) {
    // An operator without a registered schema (impl before def): only its name is known.
    const full = (h as { operator_name?(): string }).operator_name?.() ?? "<unknown>";
    const dot = full.indexOf(".", full.indexOf("::") + 2);
    const op = dot < 0 ? full : full.slice(0, dot);
    return { op, overload: dot < 0 ? "" : full.slice(dot + 1), name: full, schema: "", arguments: undefined };
  }
  let info = opInfoCache.get(schema);
  if (!info) {
    info = {
      op: schema.name,
      overload: schema.overload_name,
      name: qualifiedName(schema.name, schema.overload_name),
      schema: String(schema),
      arguments: schema.arguments,
    };
    opInfoCache.set(schema, info);
  }
  return info;
}
