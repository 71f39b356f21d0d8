// torch.autograd.Function (torch/autograd/function.py, torch/csrc/autograd/python_function.cpp,
// custom_function.cpp): a user's op with its own forward and backward.
//
//   class Exp extends torch.autograd.Function {
//     static forward(ctx, x) { const r = x.exp(); ctx.save_for_backward(r); return r; }
//     static backward(ctx, g) { const [r] = ctx.saved_tensors; return g.mul(r); }
//   }
//   const y = Exp.apply(x);   // y.grad_fn is an ExpBackward Node, and ctx is that Node
//
// apply runs forward under no_grad, then makes the tensor outputs outputs of the Node (inputs returned
// as they are become new views; mark_dirty-ed inputs are rebased; mark_non_differentiable-ed outputs
// stay out of the graph). backward must return one value per forward input (null for those that need
// no gradient); the engine checks shapes and dtypes as for any Node.

import { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { AutoGradMode, GradMode } from "../c10/GradMode.js";
import { zeros_default } from "../generated/zeros.js";
import { alias_default } from "../generated/alias.js";
import { Node, type Grad, type InputMetadata } from "./function.js";
import { Edge } from "./edge.js";
import { SavedVariable } from "./saved_variable.js";
import { collect_next_edges, isDifferentiableType, rebase_history, set_history } from "./VariableTypeUtils.js";
import { is_leaf, set_gradient_edge } from "./variable.js";
import { ErrorNode } from "./functions/basic_ops.js";

type FunctionClass = typeof Function & {
  forward(ctx: FunctionCtx, ...args: any[]): any;
  backward(ctx: FunctionCtx, ...grads: any[]): any;
};

/** The ctx a custom Function's forward and backward see: the backward Node itself (BackwardCFunction). */
export class FunctionCtx extends Node {
  /** One per forward argument: does it need a gradient? */
  needs_input_grad: boolean[] = [];
  private saved: SavedVariable[] = [];
  private savedOwn: boolean[] = [];
  private dirty = new Set<Tensor>();
  private nonDifferentiable = new Set<Tensor>();
  private materializeGrads = true;
  /** Which forward arguments were tensors (their grads go to next_edges, the others are dropped). */
  private tensorArgs: boolean[] = [];
  [key: string]: unknown;

  constructor(private readonly cls: FunctionClass) {
    super();
  }

  name(): string {
    return `${this.cls.name}Backward`;
  }

  override runs_user_code(): boolean {
    return true;
  }

  save_for_backward(...tensors: (Tensor | null)[]): void {
    this.pendingSave = tensors;
  }
  private pendingSave: (Tensor | null)[] = [];

  /** The tensors given to save_for_backward, checked against in-place changes since. */
  get saved_tensors(): (Tensor | null)[] {
    return this.saved.map((s, i) => s.unpack(this.savedOwn[i] ? this : null));
  }

  mark_dirty(...tensors: Tensor[]): void {
    for (const t of tensors) this.dirty.add(t);
  }

  mark_non_differentiable(...tensors: Tensor[]): void {
    for (const t of tensors) this.nonDifferentiable.add(t);
  }

  set_materialize_grads(value: boolean): void {
    this.materializeGrads = value;
  }

  /** The engine's call: run the class's backward on the output gradients. */
  apply(grads: Grad[]): Grad[] {
    const gradOutputs = grads.map((g, i) => {
      if (g !== null || !this.materializeGrads) return g;
      const m = this.input_metadata[i] as InputMetadata | null;
      return m ? (zeros_default.call([...m.shape], m.dtype, null, m.device, null) as Tensor) : null;
    });
    const raw = this.cls.backward(this, ...gradOutputs);
    const result: Grad[] = Array.isArray(raw) ? raw : [raw];
    if (result.length !== this.tensorArgs.length) {
      throw new RuntimeError(`function ${this.name()} returned an incorrect number of gradients (expected ${this.tensorArgs.length}, got ${result.length})`);
    }
    // gradients for non-tensor arguments must be null, and are not passed on
    const out: Grad[] = [];
    result.forEach((g, i) => {
      if (this.tensorArgs[i]) out.push(g ?? null);
      else if (g !== null && g !== undefined) {
        throw new RuntimeError(`function ${this.name()} returned a gradient different than None at position ${i + 1}, but the corresponding forward input was not a Variable`);
      }
    });
    return out;
  }

  override release_variables(): void {
    for (const s of this.saved) s.reset_data();
  }

  /** Function.apply's bookkeeping: the edges, the outputs' history, and what forward saved. */
  static run(cls: FunctionClass, args: unknown[]): unknown {
    const ctx = new FunctionCtx(cls);
    const tensors = args.filter((a): a is Tensor => a instanceof Tensor);
    const isExecutable = GradMode.is_enabled() && tensors.some((t) => t.requires_grad);
    ctx.tensorArgs = args.map((a) => a instanceof Tensor);
    ctx.needs_input_grad = args.map((a) => isExecutable && a instanceof Tensor && a.requires_grad);
    if (isExecutable) ctx.set_next_edges(collect_next_edges(...tensors));
    let raw: unknown;
    {
      using _noGrad = new AutoGradMode(false);
      raw = cls.forward(ctx, ...args);
    }
    const outputs = (Array.isArray(raw) ? raw : [raw]) as unknown[];
    const wrapped = outputs.map((o) => (o instanceof Tensor && isExecutable ? ctx.wrapOutput(o, tensors) : o));
    if (isExecutable) {
      ctx.saved = ctx.pendingSave.map((t) => new SavedVariable(t, t !== null && wrapped.includes(t)));
      ctx.savedOwn = ctx.pendingSave.map((t) => t !== null && wrapped.includes(t));
    } else {
      ctx.saved = ctx.pendingSave.map((t) => new SavedVariable(t, false));
      ctx.savedOwn = ctx.pendingSave.map(() => false);
    }
    ctx.pendingSave = [];
    return Array.isArray(raw) ? wrapped : wrapped[0];
  }

  /** _wrap_outputs: make one output part of the graph as this Node's output. */
  private wrapOutput(out: Tensor, inputs: Tensor[]): Tensor {
    if (this.nonDifferentiable.has(out) || !isDifferentiableType(out.dtype.scalarType)) {
      this.add_input_metadata(out);
      return out;
    }
    if (this.dirty.has(out)) {
      if (is_leaf(out) && out.requires_grad) throw new RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.");
      rebase_history(out, this);
      return out;
    }
    // an input returned as it is becomes a new alias with this Node as its history
    let result = out;
    if (inputs.includes(out)) {
      using _noGrad = new AutoGradMode(false);
      result = alias_default.call(out) as Tensor;
    }
    set_history(result, this);
    return result;
  }
}

/** torch.autograd.Function: subclass it with static forward and backward, call `YourFunction.apply(...)`. */
export class Function {
  static forward(_ctx: FunctionCtx, ..._args: any[]): any {
    throw new RuntimeError("You must implement the forward function for custom autograd.Function.");
  }

  static backward(_ctx: FunctionCtx, ..._grads: any[]): any {
    throw new RuntimeError("You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.");
  }

  static apply(this: typeof Function, ...args: any[]): any {
    return FunctionCtx.run(this as unknown as FunctionClass, args);
  }
}

/**
 * once_differentiable (torch/autograd/function.py): backward runs under no_grad; if its result would be
 * differentiated again (create_graph), the result is routed through a Node that raises instead.
 */
export function once_differentiable<A extends unknown[]>(backward: (ctx: FunctionCtx, ...grads: A) => any): (ctx: FunctionCtx, ...grads: A) => any {
  return (ctx: FunctionCtx, ...grads: A) => {
    let raw: any;
    {
      using _noGrad = new AutoGradMode(false);
      raw = backward(ctx, ...grads);
    }
    if (!GradMode.is_enabled()) return raw;
    const needsGrad = (grads as unknown[]).some((g) => g instanceof Tensor && g.requires_grad);
    if (!needsGrad) return raw;
    const list: unknown[] = Array.isArray(raw) ? raw : [raw];
    const err = new ErrorNode("trying to differentiate twice a function that was marked with @once_differentiable", collect_next_edges(...(grads as unknown[]).filter((g): g is Tensor => g instanceof Tensor)));
    const wrapped = list.map((g) => {
      if (!(g instanceof Tensor)) return g;
      const alias = alias_default.call(g) as Tensor;
      set_gradient_edge(alias, new Edge(err, err.add_input_metadata(alias)));
      return alias;
    });
    return Array.isArray(raw) ? wrapped : wrapped[0];
  };
}

