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
// Step 4 may run in rounds (CellTimer.round(share)): run.mjs takes a third of each side's samples in
// turn, PyTorch's then Glasstorch's, three times, so that the host's slow swings in load (another
// tenant on the shared cores) fall on both columns of a row alike. A round after another side's
// first re-warms with `rewarmMs` (150 ms) of calls: the JIT is warm already, but settle()'s forced
// full collection (run.mjs) leaves V8's young generation at its smallest and its sweeper threads busy,
// and a 1-element add ran at ~3 us a call for the first ~40 ms after one, 0.77 from then on (with
// 20 ms of rewarming the no-grad overhead row read 1.26-1.36 us, alone 0.78).

const now = () => performance.now();

export class CellTimer {
  /**
   * @param {() => unknown} fn
   * @param {{budgetMs?: number, minSamples?: number, maxCellMs?: number, warmMs?: number, rewarmMs?: number}} opts
   */
  constructor(fn, { budgetMs = 1000, minSamples = 5, maxCellMs = 60_000, warmMs = 200, rewarmMs = 150 } = {}) {
    Object.assign(this, { fn, budgetMs, minSamples, maxCellMs, warmMs, rewarmMs });
    this.times = [];
    this.batch = 1;
    this.single = false; // step 2: the first call is the only sample
    this.rounds = 0;
  }

  /** Steps 1-3: the first call, the batch size and the warm-up. */
  start() {
    const { fn, maxCellMs } = this;
    let t0 = now();
    fn();
    const first = now() - t0;
    if (first > maxCellMs / 2) {
      this.single = true;
      this.times.push(first);
      return this;
    }
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
    this.batch = batch;
    // warm-up: warmMs of calls before sampling (a JIT tiers a function up only after many calls; a training
    // step's per-op code is called once per step), unless so few calls fit that it would pass the cell cap
    this.warmable = typical * batch < maxCellMs / 8;
    if (this.warmable) this.#callsFor(this.warmMs);
    this.want = Math.max(1, Math.min(this.minSamples, Math.floor(maxCellMs / Math.max(typical * batch, 1e-9))));
    return this;
  }

  #callsFor(ms) {
    const start = now();
    while (now() - start < ms) for (let i = 0; i < this.batch; i++) this.fn();
  }

  /** Step 4 for `share` (0-1] of the samples and of the budget; a later round re-warms first. */
  round(share = 1) {
    if (this.single) return this;
    if (this.rounds++ > 0 && this.warmable) this.#callsFor(this.rewarmMs);
    const want = Math.ceil(this.want * share), most = Math.max(want, Math.floor(50 * share)), budget = this.budgetMs * share;
    const { fn, batch, times } = this;
    const start = now();
    for (let n = 0; n < want || (now() - start < budget && n < most); n++) {
      const t0 = now();
      for (let i = 0; i < batch; i++) fn();
      times.push((now() - t0) / batch);
    }
    return this;
  }

  /** Step 5 over every round's samples. */
  result() {
    const times = [...this.times].sort((a, b) => a - b);
    const m = times.length;
    const ms = m % 2 ? times[(m - 1) / 2] : (times[m / 2 - 1] + times[m / 2]) / 2;
    return { ms, samples: m, batch: this.batch, flagged: m < this.minSamples };
  }
}

/**
 * One cell in one go (the suite's rules, steps 1-5).
 * @param {() => unknown} fn
 * @param {{budgetMs?: number, minSamples?: number, maxCellMs?: number, warmMs?: number}} opts
 * @returns {{ms: number, samples: number, batch: number, flagged: boolean}}
 */
export function timeIt(fn, opts = {}) {
  return new CellTimer(fn, opts).start().round(1).result();
}
