// An IterableDataset for the DataLoader worker tests, in a module that imports the whole engine the way
// a user's does (`import * as torch from "glasstorch"`): the worker's light entry and this module then
// share one engine (one Tensor class), which the batches' type checks rely on.
import * as torch from "../../dist/engine/index.js";

const D = torch.utils.data;

/** The documented IterableDataset pattern: each worker yields its share, chosen with get_worker_info(). */
export class SplitStream extends D.IterableDataset {
  constructor(n) {
    super();
    this.n = n;
  }

  *[Symbol.iterator]() {
    const info = D.get_worker_info();
    const [k, m] = info === null ? [0, 1] : [info.id, info.num_workers];
    for (let i = k; i < this.n; i += m) yield torch.tensor(i);
  }

  __worker_spec__() {
    return { module: import.meta.url, name: "SplitStream", args: [this.n] };
  }
}
