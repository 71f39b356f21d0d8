// Grouped convolution in one call (conv/GroupedConv.ts's stubs; native/cpu/Conv.cc: every group in one
// addon call, depthwise layers by depthwise_kernels.inc's stencils) against the TypeScript reference,
// 1.13's group loop: forward, grad_input, grad_weight, grad_bias; float32 and float64; odd sizes, stride,
// padding, dilation, channel multipliers, rows wider than the vector blocks, 1-d; 1 and 2 threads; each
// instruction-set unit. (PyTorch's own values for these layers: conv.json and layers_backward.json.)
//
// Tolerance. The depthwise forward and stride-1 grad_input add each element's taps in the TypeScript
// loops' order (a tap outside the image adds 0 * w instead of nothing), so float64 gives their values
// exactly (===: a zero's sign aside); float32 rounds each step where the reference sums in double and
// rounds once: within k u max|value| for k taps. grad_weight sums in vector lanes, and the general grouped
// path runs the GEMM (FMA, blocks): 2 (k + 2) u sqrt(k + 1) max|value| with k the length of the sum, as
// cpu_native_conv.test.ts. Every result is the same bit for bit for any thread count.
//
// Eager freeing: the results of conv1d, grouped and depthwise conv2d own their storage alone, so
// dispose() frees it at once (the ops dispose their internal views and temporaries; an intermediate a
// result is a view of gives up its share and stays usable as the view's _base).
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import type { Tensor } from "../../../engine/aten/core/Tensor.js";
import { _set_native_isa } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { _dispose_stats } from "../../../engine/c10/Dispose.js";
import { underTs, kernelsRan, nativeIt, nativeStatus, bestIsa, runnableIsas, restoreNativeDefaults } from "../../support/native_paths.js";

const native = nativeIt;
const best = bestIsa;
const ISAS = runnableIsas();
const F = torch.nn.functional as any;

afterEach(restoreNativeDefaults);

const flat = (t: Tensor) => t.contiguous().reshape(-1).tolist() as number[];
const unit = (t: Tensor) => (t.dtype === torch.float32 ? 2 ** -24 : 2 ** -53);
const maxAbs = (b: number[]) => Math.max(1, ...b.map(Math.abs));

/** Each element within bound(k) * u * max|reference|. */
function within(nat: Tensor, ts: Tensor, bound: number, what: string): void {
  expect(nat.shape, what).toEqual(ts.shape);
  const a = flat(nat), b = flat(ts);
  const tol = bound * unit(nat) * maxAbs(b);
  for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i] - b[i]) <= tol)) throw new Error(`${what}: element ${i}: native ${a[i]}, ts ${b[i]}`);
}
const gemmBound = (k: number) => 2 * (k + 2) * Math.sqrt(k + 1);
function same(a: number[], b: number[], what: string): void {
  expect(a.length, what).toBe(b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) throw new Error(`${what}: element ${i}: ${a[i]} vs ${b[i]}`);
}

// [name, input, weight, options, bias]
const cases: [string, number[], number[], { stride?: number | number[]; padding?: number | number[]; dilation?: number | number[]; groups: number }, boolean][] = [
  ["depthwise 3x3 pad 1, odd sizes", [2, 3, 7, 9], [3, 1, 3, 3], { padding: 1, groups: 3 }, true],
  ["depthwise, rows wider than the vector blocks (37, 70)", [2, 4, 6, 37], [4, 1, 3, 3], { padding: 1, groups: 4 }, true],
  ["depthwise 3x3 pad 1, 70 columns, no bias", [1, 2, 5, 70], [2, 1, 3, 3], { padding: 1, groups: 2 }, false],
  ["depthwise, multiplier 2 (accumulated grad_input)", [2, 3, 9, 20], [6, 1, 3, 3], { padding: 1, groups: 3 }, true],
  ["depthwise stride 2 (scattered grad_input)", [2, 4, 11, 19], [4, 1, 3, 3], { stride: 2, padding: 1, groups: 4 }, true],
  ["depthwise stride (1, 2), multiplier 3", [1, 2, 8, 21], [6, 1, 3, 3], { stride: [1, 2], padding: 1, groups: 2 }, false],
  ["depthwise dilation 2, pad 2", [2, 4, 10, 23], [4, 1, 3, 3], { dilation: 2, padding: 2, groups: 4 }, true],
  ["depthwise 5x3, pad (2, 0), no padding on the columns", [2, 3, 13, 17], [3, 1, 5, 3], { padding: [2, 0], groups: 3 }, true],
  ["depthwise 5x5 pad 2 on a 4x3 image (taps outside on every side)", [3, 2, 4, 3], [2, 1, 5, 5], { padding: 2, groups: 2 }, true],
  ["depthwise 3x3 valid, one output row", [2, 5, 3, 40], [5, 1, 3, 3], { groups: 5 }, true],
  ["grouped, 4 groups of 2 channels", [2, 8, 7, 6], [8, 2, 3, 3], { stride: 2, padding: 1, groups: 4 }, true],
  ["grouped, 2 groups of 16 channels (implicit GEMM per group)", [2, 32, 9, 30], [8, 16, 3, 3], { padding: 1, groups: 2 }, true],
];

const run = (xs: number[], ws: number[], opts: (typeof cases)[number][2], bias: boolean, dtype: torch.dtype) => {
  torch.manual_seed(7);
  const x = torch.randn(xs, { dtype, requires_grad: true }), w = torch.randn(ws, { dtype, requires_grad: true });
  const b = bias ? torch.randn([ws[0]], { dtype, requires_grad: true }) : null;
  const y = F.conv2d(x, w, b, opts.stride ?? 1, opts.padding ?? 0, opts.dilation ?? 1, opts.groups);
  y.mul(torch.randn(y.shape, { dtype })).sum().backward();
  return [y, x.grad!, w.grad!, b === null ? null : b.grad!] as const;
};

describe("native grouped and depthwise conv2d agree with the TypeScript group loop", () => {
  for (const [name, xs, ws, opts, bias] of cases) {
    native(name, () => {
      const depthwise = ws[1] === 1 && opts.groups === xs[1];
      for (const dtype of [torch.float32, torch.float64]) {
        const ts = underTs(() => run(xs, ws, opts, bias, dtype));
        const taps = ws[1] * ws[2] * ws[3], L = ts[0].shape[2] * ts[0].shape[3];
        let first: number[][] | null = null;
        for (const threads of [1, 2]) {
          for (const isa of ISAS) {
            _set_native_isa(isa as any);
            torch.set_num_threads(threads);
            const nat = run(xs, ws, opts, bias, dtype);
            const what = `${name} ${dtype} ${threads}t ${isa}`;
            const stride1 = (opts.stride ?? 1) === 1;
            if (depthwise && dtype === torch.float64) same(flat(nat[0]), flat(ts[0]), `${what} output`);
            else within(nat[0], ts[0], depthwise ? taps + 1 : gemmBound(taps), `${what} output`);
            if (depthwise && stride1 && dtype === torch.float64) same(flat(nat[1]), flat(ts[1]), `${what} grad_input`);
            else within(nat[1], ts[1], depthwise ? (ws[0] / xs[1]) * ws[2] * ws[3] + 1 : gemmBound(ws[0] * ws[2] * ws[3]), `${what} grad_input`);
            within(nat[2], ts[2], gemmBound(xs[0] * L), `${what} grad_weight`);
            if (bias) within(nat[3]!, ts[3]!, gemmBound(xs[0] * L), `${what} grad_bias`);
            // one unit: the same bits for 1 and 2 threads
            if (isa === best) {
              const bits = nat.filter((t) => t !== null).map((t) => flat(t!));
              if (first === null) first = bits;
              else bits.forEach((b, k) => same(b, first![k], `${what} result ${k} vs 1 thread`));
            }
          }
        }
      }
    }, 60_000);
  }

  native("conv1d with groups == channels runs the depthwise kernels too", () => {
    for (const dtype of [torch.float32, torch.float64]) {
      const go = () => {
        torch.manual_seed(8);
        const x = torch.randn([3, 6, 41], { dtype, requires_grad: true }), w = torch.randn([6, 1, 3], { dtype, requires_grad: true });
        const y = F.conv1d(x, w, null, 1, 1, 1, 6);
        y.mul(torch.randn(y.shape, { dtype })).sum().backward();
        return [y, x.grad!, w.grad!];
      };
      const ts = underTs(go), nat = go();
      within(nat[0], ts[0], 4, `conv1d ${dtype} output`);
      within(nat[1], ts[1], 4, `conv1d ${dtype} grad_input`);
      within(nat[2], ts[2], gemmBound(3 * 41), `conv1d ${dtype} grad_weight`);
    }
  });

  native("one native call for every group; the TypeScript implementation is 1.13's group loop", () => {
    const x = torch.randn(2, 4, 6, 6, { requires_grad: true }), w = torch.randn(4, 1, 3, 3, { requires_grad: true });
    const call = () => F.conv2d(x, w, null, 1, 1, 1, 4).sum().backward();
    expect(kernelsRan(call).filter((k) => /conv/.test(k))).toEqual(["conv2d_grouped_stub:native", "conv2d_grouped_backward_stub:native"]);
    const ts = underTs(() => kernelsRan(call)).filter((k) => /conv/.test(k));
    expect(ts.filter((k) => k === "slow_conv2d_stub:ts")).toHaveLength(4);
    expect(ts.filter((k) => k === "slow_conv2d_backward_stub:ts")).toHaveLength(8); // grad_input and grad_weight per group
  });

  native("float16 and int64 decline to the TypeScript loop (its errors and values)", () => {
    const x = torch.ones(1, 2, 4, 4, { dtype: torch.int64 }), w = torch.ones(2, 1, 3, 3, { dtype: torch.int64 });
    expect(flat(F.conv2d(x, w, null, 1, 1, 1, 2))).toEqual(flat(underTs(() => F.conv2d(x, w, null, 1, 1, 1, 2))));
    expect(() => F.conv2d(x.to(torch.float16), w.to(torch.float16), null, 1, 1, 1, 2)).toThrow(/not implemented for 'Half'/);
  });
});

describe("dispose() frees a convolution's result at once (no internal view keeps its storage)", () => {
  const nativeAlloc = nativeStatus.loaded && process.env.GLASSTORCH_NATIVE_ALLOCATOR !== "0" ? it : it.skip;
  const calls: [string, () => Tensor][] = [
    ["conv1d", () => F.conv1d(torch.randn(4, 8, 256), torch.randn(8, 8, 3), null, 1, 1)],
    ["conv1d unbatched", () => F.conv1d(torch.randn(8, 512), torch.randn(8, 8, 3), null, 1, 1)],
    ["grouped conv2d", () => F.conv2d(torch.randn(2, 8, 16, 16), torch.randn(8, 2, 3, 3), torch.randn(8), 1, 1, 1, 4)],
    ["depthwise conv2d", () => F.conv2d(torch.randn(2, 8, 16, 16), torch.randn(8, 1, 3, 3), null, 1, 1, 1, 8)],
    ["depthwise conv1d", () => F.conv1d(torch.randn(4, 8, 256), torch.randn(8, 1, 3), null, 1, 1, 1, 8)],
  ];
  for (const [name, make] of calls) {
    nativeAlloc(name, () => {
      const y = make();
      // an unbatched result is a view of the op's batch-of-one output: that base stays usable
      if ((y as any)._base) expect((y as any)._base.is_disposed).toBe(false);
      const s = y._impl.storage;
      const freed = _dispose_stats().storages;
      y.dispose();
      expect(s.is_released()).toBe(true);
      expect(_dispose_stats().storages).toBe(freed + 1);
    });
  }
  nativeAlloc("grad_input and grad_weight of a grouped convolution_backward", () => {
    // (grad_weight [8, 2, 24, 24]: a block of the native allocator's, >= 4 KiB)
    const g = torch.randn(2, 8, 9, 9), x = torch.randn(2, 8, 32, 32), w = torch.randn(8, 2, 24, 24);
    const grads = torch.ops.aten.convolution_backward.default.call(g, x, w, null, [1, 1], [0, 0], [1, 1], false, [0, 0], 4, [true, true, false]) as Tensor[];
    for (const t of grads.slice(0, 2)) {
      const s = t._impl.storage, freed = _dispose_stats().storages;
      t.dispose();
      expect(s.is_released()).toBe(true);
      expect(_dispose_stats().storages).toBe(freed + 1);
    }
  });
});
