// GEMM throughput (issue #8): the addon's own blocked GEMM and the linked CBLAS, and PyTorch's
// torch.mm (real PyTorch at /usr/bin/python3, --torch), C = A @ B square, 1 and 2 threads.
// GFLOP/s = 2 n^3 / time of the best call. The machine is shared: the own and CBLAS calls alternate
// within one loop, so both see the same load; rerun when the figures look noisy. --cpu divides by the
// process's CPU time per thread instead of wall time (what the GEMM does while it runs, on a machine
// where other processes take the cores away; OpenBLAS's spinning threads count against it).
//   node bench/native_gemm.mjs [--f64] [--sizes 64,256,512,1024,2048] [--isa AVX512|AVX2|DEFAULT] [--torch]
// --bmm: the batched GEMM instead (Bmm.cc), a Transformer attention product [64, 64, 32] x [64, 32, 64]
// (and --bmm-shape B,M,K,N): one addon.bmm call vs one addon.gemm call per item (the loop bmm ran
// before Bmm.cc) vs torch.bmm, microseconds per call, 1 and 2 threads.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";

const addon = createRequire(import.meta.url)(fileURLToPath(new URL("../native/build/Release/glasstorch_cpu.node", import.meta.url)));
const args = process.argv.slice(2);
const f64 = args.includes("--f64");
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const sizes = opt("--sizes", "64,256,512,1024,2048").split(",").map(Number);
const isa = opt("--isa", null);
if (isa && !addon.set_capability(isa)) throw new Error(`this CPU cannot run ${isa}`);
const Arr = f64 ? Float64Array : Float32Array;
const dtype = f64 ? 7 : 6;
const info = addon.blas_info();
console.log(`${f64 ? "dgemm" : "sgemm"}; own GEMM unit ${info.own_gemm}; CBLAS: ${info.cblas_linked ? info.cblas_library : "not linked"}`);
// the measured f32 FMA peak per thread count (measure_fma_peak: FMA chains in registers, thread CPU time)
const peaks = {};
for (const t of [1, 2]) {
  const r = [0, 1, 2].map(() => addon.measure_fma_peak(t)).reduce((a, b) => (b.gflops > a.gflops ? b : a));
  peaks[t] = (f64 ? 0.5 : 1) * r.gflops;
  console.log(`measured ${f64 ? "f64 (half the f32)" : "f32"} peak, ${t} thread${t > 1 ? "s" : ""}: ${peaks[t].toFixed(1)} GFLOP/s (${r.isa}, ${r.flops_per_cycle.toFixed(1)} f32 flop/cycle/core at ${r.clock_ghz.toFixed(2)} GHz)`);
}

function bench(n, threads) {
  addon.set_num_threads(threads);
  const A = Arr.from({ length: n * n }, () => Math.random() - 0.5);
  const B = Arr.from({ length: n * n }, () => Math.random() - 0.5);
  const C = new Arr(n * n);
  const meta = Float64Array.from([n, n, n, 1, 0, 0, n, 1, 0, n, 1, 0, n, 1]);
  const flops = 2 * n ** 3;
  const blases = info.cblas_linked ? ["own", "cblas"] : ["own"];
  const best = Object.fromEntries(blases.map((b) => [b, Infinity]));
  const cpu = args.includes("--cpu");
  for (const b of blases) { addon.set_blas(b); addon.gemm(dtype, meta, A, B, C); }
  const t0 = performance.now();
  for (let r = 0; r < 400 && (r < 3 || performance.now() - t0 < 3000); r++) {
    for (const b of blases) {
      addon.set_blas(b);
      const s = performance.now(), c0 = process.cpuUsage();
      addon.gemm(dtype, meta, A, B, C);
      const wall = performance.now() - s, used = process.cpuUsage(c0);
      best[b] = Math.min(best[b], cpu ? (used.user + used.system) / 1000 / threads : wall);
    }
  }
  return Object.fromEntries(blases.map((b) => [b, (flops / (best[b] * 1e6)).toFixed(1)]));
}

/** torch.mm's GFLOP/s; OPENBLAS_NUM_THREADS sets the thread count (torch.set_num_threads does not reach OpenBLAS). */
function torchFigures(threads) {
  const clock = args.includes("--cpu") ? `(time.process_time() / ${threads})` : "time.perf_counter()";
  const py = `
import torch, time
torch.manual_seed(0)
torch.set_num_threads(${threads})
out = {}
for n in ${JSON.stringify(sizes)}:
    a = torch.randn(n, n, dtype=torch.${f64 ? "float64" : "float32"}); b = torch.randn(n, n, dtype=a.dtype)
    torch.mm(a, b); best = 1e9; t0 = time.perf_counter(); r = 0
    while r < 400 and (r < 3 or time.perf_counter() - t0 < 3):
        s = ${clock}; torch.mm(a, b); best = min(best, ${clock} - s); r += 1
    out[str(n)] = round(2 * n ** 3 / max(best, 1e-9) / 1e9, 1)
print(out)`;
  const r = spawnSync("/usr/bin/python3", ["-c", py], { encoding: "utf8", env: { ...process.env, OPENBLAS_NUM_THREADS: String(threads) } });
  if (r.status !== 0) return null;
  return JSON.parse(r.stdout.trim().replace(/'/g, '"'));
}

if (args.includes("--bmm")) {
  const [bs, m, k, n] = opt("--bmm-shape", "64,64,32,64").split(",").map(Number);
  const A = Arr.from({ length: bs * m * k }, () => Math.random() - 0.5), B = Arr.from({ length: bs * k * n }, () => Math.random() - 0.5);
  const C = new Arr(bs * m * n);
  const bmeta = Float64Array.from([bs, m, n, k, 1, 0, 0, m * k, k, 1, 0, k * n, n, 1, 0, m * n, n, 1]);
  const gmeta = Float64Array.from([m, n, k, 1, 0, 0, k, 1, 0, n, 1, 0, n, 1]);
  const As = [], Bs = [], Cs = [];
  for (let b = 0; b < bs; b++) {
    As.push(A.subarray(b * m * k, (b + 1) * m * k)); Bs.push(B.subarray(b * k * n, (b + 1) * k * n)); Cs.push(C.subarray(b * m * n, (b + 1) * m * n));
  }
  const ways = {
    "bmm (one call)": () => addon.bmm(dtype, bmeta, A, B, C),
    "gemm per item": () => { for (let b = 0; b < bs; b++) addon.gemm(dtype, gmeta, As[b], Bs[b], Cs[b]); },
  };
  const cpu = args.includes("--cpu");
  const out = [];
  for (const threads of [1, 2]) {
    addon.set_num_threads(threads);
    const best = Object.fromEntries(Object.keys(ways).map((w) => [w, Infinity]));
    const t0 = performance.now();
    for (let r = 0; r < 2000 && (r < 5 || performance.now() - t0 < 3000); r++) {
      for (const [w, f] of Object.entries(ways)) {
        const s = performance.now(), c0 = process.cpuUsage();
        f();
        const wall = performance.now() - s, used = process.cpuUsage(c0);
        best[w] = Math.min(best[w], cpu ? (used.user + used.system) / 1000 / threads : wall);
      }
    }
    const row = { threads };
    for (const [w, v] of Object.entries(best)) row[`${w} us`] = (v * 1000).toFixed(1);
    row["bmm GFLOP/s"] = ((2 * bs * m * n * k) / (best["bmm (one call)"] * 1e6)).toFixed(1);
    if (args.includes("--torch")) {
      const py = `
import torch, time
torch.set_num_threads(${threads})
a = torch.randn(${bs}, ${m}, ${k}, dtype=torch.${f64 ? "float64" : "float32"}); b = torch.randn(${bs}, ${k}, ${n}, dtype=a.dtype)
torch.bmm(a, b); best = 1e9; t0 = time.perf_counter(); r = 0
while r < 2000 and (r < 5 or time.perf_counter() - t0 < 3):
    s = time.perf_counter(); torch.bmm(a, b); best = min(best, time.perf_counter() - s); r += 1
print(best * 1e6)`;
      const r = spawnSync("/usr/bin/python3", ["-c", py], { encoding: "utf8", env: { ...process.env, OPENBLAS_NUM_THREADS: String(threads) } });
      row["torch.bmm us"] = r.status === 0 ? Number(r.stdout.trim()).toFixed(1) : "-";
    }
    out.push(row);
  }
  console.log(`bmm [${bs}, ${m}, ${k}] x [${bs}, ${k}, ${n}]`);
  console.table(out);
  process.exit(0);
}

const rows = sizes.map((n) => {
  const row = { n };
  for (const threads of [1, 2]) {
    const g = bench(n, threads);
    for (const [b, v] of Object.entries(g)) row[`${b} ${threads}t`] = v;
    row[`own ${threads}t %pk`] = `${((100 * Number(g.own)) / peaks[threads]).toFixed(0)}%`;
  }
  return row;
});
if (args.includes("--torch")) {
  for (const threads of [1, 2]) {
    const t = torchFigures(threads);
    for (const row of rows) row[`torch ${threads}t`] = t ? t[String(row.n)].toFixed(1) : "-";
  }
}
console.table(rows);
