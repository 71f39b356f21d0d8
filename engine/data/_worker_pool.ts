// A process-wide pool of idle DataLoader worker threads. PyTorch's non-persistent workers are forked
// processes: each epoch's start copies a warm process, cheap. A worker thread starts cold (it imports
// the engine, ~1 s of CPU), so instead of terminating a non-persistent iterator's threads when it ends,
// Glasstorch hands them back here, and the next iterator takes them (spawning only if too few).
// Each iterator then sends every thread an "init" (worker.ts): the dataset rebuilt from its spec,
// worker_init_fn re-run, get_worker_info() and the RNG seeded for the new base_seed — the state a fresh
// worker would have. What survives is module-level state (the module cache), documented in the README.
//  - idle threads are unref'd (they never keep Node alive) and terminated after IDLE_MS idle;
//  - at most MAX_IDLE threads wait here; extra ones are terminated;
//  - a thread whose user code threw, that timed out or crashed is terminated, never reused;
//  - a thread given back with fetches still in flight (a loop left early) returns to the pool only
//    once it has worked through them and acknowledged the release, so no stale batch reaches the
//    next iterator.

import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { availableParallelism } from "node:os";
import { RuntimeError } from "../c10/Errors.js";

export const IDLE_MS = 5000;
export const MAX_IDLE = Math.max(4, availableParallelism());

/** The compiled worker entry point (tests run TypeScript sources; workers always run dist/ JavaScript). */
function workerScript(): string {
  const here = fileURLToPath(import.meta.url);
  const dir = dirname(here);
  if (here.endsWith(".js")) return join(dir, "worker.js");
  const m = /^(.*)[\\/]engine[\\/]data$/.exec(dir);
  const js = m ? join(m[1], "dist", "engine", "data", "worker.js") : join(dir, "worker.js");
  if (!existsSync(js)) throw new RuntimeError(`DataLoader workers need the compiled engine: ${js} is missing (run npm run build)`);
  return js;
}

export interface WorkerHandlers {
  message: (m: any) => void;
  error: (e: unknown) => void;
  exit: (code: number) => void;
}

/** One worker thread and who listens to it now (an iterator, or nobody while it is idle). */
export class PooledWorker {
  handlers: WorkerHandlers | null = null;
  state: "busy" | "returning" | "idle" | "dead" = "busy";
  idleTimer: NodeJS.Timeout | null = null;
  /** iterators this thread has served (1 on its first) */
  uses = 0;

  constructor(readonly worker: Worker) {}
}

class WorkerPool {
  private readonly idle: PooledWorker[] = [];
  /** The cap on idle threads; 0 terminates every thread an iterator gives back (spawn per epoch, the bench's baseline). */
  max_idle = MAX_IDLE;
  /** How long a thread may wait idle before it is terminated. */
  idle_ms = IDLE_MS;

  /** Idle threads now (for tests and the bench). */
  get idle_count(): number {
    return this.idle.length;
  }

  private spawn(): PooledWorker {
    const w = new Worker(workerScript(), { workerData: { __glasstorch_data_worker__: true } });
    w.unref(); // only a pending next() refs it: idle or abandoned threads never keep Node alive
    const p = new PooledWorker(w);
    w.on("message", (m: { type: string }) => {
      if (m.type === "released") {
        if (p.state === "returning") this.makeIdle(p);
        return;
      }
      p.handlers?.message(m);
    });
    w.on("error", (e) => p.handlers?.error(e));
    w.on("exit", (code) => {
      const was = p.state;
      p.state = "dead";
      this.forget(p);
      if (was === "busy") p.handlers?.exit(code);
    });
    return p;
  }

  /** n threads for a new iterator: idle ones first (most recently used), new ones for the rest. */
  acquire(n: number, handlers: (i: number) => WorkerHandlers): PooledWorker[] {
    const out: PooledWorker[] = [];
    for (let i = 0; i < n; i++) {
      const p = this.idle.pop() ?? this.spawn();
      if (p.idleTimer !== null) clearTimeout(p.idleTimer);
      p.idleTimer = null;
      p.state = "busy";
      p.uses++;
      p.handlers = handlers(i);
      out.push(p);
    }
    return out;
  }

  /**
   * An iterator is done with p. `drain`: fetches it sent are still unanswered, so wait for the
   * worker's "released" (sent after them) before handing the thread out again.
   */
  release(p: PooledWorker, drain: boolean): void {
    if (p.state !== "busy") return;
    p.handlers = null;
    p.worker.unref();
    p.worker.postMessage({ type: "release" }); // drops the dataset and worker info in the thread
    if (drain) p.state = "returning";
    else this.makeIdle(p);
  }

  /** p ran user code that threw, timed out or crashed: it is not reused. */
  terminate(p: PooledWorker): Promise<unknown> {
    p.handlers = null;
    p.state = "dead";
    this.forget(p);
    return p.worker.terminate();
  }

  private makeIdle(p: PooledWorker): void {
    if (this.idle.length >= this.max_idle) {
      void this.terminate(p);
      return;
    }
    p.state = "idle";
    p.idleTimer = setTimeout(() => void this.terminate(p), this.idle_ms);
    p.idleTimer.unref();
    this.idle.push(p);
  }

  private forget(p: PooledWorker): void {
    if (p.idleTimer !== null) clearTimeout(p.idleTimer);
    p.idleTimer = null;
    const k = this.idle.indexOf(p);
    if (k >= 0) this.idle.splice(k, 1);
  }

  /** Terminates every idle thread now. */
  async clear(): Promise<void> {
    await Promise.all([...this.idle].map((p) => this.terminate(p)));
  }
}

/** The process-wide pool every DataLoader iterator draws its worker threads from. */
export const _worker_pool = new WorkerPool();
