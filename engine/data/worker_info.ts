// torch.utils.data.get_worker_info(): inside a DataLoader worker thread, the worker's id, the number of
// workers, its seed (base_seed + id, a bigint: Python ints exceed 2^53) and its copy of the dataset;
// null in the main thread.

export class WorkerInfo {
  constructor(readonly id: number, readonly num_workers: number, readonly seed: bigint, readonly dataset: unknown) {
    Object.freeze(this);
  }

  toString(): string {
    return `WorkerInfo(id=${this.id}, num_workers=${this.num_workers}, seed=${this.seed}, dataset=${(this.dataset as object)?.constructor?.name ?? this.dataset})`;
  }
}

let _worker_info: WorkerInfo | null = null;

export function get_worker_info(): WorkerInfo | null {
  return _worker_info;
}

export function _set_worker_info(info: WorkerInfo | null): void {
  _worker_info = info;
}
