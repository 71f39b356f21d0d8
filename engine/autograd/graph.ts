// torch.autograd.graph: the Node type of grad_fn objects, gradient_edge, and saved_tensors_hooks.

import type { Tensor } from "../aten/core/Tensor.js";

export { Node } from "./function.js";
export { gradient_edge as get_gradient_edge } from "./variable.js";

export type PackHook = (t: Tensor) => unknown;
export type UnpackHook = (packed: any) => Tensor;

/** The active (pack, unpack) pairs, innermost last (torch/csrc/autograd/saved_variable_hooks). */
const stack: [PackHook, UnpackHook][] = [];

/** The innermost saved-tensors hooks, or null. */
export function current_saved_tensors_hooks(): [PackHook, UnpackHook] | null {
  return stack.length ? stack[stack.length - 1] : null;
}

class SavedTensorsHooksGuard {
  constructor(pack: PackHook, unpack: UnpackHook) {
    stack.push([pack, unpack]);
  }
  [Symbol.dispose](): void {
    stack.pop();
  }
}

/**
 * torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook): while active, every tensor a Node saves
 * goes through pack_hook, and comes back through unpack_hook when backward (or `_saved_*`) needs it —
 * how activation offloading and checkpointing plug in. Around a function, or as a `using` guard.
 */
export function saved_tensors_hooks(pack: PackHook, unpack: UnpackHook): SavedTensorsHooksGuard;
export function saved_tensors_hooks<T>(pack: PackHook, unpack: UnpackHook, fn: () => T): T;
export function saved_tensors_hooks<T>(pack: PackHook, unpack: UnpackHook, fn?: () => T): T | SavedTensorsHooksGuard {
  const guard = new SavedTensorsHooksGuard(pack, unpack);
  if (!fn) return guard;
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}
