// The CPU allocator's cost (issue #8): V8's `new ArrayBuffer` against the addon's alloc (native/cpu/
// Allocator.cc), for the sizes one training step of an MLP 784-256-10 at batch 64 allocates. Each
// iteration allocates, writes every element (as a kernel writing its output does) and drops the
// buffer; "native+free" hands it back with free() (the engine's eager path), "native" leaves it to
// garbage collection, as V8's buffers are. Timings are noisy on a shared machine: short runs, medians.
//   node bench/native_alloc.mjs [--quick]
import { createRequire } from "node:module";
const addon = createRequire(import.meta.url)("../native/build/Release/glasstorch_cpu.node");
const quick = process.argv.includes("--quick");

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Median µs per iteration over batches of ~3 ms. */
function timeIt(fn) {
  for (let i = 0; i < 50; i++) fn();
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    if (performance.now() - t0 >= 3 || batch >= 1 << 16) break;
    batch *= 2;
  }
  const samples = [];
  const end = performance.now() + (quick ? 100 : 300);
  while (samples.length < 5 || (performance.now() < end && samples.length < 40)) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    samples.push(((performance.now() - t0) * 1000) / batch);
  }
  return median(samples);
}

const sizes = [
  ["64x10 f32 (logits)", 64 * 10 * 4],
  ["256x10 f32 (W2)", 256 * 10 * 4],
  ["64x256 f32 (hidden)", 64 * 256 * 4],
  ["64x784 f32 (batch)", 64 * 784 * 4],
  ["256x784 f32 (W1)", 256 * 784 * 4],
  ["4 MiB", 4 << 20],
];
const rss0 = process.memoryUsage().rss;
console.log("µs per allocate + write + drop (median)");
console.log("size".padEnd(22), "bytes".padStart(8), "V8".padStart(9), "native".padStart(9), "native+free".padStart(12), "touch only".padStart(11));
const scratch = new Float32Array(4 << 18);
for (const [name, bytes] of sizes) {
  const n = bytes / 4;
  const touch = timeIt(() => scratch.fill(1, 0, n));
  const v8 = timeIt(() => new Float32Array(new ArrayBuffer(bytes)).fill(1));
  addon.empty_cache();
  const nat = timeIt(() => new Float32Array(addon.alloc(bytes)).fill(1));
  addon.empty_cache();
  const natFree = timeIt(() => {
    const b = addon.alloc(bytes);
    new Float32Array(b).fill(1);
    addon.free(b);
  });
  console.log(name.padEnd(22), String(bytes).padStart(8), v8.toFixed(2).padStart(9), nat.toFixed(2).padStart(9), natFree.toFixed(2).padStart(12), touch.toFixed(2).padStart(11));
}
const s = addon.status();
console.log(`\nRSS ${((process.memoryUsage().rss - rss0) / 2 ** 20).toFixed(0)} MiB above start; allocator: ${s.total_allocations} allocations, ${s.cache_hits} from the cache, ${s.freed_eagerly} freed eagerly, ${(s.cached_bytes / 2 ** 20).toFixed(1)} MiB cached`);
