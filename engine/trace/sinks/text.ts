// A text printer in the style of PyTorch's TORCH_SHOW_DISPATCH_TRACE (Dispatcher.cpp
// _print_dispatch_trace): one line per dispatcher entry, indented one space per dispatch that is
// still open, so nested calls and redispatches read as a tree:
//
//   [call] op=[aten::add.Tensor], key=[AutogradCPU]
//    [redispatch] op=[aten::add.Tensor], key=[CPU]
//
// Levels grow like tinygrad's DEBUG: 1 calls and keys; 2 + arguments, key sets and TLS;
// 3 + kernels, provenance, generated code, call sites and PyTorch files; 4 + timings.
// Detail lines sit under their step, two spaces deeper.

import type {
  ArgSummary,
  AutogradEvent,
  CallEvent,
  DispatchStepEvent,
  NodeRef,
  TraceEvent,
  ValueSummary,
} from "../events.js";

export type TraceLevel = 1 | 2 | 3 | 4;

function fmtNum(v: number | string): string {
  return typeof v === "number" ? String(v) : v;
}

/** One value, compactly: Tensor[2, 3] float32 cpu requires_grad, [1, 2], torch.float32, None. */
export function formatValue(v: ValueSummary): string {
  switch (v.kind) {
    case "tensor": {
      let s = `Tensor[${v.shape.join(", ")}] ${v.dtype} ${v.device}`;
      if (v.requires_grad) s += " requires_grad";
      if (v.grad_fn) s += ` grad_fn=${v.grad_fn}`;
      return s;
    }
    case "tensor_list":
    case "list": {
      const items: string[] = v.items.map(formatValue);
      if (v.truncated) items.push(`...(${v.length - v.items.length} more)`);
      return `[${items.join(", ")}]`;
    }
    case "number":
      return fmtNum(v.value);
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
      return `device('${v.value}')`;
    case "object": {
      const fields = Object.entries(v.fields).map(([k, f]) => `${k}: ${formatValue(f)}`);
      if (v.truncated) fields.push("...");
      return `{${fields.join(", ")}}`;
    }
    case "other":
      return `<${v.type}${v.repr && v.repr !== v.type ? ` ${v.repr}` : ""}>`;
  }
}

function formatArgs(args: ArgSummary[]): string {
  return `(${args.map((a) => (a.name ? `${a.name}=` : "") + formatValue(a.value)).join(", ")})`;
}

function us(d: number): string {
  return `${d.toFixed(3)}us`;
}

function node(n: NodeRef | null): string {
  return n ? `${n.name}#${n.id}` : "None";
}

/** A streaming printer: feed it events in order, it writes finished lines. */
export class TextPrinter {
  private depth = 0; // dispatches open now: the indent of the next line
  private steps = new Map<number, { indent: number; op: string; key: string; call: number }>();
  private calls = new Map<number, CallEvent>();

  constructor(
    readonly level: TraceLevel,
    private readonly writeLine: (line: string) => void,
  ) {}

  onEvent(e: TraceEvent): void {
    switch (e.type) {
      case "call":
        this.calls.set(e.id, e); // printed with its first step, which carries the key
        return;
      case "dispatch":
        return this.step(e);
      case "step_end": {
        const s = this.steps.get(e.step);
        if (!s) return; // began before this printer subscribed
        this.steps.delete(e.step);
        this.depth = s.indent;
        if (e.error) this.line(s.indent, `[error] op=[${s.op}], key=[${s.key}]: ${e.error.name}: ${firstLine(e.error.message)}`);
        else if (this.level >= 4) this.line(s.indent, `[return] op=[${s.op}], key=[${s.key}], dur=${us(e.dur)}`);
        return;
      }
      case "return": {
        const call = this.calls.get(e.call);
        this.calls.delete(e.call);
        let indent: number | undefined;
        for (const [id, s] of this.steps) {
          if (s.call !== e.call) continue;
          indent = indent === undefined ? s.indent : Math.min(indent, s.indent);
          this.steps.delete(id);
        }
        if (indent === undefined) return;
        this.depth = indent;
        const name = call?.name ?? `#${e.call}`;
        if (e.error) this.line(indent, `[error] op=[${name}]: ${e.error.name}: ${firstLine(e.error.message)}`);
        else if (this.level >= 4) this.line(indent, `[return] op=[${name}], dur=${us(e.dur)}`);
        return;
      }
      case "kernel": {
        if (this.level < 3) return;
        let s = `[kernel] stub=${e.stub}, impl=${e.impl}, capability=${e.capability}`;
        if (e.forced) s += ", forced";
        if (this.level >= 4) s += `, dur=${us(e.dur)}`;
        this.line(this.depth, s);
        if (e.pytorchRef) this.line(this.depth + 2, `pytorch=${e.pytorchRef}`);
        return;
      }
      default:
        return this.autograd(e);
    }
  }

  private step(e: DispatchStepEvent): void {
    const indent = this.depth;
    this.steps.set(e.id, { indent, op: e.op, key: e.key, call: e.call });
    this.depth++;
    const call = e.redispatch ? undefined : this.calls.get(e.call);
    this.line(indent, `[${e.redispatch ? "redispatch" : "call"}] op=[${e.op}], key=[${e.key}]`);
    const d = indent + 2;
    if (this.level >= 2) {
      if (call) this.line(d, `args=${formatArgs(call.args)}`);
      let keys = `keyset=[${e.keySet.join(", ")}]`;
      if (!e.redispatch) keys += `, tls_included=[${e.tlsIncluded.join(", ")}], tls_excluded=[${e.tlsExcluded.join(", ")}]`;
      if (e.mask) keys += `, mask=[${e.mask.join(", ")}]`;
      this.line(d, keys);
    }
    if (this.level >= 3) {
      const k = e.kernel;
      this.line(d, `kernel=${k.name} [${k.provenance}] registered at ${k.registeredAt}`);
      if (k.generatedAt) this.line(d, `generated=${k.generatedAt}`);
      if (k.pytorchRef) this.line(d, `pytorch=${k.pytorchRef}`);
      if (call?.callSite || call?.apiBinding) {
        const parts: string[] = [];
        if (call.callSite) parts.push(`at=${call.callSite.file}:${call.callSite.line}:${call.callSite.column}`);
        if (call.apiBinding) parts.push(`api=${call.apiBinding}`);
        this.line(d, parts.join(", "));
      }
    }
  }

  private autograd(e: AutogradEvent): void {
    if (this.level < 2) return;
    switch (e.type) {
      case "autograd.node":
        this.line(this.depth, `[autograd] created ${node(e.node)}, sequence_nr=${e.sequenceNr}, next=[${e.nextEdges.map((x) => node(x.node)).join(", ")}]`);
        break;
      case "autograd.exec":
        this.line(this.depth, `[autograd] ran ${node(e.node)}` + (this.level >= 4 ? `, dur=${us(e.dur)}` : ""));
        break;
      case "autograd.accumulate":
        this.line(this.depth, `[autograd] ${node(e.node)} ${e.accumulated ? "added to" : "set"} .grad of tensor #${e.variable.tid}`);
        break;
      case "autograd.hook":
        this.line(this.depth, `[autograd] hook ${e.hook}${e.name ? ` ${e.name}` : ""} on ${node(e.node)}`);
        break;
    }
    if (this.level >= 3 && e.pytorchRef) this.line(this.depth + 2, `pytorch=${e.pytorchRef}`);
  }

  private line(indent: number, text: string): void {
    this.writeLine(" ".repeat(indent) + text);
  }
}

function firstLine(s: string): string {
  const i = s.indexOf("\n");
  return i < 0 ? s : s.slice(0, i);
}

/** A listener that prints each event as it arrives (lines end with "\n"). */
export function textListener(level: TraceLevel, write: (s: string) => void): (e: TraceEvent) => void {
  const p = new TextPrinter(level, (line) => write(line + "\n"));
  return (e) => p.onEvent(e);
}

/** The lines a recorded trace prints at a level. */
export function formatTrace(events: readonly TraceEvent[], level: TraceLevel = 1): string[] {
  const lines: string[] = [];
  const p = new TextPrinter(level, (line) => lines.push(line));
  for (const e of events) p.onEvent(e);
  return lines;
}
