// Interrupting a run within a second, whatever it is doing:
// - its synchronous part runs with vm's breakOnSigint (Node's REPL mechanism): the extension sends
//   SIGINT and V8 stops the script where it is, even in `while (true) {}`;
// - its asynchronous part (code after an await) is stopped at its next op: the engine's dispatcher
//   checks for a pending interrupt (engine/c10/Interrupt.ts) and throws KeyboardInterrupt. Each run
//   carries its RunContext through its promises (AsyncLocalStorage), so only the interrupted run's
//   code stops, even if it keeps running after a later cell started;
// - a run whose async code does no op (a loop that only awaits timers) is reported "interrupted"
//   shortly after the interrupt anyway; its code stops at its next op, if it ever runs one.
//
// Not covered: a synchronous infinite loop after an await (`await x; while (true) {}`) blocks the
// event loop outside the vm call, so neither SIGINT nor messages get through; the extension's
// fallback is to kill and restart the host (a dead host is reported with its reason).

import { AsyncLocalStorage } from "node:async_hooks";
import { setPendingInterrupt } from "../../engine/c10/Interrupt.js";

export class RunContext {
  interrupted = false;
  private onInterrupt: (() => void)[] = [];
  constructor(readonly runId: number) {}

  /** Resolves when the run is interrupted. */
  whenInterrupted(): Promise<void> {
    return new Promise((resolve) => (this.interrupted ? resolve() : this.onInterrupt.push(resolve)));
  }

  markInterrupted(): void {
    if (this.interrupted) return;
    this.interrupted = true;
    for (const f of this.onInterrupt.splice(0)) f();
  }
}

export const runStorage = new AsyncLocalStorage<RunContext>();

/** The run whose code is executing now (synchronously or in one of its continuations). */
export function currentRunContext(): RunContext | undefined {
  return runStorage.getStore();
}

export class Interrupter {
  /** The run in progress (the one an interrupt without a runId means). */
  current: RunContext | null = null;
  /** Interrupted runs whose code may still be running. */
  private readonly live = new Set<RunContext>();

  interrupt(runId?: number): void {
    const ctx = this.current;
    if (!ctx || (runId !== undefined && ctx.runId !== runId)) return;
    ctx.markInterrupted();
    this.live.add(ctx);
    setPendingInterrupt(() => runStorage.getStore()?.interrupted === true);
  }

  /** The interrupted run's code settled: nothing of it is left to stop. */
  settled(ctx: RunContext): void {
    if (!this.live.delete(ctx)) return;
    if (this.live.size === 0) setPendingInterrupt(null);
  }
}

/** The error breakOnSigint raises when SIGINT stops a script. */
export function isScriptInterrupted(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "ERR_SCRIPT_EXECUTION_INTERRUPTED";
}
