// DataLoader with num_workers > 0 (node:worker_threads): in-order delivery despite out-of-order arrival,
// per-worker seeds as PyTorch's (base_seed + worker_id, base_seed drawn from the default generator: values
// from gen_data.py), worker_init_fn, PyTorch's worker error text, persistent workers, timeouts, and Node
// exiting on its own with abandoned or idle workers. Worker threads load the compiled engine (dist/), so
// this file needs `npm run build` first; each worker's start-up is a few seconds on the shared machine.
import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";
// @ts-expect-error plain JS module over dist/
import { Probe, Opaque, SplitStream, shift_by_worker } from "./_worker_datasets.mjs";

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
    const loader = new D.DataLoader(new Probe(6, { delay: [1500, 0] }), { batch_size: 1, num_workers: 2, timeout: 100 });
    expect(D.len(loader)).toBe(6);
    const batches = await collect(loader);
    expect(batches.map((b) => b.index.tolist())).toEqual([[0], [1], [2], [3], [4], [5]]);
    expect(batches.map((b) => b.worker.item())).toEqual([0, 1, 0, 1, 0, 1]); // round-robin
    const t = batches.map((b) => b.t.item() as number);
    // some later index finished before an earlier one (the slow worker holds the even ones): it was buffered
    expect(t.some((ti, i) => t.slice(i + 1).some((tj) => tj < ti))).toBe(true);
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
    expect((await collect(src)).map((b) => b.value.tolist())).toEqual([[100, 101], [202, 203]]);
    const ref = new D.DataLoader(new Probe(4), { batch_size: 2, num_workers: 1, worker_init_fn: { module: new URL("./_worker_datasets.mjs", import.meta.url).href, name: shift_by_worker.name } });
    expect((await collect(ref)).map((b) => b.value.tolist())).toEqual([[1000, 1001], [1002, 1003]]);
  }, T);

  it("a worker's exception is re-thrown with PyTorch's 'Caught X in DataLoader worker process N' text", async () => {
    const loader = new D.DataLoader(new Probe(6, { fail_at: 3 }), { batch_size: 1, num_workers: 2 });
    let err: Error | null = null;
    const seen: number[] = [];
    try {
      for await (const b of loader) seen.push((b as any).index.item());
    } catch (e) {
      err = e as Error;
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(err).toBeInstanceOf(torch.ValueError);
    expect(err!.message.startsWith("Caught ValueError in DataLoader worker process 1.\nOriginal Traceback (most recent call last):\n")).toBe(true);
    expect(err!.message).toContain("\nValueError: bad index 3\n");
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
    const loader = new D.DataLoader(new SplitStream(c.n), { batch_size: c.batch_size, num_workers: c.num_workers });
    expect((await collect(loader)).map((b) => b.tolist())).toEqual(c.batches);
    const dropping = new D.DataLoader(new SplitStream(c.n), { batch_size: c.batch_size, num_workers: c.num_workers, drop_last: true });
    expect((await collect(dropping)).map((b) => b.tolist())).toEqual(c.batches_drop_last);
  }, T);

  it("timeout: RuntimeError('DataLoader timed out after N seconds')", async () => {
    const loader = new D.DataLoader(new Probe(2, { delay: [20000] }), { batch_size: 1, num_workers: 1, timeout: 0.5 });
    await expect(collect(loader)).rejects.toThrow("DataLoader timed out after 0.5 seconds");
  }, T);

  it("datasets that cannot be rebuilt in a worker are refused with an explanation; sync iteration is refused", () => {
    expect(() => new D.DataLoader(new Opaque(), { num_workers: 1 })[Symbol.asyncIterator]()).toThrow("defines no __worker_spec__()");
    expect(() => [...new D.DataLoader(new Probe(2), { num_workers: 1 })]).toThrow("for await");
  });

  it("Node exits on its own with an abandoned iterator and idle persistent workers", () => {
    const script = fileURLToPath(new URL("./_abandon.mjs", import.meta.url));
    const r = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 90_000 });
    expect(r.signal).toBe(null);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe("done 0,1 2");
  }, T);
});
