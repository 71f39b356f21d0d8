// A short soak (issue #8, item 2): 1,000 steps of a small MLP with SGD on the native allocator; after
// warm-up the native allocator's live bytes and the process's RSS stay bounded, and backward frees
// its intermediates every step. (bench/soak_rss.mjs runs the 10,000-step MLP 784-256-10 version.)
// The bounds are loose next to what a leak would add: every step allocates its activations and
// gradients afresh (W1's gradient alone is 16 KiB), so 800 leaked steps would exceed them.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { nativeAddon } from "../../engine/aten/native/cpu_native/NativeBackend.js";
import { _eager_free_stats } from "../../engine/autograd/grad_ownership.js";

const MiB = 2 ** 20;

describe("training loop memory", () => {
  it("1,000 SGD steps: live native bytes and RSS stay bounded after warm-up; backward frees as it goes", () => {
    const { nn } = torch;
    const F = torch.nn.functional;
    torch.manual_seed(0);
    const model = new nn.Sequential(new nn.Linear(128, 32), new nn.ReLU(), new nn.Linear(32, 10));
    const opt = new torch.optim.SGD(model.parameters(), { lr: 0.05, momentum: 0.9 });
    const batches = Array.from({ length: 4 }, () => [torch.randn(32, 128), torch.randint(0, 10, [32])] as const);
    const samples: { step: number; rss: number; live: number; freed: number; allocs: number }[] = [];
    let firstLoss = 0, lastLoss = 0;
    for (let step = 1; step <= 1000; step++) {
      const [x, y] = batches[step % batches.length];
      opt.zero_grad();
      const loss = F.cross_entropy(model.forward(x), y);
      loss.backward();
      opt.step();
      if (step === 1) firstLoss = loss.item() as number;
      if (step % 100 === 0) {
        const stats = nativeAddon?.allocator_stats();
        samples.push({ step, rss: process.memoryUsage().rss, live: stats?.[0] ?? 0, freed: _eager_free_stats().storages, allocs: stats?.[4] ?? 0 });
        lastLoss = loss.item() as number;
      }
    }
    expect(lastLoss).toBeLessThan(firstLoss); // it trained
    const warm = samples.filter((s) => s.step >= 200);
    // backward's intermediates were freed every step (7 Nodes; each frees at least its incoming gradient)
    for (let i = 1; i < warm.length; i++) expect(warm[i].freed - warm[i - 1].freed).toBeGreaterThanOrEqual(100 * 5);
    // RSS after warm-up grows by much less than the storages allocated meanwhile
    expect(Math.max(...warm.map((s) => s.rss)) - warm[0].rss).toBeLessThan(32 * MiB);
    if (nativeAddon) {
      const allocated = (warm[warm.length - 1].allocs - warm[0].allocs);
      expect(allocated).toBeGreaterThan(800 * 3); // the loop does use the native allocator
      // what JavaScript can still reach stays small: parameters, .grad, momentum, one step's activations
      // and what the next garbage collection will return
      for (const s of warm) expect(s.live).toBeLessThan(16 * MiB);
    }
  }, 120_000);
});
