// Running tensor hooks (torch/csrc/autograd/python_hook.cpp): each hook sees the gradient and may
// return a replacement, which must keep the value's size and dtype (and an undefined one stays undefined).

import type { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import type { TensorPreHook } from "./function.js";

function hookName(fn: Function): string {
  return fn.name || "<lambda>";
}

/** check_single_result: a hook's replacement gradient must look like the original. */
function checkResult(fn: Function, original: Tensor, result: Tensor): void {
  if (original.dtype !== result.dtype) {
    throw new RuntimeError(`hook '${hookName(fn)}' has changed the type of value (was ${original.dtype} got ${result.dtype})`);
  }
  const a = original._impl.sizes(), b = result._impl.sizes();
  if (a.length !== b.length || a.some((s, i) => s !== b[i])) throw new RuntimeError(`hook '${hookName(fn)}' has changed the size of value`);
}

/**
 * Runs the hooks in order; each sees the previous one's result. An undefined gradient (null) is passed as
 * it is, and may not be replaced by a tensor (PyFunctionTensorPreHook's check_single_result).
 */
export function callTensorHooks(hooks: readonly TensorPreHook[], grad: Tensor | null): Tensor | null {
  let g = grad;
  for (const hook of [...hooks]) {
    const r = (hook as (g: Tensor | null) => Tensor | null | undefined | void)(g);
    if (r === undefined || r === null) continue;
    if (g === null) throw new RuntimeError("can't replace a None gradient with a non-None value");
    checkResult(hook, g, r);
    g = r;
  }
  return g;
}
