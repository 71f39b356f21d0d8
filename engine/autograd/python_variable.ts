// The autograd side of torch.Tensor (torch/_tensor.py, torch/csrc/autograd/python_variable.cpp):
// .grad, .grad_fn, .is_leaf, .backward(), .retain_grad(), .register_hook(), and requires_grad's
// leaf rule. Installed on Tensor.prototype by the autograd layer, which sits above aten.

import { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { check_not_disposed } from "../c10/Dispose.js";
import { backward, type BackwardOptions } from "./autograd.js";
import type { Node, TensorPreHook } from "./function.js";
import { RemovableHandle } from "./function.js";
import { base_of, get_autograd_meta, grad_accumulator, grad_fn, is_leaf, is_view, materialize_autograd_meta, output_nr } from "./variable.js";
import { TensorImpl } from "../c10/TensorImpl.js";
import { InferenceMode } from "../c10/InferenceMode.js";

const NON_LEAF_GRAD_WARNING =
  "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be populated during autograd.backward(). " +
  "If you indeed want the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. " +
  "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more informations.";

/** requires_grad_leaf_error (torch/csrc/autograd/utils/error_messages.h). */
function requires_grad_leaf_error(requiresGrad: boolean): string {
  let msg = "you can only change requires_grad flags of leaf variables.";
  if (!requiresGrad) msg += " If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().";
  return msg;
}

function checkInferenceRequiresGrad(t: Tensor, requiresGrad: boolean): void {
  if (requiresGrad && t._impl.is_inference() && !InferenceMode.is_enabled()) {
    throw new RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
  }
}

type BackwardArgs = Omit<BackwardOptions, "grad_tensors">;

const atenRequiresGrad_ = Tensor.prototype.requires_grad_;

const methods = {
  /** Tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None). */
  backward(this: Tensor, gradient?: Tensor | null | BackwardArgs, opts: BackwardArgs = {}): void {
    check_not_disposed(this._impl, "backward");
    if (gradient !== undefined && gradient !== null && !(gradient instanceof Tensor)) [gradient, opts] = [null, gradient];
    backward(this, { ...opts, grad_tensors: (gradient as Tensor | null | undefined) ?? null });
  },

  /** Keep this non-leaf's gradient in .grad during backward (a hook on its grad_fn's slot). */
  retain_grad(this: Tensor): void {
    if (!this.requires_grad) throw new RuntimeError("can't retain_grad on Tensor that has requires_grad=False");
    if (is_leaf(this)) return; // leaves keep their gradient anyway
    const meta = materialize_autograd_meta(this);
    if (meta.retains_grad_) return;
    const fn = grad_fn(this)!;
    const self = this;
    // the gradient is copied in, or added to what is there, as VariableHooks::retain_grad does; it is kept
    // apart from the user's hooks and runs after them (Node::retains_grad_hooks). PyTorch 1.13's hook
    // clones an undefined gradient too (an unused output of split), which fails in clone's unpack.
    fn.retains_grad_hooks.set(output_nr(this), function retain_grad_hook(grad: Tensor | null) {
      if (grad === null) throw new RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #0 'self'");
      const m = materialize_autograd_meta(self);
      m.grad_ = m.grad_ === null ? grad.clone() : m.grad_.add(grad);
      return undefined;
    } as TensorPreHook);
    meta.retains_grad_ = true;
  },

  /** A hook on this tensor's gradient: fn(grad) may return a replacement. */
  register_hook(this: Tensor, hook: TensorPreHook): RemovableHandle {
    if (!this.requires_grad) throw new RuntimeError("cannot register a hook on a tensor that doesn't require gradient");
    const fn = grad_fn(this);
    if (fn) return fn.add_tensor_pre_hook(output_nr(this), hook);
    const hooks = materialize_autograd_meta(this).hooks_;
    hooks.push(hook);
    return new RemovableHandle(() => {
      const i = hooks.indexOf(hook);
      if (i >= 0) hooks.splice(i, 1);
    });
  },

  /** A hook run after the gradient was accumulated into this leaf's .grad. */
  register_post_accumulate_grad_hook(this: Tensor, hook: (t: Tensor) => void): RemovableHandle {
    if (!this.requires_grad) throw new RuntimeError("cannot register a hook on a tensor that doesn't require gradient");
    if (!is_leaf(this)) throw new RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors");
    const hooks = materialize_autograd_meta(this).post_acc_grad_hooks_;
    hooks.push(hook);
    return new RemovableHandle(() => {
      const i = hooks.indexOf(hook);
      if (i >= 0) hooks.splice(i, 1);
    });
  },

  /** Is this a differentiable view (made by a view op; detach() and .data are not)? */
  _is_view(this: Tensor): boolean {
    return is_view(this);
  },

  /** Made in inference mode (no autograd, no version counter)? */
  is_inference(this: Tensor): boolean {
    return this._impl.is_inference();
  },

  requires_grad_(this: Tensor, requiresGrad = true): Tensor {
    if (!is_leaf(this) && !requiresGrad) throw new RuntimeError(requires_grad_leaf_error(requiresGrad));
    checkInferenceRequiresGrad(this, requiresGrad);
    return atenRequiresGrad_.call(this, requiresGrad);
  },
};

Object.assign(Tensor.prototype, methods);

Object.defineProperties(Tensor.prototype, {
  grad: {
    configurable: true,
    get(this: Tensor): Tensor | null {
      const meta = get_autograd_meta(this);
      if (!is_leaf(this) && !meta?.retains_grad_) process.emitWarning(NON_LEAF_GRAD_WARNING, "UserWarning");
      return meta?.grad_ ?? null;
    },
    set(this: Tensor, value: Tensor | null) {
      if (value !== null) {
        if (!(value instanceof Tensor)) throw new RuntimeError("assigned grad expected to be a Tensor or None");
        if (value.dtype !== this.dtype) throw new RuntimeError("assigned grad has data of a different type");
        if (!value.device.equals(this.device)) throw new RuntimeError("assigned grad has data located on a different device");
        const a = value._impl.sizes(), b = this._impl.sizes();
        if (a.length !== b.length || a.some((s, i) => s !== b[i])) throw new RuntimeError("assigned grad has data of a different size");
      }
      materialize_autograd_meta(this).grad_ = value;
    },
  },
  grad_fn: {
    configurable: true,
    get(this: Tensor): Node | null {
      return grad_fn(this);
    },
  },
  is_leaf: {
    configurable: true,
    get(this: Tensor): boolean {
      return is_leaf(this);
    },
  },
  retains_grad: {
    configurable: true,
    get(this: Tensor): boolean {
      return get_autograd_meta(this)?.retains_grad_ ?? false;
    },
  },
  _base: {
    configurable: true,
    get(this: Tensor): Tensor | null {
      return base_of(this);
    },
  },
  /** .data: the same data with no history and a version counter of its own, so changes through it are invisible to autograd. */
  data: {
    configurable: true,
    get(this: Tensor): Tensor {
      const i = this._impl;
      return new Tensor(new TensorImpl(i.storage, i.dtype, i.sizes(), i.strides(), i.storage_offset()));
    },
  },
  output_nr: {
    configurable: true,
    get(this: Tensor): number {
      return output_nr(this);
    },
  },
  requires_grad: {
    configurable: true,
    get(this: Tensor): boolean {
      return this._impl.requires_grad();
    },
    set(this: Tensor, value: boolean) {
      if (!is_leaf(this)) throw new RuntimeError(requires_grad_leaf_error(value));
      checkInferenceRequiresGrad(this, value);
      atenRequiresGrad_.call(this, value);
    },
  },
});

/** For AccumulateGrad lookups: grad_fn.next_functions[0][0].variable is the leaf. */
export { grad_accumulator };

declare module "../aten/core/Tensor.js" {
  interface Tensor {
    grad: Tensor | null;
    readonly grad_fn: Node | null;
    readonly is_leaf: boolean;
    readonly retains_grad: boolean;
    readonly output_nr: number;
    readonly _base: Tensor | null;
    readonly data: Tensor;
    _is_view(): boolean;
    is_inference(): boolean;
    backward(gradient?: Tensor | null, opts?: BackwardArgs): void;
    backward(opts: BackwardArgs): void;
    retain_grad(): void;
    register_hook(hook: TensorPreHook): RemovableHandle;
    register_post_accumulate_grad_hook(hook: (t: Tensor) => void): RemovableHandle;
  }
}
