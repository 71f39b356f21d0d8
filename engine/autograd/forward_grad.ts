// Forward-mode AD state (torch/csrc/autograd/forward_grad.h/.cpp and autograd_meta.cpp's fw_grad /
// set_fw_grad). A dual tensor keeps its tangent on its AutogradMeta in a ForwardGrad, a map from dual
// level to tangent. Each level (ForwardADLevel) knows every ForwardGrad that holds a tangent for it, so
// exiting the level clears them all: after `dual_level` ends, unpack_dual(out).tangent is null.
//
// Layout rule ([Forward Grad View/inplace] in autograd_meta.cpp): a tensor and its tangent have the same
// sizes, strides and storage offset; a view's tangent is a view of its base's tangent; an in-place op
// updates the tangent in place. set_fw_grad enforces the first, fw_grad reads a view's tangent from its
// base when an in-place op on the base gave the base one after the view was made.

import type { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { get_autograd_meta, materialize_autograd_meta } from "./variable.js";

// ---------------------------------------------------------------------------------------------------------------
// Levels

/** One forward AD level: releasing it resets the tangents of that level on every tensor. */
export class ForwardADLevel {
  /** The ForwardGrads holding a tangent at this level (grads_ in PyTorch). */
  readonly grads_ = new Set<ForwardGrad>();
  constructor(readonly idx_: number) {}

  erase(grad: ForwardGrad): void {
    this.grads_.delete(grad);
  }
  insert(grad: ForwardGrad): void {
    this.grads_.add(grad);
  }
  /** ~ForwardADLevel: every tangent of this level goes. */
  release(): void {
    for (const g of this.grads_) g.reset(this.idx_, false);
    this.grads_.clear();
  }

  /** ForwardADLevel::get_next_idx: PyTorch 1.13 supports one level at a time. */
  static get_next_idx(): number {
    if (next_forward_idx_ !== 0) throw new RuntimeError("Nested forward mode AD is not supported at the moment");
    const idx = next_forward_idx_++;
    all_forward_levels_.push(new ForwardADLevel(idx));
    return idx;
  }

  static release_idx(idx: number): void {
    if (idx !== all_forward_levels_.length - 1) {
      throw new RuntimeError(
        "Exiting a forward AD level that is not the last that was created is not support. Ensure they are released in the reverse order they were created.",
      );
    }
    if (idx < 0) throw new RuntimeError("No forward AD level was created so you cannot exit it.");
    next_forward_idx_--;
    all_forward_levels_.pop()!.release();
  }

  static get_by_idx(idx: number): ForwardADLevel {
    if (idx < 0 || idx >= all_forward_levels_.length) {
      throw new RuntimeError("Trying to access a forward AD level with an invalid index. This index was either not created or is already deleted.");
    }
    return all_forward_levels_[idx];
  }

  static try_get_by_idx(idx: number): ForwardADLevel | null {
    return idx >= 0 && idx < all_forward_levels_.length ? all_forward_levels_[idx] : null;
  }
}

let next_forward_idx_ = 0;
const all_forward_levels_: ForwardADLevel[] = [];

/** A tensor's tangents, one per level (ForwardGrad). */
export class ForwardGrad {
  private readonly content_ = new Map<number, Tensor>();

  value(level: number): Tensor | null {
    return this.content_.get(level) ?? null;
  }
  contains(level: number): boolean {
    return this.content_.has(level);
  }
  empty(): boolean {
    return this.content_.size === 0;
  }
  set_value(value: Tensor, level: number): void {
    ForwardADLevel.get_by_idx(level).insert(this);
    this.content_.set(level, value);
  }
  /** Drops the tangent of `level`; update_level: also forget this ForwardGrad in the level's list. */
  reset(level: number, update_level = true): void {
    if (update_level) ForwardADLevel.get_by_idx(level).erase(this);
    this.content_.delete(level);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Forward grad mode (c10::AutogradState's fw_grad_mode): off, every tensor reads as having no tangent.

let fw_grad_mode = true;

/** torch._C._is_fwd_grad_enabled. */
export function _is_fwd_grad_enabled(): boolean {
  return fw_grad_mode;
}

/** torch._C._set_fwd_grad_enabled. */
export function _set_fwd_grad_enabled(mode: boolean): void {
  fw_grad_mode = mode;
}

/** Whether any level exists: the generated kernels skip all forward AD work when none does. */
export function any_forward_level(): boolean {
  return all_forward_levels_.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading and writing a tensor's tangent (AutogradMeta::fw_grad / set_fw_grad)

/** Hooks into the ops this needs (as_strided, copy_, zeros), set by forward_ad_ops.ts to keep the layering. */
export interface FwOps {
  as_strided(t: Tensor, sizes: readonly number[], strides: readonly number[], offset: number): Tensor;
  copy_(dst: Tensor, src: Tensor): Tensor;
  /** at::_new_zeros_with_same_feature_meta(self, other): zeros with self's dtype in other's layout. */
  new_zeros_with_same_feature_meta(self: Tensor, other: Tensor): Tensor;
}
let fwOps: FwOps | null = null;
export function setFwOps(o: FwOps): void {
  fwOps = o;
}

/** has_same_meta: same storage offset, sizes, and strides (except along size-1 dims). */
export function has_same_meta(base: Tensor | null, other: Tensor | null): boolean {
  if (!base || !other) return false;
  const a = base._impl;
  const b = other._impl;
  if (a.storage_offset() !== b.storage_offset()) return false;
  const as = a.sizes();
  const bs = b.sizes();
  if (as.length !== bs.length) return false;
  const ast = a.strides();
  const bst = b.strides();
  for (let i = 0; i < as.length; i++) {
    if (as[i] !== bs[i]) return false;
    if (ast[i] !== bst[i] && as[i] !== 1) return false;
  }
  return true;
}

/** t._fw_grad(level): t's tangent at `level`, or null. A view with none reads its base's (case 5). */
export function fw_grad(t: Tensor, level: number): Tensor | null {
  // no level, no tangent anywhere (exiting a level clears its tangents): the common case costs nothing
  if (!fw_grad_mode || all_forward_levels_.length === 0) return null;
  const meta = get_autograd_meta(t);
  if (!meta) return null;
  const direct = meta.fw_grad_?.value(level) ?? null;
  if (direct === null && meta.fw_base_ !== null) {
    const baseVal = fw_grad(meta.fw_base_, level);
    if (baseVal !== null) {
      const impl = t._impl;
      const val = fwOps!.as_strided(baseVal, impl.sizes(), impl.strides(), impl.storage_offset());
      meta.fw_grad_ ??= new ForwardGrad();
      meta.fw_grad_.set_value(val, level);
      return val;
    }
  }
  return direct;
}

/** isFwGradDefined (VariableTypeUtils.h): t is a tensor with a tangent at level 0. */
export function isFwGradDefined(t: Tensor | null | undefined): boolean {
  return t !== null && t !== undefined && fw_grad(t, 0) !== null;
}

/** isFwGradDefinedTensorList. */
export function isFwGradDefinedTensorList(ts: readonly (Tensor | null)[] | null | undefined): boolean {
  return !!ts && ts.some((t) => isFwGradDefined(t));
}

/** t._set_fw_grad(new_grad, level, is_inplace_op) (AutogradMeta::set_fw_grad). */
export function set_fw_grad(self: Tensor, newGradBase: Tensor, level: number, is_inplace_op: boolean): void {
  if (fw_grad(newGradBase, level) !== null) {
    throw new RuntimeError(`Setting a forward grad that itself has a forward gradient at the same level${level} is not supported.`);
  }
  const meta = materialize_autograd_meta(self);
  meta.fw_grad_ ??= new ForwardGrad();
  if (meta.fw_grad_.contains(level)) {
    // re-setting is allowed only as a no-op, which the in-place codegen relies on
    if (!is_inplace_op) throw new RuntimeError("Only inplace operations can re-set the forward grad of a Tensor that already has one.");
    if (meta.fw_grad_.value(level) !== newGradBase) throw new RuntimeError("Cannot set a value of a forward grad if it already exists. Inplace operations should modify it inplace.");
    return;
  }
  let newGrad = newGradBase;
  const ss = self._impl.sizes();
  const gs = newGrad._impl.sizes();
  if (ss.length !== gs.length || ss.some((s, i) => s !== gs[i])) {
    throw new RuntimeError(
      `Trying to set a forward gradient that has a different size than that of the original Tensor, this is not supported. Tensor is of size [${ss.join(", ")}] while the given forward gradient is of size [${gs.join(", ")}].`,
    );
  }
  if (is_inplace_op && meta.fw_base_ !== null) {
    // case 4: an in-place op on a view of a tensor without tangent gives the base a tangent (zeros
    // elsewhere) and makes the view's tangent a view of it
    const base = meta.fw_base_;
    if (fw_grad(base, level) === null) {
      let newBaseFwGrad: Tensor;
      if (has_same_meta(newGrad, base) && has_same_meta(newGrad, self)) newBaseFwGrad = newGrad;
      else {
        newBaseFwGrad = fwOps!.new_zeros_with_same_feature_meta(newGrad, base);
        const impl = self._impl;
        const val = fwOps!.as_strided(newBaseFwGrad, impl.sizes(), impl.strides(), impl.storage_offset());
        fwOps!.copy_(val, newGrad);
        newGrad = val;
      }
      set_fw_grad(base, newBaseFwGrad, level, false);
    }
  }
  // the basic layout constraint: the tangent has the primal's strides and storage offset
  if (!has_same_meta(newGrad, self)) {
    if (meta.fw_base_ !== null) {
      throw new RuntimeError("Expected the output of forward differentiable view operations to have the tangent have the same layout as primal");
    }
    const res = fwOps!.new_zeros_with_same_feature_meta(newGrad, self);
    fwOps!.copy_(res, newGrad);
    newGrad = res;
  }
  meta.fw_grad_.set_value(newGrad, level);
}
