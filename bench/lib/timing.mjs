// The sampling rules every side of the benchmark follows (bench/torch_side.py repeats them in Python,
// line for line, so PyTorch's medians are taken the same way):
//  1. one first call (warm-up: JIT, caches, allocator pools);
//  2. a call that takes more than half the cell budget (`maxCellMs`) is not repeated: its first call
//     is the one sample, flagged (TS kernels and tfjs-cpu on a 2048 matmul);
//  3. otherwise up to two more warm-up calls (the last one's time is the call's typical time); when
//     that is under 1 ms calls are batched so that one sample lasts >= 1 ms
//     (timer resolution and per-sample overhead stay small for µs-scale ops);
//     then calls keep running for `warmMs` (200 ms; a workload's `warm_ms` overrides it) before
//     sampling, unless a batch takes over an eighth of the cell cap, so V8 has tiered the whole call
//     path up to optimized code (Sparkplug → TurboFan takes thousands of calls; without this the first
//     side measured paid for it: 4 µs vs 1 µs on a 1-element add). A training step calls each op's
//     code once per step, so its path warms over ~2000 steps (measured: MLP step 2.2 ms in its first
//     200 steps, 1.1 ms at 1000, 0.85 ms from 1600 on): the step workloads warm for 4 s on every side;
//  4. samples until at least `minSamples` (5) are taken and `budgetMs` has passed, at most 50; fewer
//     than `minSamples` only when `minSamples` of them would exceed `maxCellMs` (flagged);
//  5. the median of the samples, in ms per call.

/**
 * @param {() => unknown} fn
 * @param {{budgetMs?: number, minSamples?: number, maxCellMs?: number, warmMs?: number}} opts
 * @returns {{ms: number, samples: number, batch: number, flagged: boolean}}
 */
export function timeIt(fn, { budgetMs = 1000, minSamples = 5, maxCellMs = 60_000, warmMs = 200 } = {}) {
  const now = () => performance.now();
  let t0 = now();
  fn();
  const first = now() - t0;
  if (first > maxCellMs / 2) return { ms: first, samples: 1, batch: 1, flagged: true };
  let typical = first; // a call's time once warm: the last warm-up call's
  for (let i = 0; i < 2 && (i + 2) * first < maxCellMs / 4; i++) {
    t0 = now();
    fn();
    typical = now() - t0;
  }
  let batch = 1;
  if (typical < 1) {
    for (;;) {
      t0 = now();
      for (let i = 0; i < batch; i++) fn();
      if (now() - t0 >= 1 || batch >= 1 << 20) break;
      batch *= 2;
    }
  }
  // warm-up: warmMs of calls before sampling (a JIT tiers a function up only after many calls; a training
  // step's per-op code is called once per step), unless so few calls fit that it would pass the cell cap
  if (typical * batch < maxCellMs / 8) {
    const warmStart = now();
    while (now() - warmStart < warmMs) for (let i = 0; i < batch; i++) fn();
  }
  const want = Math.max(1, Math.min(minSamples, Math.floor(maxCellMs / Math.max(typical * batch, 1e-9))));
  const times = [];
  const start = now();
  while (times.length < want || (now() - start < budgetMs && times.length < 50)) {
    t0 = now();
    for (let i = 0; i < batch; i++) fn();
    times.push((now() - t0) / batch);
  }
  times.sort((a, b) => a - b);
  const m = times.length;
  const ms = m % 2 ? times[(m - 1) / 2] : (times[m / 2 - 1] + times[m / 2]) / 2;
  return { ms, samples: m, batch, flagged: m < minSamples };
}
