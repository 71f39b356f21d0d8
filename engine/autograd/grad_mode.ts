// torch.no_grad, torch.enable_grad, torch.set_grad_enabled (torch/autograd/grad_mode.py). Each works
// two ways: around a function, `torch.no_grad(() => model(x))`, or as a scope guard,
// `using _ = torch.no_grad();`, restoring the previous mode when the scope ends.

import { AutoGradMode, GradMode } from "../c10/GradMode.js";
import { InferenceMode, InferenceModeGuard } from "../c10/InferenceMode.js";

function withMode<T>(mode: boolean, fn?: () => T): T | AutoGradMode {
  const guard = new AutoGradMode(mode);
  if (!fn) return guard;
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}

export function no_grad(): AutoGradMode;
export function no_grad<T>(fn: () => T): T;
export function no_grad<T>(fn?: () => T): T | AutoGradMode {
  return withMode(false, fn);
}

export function enable_grad(): AutoGradMode;
export function enable_grad<T>(fn: () => T): T;
export function enable_grad<T>(fn?: () => T): T | AutoGradMode {
  return withMode(true, fn);
}

/** set_grad_enabled(mode): sets the mode now (and, as a guard or around fn, restores it after). */
export function set_grad_enabled(mode: boolean): AutoGradMode;
export function set_grad_enabled<T>(mode: boolean, fn: () => T): T;
export function set_grad_enabled<T>(mode: boolean, fn?: () => T): T | AutoGradMode {
  return withMode(mode, fn);
}

export function is_grad_enabled(): boolean {
  return GradMode.is_enabled();
}

/**
 * torch.inference_mode(mode=true): like no_grad, and tensors made inside are inference tensors (no autograd
 * keys, no version counter), so ops skip the Autograd and ADInplaceOrView kernels altogether. Around a
 * function (`torch.inference_mode(() => model(x))`, or `torch.inference_mode(false, fn)`) or as a guard.
 */
export function inference_mode(mode?: boolean): InferenceModeGuard;
export function inference_mode<T>(fn: () => T): T;
export function inference_mode<T>(mode: boolean, fn: () => T): T;
export function inference_mode<T>(a?: boolean | (() => T), b?: () => T): T | InferenceModeGuard {
  const mode = typeof a === "boolean" ? a : true;
  const fn = typeof a === "function" ? a : b;
  const guard = new InferenceModeGuard(mode);
  if (!fn) return guard;
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}

export function is_inference_mode_enabled(): boolean {
  return InferenceMode.is_enabled();
}
