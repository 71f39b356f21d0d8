// A settled machine before each JavaScript-side cell and each PyTorch round (run.mjs).
//
// The heap: a cell leaves garbage behind: its inputs (never disposed), and in the "(GC-freed)" rows
// thousands of results whose native blocks wait for the collector. Collected later, that garbage's
// cost (concurrent marking and sweeping on the same two cores, external-memory pressure) landed on
// whichever cells came next, PyTorch's included: a 1e6 add with a disposed result timed 2x slower
// after the GC-freed matmul rows than alone. PyTorch frees by refcount as it goes, so its cells start
// clean already; this gives Glasstorch's and tfjs's cells the same start, and keeps V8's threads off
// PyTorch's.
//
// The cores: the other side's threads may still be spinning when a round starts. OpenBLAS's pool
// busy-waits after a call before it sleeps (PyTorch's process burned 100 ms of CPU in the 200 ms
// after one matmul 512), libgomp's threads spin too (10 ms after a 1e6 add): Glasstorch's matmul 512
// took 2.6 ms in rounds that followed PyTorch's, 1.25 ms alone. So a round also waits until the
// machine's CPUs are idle (/proc/stat), as long as that takes, up to a cap.
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** All CPUs' [busy, total] jiffies from /proc/stat, or null where there is none. */
function cpuJiffies() {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return [total - f[3] - (f[4] ?? 0), total]; // less idle and iowait
  } catch {
    return null;
  }
}

/**
 * Waits until a 20 ms window finds the CPUs at most `maxBusy` busy (another process's spinning
 * thread keeps one of two cores at 50%), or `capMs` have passed. Resolves with the ms waited.
 */
export async function quiet(maxBusy = 0.2, capMs = 400) {
  const start = performance.now();
  let prev = cpuJiffies();
  if (prev === null) return 0;
  while (performance.now() - start < capMs) {
    await sleep(20);
    const now = cpuJiffies();
    const busy = now[0] - prev[0], total = now[1] - prev[1];
    if (total > 0 && busy / total <= maxBusy) break;
    prev = now;
  }
  return performance.now() - start;
}

/** A full collection, a pause for the collector's background threads, then idle CPUs. */
export async function settle() {
  gc();
  await sleep(20);
  await quiet();
}
