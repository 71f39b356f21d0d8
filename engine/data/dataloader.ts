// torch/utils/data/dataloader.py: DataLoader and its two iterators.
//  - num_workers = 0: a synchronous iterator (`for (const batch of loader)`; `for await` works too).
//  - num_workers > 0: workers are node:worker_threads (PyTorch uses processes), driven like
//    _MultiProcessingDataLoaderIter: prefetch_factor * num_workers index batches in flight, handed out
//    round-robin; results may arrive out of order and are buffered so batches come back in sampler
//    order. Iterate with `for await`. Datasets, collate_fn and worker_init_fn reach the workers as
//    described in _worker_spec.ts (the constraint PyTorch's pickling doesn't have).
// Each new iterator draws base_seed from the default generator (or `generator`) before the sampler
// runs, as PyTorch does, so shuffled orders match PyTorch epoch after epoch.

import type { Worker } from "node:worker_threads";
import type { Generator } from "../aten/Generator.js";
import { RuntimeError, ValueError, TypeError_, IndexError, NotImplementedError } from "../c10/Errors.js";
import { len, getitem, draw_int64_seed, pyRepr } from "./_common.js";
import { isIterableDataset } from "./dataset.js";
import { BatchSampler, RandomSampler, SequentialSampler } from "./sampler.js";
import { default_collate, default_convert } from "./collate.js";
import { decodeTree } from "./_transfer.js";
import { workerSpecOf, fnSpecOf } from "./_worker_spec.js";
import type { WorkerInit } from "./worker.js";
import { _worker_pool, type PooledWorker } from "./_worker_pool.js";
import { AssertionError } from "./dataset.js";

export interface DataLoaderOptions {
  batch_size?: number | null;
  shuffle?: boolean | null;
  sampler?: Iterable<unknown> | null;
  batch_sampler?: Iterable<unknown[]> | null;
  num_workers?: number;
  collate_fn?: ((batch: any) => unknown) | { module: string; name: string } | null;
  pin_memory?: boolean;
  drop_last?: boolean;
  timeout?: number;
  worker_init_fn?: ((worker_id: number) => unknown) | { module: string; name: string } | null;
  generator?: Generator | null;
  prefetch_factor?: number;
  persistent_workers?: boolean;
}

/** An endless stream of nulls: the sampler of an IterableDataset. */
class _InfiniteConstantSampler implements Iterable<null> {
  *[Symbol.iterator](): Iterator<null> {
    for (;;) yield null;
  }
}

export class DataLoader<T = any> implements Iterable<T>, AsyncIterable<T> {
  readonly dataset: unknown;
  readonly batch_size: number | null;
  readonly drop_last: boolean;
  readonly sampler: Iterable<unknown>;
  readonly batch_sampler: Iterable<unknown[]> | null;
  readonly num_workers: number;
  readonly prefetch_factor: number;
  readonly pin_memory: boolean;
  readonly timeout: number;
  readonly worker_init_fn: DataLoaderOptions["worker_init_fn"];
  readonly collate_fn: (batch: any) => unknown;
  readonly _user_collate: DataLoaderOptions["collate_fn"];
  readonly generator: Generator | null;
  readonly persistent_workers: boolean;
  readonly _dataset_kind: "map" | "iterable";
  _iterator: _MultiProcessingDataLoaderIter<T> | null = null;

  constructor(dataset: unknown, options: DataLoaderOptions = {}) {
    let batch_size = options.batch_size === undefined ? 1 : options.batch_size;
    let shuffle = options.shuffle ?? null;
    let sampler = options.sampler ?? null;
    const batch_sampler = options.batch_sampler ?? null;
    const num_workers = options.num_workers ?? 0;
    let drop_last = options.drop_last ?? false;
    const timeout = options.timeout ?? 0;
    const prefetch_factor = options.prefetch_factor ?? 2;
    const persistent_workers = options.persistent_workers ?? false;

    if (num_workers < 0) throw new ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.");
    if (timeout < 0) throw new ValueError("timeout option should be non-negative");
    if (num_workers === 0 && prefetch_factor !== 2) {
      throw new ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable multiprocessing.");
    }
    if (!(prefetch_factor > 0)) throw new AssertionError("");
    if (persistent_workers && num_workers === 0) throw new ValueError("persistent_workers option needs num_workers > 0");

    this.dataset = dataset;
    this.num_workers = num_workers;
    this.prefetch_factor = prefetch_factor;
    this.pin_memory = options.pin_memory ?? false;
    this.timeout = timeout;
    this.worker_init_fn = options.worker_init_fn ?? null;

    if (isIterableDataset(dataset)) {
      this._dataset_kind = "iterable";
      if (shuffle !== false && shuffle !== null) {
        throw new ValueError(`DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=${pyRepr(shuffle)}`);
      }
      if (sampler !== null) throw new ValueError(`DataLoader with IterableDataset: expected unspecified sampler option, but got sampler=${sampler}`);
      if (batch_sampler !== null) {
        throw new ValueError(`DataLoader with IterableDataset: expected unspecified batch_sampler option, but got batch_sampler=${batch_sampler}`);
      }
    } else {
      shuffle = Boolean(shuffle);
      this._dataset_kind = "map";
    }

    if (sampler !== null && shuffle) throw new ValueError("sampler option is mutually exclusive with shuffle");

    if (batch_sampler !== null) {
      if (batch_size !== 1 || shuffle || sampler !== null || drop_last) {
        throw new ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last");
      }
      batch_size = null;
      drop_last = false;
    } else if (batch_size === null) {
      if (drop_last) throw new ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last");
    }

    if (sampler === null) {
      if (this._dataset_kind === "iterable") sampler = new _InfiniteConstantSampler();
      else if (shuffle) sampler = new RandomSampler(dataset, { generator: options.generator ?? null });
      else sampler = new SequentialSampler(dataset);
    }

    this.batch_size = batch_size;
    this.drop_last = drop_last;
    this.sampler = sampler;
    this.batch_sampler = batch_sampler ?? (batch_size !== null ? new BatchSampler(sampler as Iterable<number>, batch_size, drop_last) : null);
    this.generator = options.generator ?? null;
    this._user_collate = options.collate_fn ?? null;
    if (typeof options.collate_fn === "function") this.collate_fn = options.collate_fn;
    else if (options.collate_fn == null) this.collate_fn = this._auto_collation ? default_collate : default_convert;
    else this.collate_fn = () => {
      throw new TypeError_("a {module, name} collate_fn reference is only usable with num_workers > 0");
    };
    this.persistent_workers = persistent_workers;
  }

  get _auto_collation(): boolean {
    return this.batch_sampler !== null;
  }

  get _index_sampler(): Iterable<unknown> {
    return this._auto_collation ? this.batch_sampler! : this.sampler;
  }

  /** len(dataloader): the index sampler's length (for an IterableDataset, derived from len(dataset)). */
  __len__(): number {
    if (this._dataset_kind === "iterable") {
      let length = len(this.dataset);
      if (this.batch_size !== null) length = this.drop_last ? Math.floor(length / this.batch_size) : Math.ceil(length / this.batch_size);
      return length;
    }
    return len(this._index_sampler);
  }

  get length(): number {
    return this.__len__();
  }

  /** Synchronous iteration (num_workers = 0 only: worker results arrive asynchronously). */
  [Symbol.iterator](): _SingleProcessDataLoaderIter<T> {
    if (this.num_workers > 0) {
      throw new TypeError_("DataLoader with num_workers > 0 delivers batches asynchronously: iterate it with `for await (const batch of loader)`");
    }
    return new _SingleProcessDataLoaderIter<T>(this);
  }

  /** for await: the worker iterator when num_workers > 0 (persistent ones reused across epochs). */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.num_workers === 0) {
      const it = new _SingleProcessDataLoaderIter<T>(this);
      return { next: async () => it.next() };
    }
    if (this.persistent_workers) {
      if (this._iterator === null) this._iterator = new _MultiProcessingDataLoaderIter<T>(this);
      else this._iterator._reset(this);
      return this._iterator;
    }
    return new _MultiProcessingDataLoaderIter<T>(this);
  }

  /** Ends persistent workers now: their threads go back to the idle pool (which never keeps Node alive). */
  shutdown(): Promise<void> {
    const it = this._iterator;
    this._iterator = null;
    return it ? it._shutdown_workers() : Promise.resolve();
  }
}

abstract class _BaseDataLoaderIter {
  protected _sampler_iter: Iterator<unknown>;
  readonly _base_seed: bigint;
  protected _num_yielded = 0;

  constructor(protected readonly loader: DataLoader<any>) {
    this._sampler_iter = loader._index_sampler[Symbol.iterator]();
    this._base_seed = draw_int64_seed(loader.generator);
  }

  protected _next_index(): IteratorResult<unknown> {
    return this._sampler_iter.next();
  }
}

export class _SingleProcessDataLoaderIter<T> extends _BaseDataLoaderIter implements IterableIterator<T> {
  private _iter: Iterator<unknown> | null = null;
  private _ended = false;

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<T> {
    if (this._ended) return { done: true, value: undefined };
    const r = this._next_index();
    if (r.done) return this._end();
    const index = r.value;
    const loader = this.loader;
    let data: unknown;
    if (loader._dataset_kind === "iterable") {
      this._iter ??= (loader.dataset as Iterable<unknown>)[Symbol.iterator]();
      if (loader._auto_collation) {
        const items: unknown[] = [];
        for (let k = 0; k < (index as unknown[]).length; k++) {
          const s = this._iter.next();
          if (s.done) break;
          items.push(s.value);
        }
        if (items.length === 0 || (loader.drop_last && items.length < (index as unknown[]).length)) return this._end();
        data = loader.collate_fn(items);
      } else {
        const s = this._iter.next();
        if (s.done) return this._end();
        data = loader.collate_fn(s.value);
      }
    } else if (loader._auto_collation) {
      data = loader.collate_fn((index as number[]).map((i) => getitem(loader.dataset, i)));
    } else {
      data = loader.collate_fn(getitem(loader.dataset, index));
    }
    this._num_yielded++;
    return { done: false, value: data as T };
  }

  private _end(): IteratorResult<T> {
    this._ended = true;
    return { done: true, value: undefined };
  }

  return(): IteratorResult<T> {
    this._ended = true;
    return { done: true, value: undefined };
  }
}

const ERRORS: Record<string, new (m: string) => Error> = {
  RuntimeError, ValueError, TypeError: TypeError_, IndexError, NotImplementedError, AssertionError,
  RangeError, SyntaxError, ReferenceError, Error,
};

/** ExceptionWrapper.reraise(): the same error class when known here, with PyTorch's message. */
function reraise(e: { exc_type: string; msg: string }): never {
  const C = ERRORS[e.exc_type];
  if (C) throw new C(e.msg);
  const err = new Error(e.msg);
  err.name = e.exc_type;
  throw err;
}

type WorkerMsg =
  | { type: "ready" } | { type: "resumed" }
  | { type: "data"; idx: number; data: unknown }
  | { type: "error"; idx: number; exc_type: string; msg: string }
  | { type: "stop_iteration"; idx: number; worker_id: number }
  | { type: "exit"; worker_id: number; code: number }
  | { type: "crash"; worker_id: number; error: unknown };

export class _MultiProcessingDataLoaderIter<T> extends _BaseDataLoaderIter implements AsyncIterableIterator<T> {
  private readonly _workers: Worker[] = [];
  private readonly _pooled: PooledWorker[];
  private readonly _workers_status: boolean[] = [];
  private readonly _worker_outstanding: number[] = []; // fetches sent to each worker, not yet answered
  private readonly _worker_threw: boolean[] = []; // its user code raised: not given back to the pool
  private _bad = false; // timed out or a worker died: terminate them all
  private readonly _queue: WorkerMsg[] = [];
  private _waiter: (() => void) | null = null;
  private _worker_queue_idx_cycle = 0;
  private _send_idx = 0;
  private _rcvd_idx = 0;
  private _tasks_outstanding = 0;
  private _task_info = new Map<number, { worker_id: number; data?: WorkerMsg }>();
  private _shutdown = false;
  private readonly _num_workers: number;
  private readonly _prefetch_factor: number;
  private readonly _persistent: boolean;

  constructor(loader: DataLoader<any>) {
    super(loader);
    this._num_workers = loader.num_workers;
    this._prefetch_factor = loader.prefetch_factor;
    this._persistent = loader.persistent_workers;
    const dataset = workerSpecOf(loader.dataset);
    const collate_fn = fnSpecOf(loader._user_collate, "collate_fn");
    const worker_init_fn = fnSpecOf(loader.worker_init_fn, "worker_init_fn");
    // threads from the process-wide pool (spawned if too few: they start importing at once); each gets
    // the init a freshly started worker would (worker.ts)
    this._pooled = _worker_pool.acquire(this._num_workers, (i) => ({
      message: (m: WorkerMsg) => this._on_message(i, m),
      error: (error) => this._push({ type: "crash", worker_id: i, error }),
      exit: (code) => this._push({ type: "exit", worker_id: i, code }),
    }));
    for (let i = 0; i < this._num_workers; i++) {
      const init: WorkerInit = {
        dataset, dataset_kind: loader._dataset_kind, auto_collation: loader._auto_collation, collate_fn, worker_init_fn,
        drop_last: loader.drop_last, base_seed: this._base_seed.toString(), worker_id: i, num_workers: this._num_workers,
      };
      const w = this._pooled[i].worker;
      w.postMessage({ type: "init", init });
      this._workers.push(w);
      this._workers_status.push(true);
      this._worker_outstanding.push(0);
      this._worker_threw.push(false);
    }
    this._reset(loader, true);
  }

  private _on_message(i: number, m: WorkerMsg): void {
    if (m.type === "data" || m.type === "error" || m.type === "stop_iteration") this._worker_outstanding[i]--;
    if (m.type === "error") this._worker_threw[i] = true;
    this._push(m);
  }

  private _push(m: WorkerMsg): void {
    if (m.type === "ready") return;
    this._queue.push(m);
    const w = this._waiter;
    this._waiter = null;
    w?.();
  }

  _reset(loader: DataLoader<any>, first_iter = false): void {
    this._sampler_iter = loader._index_sampler[Symbol.iterator]();
    this._num_yielded = 0;
    this._send_idx = 0;
    this._rcvd_idx = 0;
    this._task_info = new Map();
    this._tasks_outstanding = 0;
    this._worker_queue_idx_cycle = 0;
    for (let i = 0; i < this._num_workers; i++) this._workers_status[i] = true;
    if (!first_iter) {
      // persistent workers: tell each to restart its iteration (resume acks are not awaited: each
      // worker handles messages in order, so the resume precedes the new epoch's indices)
      for (const w of this._workers) w.postMessage({ type: "resume" });
    }
    for (let k = 0; k < this._prefetch_factor * this._num_workers; k++) this._try_put_index();
  }

  private _try_put_index(): void {
    if (this._tasks_outstanding >= this._prefetch_factor * this._num_workers) return;
    const r = this._next_index();
    if (r.done) return;
    let worker_queue_idx = -1;
    for (let k = 0; k < this._num_workers; k++) {
      const w = this._worker_queue_idx_cycle;
      this._worker_queue_idx_cycle = (w + 1) % this._num_workers;
      if (this._workers_status[w]) {
        worker_queue_idx = w;
        break;
      }
    }
    if (worker_queue_idx < 0) return;
    this._workers[worker_queue_idx].postMessage({ type: "fetch", idx: this._send_idx, index: r.value });
    this._task_info.set(this._send_idx, { worker_id: worker_queue_idx });
    this._worker_outstanding[worker_queue_idx]++;
    this._tasks_outstanding++;
    this._send_idx++;
  }

  /** The next message from any worker, honouring `timeout` (seconds). Workers are ref'd while we wait. */
  private async _get_data(): Promise<WorkerMsg> {
    if (this._queue.length === 0) {
      for (const w of this._workers) w.ref();
      let timer: NodeJS.Timeout | null = null;
      try {
        await new Promise<void>((resolve, reject) => {
          this._waiter = resolve;
          if (this.loader.timeout > 0) {
            timer = setTimeout(() => {
              this._bad = true;
              reject(new RuntimeError(`DataLoader timed out after ${this.loader.timeout} seconds`));
            }, this.loader.timeout * 1000);
          }
        });
      } finally {
        if (timer !== null) clearTimeout(timer);
        this._waiter = null;
        for (const w of this._workers) w.unref();
      }
    }
    return this._queue.shift()!;
  }

  async next(): Promise<IteratorResult<T>> {
    try {
      return await this._next();
    } catch (e) {
      if (!this._persistent) await this._shutdown_workers();
      throw e;
    }
  }

  private async _next(): Promise<IteratorResult<T>> {
    for (;;) {
      while (this._rcvd_idx < this._send_idx) {
        const info = this._task_info.get(this._rcvd_idx)!;
        if (info.data !== undefined || this._workers_status[info.worker_id]) break;
        this._task_info.delete(this._rcvd_idx);
        this._rcvd_idx++;
      }
      if (this._rcvd_idx >= this._send_idx) {
        if (!this._persistent) await this._shutdown_workers();
        return { done: true, value: undefined };
      }
      const info = this._task_info.get(this._rcvd_idx)!;
      if (info.data !== undefined) {
        this._task_info.delete(this._rcvd_idx);
        return this._process_data(info.data);
      }
      const m = await this._get_data();
      if (m.type === "crash" || m.type === "exit") {
        if (this._shutdown) continue;
        this._bad = true;
        const why = m.type === "crash" ? `: ${(m.error as Error)?.message ?? m.error}` : "";
        throw new RuntimeError(`DataLoader worker (thread id(s) ${this._workers[m.worker_id].threadId}) exited unexpectedly${why}`);
      }
      if (m.type === "resumed" || m.type === "ready") continue;
      this._tasks_outstanding--;
      if (m.type === "stop_iteration") {
        // an IterableDataset worker ran out: mark it inactive and move on
        this._workers_status[m.worker_id] = false;
        this._try_put_index();
        continue;
      }
      if (m.idx !== this._rcvd_idx) {
        this._task_info.get(m.idx)!.data = m; // arrived early: hold it until its turn
        continue;
      }
      this._task_info.delete(m.idx);
      return this._process_data(m);
    }
  }

  private _process_data(m: WorkerMsg): IteratorResult<T> {
    this._rcvd_idx++;
    this._try_put_index();
    if (m.type === "error") reraise(m);
    this._num_yielded++;
    return { done: false, value: decodeTree((m as { data: unknown }).data) as T };
  }

  /** Leaving a for-await early (break/throw) ends the epoch; non-persistent workers stop. */
  async return(): Promise<IteratorResult<T>> {
    if (!this._persistent) await this._shutdown_workers();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /**
   * The iterator is done with its threads: they go back to the pool, except those whose user code
   * threw and all of them after a timeout or a crash (PyTorch's fresh workers would not carry that on).
   */
  async _shutdown_workers(): Promise<void> {
    if (this._shutdown) return;
    this._shutdown = true;
    const ends: Promise<unknown>[] = [];
    this._pooled.forEach((p, i) => {
      if (this._bad || this._worker_threw[i]) ends.push(_worker_pool.terminate(p));
      else _worker_pool.release(p, this._worker_outstanding[i] > 0);
    });
    await Promise.all(ends);
  }
}
