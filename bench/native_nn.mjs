// Native vs TypeScript NN kernels (issue #8, item 4): softmax / log_softmax, layer norm, batch norm,
// pooling, embedding / gather / scatter_add, forward and backward, timed on the same tensors with the
// GLASSTORCH_CPU_CAPABILITY switch (set_cpu_capability), native at 1 and N threads; with --torch, the
// same workloads in real PyTorch (/usr/bin/python3, torch.set_num_threads(N)) for the ratio.
// Usage: npm run build, then  node bench/native_nn.mjs [--quick] [--torch]
import { spawnSync } from "node:child_process";
import * as torch from "../dist/engine/index.js";
import { set_cpu_capability } from "../dist/engine/aten/native/DispatchStub.js";
import { timeIt as sampleTime } from "./lib/timing.mjs";

const quick = process.argv.includes("--quick");
const withTorch = process.argv.includes("--torch");
const status = torch._C._native_status();
if (!status.loaded) {
  console.log(`native addon not loaded: ${status.reason}`);
  process.exit(1);
}

/** Median ms per call, sampled by the suite's rules (bench/lib/timing.mjs) within a shorter budget. */
const timeIt = (fn, budgetMs = quick ? 150 : 400) => sampleTime(fn, { budgetMs, minSamples: 3 }).ms;

const F = torch.nn.functional;
const cores = status.addon.default_num_threads;
torch.manual_seed(0);
// [name, setup() -> state, run(state), the same workload in PyTorch (python, with x/g/... defined by setup_py)]
const x2 = torch.randn(256, 1024), g2 = torch.randn(256, 1024);
const xin = torch.randn(32, 512, 64);
const img = torch.randn(16, 64, 56, 56);
const bnx = torch.randn(16, 64, 28, 28), bnw = torch.randn(64), bnb = torch.randn(64);
const lnx = torch.randn(64, 128, 768), lnw = torch.randn(768), lnb = torch.randn(768);
const emb = torch.randn(30000, 256), ids = torch.randint(0, 30000, [64, 128]);
const gsrc = torch.randn(512, 1024), gidx = torch.randint(0, 512, [512, 1024]);
const sm = torch.softmax(x2, 1);
const [mp, mpi] = F.max_pool2d(img, [2, 2], { return_indices: true });
const ops = [
  ["softmax [256,1024] dim=-1", () => torch.softmax(x2, 1), "torch.softmax(x2, 1)"],
  ["log_softmax [256,1024] dim=-1", () => torch.log_softmax(x2, 1), "torch.log_softmax(x2, 1)"],
  ["softmax [32,512,64] dim=1", () => torch.softmax(xin, 1), "torch.softmax(xin, 1)"],
  ["softmax backward [256,1024]", () => softmaxBackward(), "torch._softmax_backward_data(g2, sm, 1, torch.float32)"],
  ["layer_norm [64,128,768]", () => F.layer_norm(lnx, [768], lnw, lnb), "F.layer_norm(lnx, [768], lnw, lnb)"],
  ["batch_norm train [16,64,28,28]", () => F.batch_norm(bnx, torch.zeros(64), torch.ones(64), bnw, bnb, true), "F.batch_norm(bnx, torch.zeros(64), torch.ones(64), bnw, bnb, True)"],
  ["batch_norm eval [16,64,28,28]", () => F.batch_norm(bnx, torch.zeros(64), torch.ones(64), bnw, bnb, false), "F.batch_norm(bnx, torch.zeros(64), torch.ones(64), bnw, bnb, False)"],
  ["max_pool2d 2x2 [16,64,56,56]", () => F.max_pool2d(img, [2, 2]), "F.max_pool2d(img, [2, 2])"],
  ["max_pool2d backward", () => maxPoolBackward(), "torch.ops.aten.max_pool2d_with_indices_backward(mp, img, [2, 2], [2, 2], [0, 0], [1, 1], False, mpi)"],
  ["avg_pool2d 3x3 s2 [16,64,56,56]", () => F.avg_pool2d(img, [3, 3], { stride: [2, 2], padding: [1, 1] }), "F.avg_pool2d(img, [3, 3], stride=[2, 2], padding=[1, 1])"],
  ["adaptive_avg_pool2d 7x7", () => F.adaptive_avg_pool2d(img, [7, 7]), "F.adaptive_avg_pool2d(img, [7, 7])"],
  ["embedding [64,128] of [30000,256]", () => F.embedding(ids, emb), "F.embedding(ids, emb)"],
  ["gather [512,1024] dim=0", () => torch.gather(gsrc, 0, gidx), "torch.gather(gsrc, 0, gidx)"],
  ["scatter_add [512,1024] dim=0", () => torch.scatter_add(torch.zeros(512, 1024), 0, gidx, gsrc), "torch.scatter_add(torch.zeros(512, 1024), 0, gidx, gsrc)"],
];
import { _softmax_backward_data_default } from "../dist/engine/generated/_softmax_backward_data.js";
import { max_pool2d_with_indices_backward_default } from "../dist/engine/generated/max_pool2d_with_indices_backward.js";
function softmaxBackward() {
  return _softmax_backward_data_default.call(g2, sm, 1, torch.float32);
}
function maxPoolBackward() {
  return max_pool2d_with_indices_backward_default.call(mp, img, [2, 2], [2, 2], [0, 0], [1, 1], false, mpi);
}

function torchTimes() {
  const py = `
import torch, time, torch.nn.functional as F
torch.set_num_threads(${cores}); torch.manual_seed(0)
x2 = torch.randn(256, 1024); g2 = torch.randn(256, 1024); xin = torch.randn(32, 512, 64); img = torch.randn(16, 64, 56, 56)
bnx = torch.randn(16, 64, 28, 28); bnw = torch.randn(64); bnb = torch.randn(64)
lnx = torch.randn(64, 128, 768); lnw = torch.randn(768); lnb = torch.randn(768)
emb = torch.randn(30000, 256); ids = torch.randint(0, 30000, (64, 128))
gsrc = torch.randn(512, 1024); gidx = torch.randint(0, 512, (512, 1024))
sm = torch.softmax(x2, 1); mp, mpi = F.max_pool2d(img, [2, 2], return_indices=True)
def t(f):
    for _ in range(2): f()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n): f()
        if time.perf_counter() - t0 >= 0.002 or n >= 65536: break
        n *= 2
    ts = []
    start = time.perf_counter()
    while len(ts) < 3 or (time.perf_counter() - start < ${quick ? 0.15 : 0.4} and len(ts) < 25):
        t0 = time.perf_counter()
        for _ in range(n): f()
        ts.append((time.perf_counter() - t0) / n * 1000)
    ts.sort(); return ts[len(ts) // 2]
${ops.map(([, , code]) => `print(t(lambda: ${code}))`).join("\n")}
`;
  const r = spawnSync("/usr/bin/python3", ["-c", py], { encoding: "utf8" });
  if (r.status !== 0) {
    console.log(`PyTorch run failed: ${r.stderr.split("\n").slice(-3).join(" ")}`);
    return null;
  }
  return r.stdout.trim().split("\n").map(Number);
}

const fmt = (v) => (Number.isNaN(v) ? "-" : v < 0.01 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v.toFixed(1));
const pt = withTorch ? torchTimes() : null;
console.log(`capability ${status.addon.capability}, ${cores} cores; median ms per call; speedup = ts / native ${cores}T${pt ? "; vs torch = torch / native" : ""}`);
console.log(["workload".padEnd(34), "ts".padStart(9), "native 1T".padStart(10), `native ${cores}T`.padStart(10), "speedup".padStart(8), ...(pt ? ["torch".padStart(9), "vs torch".padStart(9)] : [])].join(" "));
ops.forEach(([name, f], k) => {
  set_cpu_capability("ts");
  const ts = timeIt(f, quick ? 100 : 300);
  set_cpu_capability(null);
  torch.set_num_threads(1);
  const n1 = timeIt(f);
  torch.set_num_threads(cores);
  const nN = timeIt(f);
  const row = [name.padEnd(34), fmt(ts).padStart(9), fmt(n1).padStart(10), fmt(nN).padStart(10), `${(ts / nN).toFixed(1)}x`.padStart(8)];
  if (pt) row.push(fmt(pt[k]).padStart(9), `${(pt[k] / nN).toFixed(2)}x`.padStart(9));
  console.log(row.join(" "));
});
