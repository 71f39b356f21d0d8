// The dispatcher's observer hook, as the trace sees it.
// These types mirror engine/dispatcher/DispatchObserver.ts structurally but ask only for what the
// trace reads (an op handle's schema), so trace/ has no runtime import of dispatcher/ and tests can
// drive the recorder with fake op handles. The checks at the bottom make tsc fail if the
// dispatcher's hook drifts away from these shapes.

import type { DispatchKey } from "../c10/DispatchKey.js";
import type { DispatchKeySet } from "../c10/DispatchKeySet.js";
import type * as Dispatcher from "../dispatcher/DispatchObserver.js";

/** What the trace reads from an operator's schema. */
export interface SchemaLike {
  /** With namespace: "aten::add". */
  name: string;
  /** "Tensor"; "" for the default overload. */
  overload_name: string;
  /** Argument names label the argument summaries. */
  arguments?: readonly { name: string }[];
  /** The full schema text. */
  toString(): string;
}

/** An operator handle: the dispatcher's OperatorHandle has schema() (and operator_name(), hasSchema());
 * a plain object with a `schema` property (tests, other hosts) works too. */
export type OperatorHandleLike =
  | { schema: SchemaLike }
  | { schema(): SchemaLike; operator_name?(): string; hasSchema?(): boolean };

export interface KernelDebugInfo {
  name: string;
  /** "kernel", "default backend kernel", "math kernel", "autograd kernel", "backend fallback", "fallthrough", "missing" */
  provenance: string;
  registeredAt: string;
  kind: "kernel" | "fallback" | "fallthrough";
  /** 'file:line' of the generated code that registered it (engine/generated/...). */
  generatedAt?: string;
  /** The PyTorch file of the same step, when the registration knows it better than pytorchRefFor. */
  pytorchRef?: string;
}

export interface DispatchEvent {
  op: OperatorHandleLike;
  args: readonly unknown[];
  keySet: DispatchKeySet;
  tlsIncluded: DispatchKeySet;
  tlsExcluded: DispatchKeySet;
  key: DispatchKey;
  kernel: KernelDebugInfo;
  redispatch: boolean;
  mask?: DispatchKeySet;
}

export interface DispatchObserver {
  /** Called before a kernel runs; returns an id that the matching onReturn receives. */
  onDispatch(e: DispatchEvent): number;
  onReturn(id: number, result: unknown, error?: unknown): void;
}

/** The dispatcher's installer, passed in by whoever wires trace/ to dispatcher/ (see attachTo). */
export type SetDispatchObserver = (o: DispatchObserver | null) => void;

// Compile-time proof that the dispatcher's events fit what the trace reads, and that a recorder can
// be handed to the dispatcher's setDispatchObserver (a `false` here fails the build; nothing runs).
type Fits<A, B> = [A] extends [B] ? true : false;
type Assert<T extends true> = T;
export type HookContractChecks = [
  Assert<Fits<Dispatcher.DispatchEvent, DispatchEvent>>,
  Assert<Fits<DispatchObserver, Dispatcher.DispatchObserver>>,
  Assert<Fits<typeof Dispatcher.setDispatchObserver, SetDispatchObserver>>,
];
