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

/** What a Node rarely has: hooks, grad_fn.metadata, anomaly mode's forward call site. */
interface NodeExtras {
  tensor_pre_hooks: Map<number, TensorPreHook[]> | null;
  retains_grad_hooks: Map<number, TensorPreHook> | null;
  pre_hooks: FunctionPreHook[] | null;
  post_hooks: FunctionPostHook[] | null;
  metadata: Record<string, unknown> | null;
  forward_call_site: SourceLocation | null;
}

export abstract class Node {
  declare next_edges: Edge[];
  declare readonly input_metadata: (InputMetadata | null)[];
  // The hooks, grad_fn.metadata and anomaly mode's call site live in one object made on first use:
  // every forward op under grad makes a Node, almost none get a hook, and this constructor runs for
  // hundreds of Node classes, so each field it defines is a megamorphic store — building the graph
  // was dominated by this initializer (bench/profile_steps.mjs). Three fields are defined now, not
  // nine: extras_ is declared only (absent until first use), so a Node without hooks never defines it.
  private declare extras_: NodeExtras | undefined;
  declare readonly sequence_nr: number;
  private extras(): NodeExtras {
    return (this.extras_ ??= { tensor_pre_hooks: null, retains_grad_hooks: null, pre_hooks: null, post_hooks: null, metadata: null, forward_call_site: null });
  }
  /** Hooks on one gradient slot (Tensor.register_hook on this Node's output), by slot. */
  get tensor_pre_hooks(): Map<number, TensorPreHook[]> {
    return (this.extras().tensor_pre_hooks ??= new Map());
  }
  /** retain_grad()'s hook per slot: stores the gradient into the non-leaf's .grad. */
  get retains_grad_hooks(): Map<number, TensorPreHook> {
    return (this.extras().retains_grad_hooks ??= new Map());
  }
  get pre_hooks(): FunctionPreHook[] {
    return (this.extras().pre_hooks ??= []);
  }
  get post_hooks(): FunctionPostHook[] {
    return (this.extras().post_hooks ??= []);
  }
  /** grad_fn.metadata: a dict for the user (anomaly mode keeps the forward call site here too). */
  get metadata(): Record<string, unknown> {
    return (this.extras().metadata ??= {});
  }
  /** Anomaly mode: where in the user's code the forward op that made this Node ran. */
  get forward_call_site(): SourceLocation | null {
    return this.extras_ === undefined ? null : this.extras_.forward_call_site;
  }
  /** Whether any hook container was ever made (they may be empty again: callers check their contents). */
  hasHooks_(): boolean {
    const x = this.extras_;
    return x !== undefined && (x.tensor_pre_hooks !== null || x.retains_grad_hooks !== null || x.pre_hooks !== null || x.post_hooks !== null);
  }

  // The three fields are plain assignments here rather than class-field definitions: a field
  // initializer defines each property (DefineOwnProperty), and with hundreds of Node subclasses
  // (one hidden class each) those defines went megamorphic and dominated a graph-building op once
  // a program had used many ops (a 1-element add under grad: 1.2 -> 2.0 us)
  constructor(sequenceNr?: number) {
    this.next_edges = [];
    (this as { input_metadata: (InputMetadata | null)[] }).input_metadata = [];
    (this as { sequence_nr: number }).sequence_nr = sequenceNr ?? nextSequenceNr++;
    const site = forwardCallSite();
    if (site !== null) this.extras().forward_call_site = site;
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
