// Run as a child process by workers.test.ts: leaves a worker iterator half-consumed and a persistent
// loader's workers idle, then returns from the script. Node must exit by itself (workers are unref'd).
import * as torch from "../../dist/engine/index.js";
import { Probe } from "./_worker_datasets.mjs";

const D = torch.utils.data;
const loader = new D.DataLoader(new Probe(20), { batch_size: 2, num_workers: 1 });
const it = loader[Symbol.asyncIterator]();
const first = await it.next();
const persistent = new D.DataLoader(new Probe(4), { batch_size: 2, num_workers: 1, persistent_workers: true });
let n = 0;
for await (const _ of persistent) n++;
console.log(`done ${first.value.index.tolist()} ${n}`);
