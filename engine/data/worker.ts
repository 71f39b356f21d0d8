// The body of a DataLoader worker thread: torch/utils/data/_utils/worker.py's _worker_loop.
// On each "init" it seeds torch with base_seed + worker_id, rebuilds the dataset from its spec, runs
// worker_init_fn, then answers index messages with collated batches (or a wrapped exception) until
// released (the thread then waits in _worker_pool.ts for the next iterator) or told to stop.
//
// A light entry: a worker thread starts cold (PyTorch's fork copies a warm process; this is its spawn),
// so it loads only what fetching and collating need — the operators and Tensor methods (any dataset
// code indexes, stacks or views tensors), not autograd's kernels, nn, optim, serialization or the
// trace (bench/dataloader_workers.mjs measures both imports). A dataset module that imports the whole
// engine still gets it, and the same module instances: nothing is loaded twice. A collate_fn or
// worker_init_fn given as source text expects `torch` in scope, so only that case imports index.js.
//
// Batches go back as transferred ArrayBuffers (_transfer.ts): the tensors default_collate creates for a
// batch are handed over without a copy; anything else the worker may still hold is copied first.

import { parentPort, workerData } from "node:worker_threads";
import "../aten/core/fallbacks.js";
import "../generated/index.js"; // registers the operators and installs the Tensor methods
import "../aten/python_variable_methods.js";
import { manual_seed } from "../aten/Generator.js";
import { _set_storage_birth_scope, type Storage } from "../c10/Storage.js";
import { getitem } from "./_common.js";
import { default_collate, default_convert } from "./collate.js";
import { encodeTree, decodeTree } from "./_transfer.js";
import { WorkerInfo, _set_worker_info, get_worker_info } from "./worker_info.js";
import { runnableModule, type WorkerSpec, type WorkerFn } from "./_worker_spec.js";

export interface WorkerInit {
  dataset: WorkerSpec;
  dataset_kind: "map" | "iterable";
  auto_collation: boolean;
  collate_fn: WorkerFn | null; // null: default_collate (auto-collation) or default_convert
  worker_init_fn: WorkerFn | null;
  drop_last: boolean;
  base_seed: string;
  worker_id: number;
  num_workers: number;
}

/** Rebuilds a dataset from its spec (recursively for wrappers like Subset). */
export async function buildDataset(spec: WorkerSpec): Promise<unknown> {
  if (spec.name === "__array__") return decodeTree(spec.args);
  const mod = (await import(runnableModule(spec.module))) as Record<string, unknown>;
  const cls = mod[spec.name] as { __from_worker__?: (a: unknown, b: typeof buildDataset) => unknown; new (...a: unknown[]): unknown };
  if (cls === undefined) throw new Error(`${spec.module} has no export named ${spec.name}`);
  if (typeof cls.__from_worker__ === "function") return await cls.__from_worker__(spec.args, buildDataset);
  return new cls(...((spec.args as unknown[]) ?? []));
}

async function buildFn(spec: WorkerFn | null): Promise<((...a: unknown[]) => unknown) | null> {
  if (spec === null) return null;
  if ("source" in spec) {
    const torch = await import("../index.js");
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return new Function("torch", "get_worker_info", "default_collate", `return (${spec.source});`)(torch, get_worker_info, default_collate);
  }
  const mod = (await import(spec.module)) as Record<string, unknown>;
  return mod[spec.name] as (...a: unknown[]) => unknown;
}

/** PyTorch's ExceptionWrapper text: "Caught X in DataLoader worker process N.\nOriginal Traceback ...". */
function wrapException(e: unknown, worker_id: number): { exc_type: string; msg: string } {
  const err = e instanceof Error ? e : new Error(String(e));
  const name = err.name === "TypeError_" ? "TypeError" : err.name;
  const frames = (err.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  const tb = `Traceback (most recent call last):\n${frames.join("\n")}\n${name}: ${err.message}\n`;
  return { exc_type: name, msg: `Caught ${name} in DataLoader worker process ${worker_id}.\nOriginal ${tb}` };
}

/** One iterator's worker: PyTorch's _worker_loop state, built from an init message. */
interface WorkerState {
  init: WorkerInit;
  dataset: unknown;
  collate: ((b: unknown) => unknown) | null;
  init_exception: { exc_type: string; msg: string } | null;
  iter: Iterator<unknown> | null;
  iteration_end: boolean; // the loop's flag: StopIteration sent, ignore further indices this epoch
  ended: boolean; // the fetcher's flag: the stream ran out inside a batch, the next fetch stops
}

type InMsg =
  | { type: "init"; init: WorkerInit }
  | { type: "fetch"; idx: number; index: unknown }
  | { type: "resume" } | { type: "release" } | { type: "stop" };

/**
 * A worker thread serves one iterator after another (_worker_pool.ts): each "init" gives it the state a
 * freshly started worker would have (seeded RNG, dataset rebuilt from its spec, worker_init_fn run,
 * new get_worker_info()); "release" drops it. Messages are handled strictly in order; those arriving
 * while an init is still awaiting imports wait in a queue.
 */
function main(): void {
  const port = parentPort!;
  let st: WorkerState | null = null;
  // default_collate's storages for the current batch: made during the call and kept by no one else,
  // so they are transferred without a copy (_transfer.ts)
  let owned = new Set<Storage>();
  const collateOwned = (batch: unknown[]): unknown => {
    const born: Storage[] = [];
    const prev = _set_storage_birth_scope(born);
    try {
      return default_collate(batch);
    } finally {
      _set_storage_birth_scope(prev);
      owned = new Set(born);
    }
  };

  const start = async (init: WorkerInit): Promise<WorkerState> => {
    const seed = BigInt(init.base_seed) + BigInt(init.worker_id);
    _set_worker_info(null);
    manual_seed(seed);
    const s: WorkerState = { init, dataset: null, collate: null, init_exception: null, iter: null, iteration_end: false, ended: false };
    try {
      s.dataset = await buildDataset(init.dataset);
      _set_worker_info(new WorkerInfo(init.worker_id, init.num_workers, seed, s.dataset));
      const userCollate = await buildFn(init.collate_fn);
      s.collate = userCollate ?? (init.auto_collation ? collateOwned : default_convert) as (b: unknown) => unknown;
      const initFn = await buildFn(init.worker_init_fn);
      if (initFn !== null) await initFn(init.worker_id);
    } catch (e) {
      s.init_exception = wrapException(e, init.worker_id);
    }
    return s;
  };

  const fetch = (s: WorkerState, index: unknown): unknown => {
    const { init, collate } = s;
    if (init.dataset_kind === "iterable") {
      if (s.ended) return STOP;
      s.iter ??= (s.dataset as Iterable<unknown>)[Symbol.iterator]();
      if (init.auto_collation) {
        const data: unknown[] = [];
        for (let k = 0; k < (index as unknown[]).length; k++) {
          const r = s.iter.next();
          if (r.done) {
            s.ended = true;
            break;
          }
          data.push(r.value);
        }
        if (data.length === 0 || (init.drop_last && data.length < (index as unknown[]).length)) return STOP;
        return collate!(data);
      }
      const r = s.iter.next();
      if (r.done) return STOP;
      return collate!(r.value);
    }
    if (init.auto_collation) return collate!((index as number[]).map((i) => getitem(s.dataset, i)));
    return collate!(getitem(s.dataset, index));
  };

  const handle = (m: InMsg): void => {
    if (m.type === "stop") {
      port.close();
      return;
    }
    if (m.type === "release") {
      st = null;
      _set_worker_info(null);
      port.postMessage({ type: "released" });
      return;
    }
    const s = st;
    if (s === null) return; // (init handled by the queue)
    if (m.type === "resume") {
      s.iter = null;
      s.iteration_end = false;
      s.ended = false;
      port.postMessage({ type: "resumed" });
      return;
    }
    if (m.type !== "fetch" || s.iteration_end) return;
    if (s.init_exception !== null) {
      port.postMessage({ type: "error", idx: m.idx, ...s.init_exception });
      s.init_exception = null;
      return;
    }
    try {
      owned = new Set();
      const data = fetch(s, m.index);
      if (data === STOP) {
        s.iteration_end = true;
        port.postMessage({ type: "stop_iteration", idx: m.idx, worker_id: s.init.worker_id });
        return;
      }
      const transfer: ArrayBuffer[] = [];
      const encoded = encodeTree(data, transfer, owned);
      owned = new Set();
      port.postMessage({ type: "data", idx: m.idx, data: encoded }, transfer);
    } catch (e) {
      port.postMessage({ type: "error", idx: m.idx, ...wrapException(e, s.init.worker_id) });
    }
  };

  const queue: InMsg[] = [];
  let starting = false;
  const drain = async (): Promise<void> => {
    while (queue.length > 0 && !starting) {
      const m = queue.shift()!;
      if (m.type === "init") {
        starting = true;
        st = await start(m.init);
        starting = false;
        port.postMessage({ type: "ready" });
      } else {
        handle(m);
      }
    }
  };
  port.on("message", (m: InMsg) => {
    queue.push(m);
    if (!starting) void drain();
  });
}

const STOP = Symbol("StopIteration");

if (parentPort !== null && (workerData as { __glasstorch_data_worker__?: boolean })?.__glasstorch_data_worker__) main();
