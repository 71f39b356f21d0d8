// The native pointwise kernels and reductions (issue #8 item 4; native/cpu/Pointwise.cc,
// Reductions.cc): the best ms per call over short batches and the bytes each call moves per second, at 1 and N threads,
// with the TypeScript kernel for scale. Short runs (the machine is shared). Usage: npm run build, then
//   node bench/native_pointwise.mjs [--quick] [--no-ts] [--dtype=bfloat16] [--only=exp,sum]
// --dtype runs every op on that dtype (bfloat16, float16, float64; default float32); an op the dtype
// has no kernel for prints its error.
import * as torch from "../dist/engine/index.js";
import { set_cpu_capability } from "../dist/engine/aten/native/DispatchStub.js";

const quick = process.argv.includes("--quick");
const noTs = process.argv.includes("--no-ts");
const status = torch._C._native_status();
if (!status.loaded) {
  console.log(`native addon not loaded: ${status.reason}`);
  process.exit(1);
}

/** Median ms per call over short batches (each >= 2 ms). */
function timeIt(fn, budgetMs = quick ? 100 : 300) {
  fn();
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    if (performance.now() - t0 >= 2 || batch >= 1 << 14) break;
    batch *= 2;
  }
  const times = [];
  const start = performance.now();
  while (times.length < 3 || (performance.now() - start < budgetMs && times.length < 15)) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    times.push((performance.now() - t0) / batch);
  }
  times.sort((a, b) => a - b);
  return times[0]; // the fastest batch: on a shared machine the median mostly measures the other load
}

const cores = status.addon.default_num_threads;
// [name, fn(a, b, out), bytes per element moved]
const ops = [
  ["add", (a, b) => torch.add(a, b), 12],
  ["add out=", (a, b, o) => torch.add(a, b, { out: o }), 12],
  ["add row broadcast", (a, b) => torch.add(a.view(-1, 1000), b.get("0:1000")), 8],
  ["mul", (a, b) => torch.mul(a, b), 12],
  ["mul out=", (a, b, o) => torch.mul(a, b, { out: o }), 12],
  ["mul_ scalar", (a, b, o) => o.mul_(1.0000001), 8],
  ["gt -> bool", (a, b) => torch.gt(a, b), 9],
  ["maximum", (a, b) => torch.maximum(a, b), 12],
  ["exp", (a) => torch.exp(a), 8],
  ["exp out=", (a, b, o) => torch.exp(a, { out: o }), 8],
  ["sigmoid_ in place", (a, b, o) => o.sigmoid_(), 8],
  ["tanh out=", (a, b, o) => torch.tanh(a, { out: o }), 8],
  ["log", (a) => torch.log(a), 8],
  ["tanh", (a) => torch.tanh(a), 8],
  ["sigmoid", (a) => torch.sigmoid(a), 8],
  ["gelu", (a) => torch.nn.functional.gelu(a), 8],
  ["relu", (a) => torch.relu(a), 8],
  ["addcmul_", (a, b, o) => o.addcmul_(a, b, { value: 1e-9 }), 16],
  ["to(float64)", (a) => a.to(torch.float64), 12],
  ["contiguous() of .t()", (a) => a.view(1000, -1).t().contiguous(), 8],
  ["sum", (a) => torch.sum(a), 4],
  ["sum dim=1 [n/1000,1000]", (a) => torch.sum(a.view(-1, 1000), 1), 4],
  ["sum dim=0 [n/1000,1000]", (a) => torch.sum(a.view(-1, 1000), 0), 4],
  ["amax", (a) => torch.amax(a, 0), 4],
  ["max dim=1", (a) => torch.max(a.view(-1, 1000), 1)[0], 4],
  ["var", (a) => torch.var(a), 4],
];
const sizes = quick ? [1e6] : [1e6, 1e7];
const dtype = torch[process.argv.find((s) => s.startsWith("--dtype="))?.slice(8) ?? "float32"];
if (!(dtype instanceof Object) || !("is_floating_point" in dtype)) throw new Error("--dtype: a floating dtype, e.g. --dtype=bfloat16");
const itemScale = torch.empty(1, { dtype }).element_size() / 4; // the ops' bytes per element count float32's
const only = process.argv.find((s) => s.startsWith("--only="))?.slice(7).split(",");
const fmt = (v) => (Number.isNaN(v) ? "-" : v < 0.01 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v.toFixed(1));
console.log(`${dtype}, capability ${status.addon.capability}, ${cores} threads; best ms per call of short batches; GB/s = bytes read + written / time at ${cores} threads`);
console.log(["op".padEnd(26), "n".padStart(9), "ts".padStart(9), "native 1T".padStart(10), `native ${cores}T`.padStart(10), "GB/s".padStart(6)].join(" "));
for (const n of sizes) {
  torch.manual_seed(0);
  const a = torch.rand(n).add(0.01).to(dtype), b = torch.rand(n).to(dtype), o = torch.rand(n).to(dtype);
  for (const [name, f, bpe] of ops) {
    if (only && !only.some((s) => name.startsWith(s))) continue;
    try {
      f(a, b, o);
    } catch (e) {
      console.log(`${name.padEnd(26)} ${String(n).padStart(9)} ${String(e.message).split("\n")[0]}`);
      continue;
    }
    let ts = NaN;
    if (!noTs && n <= 1e6) {
      set_cpu_capability("ts");
      ts = timeIt(() => f(a, b, o), 100);
      set_cpu_capability(null);
    }
    torch.set_num_threads(1);
    const n1 = timeIt(() => f(a, b, o));
    torch.set_num_threads(cores);
    const nN = timeIt(() => f(a, b, o));
    console.log([name.padEnd(26), String(n).padStart(9), fmt(ts).padStart(9), fmt(n1).padStart(10), fmt(nN).padStart(10), ((bpe * itemScale * n) / nN / 1e6).toFixed(1).padStart(6)].join(" "));
  }
}
