// Issue #7's evidence: "DataLoader with workers is as fast or faster than with none on a CPU-heavy
// dataset; measured in bench/". Times full epochs over bench/lib/cpu_heavy_dataset.mjs (per-item
// synthesis + blur + crop + normalise in JavaScript, ~ms per item) with num_workers 0, 1 and 2:
//   - fresh workers: each epoch starts its workers (thread start + engine import) and stops them, the
//     DataLoader default;
//   - persistent_workers: the workers live across epochs, so the steady state is timed.
// Median of the epochs' wall times; every epoch's batches are checked to be the same labels in order.
// Usage: node bench/dataloader_workers.mjs [--quick]   (also part of `npm run bench`, group "dataloader")
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import * as torch from "../dist/engine/index.js";
import { CpuHeavyDataset } from "./lib/cpu_heavy_dataset.mjs";

const median = (xs) => { const s = [...xs].sort((a, b) => a - b), m = s.length; return m % 2 ? s[(m - 1) / 2] : (s[m / 2 - 1] + s[m / 2]) / 2; };

async function epoch(loader) {
  const t0 = performance.now();
  const labels = [];
  for await (const [x, y] of loader) {
    if (x.shape[0] !== y.shape[0]) throw new Error("batch shapes disagree");
    labels.push(...y.tolist());
  }
  return { ms: performance.now() - t0, labels };
}

/** Runs the comparison; returns a JSON-able record (bench/run.mjs stores it in the results file). */
export async function runDataloaderBench({ quick = false, log = console.error } = {}) {
  const items = quick ? 64 : 512, batch = 32, epochs = quick ? 2 : 5;
  const ds = new CpuHeavyDataset(items);
  for (let i = 0; i < 16; i++) ds.__getitem__(i); // warm (JIT), then time an item on this thread
  const t0 = performance.now();
  for (let i = 0; i < 16; i++) ds.__getitem__(i);
  const itemMs = (performance.now() - t0) / 16;
  const rows = [];
  let reference = null;
  for (const persistent of [false, true]) {
    for (const num_workers of [0, 1, 2]) {
      if (persistent && num_workers === 0) continue;
      const loader = new torch.utils.data.DataLoader(ds, { batch_size: batch, num_workers, persistent_workers: persistent });
      const times = [];
      if (persistent) await epoch(loader); // start the workers; later epochs reuse them
      for (let e = 0; e < epochs; e++) {
        const r = await epoch(loader);
        reference ??= r.labels;
        if (r.labels.length !== reference.length || r.labels.some((v, i) => v !== reference[i])) throw new Error(`num_workers=${num_workers}: batches differ from num_workers=0`);
        times.push(r.ms);
      }
      if (persistent) await loader._shutdown_workers?.();
      const row = { num_workers, persistent_workers: persistent, epoch_ms: median(times), epochs: times.length, samples_ms: times };
      rows.push(row);
      log(`  dataloader num_workers=${num_workers}${persistent ? " persistent" : ""}: ${row.epoch_ms.toFixed(0)} ms/epoch`);
    }
  }
  const base = rows.find((r) => r.num_workers === 0).epoch_ms;
  for (const r of rows) r.speedup_vs_0 = base / r.epoch_ms;
  const checks = rows.filter((r) => r.num_workers > 0).map((r) => ({ num_workers: r.num_workers, persistent_workers: r.persistent_workers, as_fast_or_faster: r.epoch_ms <= base }));
  return { items, batch_size: batch, item_ms_main_thread: itemMs, cores: availableParallelism(), torch_threads: torch.get_num_threads(), rows, checks };
}

export function formatDataloader(d) {
  const out = [`DataLoader workers (issue #7): CPU-heavy dataset, ${d.items} items of 3x56x56 (${d.item_ms_main_thread.toFixed(1)} ms each on the main thread), batch ${d.batch_size}, ${d.cores} cores; median ms per epoch`];
  out.push(["num_workers".padEnd(28), "ms/epoch".padStart(9), "vs 0 workers".padStart(13), "goal: <= 0 workers".padStart(20)].join(" "));
  for (const r of d.rows) {
    const c = d.checks.find((k) => k.num_workers === r.num_workers && k.persistent_workers === r.persistent_workers);
    out.push([`${r.num_workers}${r.persistent_workers ? " (persistent_workers)" : " (fresh workers per epoch)"}`.padEnd(28), r.epoch_ms.toFixed(0).padStart(9),
      `${r.speedup_vs_0.toFixed(2)}x`.padStart(13), (c ? (c.as_fast_or_faster ? "PASS" : "FAIL") : "").padStart(20)].join(" "));
  }
  return out.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const d = await runDataloaderBench({ quick: process.argv.includes("--quick") });
  console.log(formatDataloader(d));
}
