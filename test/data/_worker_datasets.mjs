// Datasets for the DataLoader worker tests. Workers rebuild datasets by importing a module, so this is
// plain JavaScript over the compiled engine (dist/), the way a user's dataset module would be.
import * as torch from "../../dist/engine/index.js";
import { threadId } from "node:worker_threads";

const D = torch.utils.data;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Reports which worker served each index, when it finished, and a draw from the worker's torch RNG. */
export class Probe extends D.Dataset {
  constructor(n, opts = {}) {
    super();
    this.n = n;
    this.opts = opts;
    this.offset = 0;
  }

  __len__() {
    return this.n;
  }

  __getitem__(i) {
    const o = this.opts;
    if (o.fail_at === i) throw new torch.ValueError(`bad index ${i}`);
    if (o.delay) sleep(o.delay[i % o.delay.length]);
    const info = D.get_worker_info();
    return {
      index: i,
      value: i + this.offset,
      worker: info ? info.id : -1,
      thread: threadId,
      seed: info ? String(info.seed) : "",
      rand: torch.rand(3, { dtype: torch.float32 }),
      t: Date.now(),
    };
  }

  __worker_spec__() {
    return { module: import.meta.url, name: "Probe", args: [this.n, this.opts] };
  }
}

/** A dataset that cannot describe itself to a worker. */
export class Opaque extends D.Dataset {
  __getitem__(i) {
    return i;
  }
  __len__() {
    return 4;
  }
}

/** worker_init_fn by module reference. */
export function shift_by_worker(worker_id) {
  D.get_worker_info().dataset.offset = 1000 * (worker_id + 1);
}

/** The documented IterableDataset pattern: each worker yields its share, chosen with get_worker_info(). */
export class SplitStream extends D.IterableDataset {
  constructor(n) {
    super();
    this.n = n;
  }

  *[Symbol.iterator]() {
    const info = D.get_worker_info();
    const [k, m] = info === null ? [0, 1] : [info.id, info.num_workers];
    for (let i = k; i < this.n; i += m) yield i;
  }

  __worker_spec__() {
    return { module: import.meta.url, name: "SplitStream", args: [this.n] };
  }
}
