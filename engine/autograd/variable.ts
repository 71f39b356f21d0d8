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

export class AutogradMeta implements AutogradMetaInterface {
  grad_: Tensor | null = null;
  grad_fn_: Node | null = null;
  grad_accumulator_: WeakRef<AccumulateGrad> | null = null;
  output_nr_ = 0;
  retains_grad_ = false;
  /** Hooks on a leaf's gradient (run by its AccumulateGrad before accumulating). */
  readonly hooks_: TensorPreHook[] = [];
  readonly post_acc_grad_hooks_: ((t: Tensor) => void)[] = [];
  /** A view's base (views share the base's version counter); null for a non-view. */
  base_: Tensor | null = null;

  constructor(private requires_grad_ = false) {}

  requires_grad(): boolean {
    return this.requires_grad_ || this.grad_fn_ !== null;
  }
  set_requires_grad(requiresGrad: boolean): void {
    this.requires_grad_ = requiresGrad;
  }
  grad_fn_name(): string | undefined {
    return this.grad_fn_?.name();
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

export function grad_fn(t: Tensor): Node | null {
  return get_autograd_meta(t)?.grad_fn_ ?? null;
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
}

/** A tensor over the same data without autograd state, sharing the version counter (tensor_data / detach's core). */
export function shallow_copy_and_detach(t: Tensor): Tensor {
  const i = t._impl;
  return new Tensor(new TensorImpl(i.storage, i.dtype, i.sizes(), i.strides(), i.storage_offset(), i.version_counter));
}
