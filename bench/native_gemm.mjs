// GEMM throughput of the native addon (issue #8): the own blocked GEMM and the linked CBLAS, float32
// (and float64 with --f64), C = A @ B square, 1 and 2 threads; GFLOP/s = 2 n^3 / time (best of runs).
//   node bench/native_gemm.mjs [--f64] [--sizes 64,256,512,1024,2048] [--isa AVX512|AVX2|DEFAULT]
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const addon = createRequire(import.meta.url)(fileURLToPath(new URL("../native/build/Release/glasstorch_cpu.node", import.meta.url)));
const args = process.argv.slice(2);
const f64 = args.includes("--f64");
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const sizes = opt("--sizes", "64,256,512,1024,2048").split(",").map(Number);
const isa = opt("--isa", null);
if (isa && !addon.set_capability(isa)) throw new Error(`this CPU cannot run ${isa}`);
const Arr = f64 ? Float64Array : Float32Array;
const info = addon.blas_info();
console.log(`${f64 ? "dgemm" : "sgemm"}; own GEMM unit ${info.own_gemm}; CBLAS: ${info.cblas_linked ? info.cblas_library : "not linked"}`);

function time(n, threads, blas) {
  addon.set_num_threads(threads);
  if (!addon.set_blas(blas)) return null;
  const A = Arr.from({ length: n * n }, () => Math.random() - 0.5);
  const B = Arr.from({ length: n * n }, () => Math.random() - 0.5);
  const C = new Arr(n * n);
  const meta = Float64Array.from([n, n, n, 1, 0, 0, n, 1, 0, n, 1, 0, n, 1]);
  const flops = 2 * n ** 3;
  // runs of at least ~0.3 s in total, best time of one call
  addon.gemm(f64 ? 7 : 6, meta, A, B, C);
  const reps = Math.max(3, Math.min(200, Math.ceil(0.3e9 / flops * 50)));
  let best = Infinity;
  const t0 = performance.now();
  for (let r = 0; r < reps && performance.now() - t0 < 1500; r++) {
    const s = performance.now();
    addon.gemm(f64 ? 7 : 6, meta, A, B, C);
    best = Math.min(best, performance.now() - s);
  }
  return flops / (best * 1e6);
}

const rows = [];
for (const n of sizes) {
  const row = { n };
  for (const threads of [1, 2]) for (const blas of ["own", "cblas"]) {
    const g = time(n, threads, blas);
    row[`${blas} ${threads}t`] = g === null ? "-" : g.toFixed(1);
  }
  rows.push(row);
}
console.table(rows);
