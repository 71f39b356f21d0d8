// DataLoader with num_workers > 0 (node:worker_threads): in-order delivery despite out-of-order arrival,
// per-worker seeds as PyTorch's (base_seed + worker_id, base_seed drawn from the default generator: values
// from gen_data.py), worker_init_fn, PyTorch's worker error text, persistent workers, timeouts, and Node
// exiting on its own with abandoned or idle workers, non-persistent workers' threads recycled through the
// pool with a fresh worker state each epoch (and never after they threw), prefetch_factor, and batches shipped without
// copies yet never taken from under the worker's dataset. Worker threads load the compiled engine
// (dist/), so this file needs `npm run build` first; each worker's start-up is about a second of CPU,
// so the tests share loaders where the checks allow and run independent loaders side by side.
import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";
import { _worker_pool } from "../../engine/data/_worker_pool.js";
// @ts-expect-error plain JS module over dist/
import { Probe, Opaque, shift_by_worker, collate_cached } from "./_worker_datasets.mjs";
// @ts-expect-error plain JS module over dist/
import { SplitStream } from "./_worker_stream.mjs";

const F = loadFixture("data.json");
const D = torch.utils.data;
const T = 120_000;

async function collect(loader: any): Promise<any[]> {
  const out: any[] = [];
  for await (const b of loader) out.push(b);
  return out;
}

describe("DataLoader workers", () => {
  it("keeps sampler order when a slow worker's batches arrive late; seeds are base_seed + worker_id", async () => {
    torch.manual_seed(F.base_seed.seed);
    // index 0 (worker 0) waits until index 1 (worker 1) is done: batch 1 arrives first and must be held
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const loader = new D.DataLoader(new Probe(6, { gate }), { batch_size: 1, num_workers: 2, timeout: 100 });
    expect(D.len(loader)).toBe(6);
    const batches = await collect(loader);
    expect(batches.map((b) => b.index.tolist())).toEqual([[0], [1], [2], [3], [4], [5]]);
    expect(batches.map((b) => b.worker.item())).toEqual([0, 1, 0, 1, 0, 1]); // round-robin
    const t = batches.map((b) => b.t.item() as number);
    // a later index finished before an earlier one: it was buffered
    expect(t[1]).toBeLessThan(t[0]);
    const base = BigInt(F.base_seed.base_seed);
    expect(batches[0].seed).toEqual([String(base)]);
    expect(batches[1].seed).toEqual([String(base + 1n)]);
    // first torch.rand(3) in each worker = PyTorch's torch.manual_seed(base_seed + k); torch.rand(3)
    expect(batches[0].rand.tolist()).toEqual([F.base_seed.worker_rand[0]]);
    expect(batches[1].rand.tolist()).toEqual([F.base_seed.worker_rand[1]]);
  }, T);

  it("worker_init_fn (source text or module reference) runs in each worker before fetching", async () => {
    const src = new D.DataLoader(new Probe(4), {
      batch_size: 2, num_workers: 2,
      worker_init_fn: (id: number) => { (get_worker_info() as any).dataset.offset = 100 * (id + 1); }, // eslint-disable-line
    });
    const ref = new D.DataLoader(new Probe(4), { batch_size: 2, num_workers: 1, worker_init_fn: { module: new URL("./_worker_datasets.mjs", import.meta.url).href, name: shift_by_worker.name } });
    const [a, b] = await Promise.all([collect(src), collect(ref)]);
    expect(a.map((x) => x.value.tolist())).toEqual([[100, 101], [202, 203]]);
    expect(b.map((x) => x.value.tolist())).toEqual([[1000, 1001], [1002, 1003]]);
  }, T);

  it("a worker's exception is re-thrown with PyTorch's 'Caught X in DataLoader worker process N' text; that thread is not reused", async () => {
    const loader = new D.DataLoader(new Probe(6, { fail_at: 3 }), { batch_size: 1, num_workers: 2 });
    const it: any = loader[Symbol.asyncIterator]();
    const threads: number[] = it._workers.map((w: any) => w.threadId);
    let err: Error | null = null;
    const seen: number[] = [];
    try {
      for (let r = await it.next(); !r.done; r = await it.next()) seen.push(r.value.index.item());
    } catch (e) {
      err = e as Error;
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(err).toBeInstanceOf(torch.ValueError);
    expect(err!.message.startsWith("Caught ValueError in DataLoader worker process 1.\nOriginal Traceback (most recent call last):\n")).toBe(true);
    expect(err!.message).toContain("\nValueError: bad index 3\n");
    // worker 1 threw: its thread was terminated (a Worker reports threadId -1 then); worker 0's went back
    // to the pool and is what the next iterator gets
    expect(it._workers.map((w: any) => w.threadId)).toEqual([threads[0], -1]);
    const next: any = new D.DataLoader(new Probe(2), { batch_size: 2, num_workers: 1 })[Symbol.asyncIterator]();
    expect(next._workers[0].threadId).toBe(threads[0]);
    expect((await next.next()).value.index.tolist()).toEqual([0, 1]);
    expect((await next.next()).done).toBe(true);
  }, T);

  it("fresh (non-persistent) workers reuse pooled threads, each epoch with a fresh worker state", async () => {
    // worker_init_fn adds to the dataset's offset: a re-run on a kept dataset would show 2x the offset
    const loader = new D.DataLoader(new Probe(4), {
      batch_size: 1, num_workers: 2,
      worker_init_fn: (id: number) => { (get_worker_info() as any).dataset.offset += 100 * (id + 1); }, // eslint-disable-line
    });
    const epochs: any[] = [];
    for (let e = 0; e < 2; e++) {
      const it: any = loader[Symbol.asyncIterator]();
      const threads = it._workers.map((w: any) => w.threadId);
      const uses = it._pooled.map((p: any) => p.uses);
      const batches: any[] = [];
      for (let r = await it.next(); !r.done; r = await it.next()) batches.push(r.value);
      epochs.push({ base: it._base_seed as bigint, threads, uses, batches });
    }
    for (const { base, batches } of epochs) {
      expect(batches.map((b) => b.index.item())).toEqual([0, 1, 2, 3]);
      expect(batches.map((b) => b.worker.item())).toEqual([0, 1, 0, 1]);
      expect(batches.map((b) => b.value.item())).toEqual([100, 201, 102, 203]); // worker_init_fn ran once on a new dataset
      expect(batches.map((b) => b.reads.item())).toEqual([1, 1, 2, 2]); // the previous epoch's reads are not seen
      expect(batches.map((b) => b.seed[0])).toEqual([base, base + 1n, base, base + 1n].map(String)); // this iterator's base_seed
    }
    expect(epochs[1].base).not.toBe(epochs[0].base);
    // the second epoch ran on the first epoch's threads (in whichever order the pool handed them out)
    expect([...epochs[1].threads].sort()).toEqual([...epochs[0].threads].sort());
    expect(epochs[1].uses.every((u: number) => u >= 2)).toBe(true);
    // each worker's RNG was seeded as PyTorch seeds a worker: the first torch.rand(3) after manual_seed(base_seed + id)
    for (const { base, batches } of epochs) {
      for (const k of [0, 1]) {
        torch.manual_seed(base + BigInt(k));
        expect(batches[k].rand.tolist()).toEqual([torch.rand(3).tolist()]);
      }
    }
  }, T);

  it("shuffle=True with workers, persistent or not: PyTorch's batch orders over two epochs", async () => {
    // a persistent iterator draws base_seed only once, so its second epoch differs from a fresh iterator's.
    // The fixture ran 2 worker processes; the order is the main thread's sampler's, so 1 worker thread
    // (cheaper to start here) must give the same batches.
    for (const c of F.dataloader_workers) {
      torch.manual_seed(c.seed);
      const loader = new D.DataLoader(new D.TensorDataset(torch.arange(c.n)), { batch_size: c.batch_size, shuffle: true, num_workers: 1, persistent_workers: c.persistent });
      const epochs = [];
      const threads: number[][] = [];
      for (let e = 0; e < 2; e++) {
        epochs.push((await collect(loader)).map((b) => b[0].tolist()));
        if (c.persistent) threads.push((loader as any)._iterator._workers.map((w: any) => w.threadId));
      }
      expect(epochs).toEqual(c.epochs);
      if (c.persistent) {
        expect(threads[1]).toEqual(threads[0]); // the same worker threads served both epochs
        expect(threads[0].every((id) => id > 0)).toBe(true); // still running (a terminated Worker reports -1)
      }
      expect(torch.rand(2).tolist()).toEqual(c.after);
      await loader.shutdown();
    }
  }, T);

  it("IterableDataset split by get_worker_info(): PyTorch's interleaving of the workers' batches", async () => {
    const c = F.iterable_workers;
    // (the stream's module imports the whole engine: its tensors and the worker entry's collate share one Tensor class)
    const loader = new D.DataLoader(new SplitStream(c.n), { batch_size: c.batch_size, num_workers: c.num_workers });
    const dropping = new D.DataLoader(new SplitStream(c.n), { batch_size: c.batch_size, num_workers: c.num_workers, drop_last: true });
    const [a, b] = await Promise.all([collect(loader), collect(dropping)]);
    expect(a.map((x) => x.tolist())).toEqual(c.batches);
    expect(a.every((x) => x.dtype === torch.int64)).toBe(true);
    expect(b.map((x) => x.tolist())).toEqual(c.batches_drop_last);
  }, T);

  it("prefetch_factor: at most prefetch_factor * num_workers index batches in flight, kept topped up", async () => {
    const run = async ([prefetch_factor, num_workers]: number[]) => {
      const loader = new D.DataLoader(new Probe(12), { batch_size: 1, num_workers, prefetch_factor });
      const it: any = loader[Symbol.asyncIterator]();
      const cap = prefetch_factor * num_workers;
      expect(it._send_idx).toBe(cap); // sent at once, before any batch came back
      const inFlight: number[] = [];
      const seen: number[] = [];
      const workers: number[] = [];
      for (let r = await it.next(); !r.done; r = await it.next()) {
        seen.push(r.value.index.item());
        workers.push(r.value.worker.item());
        inFlight.push(it._send_idx - it._rcvd_idx);
      }
      expect(seen).toEqual([...Array(12).keys()]);
      expect(workers).toEqual(seen.map((k) => k % num_workers));
      // while indices remain, each batch handed out is replaced by the next index: always cap in flight
      expect(inFlight).toEqual(Array.from({ length: 12 }, (_, k) => Math.min(cap, 11 - k)));
    };
    await run([3, 2]); // prefetch_factor 3 over 2 workers: 6 in flight, handed out round-robin
  }, T);

  it("batches come back without copies but never take tensors the worker's dataset or collate_fn still holds", async () => {
    // default_collate's batch tensors: the worker hands their buffers over (adopted here: the storage is exactly the batch)
    const stacked = new D.DataLoader(new Probe(4, { keep: true }), { batch_size: 2, num_workers: 1, persistent_workers: true });
    // batch_size=None: the dataset's own kept tensors come back, so they must be copies
    const own = new D.DataLoader(new Probe(4, { keep: true }), { batch_size: null, num_workers: 1, persistent_workers: true });
    // a collate_fn that keeps what it returns: copied too
    const kept = new D.DataLoader(new Probe(4), { batch_size: 2, num_workers: 1, persistent_workers: true, collate_fn: { module: new URL("./_worker_datasets.mjs", import.meta.url).href, name: collate_cached.name } });
    const tensorOf = (b: any) => b.rand ?? b.cached;
    // the main thread scribbles over and frees what it got before the next epoch; the workers are unaffected
    const epochs = async (l: any) => {
      const e1 = await collect(l);
      const values = e1.map((b) => tensorOf(b).tolist());
      for (const b of e1) {
        tensorOf(b).fill_(-1);
        tensorOf(b)._impl.storage.release();
      }
      return { e1, values, e2: await collect(l) };
    };
    const [s, o, k] = await Promise.all([stacked, own, kept].map(epochs));
    for (const b of s.e1) expect(tensorOf(b)._impl.storage.nbytes()).toBe(2 * 3 * 4);
    for (const r of [s, o, k]) expect(r.e2.map((b) => tensorOf(b).tolist())).toEqual(r.values);
    expect(o.e2.map((b: any) => b.index)).toEqual([0, 1, 2, 3]);
    expect(o.values.map((r: number[], i: number) => r.every((v) => v >= i && v < i + 1))).toEqual([true, true, true, true]);
    expect(k.values[0]).toEqual(k.values[1]); // the collate_fn's one cached tensor, intact in every batch
    await Promise.all([stacked, own, kept].map((l) => l.shutdown()));
  }, T);

  it("a loop left early: its thread finishes the fetches in flight before the pool hands it out again", async () => {
    const pool: any = _worker_pool;
    const loader = new D.DataLoader(new Probe(8, { delay: [150] }), { batch_size: 1, num_workers: 1 });
    const it1: any = loader[Symbol.asyncIterator]();
    expect((await it1.next()).value.index.tolist()).toEqual([0]);
    const left = it1._pooled[0];
    await it1.return(); // 2 fetches still in flight on that thread
    expect(left.state).toBe("returning");
    const it2: any = new D.DataLoader(new Probe(2), { batch_size: 2, num_workers: 1 })[Symbol.asyncIterator]();
    expect(it2._pooled[0]).not.toBe(left); // not handed out while draining
    expect((await it2.next()).value.index.tolist()).toEqual([0, 1]);
    expect((await it2.next()).done).toBe(true);
    for (let k = 0; k < 200 && left.state !== "idle"; k++) await new Promise((r) => setTimeout(r, 25));
    expect(left.state).toBe("idle"); // released: back in the pool, not terminated
    // take every idle thread: the drained one serves a new iterator with none of the old epoch's batches
    const n = pool.idle_count;
    const it3: any = new D.DataLoader(new Probe(2 * n), { batch_size: 1, num_workers: n })[Symbol.asyncIterator]();
    expect(it3._pooled).toContain(left);
    const got: number[] = [];
    for (let r = await it3.next(); !r.done; r = await it3.next()) got.push(r.value.index.item());
    expect(got).toEqual([...Array(2 * n).keys()]);
    // idle threads end after the pool's idle timeout (shortened here; 5 s by default)
    pool.idle_ms = 100;
    try {
      const it4: any = new D.DataLoader(new Probe(2), { batch_size: 2, num_workers: 1 })[Symbol.asyncIterator]();
      while (!(await it4.next()).done);
      const p4 = it4._pooled[0];
      expect(p4.state).toBe("idle");
      for (let k = 0; k < 200 && it4._workers[0].threadId !== -1; k++) await new Promise((r) => setTimeout(r, 25));
      expect(it4._workers[0].threadId).toBe(-1); // terminated (a Worker reports -1 once it has exited)
      expect(p4.state).toBe("dead");
      expect(pool.idle).not.toContain(p4);
    } finally {
      pool.idle_ms = 5000;
    }
  }, T);

  it("timeout: RuntimeError('DataLoader timed out after N seconds')", async () => {
    const loader = new D.DataLoader(new Probe(2, { delay: [20000] }), { batch_size: 1, num_workers: 1, timeout: 0.5 });
    await expect(collect(loader)).rejects.toThrow("DataLoader timed out after 0.5 seconds");
  }, T);

  it("datasets that cannot be rebuilt in a worker are refused with an explanation; sync iteration is refused", () => {
    expect(() => new D.DataLoader(new Opaque(), { num_workers: 1 })[Symbol.asyncIterator]()).toThrow("defines no __worker_spec__()");
    expect(() => [...new D.DataLoader(new Probe(2), { num_workers: 1 })]).toThrow("for await");
  });

  it("Node exits on its own, at once, with an abandoned iterator, idle persistent workers and idle pooled threads", () => {
    const script = fileURLToPath(new URL("./_abandon.mjs", import.meta.url));
    const r = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 90_000 });
    const exited = Date.now();
    expect(r.signal).toBe(null);
    expect(r.status).toBe(0);
    const [done, end] = r.stdout.trim().split("\n");
    // one pooled thread idle (5 s timeout) after a fresh epoch
    expect(done).toBe("done 0,1 2 idle 1");
    // which did not hold the process up
    expect(exited - Number(end.split(" ")[1])).toBeLessThan(2500);
  }, T);
});
