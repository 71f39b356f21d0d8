// Issue #7's evidence: "DataLoader with workers is as fast or faster than with none on a CPU-heavy
// dataset; measured in bench/". Times full epochs with num_workers 0, 1 and 2 and
//   - fresh workers, spawned: each epoch's iterator starts its own threads, which import the engine
//     cold, and ends them (the pool switched off, max_idle 0: how it was before engine/data/_worker_pool.ts);
//   - fresh workers, pooled (the DataLoader default): each epoch's iterator takes the idle threads the
//     last one gave back and re-initialises them (dataset, worker_init_fn, seed); the first epoch, which
//     spawns them, is timed apart (first_epoch_ms);
//   - persistent_workers: the threads and their state live across epochs (first epoch timed apart);
// over
//   - "cpu-heavy": bench/lib/cpu_heavy_dataset.mjs, per-item synthesis + blur + crop + normalise in
//     JavaScript (~8 ms per 3x56x56 item here), 1024 items per epoch by default (--items N): an epoch
//     of a small image set; the workers' start-up (thread + engine import, ~1 s of CPU each) is paid
//     once per epoch when they are not persistent, so the shorter the epoch the more it weighs;
//   - "light": a TensorDataset of ready 3x32x32 tensors (microseconds per item): the case where
//     workers cannot pay off (as in PyTorch), shown for the cost of shipping batches.
// Median of the epochs' wall times; every epoch's labels are checked to be num_workers=0's, in order.
// Also measured: the CPU time of importing what a worker thread loads (engine/data/worker.ts's light
// entry) against the whole engine, each in a fresh process, the best of three.
// The machine is shared: the load average is printed with the figures (it moves them a lot).
// Usage: node bench/dataloader_workers.mjs [--quick] [--items N]   (also `npm run bench`, group "dataloader")
import { availableParallelism, loadavg } from "node:os";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as torch from "../dist/engine/index.js";
import { CpuHeavyDataset } from "./lib/cpu_heavy_dataset.mjs";
import { _worker_pool } from "../dist/engine/data/_worker_pool.js";

const median = (xs) => { const s = [...xs].sort((a, b) => a - b), m = s.length; return m % 2 ? s[(m - 1) / 2] : (s[m / 2 - 1] + s[m / 2]) / 2; };
const MAX_IDLE = _worker_pool.max_idle;
const ENGINE = new URL("../dist/engine/", import.meta.url).href;

async function epoch(loader) {
  const t0 = performance.now();
  const labels = [];
  for await (const [x, y] of loader) {
    if (x.shape[0] !== y.shape[0]) throw new Error("batch shapes disagree");
    labels.push(...y.tolist());
  }
  return { ms: performance.now() - t0, labels };
}

/** CPU ms (user + system) a fresh Node process spends importing `urls`, the best of `reps`. */
function importCpuMs(urls, reps = 3) {
  const src = `const c = process.cpuUsage(); for (const u of ${JSON.stringify(urls)}) await import(u); const d = process.cpuUsage(c); console.log((d.user + d.system) / 1000);`;
  let best = Infinity;
  for (let i = 0; i < reps; i++) best = Math.min(best, Number(execFileSync(process.execPath, ["--input-type=module", "-e", src], { encoding: "utf8" }).trim()));
  return best;
}

/** What engine/data/worker.ts imports before it rebuilds the dataset, against import "glasstorch". */
export function workerImportCost() {
  const entry = ["aten/core/fallbacks.js", "generated/index.js", "aten/python_variable_methods.js", "aten/Generator.js", "c10/Storage.js",
    "data/_common.js", "data/collate.js", "data/_transfer.js", "data/worker_info.js", "data/_worker_spec.js"].map((p) => ENGINE + p);
  return { worker_entry_cpu_ms: importCpuMs(entry), whole_engine_cpu_ms: importCpuMs([ENGINE + "index.js"]) };
}

async function timeConfigs(make, { epochs, log, label }) {
  const rows = [];
  let reference = null;
  // 0 workers; fresh workers two ways: taking the pool's idle threads, re-initialised (the default), and
  // each epoch spawning its threads (no pool: max_idle 0, as before the pool); then persistent workers
  for (const [persistent, pooled] of [[false, true], [false, false], [true, true]]) {
    for (const num_workers of [0, 1, 2]) {
      if ((persistent || !pooled) && num_workers === 0) continue;
      await _worker_pool.clear();
      _worker_pool.max_idle = pooled ? MAX_IDLE : 0;
      const loader = make({ num_workers, persistent_workers: persistent });
      const times = [];
      // pooled or persistent: the first epoch starts the threads (timed apart), later epochs reuse them
      const first = persistent || (pooled && num_workers > 0) ? (await epoch(loader)).ms : null;
      for (let e = 0; e < epochs; e++) {
        const r = await epoch(loader);
        reference ??= r.labels;
        if (r.labels.length !== reference.length || r.labels.some((v, i) => v !== reference[i])) throw new Error(`${label} num_workers=${num_workers}: batches differ from num_workers=0`);
        times.push(r.ms);
      }
      if (persistent) await loader.shutdown();
      _worker_pool.max_idle = MAX_IDLE;
      const row = { num_workers, persistent_workers: persistent, pooled: num_workers > 0 && pooled, epoch_ms: median(times), first_epoch_ms: first, epochs: times.length, samples_ms: times };
      rows.push(row);
      log(`  dataloader ${label} num_workers=${num_workers}${persistent ? " persistent" : num_workers > 0 ? (pooled ? " fresh (pool)" : " fresh (spawned)") : ""}: ${row.epoch_ms.toFixed(0)} ms/epoch (load ${loadavg()[0].toFixed(1)})`);
    }
  }
  const base = rows.find((r) => r.num_workers === 0).epoch_ms;
  for (const r of rows) r.speedup_vs_0 = base / r.epoch_ms;
  return rows;
}

/** Runs the comparison; returns a JSON-able record (bench/run.mjs stores it in the results file). */
export async function runDataloaderBench({ quick = false, items = null, log = console.error } = {}) {
  const load_before = loadavg();
  const heavyItems = items ?? (quick ? 128 : 1024), epochs = quick ? 2 : 3;
  const heavy = new CpuHeavyDataset(heavyItems);
  for (let i = 0; i < 16; i++) heavy.__getitem__(i); // warm (JIT), then time an item on this thread
  const t0 = performance.now();
  for (let i = 0; i < 16; i++) heavy.__getitem__(i);
  const itemMs = (performance.now() - t0) / 16;
  const heavyRows = await timeConfigs((o) => new torch.utils.data.DataLoader(heavy, { batch_size: 32, ...o }), { epochs, log, label: "cpu-heavy" });

  const lightItems = quick ? 2048 : 8192;
  torch.manual_seed(0);
  const light = new torch.utils.data.TensorDataset(torch.randn(lightItems, 3, 32, 32), torch.randint(0, 10, [lightItems]));
  const lightRows = await timeConfigs((o) => new torch.utils.data.DataLoader(light, { batch_size: 64, ...o }), { epochs, log, label: "light" });

  const imports = workerImportCost();
  log(`  worker entry import ${imports.worker_entry_cpu_ms.toFixed(0)} ms CPU, whole engine ${imports.whole_engine_cpu_ms.toFixed(0)} ms CPU`);
  const datasets = [
    { name: "cpu-heavy", items: heavyItems, batch_size: 32, item_ms_main_thread: itemMs, what: "3x56x56 synthesised + blurred + cropped + normalised per item (bench/lib/cpu_heavy_dataset.mjs)", rows: heavyRows },
    { name: "light", items: lightItems, batch_size: 64, what: "TensorDataset of ready 3x32x32 float32 tensors", rows: lightRows },
  ];
  // the issue's goal: the CPU-heavy dataset with as many workers as cores (here 2), fresh and persistent
  const checks = heavyRows.filter((r) => r.num_workers === 2 && (r.pooled || r.persistent_workers)).map((r) => ({ dataset: "cpu-heavy", num_workers: 2, persistent_workers: r.persistent_workers, as_fast_or_faster: r.speedup_vs_0 >= 1 }));
  return {
    datasets, checks, epochs_timed: epochs, imports, cores: availableParallelism(), torch_threads: torch.get_num_threads(),
    loadavg_before: load_before, loadavg_after: loadavg(),
    // kept for readers of older results files
    items: heavyItems, batch_size: 32, item_ms_main_thread: itemMs, rows: heavyRows,
  };
}

export function formatDataloader(d) {
  const out = [`DataLoader workers (issue #7), ${d.cores} cores, load average ${d.loadavg_before[0].toFixed(1)} before / ${d.loadavg_after[0].toFixed(1)} after; median ms per epoch of ${d.epochs_timed}`];
  for (const ds of d.datasets) {
    out.push(`${ds.name}: ${ds.items} items, batch ${ds.batch_size}${ds.item_ms_main_thread ? `, ${ds.item_ms_main_thread.toFixed(1)} ms per item on the main thread` : ""} — ${ds.what}`);
    out.push(["  num_workers".padEnd(34), "ms/epoch".padStart(9), "vs 0 workers".padStart(13), "goal: >= 1.0x".padStart(14), "1st epoch ms".padStart(13)].join(" "));
    for (const r of ds.rows) {
      const c = r.num_workers === 0 || r.pooled || r.persistent_workers ? d.checks.find((k) => k.dataset === ds.name && k.num_workers === r.num_workers && k.persistent_workers === r.persistent_workers) : null;
      const how = r.num_workers === 0 ? "" : r.persistent_workers ? " (persistent_workers)" : r.pooled ? " (fresh, pooled threads)" : " (fresh, spawned: no pool)";
      out.push([`  ${r.num_workers}${how}`.padEnd(34), r.epoch_ms.toFixed(0).padStart(9),
        `${r.speedup_vs_0.toFixed(2)}x`.padStart(13), (c ? (c.as_fast_or_faster ? "PASS" : "FAIL") : "").padStart(14), (r.first_epoch_ms == null ? "" : r.first_epoch_ms.toFixed(0)).padStart(13)].join(" "));
    }
  }
  out.push(`worker thread start: its entry imports ${d.imports.worker_entry_cpu_ms.toFixed(0)} ms of CPU (the whole engine: ${d.imports.whole_engine_cpu_ms.toFixed(0)} ms; a dataset module that imports the whole engine pays that)`);
  return out.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--items");
  const d = await runDataloaderBench({ quick: process.argv.includes("--quick"), items: i > 0 ? Number(process.argv[i + 1]) : null });
  console.log(formatDataloader(d));
}
