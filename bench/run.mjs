// `npm run bench`: times each case in Glasstorch, PyTorch (if Debian's python3-torch is installed) and
// TensorFlow.js (tfjs-core with its pure-JS CPU backend) in one run, and prints the times and ratios.
// Usage: npm run bench [-- --filter randn] [-- --json out.json]
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as torch from "../dist/engine/index.js";
import { cases } from "./cases.mjs";

const args = process.argv.slice(2);
const filter = args.includes("--filter") ? args[args.indexOf("--filter") + 1] : "";
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : "";
const selected = cases.filter((c) => c.name.includes(filter));

/**
 * Median milliseconds per call of `fn`. Fast calls are timed in batches (each sample at least ~1 ms)
 * so timer resolution and per-sample overhead do not dominate; at least 5 samples or 0.5 s.
 */
function timeIt(fn) {
  for (let i = 0; i < 3; i++) fn();
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    if (performance.now() - t0 >= 1 || batch >= 1 << 20) break;
    batch *= 2;
  }
  const times = [];
  const start = performance.now();
  while (times.length < 5 || (performance.now() - start < 500 && times.length < 50)) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    times.push((performance.now() - t0) / batch);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function loadTf() {
  try {
    const tf = await import("@tensorflow/tfjs-core");
    await import("@tensorflow/tfjs-backend-cpu");
    await tf.setBackend("cpu");
    return tf;
  } catch {
    return null;
  }
}

function runPyTorch(list) {
  const py = "/usr/bin/python3";
  const script = [
    "import json, statistics, sys, time, torch",
    "torch.set_num_threads(1)",
    "out = {}",
    ...list.filter((c) => c.py).flatMap((c) => [
      `${c.pySetup ?? "pass"}`,
      `def f(): return ${c.py}`,
      "f(); f(); f(); batch = 1",
      "while True:",
      "    t0 = time.perf_counter()",
      "    for _ in range(batch): f()",
      "    if time.perf_counter() - t0 >= 0.001 or batch >= 1 << 20: break",
      "    batch *= 2",
      "ts = []; s = time.perf_counter()",
      "while len(ts) < 5 or (time.perf_counter() - s < 0.5 and len(ts) < 50):",
      "    t0 = time.perf_counter()",
      "    for _ in range(batch): f()",
      "    ts.append((time.perf_counter() - t0) * 1000 / batch)",
      `out[${JSON.stringify(c.name)}] = statistics.median(ts)`,
    ]),
    "print(json.dumps(out))",
  ].join("\n");
  const r = spawnSync(py, ["-c", script], { encoding: "utf8" });
  if (r.status !== 0) return null;
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

const tf = await loadTf();
const pyTimes = runPyTorch(selected);
const rows = [];
for (const c of selected) {
  const data = c.setup ? c.setup() : undefined;
  const x = c.gtSetup ? c.gtSetup(torch) : undefined;
  const gt = timeIt(() => c.gt(torch, data, x));
  c.gtTeardown?.(torch);
  let tfMs = null;
  if (tf && c.tf) {
    const tx = c.tfSetup ? c.tfSetup(tf) : undefined;
    tfMs = timeIt(() => tf.tidy(() => c.tf(tf, data, tx)));
  }
  rows.push({ case: c.name, glasstorch_ms: gt, pytorch_ms: pyTimes?.[c.name] ?? null, tfjs_ms: tfMs });
}

const fmt = (v) => (v == null ? "—" : v < 0.1 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v.toFixed(1));
const ratio = (a, b) => (a == null || b == null ? "—" : (a / b).toFixed(2) + "x");
console.log(`Glasstorch vs PyTorch ${pyTimes ? "(1 thread)" : "(not installed)"} vs TF.js ${tf ? "(tfjs-backend-cpu)" : "(not installed)"}; median ms; ratio = Glasstorch / other (lower is better)`);
console.log(["case".padEnd(36), "glasstorch", "pytorch", "tfjs", "vs pytorch", "vs tfjs"].join("  "));
for (const r of rows) {
  console.log([r.case.padEnd(36), fmt(r.glasstorch_ms).padStart(10), fmt(r.pytorch_ms).padStart(7), fmt(r.tfjs_ms).padStart(6),
    ratio(r.glasstorch_ms, r.pytorch_ms).padStart(10), ratio(r.glasstorch_ms, r.tfjs_ms).padStart(8)].join("  "));
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2));
