// The Dispatch Trace view's model: a run's trace events (engine/trace/events.ts) as a tree.
// Pure (no vscode), so it is unit-tested on traces recorded from the engine host.
//
// A run's tree, in the order things happened:
//   call aten::mul.Tensor                     (one per operator call; nested calls under the step whose kernel made them)
//     line 4 of the cell                      (the user's line, top-level calls only)
//     binding Tensor.mul                      (the API the user called)
//     key set -> AutogradCPU                  (each tensor's keys, TLS include/exclude, the result)
//     AutogradCPU -> VariableType::mul_Tensor (each dispatch step: key, kernel, provenance)
//       created MulBackward0                  (autograd Node made by this step's kernel)
//     CPU -> native.mul_out  (redispatch)
//       key set ... mask                      (what the layer above passed down)
//       mul_stub -> ts DEFAULT                (the DispatchStub's choice: the kernel that ran)
//     returned float32[3]
//   backward: SumBackward0                    (autograd engine ran a Node; the calls its formula made under it)

import type {
  ArgSummary,
  AutogradNodeCreatedEvent,
  CallEvent,
  DispatchStepEvent,
  ErrorSummary,
  KernelEvent,
  TraceEvent,
  ValueSummary,
} from "../../../../engine/trace/events.js";
import { baseName, callSiteRef, parseFileLine, type SourceRef } from "../locations.js";
import { bindingFile, PYTORCH_FILES } from "../pytorch_links.js";

export type TraceNodeKind =
  | "run"
  | "call"
  | "line"
  | "binding"
  | "keys"
  | "keys.tensor"
  | "keys.tls"
  | "keys.result"
  | "step"
  | "stub"
  | "return"
  | "autograd.node"
  | "autograd.exec"
  | "autograd.accumulate"
  | "autograd.hook"
  | "dropped"
  /** A group of another row's children (trace_pages.ts): made by the view, never by the model. */
  | "page";

export interface TraceNode {
  /** Unique within the view: the run's key, the event's seq, and a suffix for derived rows. */
  id: string;
  kind: TraceNodeKind;
  label: string;
  description?: string;
  tooltip?: string;
  /** What selecting the row opens. */
  source?: SourceRef;
  /** The PyTorch source file of the same step (shown as the description's tail and in the tooltip;
   * the row's inline action opens it on GitHub, pytorch_links.ts). */
  pytorchRef?: string;
  /** Further PyTorch files of the step (a DispatchStub row: DispatchStub.h besides the kernel's file). */
  morePytorchRefs?: string[];
  /** The operator this row belongs to ("aten::mul.Tensor"): context actions open its generated code / table. */
  op?: string;
  /** For a step: the runtime key that won (the dispatch table highlights it). */
  key?: string;
  error?: boolean;
  children: TraceNode[];
}

export interface RunInfo {
  /** Distinguishes runs in one view ("nb1:3"). */
  key: string;
  /** What the run row says: "Cell 2". */
  title: string;
  cellUri?: string;
  dropped?: number;
}

/** Builds one run's tree from its events (in seq order; they may arrive in several batches). */
export function buildRunTree(run: RunInfo, events: readonly TraceEvent[]): TraceNode {
  return new RunTreeBuilder(run).add(events).tree();
}

/** A node's event seq, for ordering rows (ids carry it too, but parsing them in a sort is slow). */
const seqs = new WeakMap<TraceNode, number>();

/**
 * The tree of one run, built as its events arrive: each batch is added once (add), and tree() puts
 * the top-level rows in order — cheap, so a long run's tree can be redrawn as it grows.
 */
export class RunTreeBuilder {
  private readonly calls = new Map<number, TraceNode>();
  private readonly steps = new Map<number, TraceNode>();
  private readonly callEvents = new Map<number, CallEvent>();
  private readonly topLevel: { ts: number; node: TraceNode; call?: CallEvent }[] = [];
  /** Backward Node executions; `own` are the AccumulateGrad rows of the Node itself. */
  private readonly execs: { ts: number; end: number; node: TraceNode; nodeId: number; own: TraceNode[] }[] = [];
  private readonly pendingAccumulate = new Map<number, TraceNode[]>();
  private eventCount = 0;
  /** The run's row: one object for the run's life, so a view can refresh just this row. */
  private readonly root: TraceNode;

  constructor(private readonly run: RunInfo) {
    this.root = {
      id: run.key,
      kind: "run",
      label: run.title,
      source: run.cellUri ? { kind: "cell", uri: run.cellUri, line: 1, column: 1 } : undefined,
      children: [],
    };
  }

  add(events: readonly TraceEvent[]): this {
    const { run, calls, steps, callEvents, topLevel, execs, pendingAccumulate } = this;
    const id = (seq: number, suffix = "") => `${run.key}/${seq}${suffix}`;
    this.eventCount += events.length;
    for (const e of events) {
      switch (e.type) {
        case "call": {
          callEvents.set(e.id, e);
          const node = callNode(e, id);
          calls.set(e.id, node);
          const parentStep = e.parentStep !== null ? steps.get(e.parentStep) : undefined;
          const parentCall = e.parent !== null ? calls.get(e.parent) : undefined;
          if (parentStep) parentStep.children.push(node);
          else if (parentCall) parentCall.children.push(node);
          else topLevel.push({ ts: e.ts, node, call: e });
          break;
        }
        case "dispatch": {
          const call = calls.get(e.call);
          const node = stepNode(e, id, callEvents.get(e.call));
          steps.set(e.id, node);
          if (!call) {
            topLevel.push({ ts: e.ts, node });
            break;
          }
          if (!e.redispatch) call.children.push(keySetNode(e, callEvents.get(e.call), id));
          call.children.push(node);
          break;
        }
        case "kernel": {
          const node = stubNode(e, id);
          const owner = (e.step !== null && steps.get(e.step)) || (e.call !== null && calls.get(e.call)) || undefined;
          if (owner) owner.children.push(node);
          else topLevel.push({ ts: e.ts, node });
          break;
        }
        case "step_end": {
          const step = steps.get(e.step);
          if (step && e.error) {
            step.error = true;
            step.children.push({ id: id(e.seq), kind: "return", label: `threw ${errorText(e.error)}`, error: true, pytorchRef: PYTORCH_FILES.dispatcher, children: [] });
          }
          break;
        }
        case "return": {
          const call = calls.get(e.call);
          if (!call) break;
          call.description = joinParts(call.description, formatDuration(e.dur));
          if (e.error) {
            call.error = true;
            call.children.push({ id: id(e.seq), kind: "return", label: `threw ${errorText(e.error)}`, tooltip: e.error.message, error: true, op: call.op, pytorchRef: PYTORCH_FILES.dispatcher, children: [] });
          } else if (e.result) {
            call.children.push({ id: id(e.seq), kind: "return", label: `returned ${formatValue(e.result)}`, op: call.op, pytorchRef: PYTORCH_FILES.dispatcher, children: [] });
          }
          break;
        }
        case "autograd.node": {
          const node = nodeCreatedNode(e, id);
          const owner = (e.step !== null && steps.get(e.step)) || (e.call !== null && calls.get(e.call)) || undefined;
          if (owner) owner.children.push(node);
          else topLevel.push({ ts: e.ts, node });
          break;
        }
        case "autograd.accumulate": {
          const node: TraceNode = {
            id: id(e.seq),
            kind: "autograd.accumulate",
            label: `${e.accumulated ? "accumulated into" : "set"} .grad`,
            description: joinParts(`${formatValue(e.variable)} += ${formatValue(e.grad)}`, e.pytorchRef ? baseName(e.pytorchRef) : undefined),
            tooltip: tooltipLines([`AccumulateGrad wrote the leaf's .grad`, e.pytorchRef && `PyTorch: ${e.pytorchRef}`]),
            pytorchRef: e.pytorchRef ?? undefined,
            children: [],
          };
          // The Node's exec event comes after (it is emitted when the Node ends): attach there.
          const list = pendingAccumulate.get(e.node.id) ?? [];
          list.push(node);
          pendingAccumulate.set(e.node.id, list);
          break;
        }
        case "autograd.exec": {
          const node: TraceNode = {
            id: id(e.seq),
            kind: "autograd.exec",
            label: `backward: ${e.node.name}`,
            description: joinParts(`grads in ${e.gradsIn.map(formatValue).join(", ") || "-"}`, formatDuration(e.dur), e.pytorchRef ? baseName(e.pytorchRef) : undefined),
            tooltip: tooltipLines([
              `The autograd engine ran ${e.node.name} (evaluate_function)`,
              `grads in: ${e.gradsIn.map(formatValue).join(", ") || "-"}`,
              `grads out: ${e.gradsOut.map(formatValue).join(", ") || "-"}`,
              e.pytorchRef && `PyTorch: ${e.pytorchRef}`,
            ]),
            pytorchRef: e.pytorchRef ?? undefined,
            children: [],
          };
          const own = pendingAccumulate.get(e.node.id) ?? [];
          pendingAccumulate.delete(e.node.id);
          execs.push({ ts: e.ts, end: e.ts + e.dur, node, nodeId: e.node.id, own });
          topLevel.push({ ts: e.ts, node });
          break;
        }
        case "autograd.hook": {
          topLevel.push({
            ts: e.ts,
            node: {
              id: id(e.seq),
              kind: "autograd.hook",
              label: `hook ${e.hook}${e.name ? ` ${e.name}` : ""}`,
              description: e.node?.name,
              pytorchRef: e.pytorchRef ?? undefined,
              children: [],
            },
          });
          break;
        }
      }
    }
    return this;
  }

  /** The run's row with its children in order; `dropped`: events the limit dropped so far. */
  tree(dropped = this.run.dropped ?? 0): TraceNode {
    const { run, execs, topLevel, pendingAccumulate } = this;
    // Calls a backward Node's formula made are top-level in the dispatcher's eyes (no parent call),
    // but ran inside the Node: put each under the innermost exec whose time span holds it. One sweep
    // by start time with a stack of open spans (Node executions nest; they never overlap partially).
    // Recomputed on each call (the exec rows' children start again from their own rows).
    const roots: TraceNode[] = [];
    const ordered = [...topLevel].sort((a, b) => a.ts - b.ts);
    const execOf = new Map(execs.map((x) => [x.node, x]));
    for (const x of execs) x.node.children = [...x.own];
    const childOfExec = new Set<TraceNode>();
    const open: (typeof execs)[number][] = [];
    const sweep = [...ordered].sort((a, b) => a.ts - b.ts || (execOf.has(b.node) ? 1 : 0) - (execOf.has(a.node) ? 1 : 0));
    for (const item of sweep) {
      while (open.length && open[open.length - 1].end < item.ts) open.pop();
      const x = execOf.get(item.node);
      const parent = open.length ? open[open.length - 1] : undefined;
      if (parent && (!x || x.end <= parent.end)) {
        parent.node.children.push(item.node);
        childOfExec.add(item.node);
      }
      if (x) open.push(x);
    }
    for (const x of execs) x.node.children.sort((a, b) => seqOf(a) - seqOf(b));
    for (const item of ordered) if (!childOfExec.has(item.node)) roots.push(item.node);
    roots.sort((a, b) => seqOf(a) - seqOf(b));

    // Rows for AccumulateGrad events whose exec has not arrived (yet, or ever: a trace cut by the limit).
    for (const list of pendingAccumulate.values()) roots.push(...list);
    if (dropped) roots.unshift({ id: `${run.key}/dropped`, kind: "dropped", label: `${dropped} earlier events dropped (trace limit)`, children: [] });

    const callCount = this.calls.size;
    this.root.description = `${callCount} call${callCount === 1 ? "" : "s"}, ${this.eventCount} events`;
    this.root.children = roots;
    return this.root;
  }
}

function seqOf(node: TraceNode): number {
  let seq = seqs.get(node);
  if (seq === undefined) {
    const m = /\/(\d+)(?:[^/]*)$/.exec(node.id);
    seq = m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
    seqs.set(node, seq);
  }
  return seq;
}

function callNode(e: CallEvent, id: (seq: number, suffix?: string) => string): TraceNode {
  const site = callSiteRef(e.callSite);
  const children: TraceNode[] = [];
  if (e.depth === 0 && e.callSite) {
    children.push({
      id: id(e.seq, ".line"),
      kind: "line",
      label: `line ${e.callSite.line}, column ${e.callSite.column}`,
      description: site?.kind === "cell" ? "your cell" : e.callSite.file,
      source: site,
      children: [],
    });
  }
  if (e.apiBinding) {
    children.push({
      id: id(e.seq, ".binding"),
      kind: "binding",
      label: `binding ${e.apiBinding}`,
      description: "python_arg_parser -> " + e.name,
      tooltip: `The API binding ${e.apiBinding} parsed the arguments and called ${e.schema}`,
      pytorchRef: bindingFile(e.apiBinding),
      op: e.name,
      children: [],
    });
  }
  return {
    id: id(e.seq),
    kind: "call",
    label: e.name,
    description: joinParts(e.apiBinding ?? undefined, e.depth === 0 && e.callSite ? `line ${e.callSite.line}` : undefined),
    tooltip: tooltipLines([e.schema, `args: ${e.args.map(formatArg).join(", ")}`]),
    source: site,
    // Dispatcher::call: the call entered the dispatcher.
    pytorchRef: PYTORCH_FILES.dispatcher,
    op: e.name,
    children,
  };
}

/** The key set computation of a call's first step: each tensor's keys, the TLS sets, the result. */
function keySetNode(step: DispatchStepEvent, call: CallEvent | undefined, id: (seq: number, suffix?: string) => string): TraceNode {
  const children: TraceNode[] = [];
  const tensors = (call?.args ?? []).flatMap((a, i) => tensorsOf(a, i));
  for (const t of tensors) {
    children.push({
      id: id(step.seq, `.keys.${t.name}`),
      kind: "keys.tensor",
      label: `${t.name}: ${t.keys.join(", ") || "(no keys)"}`,
      description: t.summary,
      pytorchRef: PYTORCH_FILES.tensorKeySet, // TensorImpl::key_set_
      children: [],
    });
  }
  const tls = PYTORCH_FILES.localKeySet;
  children.push({ id: id(step.seq, ".tls.in"), kind: "keys.tls", label: `TLS include: ${step.tlsIncluded.join(", ") || "(empty)"}`, pytorchRef: tls, children: [] });
  children.push({ id: id(step.seq, ".tls.ex"), kind: "keys.tls", label: `TLS exclude: ${step.tlsExcluded.join(", ") || "(empty)"}`, pytorchRef: tls, children: [] });
  children.push({
    id: id(step.seq, ".keys.result"),
    kind: "keys.result",
    label: `key set: ${step.keySet.join(", ")}`,
    description: `highest: ${step.key}`,
    tooltip: "(OR of the tensors' key sets | TLS include) - TLS exclude, masked by the operator's non-fallthrough keys",
    pytorchRef: PYTORCH_FILES.keySet,
    children: [],
  });
  return {
    id: id(step.seq, ".keys"),
    kind: "keys",
    label: `key set -> ${step.key}`,
    description: step.keySet.join(", "),
    // The dispatcher's key extraction (Dispatcher::call -> DispatchKeyExtractor::getDispatchKeySetBoxed).
    source: { kind: "engine", file: "engine/dispatcher/DispatchKeyExtractor.ts", line: 1, symbol: "getDispatchKeySetRepr(" },
    pytorchRef: PYTORCH_FILES.keyExtractor,
    op: step.op,
    children,
  };
}

function stepNode(e: DispatchStepEvent, id: (seq: number, suffix?: string) => string, call: CallEvent | undefined): TraceNode {
  const k = e.kernel;
  const children: TraceNode[] = [];
  if (e.redispatch) {
    children.push({
      id: id(e.seq, ".keys"),
      kind: "keys.result",
      label: `key set: ${e.keySet.join(", ")}`,
      description: e.mask ? `mask ${e.mask.join(", ")}` : "passed down by the kernel above",
      pytorchRef: PYTORCH_FILES.keySet,
      children: [],
    });
  }
  return {
    id: id(e.seq),
    kind: "step",
    label: `${e.key} -> ${k.name}`,
    description: joinParts(e.redispatch ? "redispatch" : undefined, k.provenance, k.pytorchRef ? baseName(k.pytorchRef) : undefined),
    tooltip: tooltipLines([
      `${e.op} at ${e.key}: ${k.name} [${k.provenance}]`,
      `registered at ${k.registeredAt}`,
      k.generatedAt && `generated at ${k.generatedAt}`,
      k.pytorchRef && `PyTorch: ${k.pytorchRef}`,
      call && e.op !== call.name ? `(call ${call.name})` : undefined,
    ]),
    source: parseFileLine(k.generatedAt) ?? parseFileLine(k.registeredAt),
    // A kernel outside PyTorch (a torch.library op of the user's): the step is still Dispatcher::call/redispatch.
    pytorchRef: k.pytorchRef ?? PYTORCH_FILES.dispatcher,
    op: e.op,
    key: e.key,
    children,
  };
}

function stubNode(e: KernelEvent, id: (seq: number, suffix?: string) => string): TraceNode {
  return {
    id: id(e.seq),
    kind: "stub",
    label: `${e.stub} -> ${e.impl} ${e.capability}`,
    description: joinParts(e.forced ? "forced by setting" : undefined, formatDuration(e.dur), e.pytorchRef ? baseName(e.pytorchRef) : undefined),
    tooltip: tooltipLines([`DispatchStub ${e.stub} chose the ${e.impl} kernel (${e.capability})`, e.pytorchRef && `PyTorch: ${e.pytorchRef}`]),
    pytorchRef: e.pytorchRef ?? PYTORCH_FILES.dispatchStub,
    ...(e.pytorchRef ? { morePytorchRefs: [PYTORCH_FILES.dispatchStub] } : {}),
    // The kernel the stub ran: where the engine registers it (`mul_stub.register("ts", ...)`).
    source: { kind: "search", dir: "engine/aten/native", needle: `${e.stub}.register("${e.impl}"`, line: 1 },
    children: [],
  };
}

function nodeCreatedNode(e: AutogradNodeCreatedEvent, id: (seq: number, suffix?: string) => string): TraceNode {
  const next = e.nextEdges.map((n) => (n.node ? n.node.name : "None")).join(", ");
  const saved = e.saved.map((s) => `${s.name}=${formatValue(s.value)}`).join(", ");
  return {
    id: id(e.seq),
    kind: "autograd.node",
    label: `created ${e.node.name}`,
    description: joinParts(`sequence_nr ${e.sequenceNr}`, next ? `next: ${next}` : undefined, e.pytorchRef ? baseName(e.pytorchRef) : undefined),
    tooltip: tooltipLines([`saved: ${saved || "-"}`, `next_edges: ${next || "-"}`, e.pytorchRef && `PyTorch: ${e.pytorchRef}`]),
    pytorchRef: e.pytorchRef ?? undefined,
    children: [],
  };
}

function tensorsOf(arg: ArgSummary, index: number): { name: string; keys: string[]; summary: string }[] {
  const name = arg.name ?? `arg${index}`;
  const v = arg.value;
  if (v.kind === "tensor") return [{ name, keys: v.keys, summary: formatValue(v) }];
  if (v.kind === "tensor_list") {
    return v.items.flatMap((t, i) => (t.kind === "tensor" ? [{ name: `${name}[${i}]`, keys: t.keys, summary: formatValue(t) }] : []));
  }
  return [];
}

/** A value summary in a few characters: "float32[2, 3]", "2.5", "[1, 2]". */
export function formatValue(v: ValueSummary): string {
  switch (v.kind) {
    case "tensor":
      return `${v.dtype}[${v.shape.join(", ")}]${v.device !== "cpu" ? ` ${v.device}` : ""}${v.grad_fn ? ` ${v.grad_fn}` : ""}`;
    case "tensor_list":
      return `(${v.items.map((t) => (t.kind === "tensor" ? formatValue(t) : "None")).join(", ")}${v.truncated ? ", ..." : ""})`;
    case "list":
      return `[${v.items.map(formatValue).join(", ")}${v.truncated ? ", ..." : ""}]`;
    case "number":
      return String(v.value);
    case "bigint":
      return v.value;
    case "bool":
      return v.value ? "True" : "False";
    case "string":
      return JSON.stringify(v.value) + (v.truncated ? "..." : "");
    case "none":
      return "None";
    case "dtype":
      return `torch.${v.name}`;
    case "device":
      return v.value;
    case "object":
      return `{${Object.entries(v.fields).map(([k, f]) => `${k}: ${formatValue(f)}`).join(", ")}}`;
    case "other":
      return v.repr || v.type;
  }
}

function formatArg(a: ArgSummary): string {
  return a.name ? `${a.name}=${formatValue(a.value)}` : formatValue(a.value);
}

export function formatDuration(us: number): string {
  if (us < 1000) return `${us < 10 ? us.toFixed(1) : Math.round(us)} µs`;
  if (us < 1e6) return `${(us / 1000).toFixed(us < 1e4 ? 2 : 1)} ms`;
  return `${(us / 1e6).toFixed(2)} s`;
}

function errorText(e: ErrorSummary): string {
  return `${e.name}: ${e.message.split("\n")[0]}`;
}

function joinParts(...parts: (string | undefined)[]): string | undefined {
  const s = parts.filter((p) => p).join(" · ");
  return s || undefined;
}

function tooltipLines(lines: (string | null | undefined | false)[]): string {
  return lines.filter((l) => l).join("\n");
}

/** Every row in display order (depth first): the order Step Forward/Back walks. */
export function flattenSteps(roots: readonly TraceNode[]): TraceNode[] {
  const out: TraceNode[] = [];
  const walk = (n: TraceNode) => {
    out.push(n);
    for (const c of n.children) walk(c);
  };
  for (const r of roots) walk(r);
  return out;
}

/** The row after (delta 1) or before (-1) `current` among rows that open a source; the first/last when none is current. */
export function stepFrom(order: readonly TraceNode[], currentId: string | undefined, delta: 1 | -1): TraceNode | undefined {
  // One pass each way: a 10,000-call run has ~20,000 rows.
  const isStep = (n: TraceNode) => n.source !== undefined || n.kind === "binding";
  const at = currentId === undefined ? -1 : order.findIndex((n) => n.id === currentId);
  const from = at >= 0 ? at + delta : delta > 0 ? 0 : order.length - 1;
  for (let i = from; i >= 0 && i < order.length; i += delta) if (isStep(order[i])) return order[i];
  return undefined;
}

/** The parent chain of a row (for reveal), root first; empty when not found. */
export function pathTo(roots: readonly TraceNode[], id: string): TraceNode[] {
  const path: TraceNode[] = [];
  const walk = (n: TraceNode): boolean => {
    path.push(n);
    if (n.id === id) return true;
    for (const c of n.children) if (walk(c)) return true;
    path.pop();
    return false;
  };
  for (const r of roots) if (walk(r)) return path;
  return [];
}
