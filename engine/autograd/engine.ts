// The autograd engine (torch/csrc/autograd/engine.cpp), on one thread: from the root edges, count how
// many edges point at each Node (compute_dependencies), then run Nodes from a ready queue — the Node
// created last in the forward pass first (highest sequence_nr) — feeding each output gradient into the
// InputBuffer of the Node its edge names, and queueing that Node once all its gradients are in.
// With `outputs` (torch.autograd.grad, backward(inputs=...)) only the Nodes on a path to them run,
// and the gradients reaching them are captured.

import type { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { AutoGradMode } from "../c10/GradMode.js";
import { to_dtype } from "../generated/to.js";
import { isnan_default } from "../generated/isnan.js";
import { any_default } from "../generated/any.js";
import type { Edge } from "./edge.js";
import { Node, type Grad } from "./function.js";
import { GraphRoot } from "./functions/basic_ops.js";
import { AccumulateGrad } from "./functions/accumulate_grad.js";
import { InputBuffer } from "./input_buffer.js";
import { callTensorHooks } from "./hooks.js";
import { is_expandable_to, sum_to } from "./sum_to.js";
import { AnomalyMode, warnErrorDetected } from "./anomaly_mode.js";
import { stdHeapPop, stdHeapPush } from "../c10/util/StdAlgorithms.js";
import { engineObserver } from "./engine_observer.js";
import { GradOwnership, expose } from "./grad_ownership.js";
import { _set_storage_birth_scope, type Storage } from "../c10/Storage.js";
import { tls_is_dispatch_key_included } from "../c10/impl/LocalDispatchKeySet.js";
import { DispatchKey } from "../c10/DispatchKey.js";
import { get_autograd_meta } from "./variable.js";
import { add__Tensor } from "../generated/add.js";
import { is_non_overlapping_and_dense } from "../aten/native/shape/MemoryLayout.js";

export interface ExecuteOptions {
  keep_graph: boolean;
  create_graph: boolean;
  /** Write into leaves' .grad (backward) or only capture (autograd.grad). */
  accumulate_grad: boolean;
  /** Edges whose incoming gradients are wanted (autograd.grad) or the only leaves to accumulate (backward(inputs=)). */
  outputs: Edge[] | null;
}

interface ExecInfo {
  needed: boolean;
  captures: { inputIdx: number; outputIdx: number }[];
}

type NodeTask = { fn: Node; buffer: InputBuffer };

/**
 * The ready queue: a std::priority_queue ordered by ReadyQueue::CompareNodeTaskTime (higher
 * sequence_nr first). Ties (the AccumulateGrads, all UINT64_MAX) come out in the order libstdc++'s
 * heap leaves them, so Nodes run in exactly PyTorch's order.
 */
class ReadyQueue {
  private readonly heap: NodeTask[] = [];
  private static readonly less = (a: NodeTask, b: NodeTask): boolean => a.fn.sequence_nr < b.fn.sequence_nr;
  push(task: NodeTask): void {
    stdHeapPush(this.heap, task, ReadyQueue.less);
  }
  pop(): NodeTask | undefined {
    return stdHeapPop(this.heap, ReadyQueue.less);
  }
}

const sizesText = (s: readonly number[]) => `[${s.join(", ")}]`;

/**
 * validate_outputs: one gradient per edge; a gradient of a broadcast shape is summed down to the
 * input's (sum_to — how the engine undoes broadcasting), one of another dtype is cast to it.
 */
export function validate_outputs(edges: readonly Edge[], grads: Grad[], formatError: (msg: string) => string): void {
  if (grads.length !== edges.length) {
    throw new RuntimeError(formatError(`invalid number of gradients - expected ${edges.length}, but got ${grads.length}`));
  }
  edges.forEach((edge, i) => {
    const grad = grads[i];
    if (!edge.is_valid() || grad === null) return;
    const meta = edge.function_!.input_metadata[edge.input_nr];
    if (!meta) return;
    let g = grad;
    const sizes = g._impl.sizes();
    if (sizes.length !== meta.shape.length || sizes.some((s, k) => s !== meta.shape[k])) {
      if (!is_expandable_to(meta.shape, sizes)) {
        throw new RuntimeError(formatError(`invalid gradient at index ${i} - got ${sizesText(sizes)} but expected shape compatible with ${sizesText(meta.shape)}`));
      }
      g = sum_to(g, meta.shape);
    }
    if (g.dtype !== meta.dtype) g = to_dtype.call(g, meta.dtype, false, false, null) as Tensor;
    if (!g.device.equals(meta.device)) {
      throw new RuntimeError(formatError(`invalid gradient at index ${i} - expected device ${meta.device} but got ${g.device}`));
    }
    grads[i] = g;
  });
}

/** Whether user code sees this Node's gradients: hooks on it, or a custom Function's backward. */
function exposes_gradients(fn: Node): boolean {
  if (fn.hasHooks_() && (fn.tensor_pre_hooks.size || fn.retains_grad_hooks.size || fn.pre_hooks.length || fn.post_hooks.length)) return true;
  if (fn.runs_user_code()) return true;
  if (fn instanceof AccumulateGrad) {
    const meta = get_autograd_meta(fn.variable);
    return !!meta && (meta.hooks_.length > 0 || meta.post_acc_grad_hooks_.length > 0);
  }
  return false;
}

/** The gradients each Node sees, then runs: tensor pre-hooks, Node pre-hooks, apply, post-hooks. */
function call_function(fn: Node, inputs: Grad[], stealable: (t: Tensor) => boolean, own: GradOwnership, made: Storage[] | null): Grad[] {
  // call_tensor_pre_hooks: a slot's hooks run even when its gradient is undefined (an unused output of a
  // multi-output Node): they see null, as PyTorch 1.13's hooks see None; retain_grad's hook runs after them
  // no hook was ever registered on this Node (the common case): the gradients go to apply as they are
  const hooked = fn.hasHooks_();
  let grads = !hooked ? inputs : inputs.map((g, slot) => {
    const hooks = fn.tensor_pre_hooks.get(slot) ?? [];
    const retain = fn.retains_grad_hooks.get(slot);
    if (!hooks.length && !retain) return g;
    for (const h of hooks) engineObserver?.onHook(fn, "tensor_pre", h.name || null);
    let r = callTensorHooks(hooks, g);
    if (retain) {
      engineObserver?.onHook(fn, "retain_grad", retain.name || null);
      r = callTensorHooks([retain], r);
    }
    return r;
  });
  if (hooked) for (const hook of [...fn.pre_hooks]) {
    engineObserver?.onHook(fn, "pre", hook.name || null);
    const r = hook(grads);
    if (r) grads = [...r];
  }
  // the formula's storages are recorded (made) so the engine can free its temporaries
  const outer = made ? _set_storage_birth_scope(made) : null;
  let outputs: Grad[], raw: Grad[] | null;
  try {
    outputs =
      fn instanceof AccumulateGrad ? fn.apply(grads, grads[0] !== null && grads[0] === inputs[0] && stealable(grads[0])) : fn.apply([...grads]);
    raw = own.active ? outputs.slice() : null;
    validate_outputs(fn.next_edges, outputs, (msg) => `Function ${fn.name()} returned an ${msg}`);
  } finally {
    if (made) _set_storage_birth_scope(outer);
  }
  // a gradient summed down to the input's shape or cast is a temporary the engine made and dropped
  if (raw) raw.forEach((g, i) => g !== outputs[i] && own.discard(g));
  if (hooked) for (const hook of [...fn.post_hooks]) {
    engineObserver?.onHook(fn, "post", hook.name || null);
    const r = hook(outputs, grads);
    if (r) outputs = [...r];
  }
  return outputs;
}

/** compute_dependencies: for every Node reachable from the root, how many edges lead to it. */
function compute_dependencies(root: Node): Map<Node, number> {
  const deps = new Map<Node, number>();
  const seen = new Set<Node>([root]);
  const stack = [root];
  while (stack.length) {
    const fn = stack.pop()!;
    for (const e of fn.next_edges) {
      const next = e.function_;
      if (!next) continue;
      deps.set(next, (deps.get(next) ?? 0) + 1);
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return deps;
}

/** init_to_execute: mark the Nodes on some path from the root to a wanted edge; capture or accumulate there. */
function init_to_execute(root: Node, outputs: Edge[], accumulate_grad: boolean): Map<Node, ExecInfo> {
  const info = new Map<Node, ExecInfo>();
  const get = (fn: Node) => info.get(fn) ?? (info.set(fn, { needed: false, captures: [] }), info.get(fn)!);
  outputs.forEach((edge, outputIdx) => {
    if (!edge.function_) return;
    if (accumulate_grad) get(edge.function_).needed = true;
    else get(edge.function_).captures.push({ inputIdx: edge.input_nr, outputIdx });
  });
  // a Node is needed when any Node after it is needed or captures (post-order over the graph)
  const shouldExecute = (fn: Node) => {
    const i = info.get(fn);
    return !!i && (i.needed || i.captures.length > 0);
  };
  const visited = new Set<Node>();
  const visit = (fn: Node): void => {
    visited.add(fn);
    let needed = false;
    for (const e of fn.next_edges) {
      const next = e.function_;
      if (!next) continue;
      if (!visited.has(next)) visit(next);
      if (shouldExecute(next)) needed = true;
    }
    if (needed) get(fn).needed = true;
  };
  visit(root);
  return info;
}

/**
 * Engine::execute: run backward from `roots` with `inputs` as their gradients. Returns the captured
 * gradients, one per `outputs` edge (empty for a plain backward).
 */
export function execute(roots: Edge[], inputs: Grad[], opts: ExecuteOptions): Grad[] {
  validate_outputs(roots, inputs, (msg) => msg);
  const single = roots.length === 1;
  const root: Node = single ? roots[0].function_! : new GraphRoot(roots, inputs);
  const rootBuffer = new InputBuffer(single ? root.num_inputs() : 0);
  if (single) rootBuffer.add(roots[0].input_nr, inputs[0]);

  const deps = compute_dependencies(root);
  const execInfo = opts.outputs ? init_to_execute(root, opts.outputs, opts.accumulate_grad) : null;
  const captured: Grad[] = opts.outputs ? opts.outputs.map(() => null) : [];
  const notReady = new Map<Node, InputBuffer>();
  const queue = new ReadyQueue();
  // how many buffer slots hold each gradient tensor: AccumulateGrad may keep one held nowhere else
  const holders = new Map<Tensor, number>();
  const userGrads = new Set(inputs.filter((g): g is Tensor => g !== null));
  const hold = (g: Grad, d: number) => {
    if (g !== null) holders.set(g, (holders.get(g) ?? 0) + d);
  };
  const stealable = (g: Tensor) => !userGrads.has(g) && (holders.get(g) ?? 0) <= 0;
  // eager freeing of intermediate gradients (grad_ownership.ts): not when they become a graph, nor
  // when the trace keeps them
  const own = new GradOwnership(!opts.create_graph && !engineObserver?.keepsGradients() && !tls_is_dispatch_key_included(DispatchKey.Python));

  queue.push({ fn: root, buffer: rootBuffer });
  using _mode = new AutoGradMode(opts.create_graph);
  engineObserver?.onBackwardStart(root);
  for (let task = queue.pop(); task; task = queue.pop()) {
    const { fn, buffer } = task;
    const inputsOf = buffer.buffer;
    inputsOf.forEach((g) => hold(g, -1));
    inputsOf.forEach((g) => own.drop(g));
    if (execInfo) {
      const i = execInfo.get(fn);
      for (const c of i?.captures ?? []) {
        captured[c.outputIdx] = inputsOf[c.inputIdx];
        expose(inputsOf[c.inputIdx]);
      }
      if (!i?.needed) {
        own.flush();
        continue;
      }
    }
    // user code will see these gradients (hooks, a custom backward): never free them early
    const exposing = own.active && exposes_gradients(fn);
    if (exposing) inputsOf.forEach(expose);
    engineObserver?.onNodeStart(fn, inputsOf);
    let outputs: Grad[];
    const made: Storage[] | null = own.active && !exposing && !(fn instanceof AccumulateGrad) ? [] : null;
    try {
      outputs = call_function(fn, inputsOf, stealable, own, made);
      if (AnomalyMode.is_enabled()) checkNan(fn, outputs);
    } catch (err) {
      // anomaly mode names the forward call that made the failing Node, then the error goes on
      if (AnomalyMode.is_enabled()) warnErrorDetected(fn.name(), fn.forward_call_site);
      throw err;
    }
    engineObserver?.onNodeEnd(fn, outputs);
    if (!opts.keep_graph) fn.release_variables();
    if (exposing) outputs.forEach(expose);
    // AccumulateGrad's .grad (the gradient itself when stolen, or a fresh copy) belongs to the user
    if (own.active && fn instanceof AccumulateGrad) expose(get_autograd_meta(fn.variable)?.grad_ ?? null);
    if (made) own.discardStorages(made);
    outputs.forEach((output, i) => {
      const next = fn.next_edges[i];
      if (!next?.is_valid()) {
        own.discard(output);
        return;
      }
      const nextFn = next.function_!;
      const remaining = (deps.get(nextFn) ?? 0) - 1;
      if (remaining < 0) throw new RuntimeError(`dependency not found for ${nextFn.name()}`);
      deps.set(nextFn, remaining);
      let buf = notReady.get(nextFn);
      if (!buf) {
        if (execInfo) {
          const ni = execInfo.get(nextFn);
          if (!ni || (!ni.needed && ni.captures.length === 0)) {
            own.discard(output);
            return;
          }
        }
        buf = new InputBuffer(nextFn.num_inputs());
        notReady.set(nextFn, buf);
      }
      const old = buf.buffer[next.input_nr];
      if (old !== null && output !== null && canAccumulateInPlace(own, old, output)) {
        // the slot's first gradient is the engine's alone: sum into it (InputBuffer::accumulate's steal)
        add__Tensor.call(old, output, 1);
        own.discard(output);
      } else {
        buf.add(next.input_nr, output);
        const summed = buf.buffer[next.input_nr];
        if (old !== null && summed !== old) {
          hold(old, -1);
          own.drop(old);
          own.discard(output);
        }
        if (summed !== old) {
          hold(summed, 1);
          own.hold(summed);
        }
      }
      if (remaining === 0) {
        deps.delete(nextFn);
        notReady.delete(nextFn);
        queue.push({ fn: nextFn, buffer: buf });
      }
    });
    own.flush();
  }
  engineObserver?.onBackwardEnd(root);
  return captured;
}

/**
 * Whether the slot's gradient `old` can take `grad` in place: the engine owns it and holds it in this
 * slot only, and it is laid out without overlap, with the sum's shape and dtype (no broadcasting, no
 * type promotion), so old.add_(grad) gives exactly old + grad.
 */
function canAccumulateInPlace(own: GradOwnership, old: Tensor, grad: Tensor): boolean {
  if (!own.owns(old) || own.holders(old) !== 1 || old.dtype !== grad.dtype || !old.device.equals(grad.device)) return false;
  if (old._impl.storage === grad._impl.storage) return false;
  const a = old._impl.sizes(), b = grad._impl.sizes();
  if (a.length !== b.length || a.some((s, k) => s !== b[k])) return false;
  return is_non_overlapping_and_dense(old._impl);
}

/** Anomaly mode: a backward output with NaN names the Node that produced it. */
function checkNan(fn: Node, outputs: Grad[]): void {
  outputs.forEach((o, i) => {
    if (o === null) return;
    const any = any_default.call(isnan_default.call(o)) as Tensor;
    if (any.item()) throw new RuntimeError(`Function '${fn.name()}' returned nan values in its ${i}th output.`);
  });
}


