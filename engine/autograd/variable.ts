// AutogradMeta and the functions that read and write it (torch/csrc/autograd/variable.h/.cpp).
// A tensor's autograd state lives on its TensorImpl, created lazily: requires_grad, the grad_fn that
// made it and which of that Node's outputs it is (output_nr), its .grad, and for a leaf the
// AccumulateGrad Node, held weakly as PyTorch does (the graph keeps it alive, the tensor does not).

import { Tensor } from "../aten/core/Tensor.js";
import { TensorImpl, type AutogradMetaInterface } from "../c10/TensorImpl.js";
import { SetAutogradMetaFactory } from "../c10/AutogradMetaFactory.js";
import { Edge } from "./edge.js";
import type { Node, TensorPreHook } from "./function.js";
import { AccumulateGrad } from "./functions/accumulate_grad.js";
import { AsStridedBackward0, geometryOf } from "./functions/tensor.js";
import { fw_grad as read_fw_grad, type ForwardGrad } from "./forward_grad.js";

export type CreationMeta = "DEFAULT" | "IN_CUSTOM_FUNCTION" | "MULTI_OUTPUT_NODE" | "NO_GRAD_MODE" | "INFERENCE_MODE";

export class AutogradMeta implements AutogradMetaInterface {
  grad_: Tensor | null = null;
  grad_fn_: Node | null = null;
  grad_accumulator_: WeakRef<AccumulateGrad> | null = null;
  output_nr_ = 0;
  retains_grad_ = false;
  /** Hooks on a leaf's gradient (run by its AccumulateGrad before accumulating). */
  readonly hooks_: TensorPreHook[] = [];
  readonly post_acc_grad_hooks_: ((t: Tensor) => void)[] = [];
  // ---- a differentiable view (DifferentiableViewMeta) ----
  is_view_ = false;
  /** The view's base, never itself a view (views share the base's version counter). */
  base_: Tensor | null = null;
  /** How the view was made; in-place changes are refused for all but DEFAULT (handle_view_on_rebase). */
  creation_meta: CreationMeta = "DEFAULT";
  /** The version grad_fn_ was made for: after an in-place change the view's grad_fn is regenerated. */
  attr_version = 0;
  // ---- forward AD (forward_grad.ts) ----
  /** The tangents, one per dual level (fw_grad_ in PyTorch), made on first use. */
  fw_grad_: ForwardGrad | null = null;
  /**
   * A forward-differentiable view's base (the forward ViewInfo's base_): its tangent is a view of this
   * tensor's tangent. null when not a view, or a view that is not forward-differentiable (_fw_primal, _make_dual).
   */
  fw_base_: Tensor | null = null;

  constructor(private requires_grad_ = false) {}

  /** A view requires grad when its base does, even if made under no_grad (DifferentiableViewMeta::requires_grad). */
  requires_grad(): boolean {
    return this.requires_grad_ || this.grad_fn_ !== null || (this.is_view_ && (this.base_?.requires_grad ?? false));
  }
  set_requires_grad(requiresGrad: boolean): void {
    this.requires_grad_ = requiresGrad;
  }
  grad_fn_name(): string | undefined {
    return this.grad_fn_?.name();
  }
  /** The tangent at `level` (a view without one reads its base's): forward_grad.ts fw_grad. */
  fw_grad(level: number, self: unknown): Tensor | null {
    return read_fw_grad(self as Tensor, level);
  }
}

SetAutogradMetaFactory({ make: (r) => new AutogradMeta(r) });

/** The AutogradMeta of a tensor, created on first use (materialize_autograd_meta). */
export function materialize_autograd_meta(t: Tensor): AutogradMeta {
  const impl = t._impl;
  if (!(impl.autograd_meta instanceof AutogradMeta)) {
    const meta = new AutogradMeta(impl.autograd_meta?.requires_grad() ?? false);
    impl.autograd_meta = meta;
  }
  return impl.autograd_meta as AutogradMeta;
}

export function get_autograd_meta(t: Tensor): AutogradMeta | null {
  const m = t._impl.autograd_meta;
  return m instanceof AutogradMeta ? m : null;
}

/**
 * The tensor's grad_fn (VariableHooks::grad_fn). A view changed in place since its grad_fn was made
 * (its version moved) gets a fresh AsStridedBackward0 that reads its gradient from the base.
 */
export function grad_fn(t: Tensor): Node | null {
  const meta = get_autograd_meta(t);
  if (!meta) return null;
  if (meta.is_view_ && meta.base_) {
    const base = meta.base_;
    if (!meta.grad_fn_ && !base.requires_grad) return null;
    const current = t._impl.version_counter.version;
    if (meta.attr_version !== current) {
      const impl = t._impl;
      const fn = new AsStridedBackward0(geometryOf(base), [...impl.sizes()], [...impl.strides()], impl.storage_offset());
      fn.set_next_edges([gradient_edge(base)]);
      fn.add_input_metadata(t);
      meta.grad_fn_ = fn;
      meta.output_nr_ = 0;
      meta.attr_version = current;
    }
  }
  return meta.grad_fn_;
}

/** as_view: `view` is a differentiable view of `base` (or of base's own base). */
export function as_view(base: Tensor, view: Tensor, creation: CreationMeta, is_fw_differentiable = true): Tensor {
  if (view._impl === base._impl) throw new Error(`as_view: a view op returned its input itself (${view._impl.sizes()})`);
  const baseMeta = get_autograd_meta(base);
  const root = baseMeta?.is_view_ && baseMeta.base_ ? baseMeta.base_ : base;
  // a view of a view made under no_grad (or of a multi-output view) keeps that restriction
  const inherited = baseMeta?.is_view_ && baseMeta.creation_meta !== "DEFAULT" ? baseMeta.creation_meta : creation;
  const meta = materialize_autograd_meta(view);
  meta.is_view_ = true;
  meta.base_ = root;
  meta.creation_meta = inherited;
  meta.attr_version = view._impl.version_counter.version;
  // the forward view's base: the base's own forward base when the base is a forward view, else the base
  meta.fw_base_ = is_fw_differentiable ? (baseMeta?.fw_base_ ?? base) : null;
  return view;
}

export function is_view(t: Tensor): boolean {
  return get_autograd_meta(t)?.is_view_ ?? false;
}

export function base_of(t: Tensor): Tensor | null {
  return get_autograd_meta(t)?.base_ ?? null;
}

export function output_nr(t: Tensor): number {
  return get_autograd_meta(t)?.output_nr_ ?? 0;
}

export function is_leaf(t: Tensor): boolean {
  return grad_fn(t) === null;
}

/** A leaf's AccumulateGrad, made on first use and kept only weakly (grad_accumulator in variable.cpp). */
export function grad_accumulator(t: Tensor): AccumulateGrad | null {
  const meta = get_autograd_meta(t);
  if (!meta || meta.grad_fn_ || !t.requires_grad) return null;
  const existing = meta.grad_accumulator_?.deref();
  if (existing) return existing;
  const acc = new AccumulateGrad(t);
  meta.grad_accumulator_ = new WeakRef(acc);
  return acc;
}

/** Where a gradient for t goes: (grad_fn, output_nr), or the leaf's AccumulateGrad, or nowhere. */
export function gradient_edge(t: Tensor): Edge {
  const fn = grad_fn(t);
  if (fn) return new Edge(fn, output_nr(t));
  return new Edge(grad_accumulator(t), 0);
}

/** Makes (fn, output_nr) the tensor's history (set_gradient_edge). */
export function set_gradient_edge(t: Tensor, edge: Edge): void {
  const meta = materialize_autograd_meta(t);
  meta.grad_fn_ = edge.function_;
  meta.output_nr_ = edge.input_nr;
  // a view's new grad_fn is current for its version (not regenerated from the base after squeeze_)
  if (meta.is_view_ && meta.base_) meta.attr_version = t._impl.version_counter.version;
}

/** A tensor over the same data without autograd state, sharing the version counter (tensor_data / detach's core). */
export function shallow_copy_and_detach(t: Tensor): Tensor {
  const i = t._impl;
  return new Tensor(new TensorImpl(i.storage, i.dtype, i.sizes(), i.strides(), i.storage_offset(), i.version_counter));
}
