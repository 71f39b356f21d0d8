// AccumulateGrad (torch/csrc/autograd/functions/accumulate_grad.h/.cpp): the Node at a leaf that
// writes the incoming gradient into the leaf's .grad. Its sequence number is the largest there is,
// so the engine runs it as soon as it is ready. The first gradient is kept (stolen when nothing else
// can see it, else copied with the leaf's layout); later ones are added: in place under no_grad,
// out of place under create_graph so the sum is itself differentiable.

import type { Tensor } from "../../aten/core/Tensor.js";
import { GradMode } from "../../c10/GradMode.js";
import { is_non_overlapping_and_dense } from "../../aten/native/shape/MemoryLayout.js";
import { add_Tensor, add__Tensor } from "../../generated/add.js";
import { clone_default } from "../../generated/clone.js";
import { empty_strided_default } from "../../generated/empty_strided.js";
import { copy__default } from "../../generated/copy.js";
import { contiguous_format } from "../../c10/MemoryFormat.js";
import { Node, UINT64_MAX, type Grad } from "../function.js";
import { get_autograd_meta } from "../variable.js";
import { callTensorHooks } from "../hooks.js";
import { engineObserver } from "../engine_observer.js";

/** utils::obeys_layout_contract: a stolen gradient must have the leaf's strides (when the leaf is dense) or be contiguous. */
function obeys_layout_contract(grad: Tensor, variable: Tensor): boolean {
  const g = grad._impl, v = variable._impl;
  if (is_non_overlapping_and_dense(v)) return g.strides().every((s, i) => s === v.strides()[i] || g.sizes()[i] === 1);
  return g.is_contiguous();
}

/** utils::clone_obey_contract: a copy laid out like the leaf (if dense) or contiguous. */
function clone_obey_contract(grad: Tensor, variable: Tensor): Tensor {
  const v = variable._impl;
  if (is_non_overlapping_and_dense(v)) {
    const out = empty_strided_default.call([...v.sizes()], [...v.strides()], grad.dtype, null, grad.device, null) as Tensor;
    return copy__default.call(out, grad, false) as Tensor;
  }
  return clone_default.call(grad, contiguous_format) as Tensor;
}

export class AccumulateGrad extends Node {
  constructor(readonly variable: Tensor) {
    super(UINT64_MAX);
    this.add_input_metadata(variable);
  }

  name(): string {
    return "AccumulateGrad";
  }

  /**
   * grads[0] is the gradient; `stealable` says whether the engine holds the only reference to it
   * (PyTorch checks use_count; here the engine tells).
   */
  apply(grads: Grad[], stealable = false): Grad[] {
    if (grads[0] === null) return [];
    const meta = get_autograd_meta(this.variable);
    if (!meta) return [];
    // the leaf's own hooks (Tensor.register_hook on a leaf) see the gradient first (callHooks)
    const newGrad = meta.hooks_.length ? callTensorHooks(meta.hooks_, grads[0])! : grads[0];
    if (newGrad !== grads[0]) stealable = false;
    const current = meta.grad_;
    engineObserver?.onAccumulate(this, this.variable, newGrad, current !== null);
    if (current === null) {
      meta.grad_ = !GradMode.is_enabled() && stealable && obeys_layout_contract(newGrad, this.variable) ? newGrad : clone_obey_contract(newGrad, this.variable);
    } else if (!GradMode.is_enabled()) {
      add__Tensor.call(current, newGrad, 1);
    } else {
      meta.grad_ = add_Tensor.call(current, newGrad, 1) as Tensor;
    }
    for (const hook of meta.post_acc_grad_hooks_) {
      engineObserver?.onHook(this, "post_accumulate", hook.name || null);
      hook(this.variable);
    }
    return [];
  }
}
