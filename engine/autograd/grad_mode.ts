// torch.no_grad, torch.enable_grad, torch.set_grad_enabled (torch/autograd/grad_mode.py). Each works
// two ways: around a function, `torch.no_grad(() => model(x))`, or as a scope guard,
// `using _ = torch.no_grad();`, restoring the previous mode when the scope ends.

import { AutoGradMode, GradMode } from "../c10/GradMode.js";

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
