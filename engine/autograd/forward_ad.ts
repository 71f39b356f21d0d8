// torch.autograd.forward_ad (torch/autograd/forward_ad.py): forward-mode AD. Inside a dual level, a
// dual tensor (make_dual) carries a tangent; every op with a forward formula computes its output's
// tangent (the Jacobian-vector product) along with the output, and unpack_dual reads it back:
//
//   fwAD.dual_level(() => {
//     const out = f(fwAD.make_dual(x, v));
//     const { primal, tangent } = fwAD.unpack_dual(out);   // tangent = J_f(x) v
//   });
//
// or with a scope guard: `using _ = fwAD.dual_level();`. Exiting the level drops every tangent of it.

import { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError, ValueError } from "../c10/Errors.js";
import { isFloatingType, isComplexType } from "../c10/ScalarType.js";
import "../c10/impl/LocalDispatchKeySet.js"; // Symbol.dispose polyfill
import { _make_dual as torch_make_dual } from "../generated/_make_dual.js";
import { _unpack_dual as torch_unpack_dual } from "../generated/_unpack_dual.js";
import { ForwardADLevel, _is_fwd_grad_enabled, _set_fwd_grad_enabled as set_fwd_grad_mode } from "./forward_grad.js";
import "./forward_ad_ops.js";

export { _is_fwd_grad_enabled };

/** The level the other functions use by default (the module global of forward_ad.py). */
let _current_level = -1;

/** torch._C._enter_dual_level. */
function _enter_dual_level(): number {
  return ForwardADLevel.get_next_idx();
}

/** torch._C._exit_dual_level. */
function _exit_dual_level(level: number): void {
  if (level < 0) throw new RuntimeError("Dual level must be a positive number.");
  ForwardADLevel.release_idx(level);
}

/** Enters a new forward grad level and makes it the current one; returns it. */
export function enter_dual_level(): number {
  const new_level = _enter_dual_level();
  if (new_level !== _current_level + 1) {
    throw new RuntimeError("Entering a new forward AD level but the current level is not valid. Make sure you did not modified it directly.");
  }
  _current_level = new_level;
  return new_level;
}

/** Exits the (last) level, deleting every tangent of it. */
export function exit_dual_level(opts: { level?: number | null } = {}): void {
  const level = opts.level ?? _current_level;
  if (level !== _current_level) {
    throw new RuntimeError("Trying to exit a forward AD level that was not the last one that was created. This is not supported.");
  }
  _exit_dual_level(level);
  _current_level = level - 1;
}

function isFloatingOrComplex(t: Tensor): boolean {
  return isFloatingType(t.dtype.scalarType) || isComplexType(t.dtype.scalarType);
}

/**
 * make_dual(tensor, tangent, {level}): a new tensor aliasing `tensor` whose tangent is `tangent` (as-is when
 * it has tensor's layout, else copied into that layout). Backward-differentiable (ViewBackward0).
 */
export function make_dual(tensor: Tensor, tangent: Tensor, opts: { level?: number | null } = {}): Tensor {
  const level = opts.level ?? _current_level;
  if (level < 0) {
    throw new RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first.");
  }
  if (!isFloatingOrComplex(tensor)) throw new ValueError(`Expected primal to be floating point or complex, but got: ${tensor.dtype}`);
  if (!isFloatingOrComplex(tangent)) throw new ValueError(`Expected tangent to be floating point or complex, but got: ${tangent.dtype}`);
  return torch_make_dual(tensor, tangent, level);
}

/** The named tuple unpack_dual returns: `[primal, tangent]` with `.primal` and `.tangent`. */
export type UnpackedDualTensor = [Tensor, Tensor | null] & { readonly primal: Tensor; readonly tangent: Tensor | null };

function UnpackedDualTensor(primal: Tensor, tangent: Tensor | null): UnpackedDualTensor {
  return Object.assign([primal, tangent], { primal, tangent }) as UnpackedDualTensor;
}

/**
 * unpack_dual(tensor, {level}): (primal, tangent), primal a view of tensor's primal without the tangent,
 * tangent as-is (null when tensor has none, or outside any level).
 */
export function unpack_dual(tensor: Tensor, opts: { level?: number | null } = {}): UnpackedDualTensor {
  const level = opts.level ?? _current_level;
  if (level < 0) return UnpackedDualTensor(tensor, null);
  const [primal, dual] = torch_unpack_dual(tensor, level) as unknown as [Tensor, Tensor | null];
  return UnpackedDualTensor(primal, dual);
}

/** The guard dual_level() returns: the level entered, exited when disposed. */
export class DualLevel {
  readonly level: number;
  private exited = false;
  constructor() {
    this.level = enter_dual_level();
  }
  [Symbol.dispose](): void {
    if (this.exited) return;
    this.exited = true;
    exit_dual_level();
  }
}

/**
 * dual_level: the context in which forward AD runs. As a scope guard (`using lvl = fwAD.dual_level();`,
 * lvl.level is the level) or around a function, which gets the level: `fwAD.dual_level((level) => ...)`.
 */
export function dual_level(): DualLevel;
export function dual_level<T>(fn: (level: number) => T): T;
export function dual_level<T>(fn?: (level: number) => T): T | DualLevel {
  const guard = new DualLevel();
  if (!fn) return guard;
  try {
    return fn(guard.level);
  } finally {
    guard[Symbol.dispose]();
  }
}

/** _set_fwd_grad_enabled(mode): private switch for forward AD (a guard, or around fn). */
export function _set_fwd_grad_enabled(mode: boolean): Disposable;
export function _set_fwd_grad_enabled<T>(mode: boolean, fn: () => T): T;
export function _set_fwd_grad_enabled<T>(mode: boolean, fn?: () => T): T | Disposable {
  const prev = _is_fwd_grad_enabled();
  set_fwd_grad_mode(mode);
  const guard = { [Symbol.dispose]: () => set_fwd_grad_mode(prev) };
  if (!fn) return guard;
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}
