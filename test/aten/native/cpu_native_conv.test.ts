// The native convolution's own paths (native/cpu/Conv.cc) against the TypeScript loops: im2col in
// column chunks that start and end mid output row (float32 and float64 chunk sizes differ), the
// stride-1 same-size im2col (whole-plane copies, edge columns zeroed), the 1x1 direct path, and grad_weight summed in fixed image groups on parallel threads (batch sizes
// around the group count, odd group sizes, batch 1); groups, stride, padding, dilation, odd sizes;
// float32 and float64; 1 and 2 threads; each instruction-set unit. (PyTorch's values for the conv
// family are checked on both paths by conv.test.ts and layers_backward.test.ts.)
//
// Tolerance: the native GEMM sums in another order than the TypeScript kernel (vector lanes, K blocks,
// FMA; grad_weight: per-group partials), so each element is checked within
// 2 (k + 2) u sqrt(k + 1) * max|value| with k the length of the sum and u = 2^-24 (float32) or 2^-53
// (float64) - a wrong element, index, chunk boundary or image is off by the size of the values.
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import type { Tensor } from "../../../engine/aten/core/Tensor.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { _set_native_isa } from "../../../engine/aten/native/cpu_native/NativeBackend.js";

const status = torch._C._native_status();
const native = status.loaded ? it : it.skip;
const defaultThreads = torch.get_num_threads();
const best = status.loaded ? status.addon!.best_capability : "DEFAULT";
const ISAS = (["DEFAULT", "AVX2", "AVX512"] as const).filter((isa) => !status.loaded || isa === "DEFAULT" || (isa === "AVX2" ? best !== "DEFAULT" : best === "AVX512"));
const F = torch.nn.functional as any;

afterEach(() => {
  set_cpu_capability(null);
  torch.set_num_threads(defaultThreads);
  if (status.loaded) _set_native_isa(best as any);
});

function underTs<T>(f: () => T): T {
  set_cpu_capability("ts");
  try {
    return f();
  } finally {
    set_cpu_capability(null);
  }
}
const flat = (t: Tensor) => t.contiguous().reshape(-1).tolist() as number[];
function closeTo(nat: Tensor, ts: Tensor, k: number, what: string): void {
  expect(nat.shape, what).toEqual(ts.shape);
  expect(nat.dtype, what).toBe(ts.dtype);
  const a = flat(nat), b = flat(ts);
  const u = nat.dtype === torch.float32 ? 2 ** -24 : 2 ** -53;
  const scale = Math.max(1, ...b.map(Math.abs));
  for (let i = 0; i < a.length; i++) {
    if (!(Math.abs(a[i] - b[i]) <= 2 * (k + 2) * u * scale * Math.sqrt(k + 1))) throw new Error(`${what}: element ${i}: native ${a[i]}, ts ${b[i]}`);
  }
}

// [name, input, weight, options, contiguous input?]
const cases: [string, number[], number[], Record<string, unknown>, boolean][] = [
  // C*KH*KW = 576: chunks of 224 (float32) / 96 (float64) output positions, OW = 20: mid-row boundaries
  ["3x3 pad 1, 64 channels, chunks mid-row", [2, 64, 12, 20], [5, 64, 3, 3], { padding: 1 }, true],
  ["same, strided (channels-last) input", [1, 64, 11, 13], [3, 64, 3, 3], { padding: 1 }, false],
  ["stride 2, pad 3, 7x7, chunks", [1, 48, 23, 29], [4, 48, 7, 7], { stride: 2, padding: 3 }, true],
  ["stride (1, 2), dilation (2, 1), chunks", [2, 40, 13, 31], [3, 40, 3, 5], { stride: [1, 2], dilation: [2, 1], padding: [2, 1] }, true],
  ["groups 2 with chunks", [2, 128, 7, 19], [6, 64, 3, 3], { groups: 2, padding: 1 }, true],
  // stride 1 and OW == W: the unfolded rows are contiguous copies of the plane (then edge columns zeroed)
  ["same-size dilated 3x5, pad (2, 2), chunks mid-row", [1, 40, 15, 17], [3, 40, 3, 5], { dilation: [2, 1], padding: 2 }, true],
  ["5x5 pad 2 on a 3x3 image (most taps outside)", [2, 3, 3, 3], [2, 3, 5, 5], { padding: 2 }, true],
  ["one-row image, 1x3 pad (0, 1)", [2, 4, 1, 9], [3, 4, 1, 3], { padding: [0, 1] }, true],
  ["1x1 direct", [3, 7, 5, 9], [4, 7, 1, 1], {}, true],
  ["1x1 stride 2 (unfolded)", [2, 5, 7, 8], [3, 5, 1, 1], { stride: 2 }, true],
  // grad_weight groups: batch 17 > 16 groups (one group of 2), 5 (odd), 1 (one group, threaded GEMM)
  ["batch 17, 1 channel (training example's first layer)", [17, 1, 9, 10], [4, 1, 3, 3], { padding: 1 }, true],
  ["batch 5, odd sizes", [5, 3, 7, 5], [2, 3, 2, 3], { padding: [1, 0] }, false],
  ["batch 1", [1, 8, 6, 6], [3, 8, 3, 3], { padding: 1 }, true],
];

describe("native conv2d paths (column chunks, 1x1, grouped grad_weight) agree with the TypeScript loops", () => {
  for (const [name, xs, ws, opts, contiguous] of cases) {
    native(name, () => {
      for (const dtype of [torch.float32, torch.float64]) {
        const run = () => {
          torch.manual_seed(3);
          const x = (contiguous ? torch.randn(xs, { dtype }) : torch.randn([xs[0], xs[2], xs[3], xs[1]], { dtype }).permute(0, 3, 1, 2)).requires_grad_(true);
          const w = torch.randn(ws, { dtype, requires_grad: true });
          const b = torch.randn([ws[0]], { dtype, requires_grad: true });
          const y = F.conv2d(x, w, b, opts);
          y.mul(torch.randn(y.shape, { dtype })).sum().backward();
          return [y, x.grad!, w.grad!, b.grad!];
        };
        const ts = underTs(run);
        for (const threads of [1, 2]) {
          for (const isa of ISAS) {
            _set_native_isa(isa as any);
            torch.set_num_threads(threads);
            const nat = run();
            const what = `${name} ${dtype} ${threads}t ${isa}`;
            const L = nat[0].shape[2] * nat[0].shape[3];
            closeTo(nat[0], ts[0], ws[1] * ws[2] * ws[3], `${what} output`);
            closeTo(nat[1], ts[1], ws[0] * ws[2] * ws[3], `${what} grad_input`);
            closeTo(nat[2], ts[2], xs[0] * L, `${what} grad_weight`);
            closeTo(nat[3], ts[3], xs[0] * L, `${what} grad_bias`);
          }
        }
      }
    }, 60_000); // 2 dtypes x 2 thread counts x 3 ISAs, and the TypeScript reference, on a shared 2-core machine
  }

  native("grad_weight and the forward do not depend on the thread count (fixed image groups)", () => {
    const run = (threads: number) => {
      torch.set_num_threads(threads);
      torch.manual_seed(5);
      const x = torch.randn(19, 16, 10, 30, { requires_grad: true }), w = torch.randn(8, 16, 3, 3, { requires_grad: true });
      const y = F.conv2d(x, w, null, { padding: 1 });
      y.mul(torch.randn(y.shape)).sum().backward();
      return [flat(y), flat(x.grad!), flat(w.grad!)];
    };
    const one = run(1);
    expect(run(2)).toEqual(one);
    expect(run(3)).toEqual(one);
  }, 60_000);

  native("the native kernels ran (not a decline to TypeScript)", () => {
    const x = torch.randn(17, 1, 9, 10, { requires_grad: true }), w = torch.randn(4, 1, 3, 3, { requires_grad: true });
    const events = torch.trace.record(() => F.conv2d(x, w, null, { padding: 1 }).sum().backward()).events;
    const impls = events.filter((e: any) => e.type === "kernel" && /conv/.test(e.stub)).map((e: any) => `${e.stub}:${e.impl}`);
    expect(impls).toEqual(["slow_conv2d_stub:native", "slow_conv2d_backward_stub:native", "slow_conv2d_backward_stub:native"]);
  });
});
