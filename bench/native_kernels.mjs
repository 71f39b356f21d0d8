// Native vs TypeScript CPU kernels (issue #8), one process: each op timed with
// GLASSTORCH_CPU_CAPABILITY's switch (set_cpu_capability) on the same tensors, at 1 and N threads,
// plus the allocator's cost (the addon's external ArrayBuffers vs V8's). Usage: npm run build, then
//   node bench/native_kernels.mjs [--quick]
import * as torch from "../dist/engine/index.js";
import { set_cpu_capability } from "../dist/engine/aten/native/DispatchStub.js";
import { nativeAddon } from "../dist/engine/aten/native/cpu_native/NativeBackend.js";
import { timeIt as sampleTime } from "./lib/timing.mjs";

const quick = process.argv.includes("--quick");
const status = torch._C._native_status();
if (!status.loaded) {
  console.log(`native addon not loaded: ${status.reason}`);
  process.exit(1);
}

/** Median ms per call, sampled by the suite's rules (bench/lib/timing.mjs) within a shorter budget. */
const timeIt = (fn, budgetMs = quick ? 150 : 400) => sampleTime(fn, { budgetMs, minSamples: 3 }).ms;

const cores = status.addon.default_num_threads;
const sizes = quick ? [1e3, 1e6] : [1e3, 1e5, 1e6, 1e7];
const ops = [
  ["add", (a, b) => torch.add(a, b)],
  ["add alpha out=", (a, b, o) => torch.add(a, b, { alpha: 2, out: o })],
  ["mul", (a, b) => torch.mul(a, b)],
  ["exp", (a) => torch.exp(a)],
  ["sigmoid", (a) => torch.sigmoid(a)],
  ["sum", (a) => torch.sum(a)],
  ["sum dim=1 [n/1000,1000]", (a) => torch.sum(a.view(-1, 1000), 1)],
];
const fmt = (v) => (v < 0.01 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v.toFixed(1));
console.log(`capability ${status.addon.capability}, ${cores} cores; median ms per call; speedup = ts / native`);
console.log(["op".padEnd(24), "n".padStart(9), "ts".padStart(9), "native 1T".padStart(10), `native ${cores}T`.padStart(10), "speedup".padStart(8), "GB/s".padStart(6)].join(" "));
for (const n of sizes) {
  torch.manual_seed(0);
  const a = torch.rand(n), b = torch.rand(n), o = torch.empty(n);
  for (const [name, f] of ops) {
    set_cpu_capability("ts");
    const ts = n > 1e6 && quick ? NaN : timeIt(() => f(a, b, o));
    set_cpu_capability(null);
    torch.set_num_threads(1);
    const n1 = timeIt(() => f(a, b, o));
    torch.set_num_threads(cores);
    const nN = timeIt(() => f(a, b, o));
    // bytes moved: inputs read + output written (sum: one input)
    const bytes = (name.startsWith("sum") ? 1 : name === "exp" || name === "sigmoid" ? 2 : 3) * 4 * n;
    console.log([name.padEnd(24), String(n).padStart(9), fmt(ts).padStart(9), fmt(n1).padStart(10), fmt(nN).padStart(10), (ts / nN).toFixed(1).padStart(7) + "x", (bytes / nN / 1e6).toFixed(1).padStart(6)].join(" "));
  }
}

// The allocator: torch.empty through the addon's external buffers vs plain V8 ArrayBuffers.
console.log("\nallocation (median µs per call): addon external ArrayBuffer vs new ArrayBuffer (both zeroed)");
for (const bytes of [4096, 65536, 1 << 20, 16 << 20]) {
  const ext = timeIt(() => nativeAddon.alloc(bytes)) * 1000;
  const v8 = timeIt(() => new ArrayBuffer(bytes)) * 1000;
  console.log(`${String(bytes).padStart(9)} B  external ${ext.toFixed(2).padStart(8)}  v8 ${v8.toFixed(2).padStart(8)}`);
}
