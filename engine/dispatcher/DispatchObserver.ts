// The hook the trace recorder (engine/trace/) plugs into. PyTorch's nearest equivalents are RecordFunction
// (aten/src/ATen/record_function.h) and the TORCH_SHOW_DISPATCH_TRACE printing in Dispatcher.cpp; here one
// structured event per call and per redispatch, so a learner can see every key a call passed through.
// With no observer set, a dispatch pays one null check (Dispatcher.ts reads `dispatchObserver` directly).

import type { DispatchKey } from "../c10/DispatchKey.js";
import type { DispatchKeySet } from "../c10/DispatchKeySet.js";
import type { OperatorHandle } from "./Dispatcher.js";

/** The kernel a dispatch chose, as the trace shows it. */
export interface KernelDebugInfo {
  /** The kernel function's name (or what its registration called it). */
  name: string;
  /** How the table got it: "kernel", "default backend kernel", "math kernel", "autograd kernel",
   * "ambiguous autogradother", "backend fallback" or "missing" (computeDispatchTableEntryWithDebug). */
  provenance: string;
  /** 'file:line' of the registration; '' for the built-in missing/ambiguous kernels. */
  registeredAt: string;
  kind: "kernel" | "fallback" | "fallthrough";
  /** 'file:line' of the generated code that registered the kernel, when it came from engine/generated/. */
  generatedAt?: string;
}

export interface DispatchEvent {
  op: OperatorHandle;
  /** The arguments in schema order (the array the kernel receives; do not mutate). */
  args: readonly unknown[];
  /** The key set the kernel was chosen from (after TLS and the fallthrough mask for a call; as given for a redispatch). */
  keySet: DispatchKeySet;
  tlsIncluded: DispatchKeySet;
  tlsExcluded: DispatchKeySet;
  /** The runtime key whose slot ran: keySet.highestPriorityTypeId(). */
  key: DispatchKey;
  kernel: KernelDebugInfo;
  redispatch: boolean;
  /** For redispatchWithMask: the mask applied to the incoming set (e.g. after_autograd_keyset). */
  mask?: DispatchKeySet;
}

export interface DispatchObserver {
  /** Called before the kernel runs; returns an id passed back to onReturn. */
  onDispatch(e: DispatchEvent): number;
  /** Called after the kernel returned or threw (then `error` is set and the error propagates). */
  onReturn(id: number, result: unknown, error?: unknown): void;
}

/** The current observer; a live binding that Dispatcher.ts checks against null on every dispatch. */
export let dispatchObserver: DispatchObserver | null = null;

export function setDispatchObserver(o: DispatchObserver | null): void {
  dispatchObserver = o;
}
