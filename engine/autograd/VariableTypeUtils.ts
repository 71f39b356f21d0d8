// What a generated Autograd kernel uses (torch/csrc/autograd/VariableTypeUtils.h, functions/utils.h):
// does the call need a graph (compute_requires_grad), where the inputs' gradients go
// (collect_next_edges), how outputs join the graph (set_history), and the in-place rules
// (check_inplace, rebase_history).

import type { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { GradMode } from "../c10/GradMode.js";
import { isFloatingType, isComplexType, type ScalarType } from "../c10/ScalarType.js";
import { Edge } from "./edge.js";
import type { Node } from "./function.js";
import { gradient_edge, get_autograd_meta, is_leaf, set_gradient_edge } from "./variable.js";
import { NotImplemented } from "./functions/basic_ops.js";

/** Only floating and complex tensors carry gradients (isDifferentiableType). */
export function isDifferentiableType(st: ScalarType): boolean {
  return isFloatingType(st) || isComplexType(st);
}

type MaybeTensors = (Tensor | null | undefined | readonly (Tensor | null)[])[];

function flatten(args: MaybeTensors): (Tensor | null)[] {
  return args.flatMap((a) => (Array.isArray(a) ? a : [a ?? null])) as (Tensor | null)[];
}

/** GradMode is on and some input requires grad. */
export function compute_requires_grad(...args: MaybeTensors): boolean {
  if (!GradMode.is_enabled()) return false;
  return flatten(args).some((t) => t !== null && t.requires_grad);
}

/** One edge per input (lists flattened), invalid for inputs that need no gradient. */
export function collect_next_edges(...args: MaybeTensors): Edge[] {
  return flatten(args).map((t) => (t === null ? new Edge(null, 0) : gradient_edge(t)));
}

/** Outputs become outputs of grad_fn, in order: their output_nr is their slot. */
export function set_history(outputs: Tensor | null | readonly (Tensor | null)[], fn: Node): void {
  for (const t of (Array.isArray(outputs) ? outputs : [outputs]) as (Tensor | null)[]) {
    if (t === null) {
      fn.add_input_metadata(null);
      continue;
    }
    const nr = fn.add_input_metadata(t);
    set_gradient_edge(t, new Edge(fn, nr));
  }
}

/** check_inplace: a leaf that requires grad may only be changed in place under no_grad. */
export function check_inplace(t: Tensor, requiresGrad: boolean): void {
  if (!requiresGrad || !GradMode.is_enabled()) return;
  const meta = get_autograd_meta(t);
  if (meta?.base_ && is_leaf(meta.base_) && meta.base_.requires_grad && is_leaf(t)) {
    throw new RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
  if (is_leaf(t) && t.requires_grad) throw new RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.");
}

/** rebase_history: an in-place op's Node becomes the tensor's history (output 0). */
export function rebase_history(t: Tensor, fn: Node): void {
  const nr = fn.add_input_metadata(t);
  set_gradient_edge(t, new Edge(fn, nr));
}

/** t when its dtype can carry a gradient, else null (integer and bool outputs never join the graph). */
export function differentiable(t: Tensor | null): Tensor | null {
  return t !== null && isDifferentiableType(t.dtype.scalarType) ? t : null;
}

/** The outputs of a call that can join the graph, in order, non-differentiable ones as null. */
export function differentiable_outputs(result: unknown): (Tensor | null)[] {
  const list = Array.isArray(result) ? result : [result];
  return list.map((t) => (t && typeof t === "object" && "_impl" in t ? differentiable(t as Tensor) : null));
}

/** autogradNotImplementedFallback's Node: the outputs join the graph, and backward raises. */
export function not_implemented_node(opName: string, ...inputs: MaybeTensors): NotImplemented {
  const fn = new NotImplemented(opName);
  fn.set_next_edges(collect_next_edges(...inputs));
  return fn;
}

/** out= overloads are not differentiable. */
export function throw_error_out_requires_grad(name: string): never {
  throw new RuntimeError(`${name}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.`);
}
