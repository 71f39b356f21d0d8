// Node (torch/csrc/autograd/function.h): one step of the backward graph — a grad_fn. It takes the
// gradients of its forward op's outputs and returns those of the op's inputs, which its next_edges
// carry on to the Nodes that made those inputs (or to AccumulateGrad for leaves).

import type { Tensor } from "../aten/core/Tensor.js";
import type { device } from "../c10/Device.js";
import type { dtype } from "../c10/ScalarType.js";
import { Edge } from "./edge.js";
import { forwardCallSite } from "./anomaly_mode.js";
import type { SourceLocation } from "../trace/events.js";

export type Grad = Tensor | null;
/** A hook on one gradient slot: may return a replacement. */
export type TensorPreHook = (grad: Tensor) => Tensor | null | undefined | void;
/** Node.register_prehook: sees the grad outputs, may return replacements. */
export type FunctionPreHook = (gradOutputs: Grad[]) => Grad[] | null | undefined | void;
/** Node.register_hook: sees (grad_inputs, grad_outputs), may return new grad_inputs. */
export type FunctionPostHook = (gradInputs: Grad[], gradOutputs: Grad[]) => Grad[] | null | undefined | void;

/** The shape, dtype and device of one forward output = one backward input (input_metadata.h). */
export interface InputMetadata {
  readonly shape: readonly number[];
  readonly dtype: dtype;
  readonly device: device;
}

/** What a hook registration returns (torch.utils.hooks.RemovableHandle). */
export class RemovableHandle {
  constructor(private readonly removeFn: () => void) {}
  remove(): void {
    this.removeFn();
  }
}

// at::sequence_number: each Node takes the next number at construction; backward runs later Nodes first
let nextSequenceNr = 0;
export const UINT64_MAX = Number.MAX_SAFE_INTEGER;

function removeFrom<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}

export abstract class Node {
  next_edges: Edge[] = [];
  readonly input_metadata: (InputMetadata | null)[] = [];
  /** Hooks on one gradient slot (Tensor.register_hook on this Node's output), by slot. */
  readonly tensor_pre_hooks = new Map<number, TensorPreHook[]>();
  /** retain_grad()'s hook per slot: stores the gradient into the non-leaf's .grad. */
  readonly retains_grad_hooks = new Map<number, TensorPreHook>();
  readonly pre_hooks: FunctionPreHook[] = [];
  readonly post_hooks: FunctionPostHook[] = [];
  /** grad_fn.metadata: a dict for the user (anomaly mode keeps the forward call site here too). */
  readonly metadata: Record<string, unknown> = {};
  readonly sequence_nr: number;
  /** Anomaly mode: where in the user's code the forward op that made this Node ran. */
  readonly forward_call_site: SourceLocation | null;

  constructor(sequenceNr?: number) {
    this.sequence_nr = sequenceNr ?? nextSequenceNr++;
    this.forward_call_site = forwardCallSite();
  }

  /** The class name PyTorch prints: MulBackward0, AccumulateGrad. */
  abstract name(): string;
  /** The gradients of the forward inputs, given those of the forward outputs. */
  abstract apply(grads: Grad[]): Grad[];
  /** Drop saved tensors once backward has run (unless retain_graph). */
  release_variables(): void {}
  /** Whether apply runs user code that sees the gradients (a custom Function's backward): the engine then never frees them early. */
  runs_user_code(): boolean {
    return false;
  }

  num_inputs(): number {
    return this.input_metadata.length;
  }
  num_outputs(): number {
    return this.next_edges.length;
  }

  /** Records a forward output's metadata; returns its slot (the output_nr the tensor keeps). */
  add_input_metadata(t: Tensor | null): number {
    this.input_metadata.push(t === null ? null : { shape: [...t._impl.sizes()], dtype: t.dtype, device: t.device });
    return this.input_metadata.length - 1;
  }

  set_next_edges(edges: Edge[]): void {
    this.next_edges = edges;
  }

  /** Whether input i of the forward op needs a gradient (its edge leads somewhere). */
  should_compute_output(i: number): boolean {
    return this.next_edges[i]?.is_valid() ?? false;
  }
  /** should_compute_output(IndexRange): any input in [start, end) needs a gradient (a Tensor[] argument's slots). */
  should_compute_any_output([start, end]: readonly [number, number]): boolean {
    for (let i = start; i < end; i++) if (this.should_compute_output(i)) return true;
    return false;
  }

  /** grad_fn.next_functions: ((node, input_nr), ...), (null, 0) for inputs that need no gradient. */
  get next_functions(): [Node | null, number][] {
    return this.next_edges.map((e) => [e.function_, e.input_nr]);
  }

  _sequence_nr(): number {
    return this.sequence_nr;
  }

  register_prehook(fn: FunctionPreHook): RemovableHandle {
    this.pre_hooks.push(fn);
    return new RemovableHandle(() => removeFrom(this.pre_hooks, fn));
  }

  register_hook(fn: FunctionPostHook): RemovableHandle {
    this.post_hooks.push(fn);
    return new RemovableHandle(() => removeFrom(this.post_hooks, fn));
  }

  add_tensor_pre_hook(slot: number, fn: TensorPreHook): RemovableHandle {
    const list = this.tensor_pre_hooks.get(slot) ?? [];
    list.push(fn);
    this.tensor_pre_hooks.set(slot, list);
    return new RemovableHandle(() => removeFrom(list, fn));
  }

  toString(): string {
    return `<${this.name()} object>`;
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}
