// Micro-bench for the native layer-norm and batch-norm backward kernels (issue #8): the Transformer
// layer step's shape [16*64, 128] and a larger one, CPU time per call (process.cpuUsage, 1 thread by
// default: the machine is shared), with --torch the same ops in real PyTorch (/usr/bin/python3).
// Usage: npm run build, then  node bench/norm_backward.mjs [--threads N] [--torch]
import { spawnSync } from "node:child_process";
import * as torch from "../dist/engine/index.js";
import { native_layer_norm_backward_default } from "../dist/engine/generated/native_layer_norm_backward.js";
import { native_batch_norm_backward_default } from "../dist/engine/generated/native_batch_norm_backward.js";

const argv = process.argv.slice(2);
const threads = argv.includes("--threads") ? Number(argv[argv.indexOf("--threads") + 1]) : 1;
torch.set_num_threads(threads);
torch.manual_seed(0);

/** Median CPU microseconds per call over batches of calls. */
function cpuUs(fn, reps = 200, rounds = 9) {
  for (let i = 0; i < 20; i++) fn();
  const r = [];
  for (let k = 0; k < rounds; k++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < reps; i++) fn();
    const c = process.cpuUsage(c0);
    r.push((c.user + c.system) / reps);
  }
  return r.sort((a, b) => a - b)[rounds >> 1];
}

const rows = [];
for (const [M, N, dt] of [[1024, 128, torch.float32], [1024, 128, torch.float64], [8192, 768, torch.float32]]) {
  const x = torch.randn([M, N], { dtype: dt }), dy = torch.randn([M, N], { dtype: dt });
  const w = torch.randn([N], { dtype: dt }), b = torch.randn([N], { dtype: dt });
  const [, mean, rstd] = torch.native_layer_norm(x, [N], w, b, 1e-5);
  const reps = M * N > 1e6 ? 10 : 200;
  rows.push([`layer_norm_backward [${M},${N}] ${dt}`, cpuUs(() => native_layer_norm_backward_default.call(dy, x, [N], mean, rstd, w, b, [true, true, true]), reps),
    `x=torch.randn(${M},${N},dtype=${dt}); dy=torch.randn(${M},${N},dtype=${dt}); w=torch.randn(${N},dtype=${dt}); b=torch.randn(${N},dtype=${dt}); _,m,r=torch.native_layer_norm(x,[${N}],w,b,1e-5)`,
    `torch.ops.aten.native_layer_norm_backward(dy,x,[${N}],m,r,w,b,[True,True,True])`, reps]);
}
for (const [shape, dt] of [[[16, 64, 28, 28], torch.float32]]) {
  const C = shape[1];
  const x = torch.randn(shape, { dtype: dt }), dy = torch.randn(shape, { dtype: dt }), w = torch.randn([C], { dtype: dt });
  const [, sm, si] = torch.native_batch_norm(x, w, null, null, null, true, 0.1, 1e-5);
  rows.push([`batch_norm_backward ${JSON.stringify(shape)} ${dt}`, cpuUs(() => native_batch_norm_backward_default.call(dy, x, w, null, null, sm, si, true, 1e-5, [true, true, true]), 20),
    `x=torch.randn(${shape},dtype=${dt}); dy=torch.randn(${shape},dtype=${dt}); w=torch.randn(${C},dtype=${dt}); _,m,r=torch.native_batch_norm(x,w,None,None,None,True,0.1,1e-5)`,
    `torch.ops.aten.native_batch_norm_backward(dy,x,w,None,None,m,r,True,1e-5,[True,True,True])`, 20]);
}
let torchUs = [];
if (argv.includes("--torch")) {
  const py = [`import torch, resource\ntorch.set_num_threads(${threads})\ntorch.manual_seed(0)`,
    "def cpu():\n  r = resource.getrusage(resource.RUSAGE_SELF)\n  return (r.ru_utime + r.ru_stime) * 1e6",
    ...rows.map(([, , setup, call, reps]) => `${setup}\nfor _ in range(20): ${call}\nres = []\nfor _ in range(9):\n  c0 = cpu()\n  for _ in range(${reps}): ${call}\n  res.append((cpu() - c0) / ${reps})\nprint(sorted(res)[4])`)].join("\n");
  const out = spawnSync("/usr/bin/python3", ["-c", py.replaceAll("torch.float32", "torch.float32").replaceAll("dtype=torch.", "dtype=torch.")], { encoding: "utf8" });
  if (out.status !== 0) console.log(out.stderr);
  torchUs = out.stdout.trim().split("\n").map(Number);
}
console.log(`CPU us per call, ${threads} thread(s)`);
rows.forEach(([name, us], k) => console.log(`${name.padEnd(48)} native ${us.toFixed(1).padStart(8)}` + (torchUs[k] ? `  torch ${torchUs[k].toFixed(1).padStart(8)}  ratio ${(torchUs[k] / us).toFixed(2)}x` : "")));
