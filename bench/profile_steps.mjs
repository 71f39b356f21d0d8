// Per-op profile of the two end-to-end training workloads (issue #8): the MLP train step and the
// TransformerEncoderLayer fwd+bwd of bench/workloads.mjs. Prints the step time, then per step: each
// aten op's calls (top-level dispatches, redispatches counted apart) and each DispatchStub's calls,
// which implementation ran (native / ts) and its self time. Usage (after npm run build):
//   node bench/profile_steps.mjs [mlp|transformer] [--steps N] [--ts]
//   [--threads N] [--cpu] [--profile-steps N]
// For a flame graph: node --cpu-prof bench/profile_steps.mjs mlp --no-ops
import { gtKinds, MLP, TRANSFORMER } from "./workloads.mjs";

const torch = await import("../dist/engine/index.js");
const { DispatchStub, set_cpu_capability } = await import("../dist/engine/aten/native/DispatchStub.js");
const { setDispatchObserver } = await import("../dist/engine/dispatcher/DispatchObserver.js");

const argv = process.argv.slice(2);
const kind = argv.find((a) => !a.startsWith("--")) ?? "mlp";
const steps = argv.includes("--steps") ? Number(argv[argv.indexOf("--steps") + 1]) : kind === "mlp" ? 200 : 10;
if (argv.includes("--ts")) set_cpu_capability("ts");
const params = kind === "mlp" ? MLP : TRANSFORMER;
torch.manual_seed(0);
if (argv.includes("--threads")) torch.set_num_threads(Number(argv[argv.indexOf("--threads") + 1]));
const step = gtKinds[kind](torch, params);

for (let i = 0; i < 5; i++) step();
// step time, no instrumentation
// step time, no instrumentation: wall time, and the process's CPU time (user + system, all threads),
// which other processes on the shared cores disturb less
const times = [], cpu = [];
for (let i = 0; i < steps; i++) {
  const t0 = performance.now(), c0 = process.cpuUsage();
  step();
  const c = process.cpuUsage(c0);
  times.push(performance.now() - t0);
  cpu.push((c.user + c.system) / 1000);
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`${kind}: median ${med(times).toFixed(3)} ms, min ${Math.min(...times).toFixed(3)} ms, CPU time median ${med(cpu).toFixed(3)} ms over ${steps} steps (threads ${torch.get_num_threads()})`);
if (argv.includes("--no-ops")) process.exit(0);

// --cpu: per-op times are process CPU time (process.cpuUsage, microseconds; with --threads 1 that is this
// thread's work plus V8's helpers), less disturbed than wall time by other processes on the shared cores
const cpuClock = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const clock = argv.includes("--cpu") ? cpuClock : () => performance.now();
// per key: calls and time of each profiled step (the median step is shown: other processes share the cores)
const N = argv.includes("--profile-steps") ? Number(argv[argv.indexOf("--profile-steps") + 1]) : 7;
let cur = 0;
const add = (m, key, dt) => {
  let s = m.get(key);
  if (!s) m.set(key, (s = { n: 0, ms: new Array(N).fill(0) }));
  s.n++; s.ms[cur] += dt;
};
// per-stub: which implementation ran, and its time
const stubs = new Map();
const origCall = DispatchStub.prototype.call;
DispatchStub.prototype.call = function (deviceType, ...args) {
  const native = this.nativeImpl, ts = this.tsImpl;
  let impl = "ts";
  const t0 = clock();
  if (argv.includes("--ts") || native === null || native(...args) === false) ts(...args);
  else impl = "native";
  const dt = clock() - t0;
  const key = `${this.name} [${impl}]`;
  add(stubs, key, dt);
};
// per-op: top-level calls (inclusive time) and redispatches
const ops = new Map();
const stack = [];
let nextId = 0;
setDispatchObserver({
  onDispatch(e) {
    const name = e.op.operator_name() + (e.redispatch ? ` (redispatch ${e.key})` : "");
    stack.push({ name, t0: clock(), top: stack.length === 0 });
    return nextId++;
  },
  onReturn() {
    const f = stack.pop();
    add(ops, f.name, clock() - f.t0);
  },
});
for (cur = 0; cur < N; cur++) step();
setDispatchObserver(null);
DispatchStub.prototype.call = origCall;
const show = (title, m) => {
  console.log(`\n${title} (per step)`);
  const rows = [...m.entries()].map(([k, v]) => [k, v.n / N, med(v.ms)]).sort((a, b) => b[2] - a[2]);
  let total = 0;
  for (const [k, n, ms] of rows) { total += ms; console.log(`  ${ms.toFixed(3).padStart(9)} ms ${String(n).padStart(5)}x  ${k}`); }
  console.log(`  ${total.toFixed(3).padStart(9)} ms total`);
};
show("DispatchStub kernels: self time", stubs);
show("aten ops: inclusive time (with the observer's overhead)", ops);
