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
import { as_view, gradient_edge, get_autograd_meta, grad_fn, is_leaf, set_gradient_edge, type CreationMeta } from "./variable.js";
import { NotImplemented } from "./functions/basic_ops.js";
import { CopySlices } from "./functions/tensor.js";

/** Only floating and complex tensors carry gradients (isDifferentiableType). */
export function isDifferentiableType(st: ScalarType): boolean {
  return isFloatingType(st) || isComplexType(st);
}

type MaybeTensors = (Tensor | null | undefined | readonly (Tensor | null)[])[];

function flatten(args: MaybeTensors): (Tensor | null)[] {
  return args.flatMap((a) => (Array.isArray(a) ? a : [a ?? null])) as (Tensor | null)[];
}

/** GradMode is on and some input requires grad. Every op's Autograd kernel asks, so no arrays are built. */
export function compute_requires_grad(...args: MaybeTensors): boolean {
  if (!GradMode.is_enabled()) return false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null || a === undefined) continue;
    if (Array.isArray(a)) {
      for (let j = 0; j < a.length; j++) if (a[j] != null && (a[j] as Tensor).requires_grad) return true;
    } else if ((a as Tensor).requires_grad) {
      return true;
    }
  }
  return false;
}

/** One edge per input (lists flattened), invalid for inputs that need no gradient. */
export function collect_next_edges(...args: MaybeTensors): Edge[] {
  const edges: Edge[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (Array.isArray(a)) {
      for (let j = 0; j < a.length; j++) edges.push(a[j] == null ? new Edge(null, 0) : gradient_edge(a[j] as Tensor));
    } else {
      edges.push(a == null ? new Edge(null, 0) : gradient_edge(a as Tensor));
    }
  }
  return edges;
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

/** handle_view_on_rebase: views from multi-output ops or made under no_grad may not be changed in place. */
function handle_view_on_rebase(t: Tensor): void {
  const meta = get_autograd_meta(t)!;
  if (meta.creation_meta === "MULTI_OUTPUT_NODE") {
    throw new RuntimeError(
      `Output ${meta.output_nr_} of ${meta.grad_fn_?.name() ?? "None"} is a view and is being modified inplace. This view is the output of a function that returns multiple views. ` +
        "Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.",
    );
  }
  if (meta.creation_meta === "NO_GRAD_MODE") {
    throw new RuntimeError(
      "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. " +
        "You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).",
    );
  }
}

/** check_inplace: leaves that require grad (and views of them) change in place only under no_grad. */
export function check_inplace(t: Tensor, requiresGrad: boolean): void {
  if (!requiresGrad || !GradMode.is_enabled()) return;
  const meta = get_autograd_meta(t);
  if (meta?.is_view_ && meta.base_) {
    handle_view_on_rebase(t);
    if (t.requires_grad && is_leaf(meta.base_)) throw new RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
  if (t.requires_grad && is_leaf(t)) throw new RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.");
}

/**
 * rebase_history: an in-place op's Node becomes the tensor's history (output 0). For a view, the base's
 * history becomes CopySlices around that Node, and the view's grad_fn is regenerated from the base.
 */
export function rebase_history(t: Tensor, fn: Node): void {
  const nr = fn.add_input_metadata(t);
  const meta = get_autograd_meta(t);
  if (meta?.is_view_ && meta.base_) {
    const base = meta.base_;
    const copySlices = new CopySlices(base, gradient_edge(base), t, fn);
    set_gradient_edge(base, new Edge(copySlices, 0));
    meta.output_nr_ = 0;
    meta.attr_version = -1; // force grad_fn to be regenerated from the base
    grad_fn(t);
    return;
  }
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

/**
 * autogradNotImplementedFallback's Node: the outputs join the graph, and backward raises. Its edges go to the
 * inputs that require grad only (tensors_requiring_grad_on_stack), not one per input.
 */
export function not_implemented_node(opName: string, ...inputs: MaybeTensors): NotImplemented {
  const fn = new NotImplemented(opName);
  fn.set_next_edges(collect_next_edges(...flatten(inputs).filter((t) => t !== null && t.requires_grad)));
  return fn;
}

/** out= overloads are not differentiable. */
export function throw_error_out_requires_grad(name: string): never {
  throw new RuntimeError(`${name}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.`);
}

/**
 * A view op's outputs become views of `base` (the ADInplaceOrView kernel's as_view). Several views
 * from one call (split, unbind) may not be changed in place later (MULTI_OUTPUT_NODE); views made
 * under no_grad may not be changed in place with grad mode on (NO_GRAD_MODE).
 */
export function as_view_outputs<T>(base: Tensor, result: T, multiOutput: boolean): T {
  const creation: CreationMeta = multiOutput ? "MULTI_OUTPUT_NODE" : GradMode.is_enabled() ? "DEFAULT" : "NO_GRAD_MODE";
  for (const t of (Array.isArray(result) ? result : [result]) as Tensor[]) as_view(base, t, creation);
  return result;
}
