// Autograd's trace events (engine/trace/events.ts, DESIGN §3): a Node created by an Autograd kernel
// (with its saved tensors and next edges), each Node the engine runs (gradients in and out), each
// accumulation into a leaf's .grad, and each hook. Only while a recording is on.

import type { Tensor } from "../aten/core/Tensor.js";
import { isTracing, recorder } from "../trace/session.js";
import { nowUs } from "../trace/recorder.js";
import type { NodeRef, ValueSummary } from "../trace/events.js";
import type { Grad, Node } from "./function.js";
import { setEngineObserver } from "./engine_observer.js";

const ids = new WeakMap<Node, number>();
let nextId = 1;

function ref(fn: Node | null): NodeRef | null {
  if (!fn) return null;
  let id = ids.get(fn);
  if (id === undefined) ids.set(fn, (id = nextId++));
  return { id, name: fn.name() };
}

/** The id trace events give `fn` (NodeRef.id), if a recording has named it: lets a tool join a
 * live Node with the events about it (the extension's Backward Graph finds a Node's call site so). */
export function traced_node_id(fn: Node): number | undefined {
  return ids.get(fn);
}

const summarize = (g: Grad): ValueSummary => recorder.summaries.value(g);

/** The `_saved_<name>` getters a generated Node has, read as the formula names them. */
function savedOf(fn: Node): { name: string; value: ValueSummary }[] {
  const out: { name: string; value: ValueSummary }[] = [];
  for (let proto = Object.getPrototypeOf(fn); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (!key.startsWith("_saved_") || !d.get) continue;
      try {
        out.push({ name: key.slice("_saved_".length), value: recorder.summaries.value(d.get.call(fn)) });
      } catch {
        // a released or changed saved tensor is not an error of the forward pass
      }
    }
  }
  return out;
}

/** An Autograd kernel made `fn` (call and step: the kernel running now). */
export function note_node_created(fn: Node): void {
  if (!isTracing()) return;
  const ctx = recorder.context();
  recorder.emitAutograd({
    type: "autograd.node",
    node: ref(fn)!,
    call: ctx.call,
    step: ctx.step,
    sequenceNr: fn.sequence_nr,
    saved: savedOf(fn),
    nextEdges: fn.next_edges.map((e) => ({ node: ref(e.function_), inputNr: e.input_nr })),
    pytorchRef: "torch/csrc/autograd/generated/Functions.h",
  });
}

const started = new Map<Node, { ts: number; gradsIn: ValueSummary[] }>();

setEngineObserver({
  keepsGradients: () => isTracing(),
  onBackwardStart() {},
  onBackwardEnd() {
    started.clear();
  },
  onNodeStart(fn, gradOutputs) {
    if (isTracing()) started.set(fn, { ts: nowUs(), gradsIn: gradOutputs.map(summarize) });
  },
  onNodeEnd(fn: Node, gradInputs: readonly Grad[]) {
    if (!isTracing()) return;
    const { ts, gradsIn } = started.get(fn) ?? { ts: nowUs(), gradsIn: [] };
    started.delete(fn);
    recorder.emitAutograd({
      type: "autograd.exec",
      ts,
      node: ref(fn)!,
      gradsIn,
      gradsOut: gradInputs.map(summarize),
      dur: nowUs() - ts,
      pytorchRef: "torch/csrc/autograd/engine.cpp",
    });
  },
  onAccumulate(fn: Node, variable: Tensor, grad: Tensor, accumulated: boolean) {
    if (!isTracing()) return;
    recorder.emitAutograd({
      type: "autograd.accumulate",
      node: ref(fn)!,
      variable: recorder.summaries.value(variable) as never,
      grad: summarize(grad),
      accumulated,
      pytorchRef: "torch/csrc/autograd/functions/accumulate_grad.cpp",
    });
  },
  onHook(fn, hook, name) {
    if (!isTracing()) return;
    recorder.emitAutograd({ type: "autograd.hook", node: ref(fn), hook, name, pytorchRef: "torch/csrc/autograd/engine.cpp" });
  },
});
