// Interrupting a run within a second, whatever it is doing:
// - its synchronous part runs with vm's breakOnSigint (Node's REPL mechanism): the extension sends
//   SIGINT and V8 stops the script where it is, even in `while (true) {}`;
// - its asynchronous part (code after an await) is stopped at its next op: the engine's dispatcher
//   checks for a pending interrupt (engine/c10/Interrupt.ts) and throws KeyboardInterrupt. Each run
//   carries its RunContext through its promises (AsyncLocalStorage), so only the interrupted run's
//   code stops, even if it keeps running after a later cell started;
// - an async loop that never yields to the event loop (its awaits all already resolved: `await null`,
//   `for await` over an in-memory loader) would never see SIGINT or the notification: stdin is read
//   by a worker thread that raises a shared flag for Interrupt notifications (stdin_reader.ts), and
//   the check between ops reads it;
// - a run whose async code does no op (a loop that only awaits timers) is reported "interrupted"
//   shortly after the interrupt anyway; its code stops at its next op, if it ever runs one.
//
// Not covered: a synchronous infinite loop after an await (`await x; while (true) {}`), and an async
// loop that neither yields to the event loop nor runs an op: nothing in the process gets to run; the
// extension's fallback is to kill and restart the host (a dead host is reported with its reason).

import { AsyncLocalStorage } from "node:async_hooks";
import { setPendingInterrupt } from "../../engine/c10/Interrupt.js";

export class RunContext {
  interrupted = false;
  /** performance.now() when the interrupt reached this process. */
  interruptedAt?: number;
  private onInterrupt: (() => void)[] = [];
  constructor(readonly runId: number) {}

  /** Resolves when the run is interrupted. */
  whenInterrupted(): Promise<void> {
    return new Promise((resolve) => (this.interrupted ? resolve() : this.onInterrupt.push(resolve)));
  }

  markInterrupted(): void {
    if (this.interrupted) return;
    this.interrupted = true;
    this.interruptedAt = performance.now();
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

  /**
   * `flag` (stdin_reader.ts) is raised by the thread that reads stdin when an Interrupt notification
   * arrives; with it the check stays installed and reads the flag between ops, so a run that never
   * yields to the event loop is still stopped at its next op.
   */
  constructor(private readonly flag: Int32Array | null = null) {
    if (flag) setPendingInterrupt(this.check);
  }

  private readonly check = (): boolean => {
    this.poll();
    return this.live.size > 0 && runStorage.getStore()?.interrupted === true;
  };

  /** Takes an Interrupt notification the stdin thread has flagged but the event loop not yet delivered. */
  poll(): void {
    const f = this.flag;
    if (f !== null && Atomics.load(f, 0) !== 0) {
      Atomics.store(f, 0, 0);
      this.interrupt(Atomics.load(f, 1));
    }
  }

  /** An interrupt for a run that has not started yet (it came while the run was queued or read). */
  private early: number | null = null;
  /** The latest run that started, so an interrupt for an older one is not kept for later. */
  private lastStarted = 0;

  /** A run starts: true when its interrupt came first, before any of its code ran. */
  starting(ctx: RunContext): boolean {
    this.current = ctx;
    this.lastStarted = ctx.runId;
    const early = this.early === ctx.runId;
    this.early = null;
    if (early) ctx.markInterrupted();
    return early;
  }

  interrupt(runId?: number): void {
    const ctx = this.current;
    if (runId !== undefined && runId > this.lastStarted && ctx?.runId !== runId) {
      // Its Run request is still queued (or being read): stop it as soon as it starts.
      this.early = runId;
      return;
    }
    if (!ctx || (runId !== undefined && ctx.runId !== runId)) return;
    ctx.markInterrupted();
    this.live.add(ctx);
    if (!this.flag) setPendingInterrupt(this.check);
  }

  /** The interrupted run's code settled: nothing of it is left to stop. */
  settled(ctx: RunContext): void {
    if (!this.live.delete(ctx)) return;
    if (this.live.size === 0 && !this.flag) setPendingInterrupt(null);
  }
}

/** The error breakOnSigint raises when SIGINT stops a script. */
export function isScriptInterrupted(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "ERR_SCRIPT_EXECUTION_INTERRUPTED";
}
