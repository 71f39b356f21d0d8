// Interrupting a running program between ops, as PyTorch's Python bindings do: CPython sets a flag in
// its SIGINT handler and the interpreter raises KeyboardInterrupt at its next check, which a long
// PyTorch loop reaches between ops. Here the dispatcher checks at every top-level call (one null
// check while nothing is pending) and torch.utils.progress checks at every step.
//
// Whoever receives the interrupt (a notebook host, a SIGINT handler) installs the check; the check
// says whether the code running now should stop (a host that runs several cells may interrupt only
// one of them), and stays installed until the host removes it.

import { KeyboardInterrupt } from "./Errors.js";

/** Returns true when the code running now is to be interrupted. */
export type InterruptCheck = () => boolean;

/** Read by the dispatcher on every call: null while no interrupt is pending. */
export let pendingInterrupt: InterruptCheck | null = null;

/** Installs (or, with null, removes) the pending-interrupt check. */
export function setPendingInterrupt(check: InterruptCheck | null): void {
  pendingInterrupt = check;
}

/** Throws KeyboardInterrupt if an interrupt is pending for the code running now. */
export function checkInterrupt(op?: string): void {
  if (pendingInterrupt !== null && pendingInterrupt()) throw new KeyboardInterrupt("", op ? { op } : undefined);
}
