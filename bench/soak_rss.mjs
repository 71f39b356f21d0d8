// RSS soak (issue #8): a 10,000-step training loop — MLP 784-256-10, batch 64, SGD, synthetic data,
// native kernels — printing RSS, V8's external memory and the native allocator's live bytes every
// 500 steps. The loop is synchronous (no await), as a training script is: memory must come back
// without an event-loop turn. Usage: npm run build, then
//   node bench/soak_rss.mjs [steps=10000] [--every=500] [--no-eager] [--momentum]
import * as torch from "../dist/engine/index.js";
import { nativeAddon } from "../dist/engine/aten/native/cpu_native/NativeBackend.js";
import { _set_eager_free, _eager_free_stats } from "../dist/engine/autograd/grad_ownership.js";

const args = process.argv.slice(2);
const steps = Number(args.find((a) => /^\d+$/.test(a)) ?? 10000);
const every = Number((args.find((a) => a.startsWith("--every=")) ?? "--every=500").slice(8));
if (args.includes("--no-eager")) _set_eager_free(false);
const { nn } = torch;
const F = torch.nn.functional;
const MiB = (b) => (b / 2 ** 20).toFixed(1);

torch.manual_seed(0);
const model = new nn.Sequential(new nn.Linear(784, 256), new nn.ReLU(), new nn.Linear(256, 10));
const opt = new torch.optim.SGD(model.parameters(), { lr: 0.01, momentum: args.includes("--momentum") ? 0.9 : 0 });
// synthetic data: 16 fixed batches, cycled (the data set is not what is measured)
const batches = Array.from({ length: 16 }, () => [torch.randn(64, 784), torch.randint(0, 10, [64])]);

const status = torch._C._native_status();
console.log(`native addon: ${status.loaded ? status.addon.capability : "not loaded (" + status.reason + ")"}; eager free in backward: ${!args.includes("--no-eager")}`);
console.log("step".padStart(6), "loss".padStart(8), "rss MiB".padStart(9), "external".padStart(9), "heapUsed".padStart(9), "native live".padStart(12), "cached".padStart(8), "eager frees".padStart(12), "ms/step".padStart(8));
const rows = [];
let t0 = performance.now();
for (let step = 1; step <= steps; step++) {
  const [x, y] = batches[step % batches.length];
  opt.zero_grad();
  const loss = F.cross_entropy(model.forward(x), y);
  loss.backward();
  opt.step();
  if (step % every === 0 || step === 1) {
    const m = process.memoryUsage();
    const a = nativeAddon ? nativeAddon.status() : null;
    const ms = (performance.now() - t0) / (step === 1 ? 1 : every);
    const row = { step, loss: loss.item(), rss: m.rss, external: m.external, heap: m.heapUsed, live: a?.external_bytes ?? 0, cached: a?.cached_bytes ?? 0, eager: _eager_free_stats().storages };
    rows.push(row);
    console.log(String(step).padStart(6), row.loss.toFixed(4).padStart(8), MiB(row.rss).padStart(9), MiB(row.external).padStart(9), MiB(row.heap).padStart(9), MiB(row.live).padStart(12), MiB(row.cached).padStart(8), String(row.eager).padStart(12), ms.toFixed(2).padStart(8));
    t0 = performance.now();
  }
}
// flat = bounded growth after warm-up: compare the first and last halves after the first 1,000 steps
const after = rows.filter((r) => r.step >= Math.min(1000, steps / 2));
const half = Math.floor(after.length / 2);
const peak = (rs, k) => Math.max(...rs.map((r) => r[k]));
if (half > 0) {
  console.log(`\nafter warm-up: RSS peak ${MiB(peak(after.slice(0, half), "rss"))} MiB in the first half, ${MiB(peak(after.slice(half), "rss"))} MiB in the second; ` +
    `native live peak ${MiB(peak(after.slice(0, half), "live"))} / ${MiB(peak(after.slice(half), "live"))} MiB; RSS min..max ${MiB(Math.min(...after.map((r) => r.rss)))}..${MiB(peak(after, "rss"))} MiB`);
}
