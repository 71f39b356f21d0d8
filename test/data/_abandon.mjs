// Run as a child process by workers.test.ts: leaves a worker iterator half-consumed and a persistent
// loader's workers idle, and a fresh loader's thread idle in the pool, then returns from the script.
// Node must exit by itself at once (workers are unref'd), not after the pool's idle timeout.
import * as torch from "../../dist/engine/index.js";
import { Probe } from "./_worker_datasets.mjs";
import { _worker_pool } from "../../dist/engine/data/_worker_pool.js";

const D = torch.utils.data;
const loader = new D.DataLoader(new Probe(20), { batch_size: 2, num_workers: 1 });
const it = loader[Symbol.asyncIterator]();
const first = await it.next();
const persistent = new D.DataLoader(new Probe(4), { batch_size: 2, num_workers: 1, persistent_workers: true });
let n = 0;
for await (const _ of persistent) n++;
// a fresh loader's thread goes back to the pool, idle (for 5 s): Node must still exit at once
const fresh = new D.DataLoader(new Probe(4), { batch_size: 2, num_workers: 1 });
for await (const _ of fresh);
console.log(`done ${first.value.index.tolist()} ${n} idle ${_worker_pool.idle_count}`);
console.log(`end ${Date.now()}`);
