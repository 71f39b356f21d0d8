// TorchDispatchMode (torch/utils/_python_dispatch.py) and the Python-key fallbacks
// (aten/src/ATen/core/PythonFallbackKernel.cpp): while a mode is active, every operator call reaches
// the Python key below autograd, and the mode's __torch_dispatch__ decides what happens — log it,
// change it, or run it by calling func again (the mode is popped while it runs, so that call goes on
// to the real kernels).

import { Dispatcher, KernelFunction, type OperatorHandle } from "../../dispatcher/index.js";
import { DispatchKey } from "../../c10/DispatchKey.js";
import { DispatchKeySet } from "../../c10/DispatchKeySet.js";
import { tls_set_dispatch_key_included } from "../../c10/impl/LocalDispatchKeySet.js";
import type { FunctionSchema } from "../../dispatcher/schema/FunctionSchema.js";
import { defaultToJS } from "../../dispatcher/schema/FunctionSchema.js";
import { OpOverload } from "./ops_namespace.js";
import { Tensor } from "./Tensor.js";

/** The mode stack (c10::impl::TorchDispatchModeTLS); its top mode handles the Python key. */
const modeStack: TorchDispatchMode[] = [];

/** Python and PythonTLSSnapshot are in the TLS include set exactly while the stack is not empty. */
function syncPythonKeys(): void {
  const active = modeStack.length > 0;
  tls_set_dispatch_key_included(DispatchKey.Python, active);
  tls_set_dispatch_key_included(DispatchKey.PythonTLSSnapshot, active);
}

export abstract class TorchDispatchMode implements Disposable {
  /**
   * Called for every operator call while this mode is active. `func` is the overload
   * (torch.ops.aten.add.Tensor); args are the positional arguments, kwargs the keyword-only ones
   * that differ from their defaults. Return what the operator should return.
   */
  abstract __torch_dispatch__(func: OpOverload, types: readonly unknown[], args: unknown[], kwargs: Record<string, unknown>): unknown;

  /** `using mode = new MyMode().enter()` or mode.enter() ... mode.exit(). */
  enter(): this {
    modeStack.push(this);
    syncPythonKeys();
    return this;
  }

  exit(): void {
    const i = modeStack.lastIndexOf(this);
    if (i >= 0) modeStack.splice(i, 1);
    syncPythonKeys();
  }

  [Symbol.dispose](): void {
    this.exit();
  }
}

/** _pop_mode_temporarily: while a mode handles a call, it is off the stack. */
function withTopModePopped<T>(fn: (mode: TorchDispatchMode) => T): T {
  const mode = modeStack.pop()!;
  syncPythonKeys();
  try {
    return fn(mode);
  } finally {
    modeStack.push(mode);
    syncPythonKeys();
  }
}

/** Splits a boxed argument list into Python's args and kwargs by the schema. */
function toArgsKwargs(schema: FunctionSchema, stack: readonly unknown[]): { args: unknown[]; kwargs: Record<string, unknown> } {
  const args: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  schema.arguments.forEach((a, i) => {
    if (!a.kwarg_only) args.push(stack[i]);
    else if (a.default_value === null || JSON.stringify(defaultToJS(a.default_value)) !== JSON.stringify(stack[i])) kwargs[a.name] = stack[i];
  });
  return { args, kwargs };
}

function pythonFallback(op: OperatorHandle, _ks: DispatchKeySet, stack: unknown[]): unknown {
  if (modeStack.length === 0) {
    throw new Error(`${op.operator_name()} reached the Python key without an active TorchDispatchMode`);
  }
  const func = new OpOverload(op);
  const { args, kwargs } = toArgsKwargs(func._schema, stack);
  const types = stack.some((a) => a instanceof Tensor) ? [Tensor] : [];
  return withTopModePopped((mode) => mode.__torch_dispatch__(func, types, args, kwargs));
}

/** PythonTLSSnapshot sits at the top: PyTorch snapshots TLS there; we go straight on below it. */
const belowSnapshot = DispatchKeySet.fullAfter(DispatchKey.PythonTLSSnapshot);
function pythonTLSSnapshotFallback(op: OperatorHandle, ks: DispatchKeySet, stack: unknown[]): unknown {
  return Dispatcher.singleton().redispatchBoxed(op, ks.and(belowSnapshot), stack);
}

const d = Dispatcher.singleton();
if (!d.hasBackendFallbackForDispatchKey("Python")) {
  d.registerFallback("Python", KernelFunction.makeFromBoxedFunction(pythonFallback), { name: "pythonFallback", registeredAt: "engine/aten/core/python_dispatch.ts" });
  d.registerFallback("PythonTLSSnapshot", KernelFunction.makeFromBoxedFunction(pythonTLSSnapshotFallback), {
    name: "pythonTLSSnapshotFallback",
    registeredAt: "engine/aten/core/python_dispatch.ts",
  });
}
