// `npm run bench` (issue #8 item 5): every workload in Glasstorch (native kernels and the TypeScript
// reference kernels, switched with set_cpu_capability — GLASSTORCH_CPU_CAPABILITY=ts), in PyTorch
// (/usr/bin/python3, Debian's python3-torch, same thread count) and in TensorFlow.js (tfjs-core with
// tfjs-backend-wasm and tfjs-backend-cpu), in one run. Prints medians, ratios, GFLOP/s or GB/s, peak
// fractions and issue #8's goal checks; writes bench/results/<date>-<host>.json.
//
// Usage: npm run bench [-- options]      (or: node bench/run.mjs [options] after npm run build)
//   --quick               smoke run: small sizes, short sampling (results file gets a -quick suffix)
//   --group G             kernels | creation | dataloader | all (default all; creation = bench/cases.mjs,
//                         dataloader = bench/dataloader_workers.mjs, issue #7's num_workers 0/1/2 epochs)
//   --filter S            only workloads whose id contains S (repeatable: any of them)
//   --sides a,b           of native,ts,pytorch,wasm,cpu (default all)
//   --threads N           Glasstorch's set_num_threads(N) and PyTorch's torch.set_num_threads(N)
//                         (default: Glasstorch's get_num_threads())
//   --budget-ms B         sampling time per cell once 5 samples are in (default 1000; --quick 100)
//   --max-cell-s S        a cell's time cap: slower calls get fewer samples, flagged * (default 60; --quick 10)
//   --rounds R            PyTorch's and Glasstorch's samples of a workload taken in R alternating rounds
//                         (default 3; --quick 1)
//   --out PATH            results file (--json PATH: the same) (default bench/results/<date>-<host>[-quick].json); --no-save: none
//   --install-openblas    when OpenBLAS is missing, install it with apt-get (root only)
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CellTimer, timeIt } from "./lib/timing.mjs";
import { settle } from "./lib/settle.mjs";
import { startTorchSide } from "./lib/torch_side_client.mjs";
import { describeMachine, glasstorchBlas, systemBlas, installOpenBlas, measurePeak, OPENBLAS_APT } from "./lib/machine.mjs";
import { gtKinds, tfKinds, kernelWorkloads } from "./workloads.mjs";
import { cases } from "./cases.mjs";
import { loadTf, useBackend } from "./lib/tfjs.mjs";
import { runDataloaderBench, formatDataloader } from "./dataloader_workers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const PY = "/usr/bin/python3";
const log = (...a) => console.error(...a);

// ---- options
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
const quick = argv.includes("--quick");
const filters = argv.flatMap((a, i) => (a === "--filter" ? [argv[i + 1]] : []));
const group = opt("--group", "all");
const sides = new Set(opt("--sides", "native,ts,pytorch,wasm,cpu").split(","));
const timing = {
  budgetMs: Number(opt("--budget-ms", quick ? 100 : 1000)),
  minSamples: 5,
  maxCellMs: Number(opt("--max-cell-s", quick ? 10 : 60)) * 1000,
};

const rounds = Math.max(1, Number(opt("--rounds", quick ? 1 : 3)));

/** The sampling rules for one workload: a workload's warm_ms (training steps) replaces the default warm-up. */
const cellTiming = (w) => (w.warm_ms ? { ...timing, warmMs: w.warm_ms } : timing);

// ---- machine, BLAS
const machine = describeMachine();
const sysBlas = systemBlas();
if (!sysBlas.openblas_installed) {
  log(`OpenBLAS is not installed: PyTorch's libblas.so.3 is ${sysBlas.libblas_so_3 ?? "unknown"} (netlib's reference BLAS is slow).`);
  if (argv.includes("--install-openblas")) {
    if (installOpenBlas(log)) Object.assign(sysBlas, systemBlas());
  } else log(`  to install it: sudo ${OPENBLAS_APT}   (or rerun with --install-openblas as root)`);
} else if (sysBlas.libblas_so_3 && !/openblas/i.test(sysBlas.libblas_so_3)) {
  log(`OpenBLAS is installed but libblas.so.3 selects ${sysBlas.libblas_so_3}: PyTorch runs that one.`);
  log(`  to select OpenBLAS: sudo update-alternatives --set libblas.so.3-x86_64-linux-gnu ${sysBlas.openblas_dirs[0]}/libblas.so.3`);
}

// ---- Glasstorch
const torch = await import("../dist/engine/index.js");
const { set_cpu_capability } = await import("../dist/engine/aten/native/DispatchStub.js");
const status = torch._C._native_status();
if (opt("--threads")) torch.set_num_threads(Number(opt("--threads")));
const threads = torch.get_num_threads();
const gtBlas = glasstorchBlas(status);

// ---- workloads
const creation = cases.map((c) => ({
  group: "creation", id: c.name, kind: "expr",
  params: c.py ? { setup: c.pySetup ?? null, expr: c.py } : null,
  gt: (t) => {
    const data = c.setup ? c.setup() : undefined, x = c.gtSetup ? c.gtSetup(t) : undefined;
    const fn = () => c.gt(t, data, x);
    fn.teardown = () => c.gtTeardown?.(t);
    return fn;
  },
  tf: c.tf ? (tf) => { const data = c.setup ? c.setup() : undefined, tx = c.tfSetup ? c.tfSetup(tf) : undefined; return () => c.tf(tf, data, tx); } : null,
}));
let workloads = [...(group === "all" || group === "kernels" ? kernelWorkloads(quick) : []), ...(group === "all" || group === "creation" ? creation : [])];
if (filters.length) workloads = workloads.filter((w) => filters.some((f) => w.id.includes(f)));
for (const w of workloads) w.key = `${w.group}: ${w.id}`;
const results = new Map(workloads.map((w) => [w.key, {}]));

function record(side, w, run) {
  try {
    const r = run();
    results.get(w.key)[side] = r;
    log(`  ${side.padEnd(8)} ${w.id}: ${r ? r.ms.toPrecision(4) + " ms" + (r.flagged ? ` (${r.samples} sample${r.samples > 1 ? "s" : ""})` : "") : "—"}`);
  } catch (e) {
    results.get(w.key)[side] = { error: String(e?.message ?? e).split("\n")[0] };
    log(`  ${side.padEnd(8)} ${w.id}: error ${results.get(w.key)[side].error}`);
  }
}

// ---- PyTorch: one subprocess (bench/torch_side.py), asked for each workload in the loop below
let torchEnv = null;
const hasTorch = sides.has("pytorch") && workloads.some((w) => w.params) && spawnSync(PY, ["-c", "import torch"], { stdio: "ignore" }).status === 0;
if (sides.has("pytorch") && workloads.some((w) => w.params) && !hasTorch) log(`PyTorch side skipped: ${PY} cannot import torch (Debian: apt-get install python3-torch)`);
const torchSide = hasTorch
  ? startTorchSide(PY, join(here, "torch_side.py"), { ...process.env, OMP_NUM_THREADS: String(threads), OPENBLAS_NUM_THREADS: String(threads) }, { threads, timing })
  : null;
if (torchSide) log(`PyTorch (${PY}, ${threads} threads)`);

// ---- per workload, in `rounds` rounds: PyTorch, then Glasstorch's native kernels, then its TypeScript
// kernels, each side taking its share of the samples in turn (so a change in the machine's load hits
// every column of a row alike; each side waits while another runs). Each side builds and warms its
// cell in the first round and keeps it to the last (bench/lib/timing.mjs, CellTimer).
const gtSides = [["native", null], ["ts", "ts"]].filter(([side]) => sides.has(side) && (side !== "native" || status.loaded));
if (sides.has("native") && !status.loaded) log(`Glasstorch native side skipped: addon not loaded (${status.reason})`);
if (gtSides.length) log(`Glasstorch (native kernels: ${status.loaded ? status.addon.capability : "absent"}; TypeScript kernels), ${threads} threads, ${rounds} round${rounds > 1 ? "s" : ""} per workload`);
const errorOf = (e) => String(e?.message ?? e).split("\n")[0];
for (const w of workloads) {
  const cells = new Map(); // side -> {fn, timer} or {error}
  for (let round = 0; round < rounds; round++) {
    const last = round === rounds - 1;
    if (torchSide && w.params) {
      const { key, kind, params, warm_ms } = w;
      let res;
      await settle(); // Glasstorch's garbage collected now, not by V8's threads during PyTorch's round
      try {
        res = await torchSide.ask({ id: key, kind, params, warm_ms, round, rounds });
      } catch (e) {
        res = { error: errorOf(e) };
      }
      if (last || res.error) {
        results.get(key).pytorch = res;
        if (last) log(`  ${"pytorch".padEnd(8)} ${w.id}: ${res.ms !== undefined ? res.ms.toPrecision(4) + " ms" : "error " + res.error}`);
      }
    }
    for (const [side, cap] of gtSides) {
      await settle();
      set_cpu_capability(cap);
      let cell = cells.get(side);
      try {
        if (!cell) {
          torch.manual_seed(0);
          const fn = (w.gt ?? gtKinds[w.kind])(torch, w.params);
          cells.set(side, (cell = { fn, timer: new CellTimer(fn, cellTiming(w)) }));
          cell.timer.start();
        }
        if (!cell.error) cell.timer.round(1 / rounds);
      } catch (e) {
        cell = { ...cell, error: errorOf(e) };
        cells.set(side, cell);
      }
      if (last) {
        cell.fn?.teardown?.();
        record(side, w, () => {
          if (cell.error) throw new Error(cell.error);
          return cell.timer.result();
        });
      }
    }
    set_cpu_capability(null);
  }
}
if (torchSide) {
  try {
    torchEnv = await torchSide.finish();
  } catch (e) {
    log(`PyTorch side failed: ${e.message}`);
  }
}

// ---- TensorFlow.js: wasm backend, then the pure-JS cpu backend
const tfInfo = {};
if (workloads.length && (sides.has("wasm") || sides.has("cpu"))) {
  let tf = null, wasm = null;
  try {
    ({ tf, wasm, versions: tfInfo.versions } = await loadTf());
  } catch (e) { log(`TensorFlow.js side skipped: ${e.message}`); }
  for (const [side, backend] of [["wasm", "wasm"], ["cpu", "cpu"]]) {
    if (!tf || !sides.has(side)) continue;
    try {
      await useBackend(tf, backend);
    } catch (e) { log(`tfjs-${backend} skipped: ${e.message ?? e}`); continue; }
    tfInfo[`tfjs-backend-${backend}`] = backend === "wasm"
      ? { threads: wasm.getThreadsCount(), simd: await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT"),
          note: "tfjs 4.22 turns wasm threads off under Node (WASM_HAS_MULTITHREAD_SUPPORT is false when IS_NODE, tensorflow/tfjs#3830): single-threaded SIMD" }
      : { threads: 1, note: "pure JavaScript kernels on the main thread" };
    log(`TensorFlow.js ${backend} backend (${tfInfo[`tfjs-backend-${backend}`].threads} thread)`);
    for (const w of workloads) {
      const build = w.gt ? w.tf : tfKinds[w.kind];
      if (!build) continue;
      await settle();
      record(side, w, () => {
        tf.engine().startScope();
        try {
          const fn = build(tf, w.params);
          if (!fn) return null;
          return timeIt(() => tf.tidy(() => { fn(); }), cellTiming(w));
        } finally {
          tf.engine().endScope();
          tf.disposeVariables();
        }
      });
    }
  }
}

// ---- DataLoader workers (issue #7)
let dataloader = null;
if ((group === "all" && !filters.length) || group === "dataloader") {
  log("DataLoader epochs, num_workers 0/1/2");
  try { dataloader = await runDataloaderBench({ quick, log }); } catch (e) { log(`DataLoader bench failed: ${e.message}`); dataloader = { error: String(e.message) }; }
}

// ---- derived numbers: rates, ratios, peaks
const ms = (w, side) => { const r = results.get(w.key)[side]; return r && typeof r.ms === "number" ? r.ms : null; };
const cpu = machine.cpu;
const lanes = cpu.flags.avx512f ? 16 : cpu.flags.avx2 ? 8 : 4;
const peakCores = Math.min(threads, cpu.physical_cores ?? cpu.logical_cores);
const formulaPeakGflops = cpu.clock_ghz ? peakCores * 2 * lanes * 2 * cpu.clock_ghz : null;
// the measured peak (addon's measure_fma_peak on peakCores threads) when the addon has it, else the formula's
const { nativeAddon } = await import("../dist/engine/aten/native/cpu_native/NativeBackend.js");
const measuredPeak = measurePeak(nativeAddon, peakCores);
const peakGflops = measuredPeak?.f32_gflops ?? formulaPeakGflops;
const peakText = measuredPeak
  ? `measured ${measuredPeak.f32_gflops.toFixed(0)} GFLOP/s (${measuredPeak.isa} FMA loop, ${peakCores} threads, ${measuredPeak.flops_per_cycle_per_core.toFixed(1)} flop/cycle/core at ${measuredPeak.clock_ghz.toFixed(2)} GHz measured; formula ${formulaPeakGflops?.toFixed(0)})`
  : `${formulaPeakGflops?.toFixed(0)} GFLOP/s (formula: ${peakCores} cores x 2 FMA x ${lanes} lanes x 2 x ${cpu.clock_ghz?.toFixed(2)} GHz)`;
const streamW = workloads.find((w) => w.stream);
const bwOf = (side) => (streamW && ms(streamW, side) ? streamW.bytes / ms(streamW, side) / 1e6 : null);
const bandwidth = Math.max(bwOf("native") ?? 0, bwOf("pytorch") ?? 0) || null;
const SIDES = ["native", "ts", "pytorch", "wasm", "cpu"];
const rows = workloads.map((w) => {
  const m = Object.fromEntries(SIDES.map((s) => [s, ms(w, s)]));
  const speed = (other) => (m.native && m[other] ? m[other] / m.native : null); // > 1: Glasstorch native faster
  const rate = (s) => (m[s] == null ? null : w.flops ? w.flops / m[s] / 1e6 : w.bytes ? w.bytes / m[s] / 1e6 : null);
  const rates = Object.fromEntries(SIDES.map((s) => [s, rate(s)]));
  const peak = (s) => (rates[s] == null ? null : w.flops && peakGflops ? rates[s] / peakGflops : w.bytes && bandwidth ? rates[s] / bandwidth : null);
  return {
    group: w.group, id: w.id, kind: w.kind, params: w.params, flops: w.flops ?? null, bytes: w.bytes ?? null,
    unit: w.flops ? "GFLOP/s" : w.bytes ? "GB/s" : null, results: results.get(w.key),
    ratios: { native_vs_pytorch: speed("pytorch"), native_vs_tfjs_wasm: speed("wasm"), native_vs_tfjs_cpu: speed("cpu"), native_vs_ts: speed("ts") },
    rates, peak_fraction: { native: peak("native"), pytorch: peak("pytorch") }, goal: w.goal ?? false,
  };
});

// ---- issue #8 item 6's goal checks (native kernels, this thread count, this run)
const goals = [];
const check = (name, list, ok, show) => {
  const items = list.filter((r) => ok(r) != null);
  const fails = items.filter((r) => !ok(r));
  goals.push({ goal: name, pass: items.length > 0 && fails.length === 0, checked: items.length, failing: fails.map((r) => ({ id: r.id, value: show(r) })) });
};
const x = (v) => (v == null ? "—" : `${v.toFixed(2)}x`);
const vsPt = (r) => (r.ratios.native_vs_pytorch == null ? null : r.ratios.native_vs_pytorch >= 1);
check(">= 1.0x PyTorch (matmul >= 512, elementwise, reductions, conv, MLP, Transformer)", rows.filter((r) => r.goal === true), vsPt, (r) => x(r.ratios.native_vs_pytorch));
check("per-op overhead below PyTorch's", rows.filter((r) => r.goal === "overhead"), vsPt, (r) => `${fmtMs(r.results.native?.ms)} vs ${fmtMs(r.results.pytorch?.ms)} ms`);
const mm2048 = rows.find((r) => r.id === "matmul 2048x2048");
if (mm2048) {
  const f = mm2048.peak_fraction.native;
  goals.push({ goal: `sgemm 2048 >= 70% of peak (${measuredPeak ? "measured" : "formula"} ${peakGflops?.toFixed(0)} GFLOP/s)`, pass: f != null && f >= 0.7, checked: f == null ? 0 : 1,
    failing: f != null && f < 0.7 ? [{ id: mm2048.id, value: `${mm2048.rates.native.toFixed(1)} GFLOP/s = ${(100 * f).toFixed(1)}%` }] : [] });
}
check("ahead of tfjs-wasm on every workload", rows.filter((r) => r.group === "kernels"), (r) => (r.ratios.native_vs_tfjs_wasm == null ? null : r.ratios.native_vs_tfjs_wasm >= 1), (r) => x(r.ratios.native_vs_tfjs_wasm));

// ---- table
function fmtMs(v) { return v == null ? "—" : v < 0.01 ? v.toFixed(5) : v < 1 ? v.toFixed(4) : v < 100 ? v.toFixed(2) : v.toFixed(0); }
const cell = (r, s) => { const v = r.results[s]; return v?.error ? "err" : v?.ms == null ? "—" : fmtMs(v.ms) + (v.flagged ? "*" : ""); };
const rt = (v) => (v == null ? "—" : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const pct = (v) => (v == null ? "—" : `${(100 * v).toFixed(v < 0.1 ? 1 : 0)}%`);
const out = [];
if (rows.length) {
  const cols = [["workload", 48], ["native", 9], ["ts", 9], ["pytorch", 9], ["wasm", 9], ["tfjs-cpu", 9], ["vs pt", 7], ["vs wasm", 7], ["vs cpu", 7], ["ts→nat", 7], ["rate", 15], ["pt rate", 7], ["%peak", 6]];
  const line = (vals) => vals.map((v, i) => (i === 0 ? String(v).padEnd(cols[i][1]) : String(v).padStart(cols[i][1]))).join(" ");
  out.push("");
  out.push(`Glasstorch ${status.loaded ? `native (${status.addon.capability})` : "(no addon)"} and TS kernels, ${threads} threads | PyTorch ${torchEnv ? `${torchEnv.torch}, ${torchEnv.num_threads} threads, BLAS: ${torchEnv.blas.kind}` : "not run"} | tfjs-wasm ${tfInfo["tfjs-backend-wasm"] ? `${tfInfo["tfjs-backend-wasm"].threads} thread${tfInfo["tfjs-backend-wasm"].simd ? ", SIMD" : ""}` : "not run"} | tfjs-cpu ${tfInfo["tfjs-backend-cpu"] ? "1 thread" : "not run"}`);
  out.push(`${machine.cpu.model}, ${machine.cpu.logical_cores} cores, ${cpu.flags.avx512f ? "AVX-512" : cpu.flags.avx2 ? "AVX2" : "SSE"}, ${cpu.clock_ghz?.toFixed(2)} GHz (${cpu.clock_source}); Node ${machine.node}; load at start ${machine.loadavg_at_start.join(" ")}; first touch of a fresh page ${machine.page_fault_us} us`);
  out.push(`Glasstorch GEMM: ${gtBlas.kind}`);
  out.push(`median ms per call (* = fewer than 5 samples: a call slower than the cell cap); "vs X" = X's time / Glasstorch native's (> 1: Glasstorch faster); ts→nat = TS time / native time`);
  out.push(`rate = Glasstorch native (GFLOP/s for matmul/conv: a conv's FLOPs are the direct sum's, so a layer on Winograd's fewer products can pass 100% of peak; GB/s = bytes read+written for elementwise); %peak = native rate / f32 peak ${peakText} or / measured copy bandwidth ${bandwidth ? bandwidth.toFixed(1) + " GB/s" : "?"}`);
  for (const g of ["kernels", "creation"]) {
    const rs = rows.filter((r) => r.group === g);
    if (!rs.length) continue;
    out.push("");
    out.push(line(cols.map(([c], i) => (i === 0 ? `${g === "kernels" ? "workloads" : "creation ops, repr (bench/cases.mjs)"}` : c))));
    for (const r of rs) {
      out.push(line([r.id.slice(0, 48), cell(r, "native"), cell(r, "ts"), cell(r, "pytorch"), cell(r, "wasm"), cell(r, "cpu"),
        x(r.ratios.native_vs_pytorch), x(r.ratios.native_vs_tfjs_wasm), x(r.ratios.native_vs_tfjs_cpu), x(r.ratios.native_vs_ts),
        r.unit ? `${rt(r.rates.native)} ${r.unit}` : "", rt(r.rates.pytorch), pct(r.peak_fraction.native)]));
    }
  }
  out.push("");
  out.push("Goals (issue #8 item 6), Glasstorch native kernels:");
  for (const g of goals) {
    const f = g.failing.length ? `; failing: ${g.failing.map((f) => `${f.id} (${f.value})`).join(", ")}` : "";
    out.push(`  [${g.checked === 0 ? "n/a " : g.pass ? "PASS" : "FAIL"}] ${g.goal}: ${g.checked - g.failing.length}/${g.checked}${f}`);
  }
}
if (dataloader && !dataloader.error) out.push("", formatDataloader(dataloader));
console.log(out.join("\n"));

// ---- results file
const doc = {
  date: new Date().toISOString(), quick, argv, timing: { ...timing, rounds }, machine,
  threads: { glasstorch: threads, pytorch: torchEnv?.num_threads ?? null, tfjs_wasm: tfInfo["tfjs-backend-wasm"]?.threads ?? null, tfjs_cpu: tfInfo["tfjs-backend-cpu"] ? 1 : null },
  glasstorch: { version: JSON.parse(readFileSync(join(here, "..", "package.json"), "utf8")).version, native: status, blas: gtBlas },
  pytorch: torchEnv, system_blas: sysBlas, tfjs: tfInfo,
  peak: { f32_gflops: peakGflops, measured: measuredPeak, formula_f32_gflops: formulaPeakGflops, formula: `${peakCores} cores x 2 FMA x ${lanes} lanes x 2 flops x ${cpu.clock_ghz} GHz`, copy_bandwidth_gbs: bandwidth, copy_bandwidth_by_side: { native: bwOf("native"), pytorch: bwOf("pytorch") } },
  workloads: rows, goals, dataloader,
};
if (!argv.includes("--no-save")) {
  const day = doc.date.slice(0, 10);
  const path = opt("--out", opt("--json") ?? join(here, "results", `${day}-${machine.host}${quick ? "-quick" : ""}.json`));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(doc, null, 2) + "\n");
  console.log(`\nresults: ${path}`);
}
