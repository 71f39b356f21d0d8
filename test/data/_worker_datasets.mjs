// Datasets for the DataLoader worker tests. Workers rebuild datasets by importing a module, so this is
// plain JavaScript over the compiled engine (dist/), the way a user's dataset module would be. It
// imports only the engine modules it uses (so each worker thread starts on the worker's light entry);
// _worker_stream.mjs imports the whole engine, as `import * as torch from "glasstorch"` does.
import { Dataset } from "../../dist/engine/data/dataset.js";
import { get_worker_info } from "../../dist/engine/data/worker_info.js";
import { rand } from "../../dist/engine/aten/Distributions.js";
import { float32 } from "../../dist/engine/c10/ScalarType.js";
import { ValueError } from "../../dist/engine/c10/Errors.js";
import { threadId } from "node:worker_threads";

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Reports which worker served each index, when it finished, and a draw from the worker's torch RNG.
 * opts: fail_at (throw a ValueError there), delay (ms per index, cycled), gate (an Int32Array over a
 * SharedArrayBuffer, shared by every worker: index 0 waits until index 1 is done, so its batch
 * arrives after a later one), keep (the dataset keeps and returns the same tensor for each index).
 */
export class Probe extends Dataset {
  constructor(n, opts = {}) {
    super();
    this.n = n;
    this.opts = opts;
    this.offset = 0;
    this.reads = 0;
    this.kept = new Map();
  }

  __len__() {
    return this.n;
  }

  __getitem__(i) {
    const o = this.opts;
    if (o.fail_at === i) throw new ValueError(`bad index ${i}`);
    if (o.delay) sleep(o.delay[i % o.delay.length]);
    if (o.gate && i === 0) {
      if (Atomics.wait(o.gate, 0, 0, 60_000) === "timed-out") throw new Error("index 1 never finished");
      sleep(30); // finishes strictly later than index 1
    }
    const info = get_worker_info();
    this.reads++;
    const item = {
      index: i,
      reads: this.reads, // how many items this copy of the dataset has served (a mutation a fresh copy doesn't see)
      value: i + this.offset,
      worker: info ? info.id : -1,
      thread: threadId,
      seed: info ? String(info.seed) : "",
      rand: o.keep ? this.keptTensor(i) : rand(3, { dtype: float32 }),
      t: Date.now(),
    };
    if (o.gate && i === 1) {
      Atomics.store(o.gate, 0, 1);
      Atomics.notify(o.gate, 0);
    }
    return item;
  }

  /** The same tensor every time index i is read (a dataset caching what it made). */
  keptTensor(i) {
    if (!this.kept.has(i)) this.kept.set(i, rand(3, { dtype: float32 }).add(i));
    return this.kept.get(i);
  }

  __worker_spec__() {
    return { module: import.meta.url, name: "Probe", args: [this.n, this.opts] };
  }
}

/** A dataset that cannot describe itself to a worker. */
export class Opaque extends Dataset {
  __getitem__(i) {
    return i;
  }
  __len__() {
    return 4;
  }
}

/** worker_init_fn by module reference. */
export function shift_by_worker(worker_id) {
  get_worker_info().dataset.offset = 1000 * (worker_id + 1);
}

/** A collate_fn by module reference that returns (and keeps) one tensor it made: it must stay intact. */
let cached = null;
export function collate_cached(batch) {
  cached ??= rand(4, { dtype: float32 });
  return { cached, n: batch.length };
}
