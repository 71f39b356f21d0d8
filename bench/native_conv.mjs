// The native 2-d convolution (native/cpu/Conv.cc, issue #8) against real PyTorch 1.13 (+ OpenBLAS):
// the two conv2d rows of the kernel suite (ResNet-50's layer1 3x3 and its 7x7/2 stem, batch 8) and
// the convolutions of the CNN training example (examples/fashion_cnn.nb.ts, batch 32), forward and
// backward (convolution_backward with grad_input and grad_weight, as autograd calls it; the first
// layer's input needs no gradient). Timings are interleaved: each round times PyTorch (a fresh
// /usr/bin/python3, torch.set_num_threads(N)) and then Glasstorch, so both sides see the same load on
// this shared machine; the figures are the medians over rounds. Each side also reports its process CPU
// time per call (all threads, spin-waits included): with --threads 1 it is the work per call, which
// stays comparable when other processes load the machine (wall times then mostly measure the load).
// Usage: npm run build, then  node bench/native_conv.mjs [--rounds R] [--filter substring] [--threads N]
import { spawnSync } from "node:child_process";
import * as torch from "../dist/engine/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const rounds = Number(arg("--rounds", 3));
const filter = arg("--filter", "");
const status = torch._C._native_status();
const threads = Number(arg("--threads", status.loaded ? status.addon.default_num_threads : 2));
torch.set_num_threads(threads);

// [id, input, weight, stride, padding, kind: "fwd" | "bwd" (grads of input and weight) | "bwd-w" (weight only), groups]
const cases = [
  ["fwd 8x64x56x56 * 64 3x3 s1 p1", [8, 64, 56, 56], [64, 64, 3, 3], 1, 1, "fwd"],
  ["fwd 8x3x224x224 * 64 7x7 s2 p3", [8, 3, 224, 224], [64, 3, 7, 7], 2, 3, "fwd"],
  ["bwd 8x64x56x56 * 64 3x3 s1 p1", [8, 64, 56, 56], [64, 64, 3, 3], 1, 1, "bwd"],
  ["fwd cnn1 32x1x28x28 * 8 3x3 p1", [32, 1, 28, 28], [8, 1, 3, 3], 1, 1, "fwd"],
  ["bwd-w cnn1 32x1x28x28 * 8 3x3 p1", [32, 1, 28, 28], [8, 1, 3, 3], 1, 1, "bwd-w"],
  ["fwd cnn2 32x8x14x14 * 16 3x3 p1", [32, 8, 14, 14], [16, 8, 3, 3], 1, 1, "fwd"],
  ["bwd cnn2 32x8x14x14 * 16 3x3 p1", [32, 8, 14, 14], [16, 8, 3, 3], 1, 1, "bwd"],
  // depthwise (the op survey's conv2d_dw) and grouped: one native call for all groups (conv/GroupedConv.ts)
  ["fwd dw 16x64x32x32 3x3 p1 g64", [16, 64, 32, 32], [64, 1, 3, 3], 1, 1, "fwd", 64],
  ["bwd dw 16x64x32x32 3x3 p1 g64", [16, 64, 32, 32], [64, 1, 3, 3], 1, 1, "bwd", 64],
  ["fwd dw 8x32x112x112 3x3 s2 p1 g32", [8, 32, 112, 112], [32, 1, 3, 3], 2, 1, "fwd", 32],
  ["fwd g4 16x32x32x32 3x3 p1", [16, 32, 32, 32], [32, 8, 3, 3], 1, 1, "fwd", 4],
  ["bwd g4 16x32x32x32 3x3 p1", [16, 32, 32, 32], [32, 8, 3, 3], 1, 1, "bwd", 4],
].filter((c) => c[0].includes(filter));

const outSize = (n, k, s, p) => Math.floor((n + 2 * p - k) / s) + 1;
const flops = ([, [n, , h, w], [o, cg, kh, kw], s, p, kind]) =>
  2 * n * o * cg * kh * kw * outSize(h, kh, s, p) * outSize(w, kw, s, p) * (kind === "bwd" ? 2 : 1);

function torchRound() {
  const py = `
import torch, time
torch.set_num_threads(${threads}); torch.manual_seed(0)
def t(f):
    for _ in range(2): f()
    ts = []
    start = time.perf_counter(); c0 = time.process_time()
    while len(ts) < 5 or (time.perf_counter() - start < 0.4 and len(ts) < 30):
        t0 = time.perf_counter(); f(); ts.append((time.perf_counter() - t0) * 1000)
    cpu = (time.process_time() - c0) * 1000 / len(ts)
    ts.sort(); return f"{ts[len(ts) // 2]} {cpu}"
def case(inp, wt, s, p, kind, groups):
    x = torch.randn(*inp); w = torch.randn(*wt)
    if kind == "fwd": return t(lambda: torch.nn.functional.conv2d(x, w, None, s, p, 1, groups))
    g = torch.nn.functional.conv2d(x, w, None, s, p, 1, groups).normal_()
    mask = [kind == "bwd", True, False]
    return t(lambda: torch.ops.aten.convolution_backward(g, x, w, None, [s, s], [p, p], [1, 1], False, [0, 0], groups, mask))
${cases.map(([, i, w, s, p, k, groups = 1]) => `print(case(${JSON.stringify(i)}, ${JSON.stringify(w)}, ${s}, ${p}, "${k}", ${groups}))`).join("\n")}
`;
  const r = spawnSync("/usr/bin/python3", ["-c", py], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`PyTorch run failed: ${r.stderr}`);
  return r.stdout.trim().split("\n").map((l) => l.split(" ").map(Number));
}

// (the op looked up once, as Python's torch.ops namespace caches it: a torch.ops.aten lookup per call
// cost ~60 µs here, a tenth of the small backward rows)
const convolution_backward = torch.ops.aten.convolution_backward.default;
const state = cases.map(([, inp, wt, s, p, kind, groups = 1]) => {
  const x = torch.randn(...inp), w = torch.randn(...wt);
  if (kind === "fwd") return () => torch.nn.functional.conv2d(x, w, null, s, p, 1, groups);
  const g = torch.randn(...torch.nn.functional.conv2d(x, w, null, s, p, 1, groups).shape);
  const mask = [kind === "bwd", true, false];
  return () => convolution_backward.call(g, x, w, null, [s, s], [p, p], [1, 1], false, [0, 0], groups, mask);
});

// the same sampling as the Python side: 2 warm-up calls, then calls for >= 400 ms (5..30 of them);
// [median wall ms, process CPU ms per call]. Each call's results are disposed, as PyTorch frees them
// when their last reference goes (not disposed, every call took a fresh block of pages: the page
// faults and V8's collections then weighed on the megabyte-sized rows).
const disposeAll = (r) => (Array.isArray(r) ? r.forEach((t) => t?.dispose()) : r.dispose());
function timeIt(g) {
  const f = () => disposeAll(g());
  f();
  f();
  const ts = [];
  const start = performance.now(), c0 = process.cpuUsage();
  while (ts.length < 5 || (performance.now() - start < 400 && ts.length < 30)) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  const c = process.cpuUsage(c0);
  return [median(ts), (c.user + c.system) / 1000 / ts.length];
}

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const pt = cases.map(() => []), gt = cases.map(() => []);
for (let r = 0; r < rounds; r++) {
  torchRound().forEach((v, k) => pt[k].push(v));
  state.forEach((f, k) => gt[k].push(timeIt(f)));
}
console.log(`${threads} threads, ${status.loaded ? status.addon.capability : "no addon"}; median of ${rounds} interleaved rounds (ms); ratio = torch / glasstorch (> 1: faster)`);
console.log(["case".padEnd(36), "torch".padStart(8), "gt".padStart(8), "ratio".padStart(7), "gt GFLOP/s".padStart(11), "| cpu ms/call: torch".padStart(20), "gt".padStart(8), "ratio".padStart(7)].join(" "));
cases.forEach((c, k) => {
  const p = median(pt[k].map((v) => v[0])), g = median(gt[k].map((v) => v[0]));
  const pc = median(pt[k].map((v) => v[1])), gc = median(gt[k].map((v) => v[1]));
  console.log([c[0].padEnd(36), p.toFixed(3).padStart(8), g.toFixed(3).padStart(8), (p / g).toFixed(2).padStart(7), (flops(c) / g / 1e6).toFixed(1).padStart(11),
    pc.toFixed(3).padStart(20), gc.toFixed(3).padStart(8), (pc / gc).toFixed(2).padStart(7)].join(" "));
});
