// Per-op overhead and small training steps (issue #8): Glasstorch vs PyTorch 1.13, measured the same way.
//   node bench/overhead.mjs [--filter add] [--no-py] [--reps 5]
// Per-op cases: loops of N calls of a 1-element op, best of several reps (µs per call).
// Training steps: MLP 784-256-10 (batch 64, SGD, cross_entropy) and one TransformerEncoderLayer
// (d_model 128, 4 heads, seq 64, batch 16) forward+backward; median ms per step.
// GLASSTORCH_CPU_CAPABILITY=ts runs the TypeScript kernels; the default uses the native ones where loaded.
import { spawnSync } from "node:child_process";
import * as torch from "../dist/engine/index.js";

const args = process.argv.slice(2);
const filter = args.includes("--filter") ? args[args.indexOf("--filter") + 1] : "";
const noPy = args.includes("--no-py");
const reps = args.includes("--reps") ? Number(args[args.indexOf("--reps") + 1]) : 5;

// The machine is shared: CPU time (process.cpuUsage, user+system) is reported beside wall time, as it
// leaves out the time this process waited for a core. Best of `reps` runs of each.
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function perCall(fn, n) {
  for (let i = 0; i < Math.min(n, 20000); i++) fn();
  let best = Infinity, bestCpu = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now(), c0 = cpuMs();
    for (let i = 0; i < n; i++) fn();
    bestCpu = Math.min(bestCpu, (cpuMs() - c0) / n);
    best = Math.min(best, (performance.now() - t0) / n);
  }
  return [best, bestCpu];
}
function perStep(fn, warm, n) {
  for (let i = 0; i < warm; i++) fn();
  const ts = [], cs = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now(), c0 = cpuMs();
    fn();
    ts.push(performance.now() - t0);
    cs.push(cpuMs() - c0);
  }
  const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
  return [med(ts), med(cs)];
}

const F = torch.nn.functional;
const cases = [
  { name: "add 1-elem", unit: "us", gt: () => { const a = torch.ones(1), b = torch.ones(1); return () => torch.add(a, b); }, n: 100000,
    py: ["a = torch.ones(1); b = torch.ones(1)", "torch.add(a, b)"] },
  { name: "add 1-elem, requires_grad", unit: "us", gt: () => { const a = torch.ones(1, { requires_grad: true }), b = torch.ones(1, { requires_grad: true }); return () => torch.add(a, b); }, n: 100000,
    py: ["a = torch.ones(1, requires_grad=True); b = torch.ones(1, requires_grad=True)", "torch.add(a, b)"] },
  { name: "a.add(b) method 1-elem", unit: "us", gt: () => { const a = torch.ones(1), b = torch.ones(1); return () => a.add(b); }, n: 100000,
    py: ["a = torch.ones(1); b = torch.ones(1)", "a.add(b)"] },
  { name: "mul 1-elem", unit: "us", gt: () => { const a = torch.ones(1), b = torch.ones(1); return () => torch.mul(a, b); }, n: 100000,
    py: ["a = torch.ones(1); b = torch.ones(1)", "torch.mul(a, b)"] },
  { name: "relu 1-elem", unit: "us", gt: () => { const a = torch.ones(1); return () => torch.relu(a); }, n: 100000,
    py: ["a = torch.ones(1)", "torch.relu(a)"] },
  { name: "add_ 1-elem in place", unit: "us", gt: () => { const a = torch.ones(1), b = torch.ones(1); return () => a.add_(b); }, n: 100000,
    py: ["a = torch.ones(1); b = torch.ones(1)", "a.add_(b)"] },
  { name: "add 1-elem, tracing on", unit: "us", gt: () => { const a = torch.ones(1), b = torch.ones(1); torch.trace.startRecording({ callSites: false, capacity: 1000 }); return () => torch.add(a, b); },
    teardown: () => torch.trace.stopRecording(), n: 20000, py: null },
  { name: "MLP step 784-256-10 b64 SGD", unit: "ms", gt: () => {
      torch.manual_seed(0);
      const model = new torch.nn.Sequential(new torch.nn.Linear(784, 256), new torch.nn.ReLU(), new torch.nn.Linear(256, 10));
      const opt = new torch.optim.SGD(model.parameters(), { lr: 0.01 });
      const x = torch.randn(64, 784), y = torch.randint(0, 10, [64]);
      return () => { opt.zero_grad(); const loss = F.cross_entropy(model.forward(x), y); loss.backward(); opt.step(); };
    }, warm: 10, n: 60,
    py: ["torch.manual_seed(0)\nmodel = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))\nopt = torch.optim.SGD(model.parameters(), lr=0.01)\nx = torch.randn(64, 784); y = torch.randint(0, 10, (64,))\ndef step():\n    opt.zero_grad(); loss = torch.nn.functional.cross_entropy(model(x), y); loss.backward(); opt.step()",
      "step()"] },
  { name: "TransformerEncoderLayer fwd+bwd d128 h4 s64 b16", unit: "ms", gt: () => {
      torch.manual_seed(0);
      const layer = new torch.nn.TransformerEncoderLayer(128, 4, { dim_feedforward: 512, dropout: 0.0 });
      const x = torch.randn(64, 16, 128);
      return () => { layer.zero_grad(); const out = layer.forward(x); out.sum().backward(); };
    }, warm: 3, n: 15,
    py: ["torch.manual_seed(0)\nlayer = torch.nn.TransformerEncoderLayer(128, 4, dim_feedforward=512, dropout=0.0)\nx = torch.randn(64, 16, 128)\ndef step():\n    layer.zero_grad(); out = layer(x); out.sum().backward()",
      "step()"] },
];

function runPy(list, threads) {
  const lines = ["import json, time, statistics, torch", `torch.set_num_threads(${threads})`, "out = {}"];
  for (const c of list) {
    if (!c.py) continue;
    lines.push(c.py[0]);
    if (c.unit === "us") {
      lines.push(`def loop():\n    for _ in range(${c.n}): ${c.py[1]}`);
      lines.push(`loop()\nbest = 1e9; bestc = 1e9\nfor _ in range(${reps}):\n    t0 = time.perf_counter(); c0 = time.process_time(); loop(); bestc = min(bestc, (time.process_time() - c0) / ${c.n} * 1e6); best = min(best, (time.perf_counter() - t0) / ${c.n} * 1e6)`);
      lines.push(`out[${JSON.stringify(c.name)}] = [best, bestc]`);
    } else {
      lines.push(`for _ in range(${c.warm}): ${c.py[1]}`);
      lines.push(`ts = []; cs = []\nfor _ in range(${c.n}):\n    t0 = time.perf_counter(); c0 = time.process_time(); ${c.py[1]}; cs.append((time.process_time() - c0) * 1e3); ts.append((time.perf_counter() - t0) * 1e3)`);
      lines.push(`out[${JSON.stringify(c.name)}] = [statistics.median(ts), statistics.median(cs)]`);
    }
  }
  lines.push("print(json.dumps(out))");
  const r = spawnSync("/usr/bin/python3", ["-c", lines.join("\n")], { encoding: "utf8" });
  if (r.status !== 0) { console.error(r.stderr); return null; }
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

const selected = cases.filter((c) => c.name.includes(filter));
const threads = torch.get_num_threads();
const py = noPy ? null : runPy(selected, threads);
console.log(`kernels: ${process.env.GLASSTORCH_CPU_CAPABILITY ?? "default"} (${torch._C._native_status?.().addon ? "native loaded" : "no native"}), threads ${threads}`);
for (const c of selected) {
  const fn = c.gt();
  const [wall, cpu] = c.unit === "us" ? perCall(fn, c.n).map((v) => v * 1000) : perStep(fn, c.warm, c.n);
  c.teardown?.();
  const p = py?.[c.name];
  const f = (v) => v.toFixed(2).padStart(8);
  console.log(`${c.name.padEnd(48)} wall ${f(wall)} cpu ${f(cpu)} ${c.unit}   pytorch ${p == null ? "—" : `wall ${f(p[0])} cpu ${f(p[1])} ${c.unit}   ratio(cpu) ${(cpu / p[1]).toFixed(2)}x`}`);
}
