// The native convolution's own paths (native/cpu/Conv.cc) against the TypeScript loops: im2col in
// column chunks that start and end mid output row (float32 and float64 chunk sizes differ), the
// stride-1 same-size im2col (whole-plane copies, edge columns zeroed), the 1x1 direct path, and grad_weight summed in fixed image groups on parallel threads (batch sizes
// around the group count, odd group sizes, batch 1); groups, stride, padding, dilation, odd sizes;
// float32 and float64; 1 and 2 threads; each instruction-set unit; the stride-1 implicit-GEMM forward
// and grad_input against the TypeScript loops and the im2col path (set_conv_path). (PyTorch's values for the conv
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
import { _set_native_isa, nativeAddon } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { underTs } from "../../support/native_paths.js";

const status = torch._C._native_status();
const native = status.loaded ? it : it.skip;
const defaultThreads = torch.get_num_threads();
const best = status.loaded ? status.addon!.best_capability : "DEFAULT";
const ISAS = (["DEFAULT", "AVX2", "AVX512"] as const).filter((isa) => !status.loaded || isa === "DEFAULT" || (isa === "AVX2" ? best !== "DEFAULT" : best === "AVX512"));
const F = torch.nn.functional as any;

afterEach(() => {
  set_cpu_capability(null);
  nativeAddon?.set_conv_path("auto");
  torch.set_num_threads(defaultThreads);
  if (status.loaded) _set_native_isa(best as any);
});

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

// The implicit-GEMM forward (stride 1, (Wp - OW) / Wp <= 1/8 with Wp = W + 2 pad_w, C*KH*KW >= 32: Conv.cc use_implicit):
// the padded image's shifted windows as B's rows, A packed once per call and thread into row panels
// (12 rows on AVX-512, 6 on AVX2/default, with 1/3 and 2/3 height tail tiles; 8-row tiles on AVX-512
// where 8 divides the outputs and 12 does not), tasks of 8 column panels. Each case
// is run on the implicit path ("implicit": no Winograd) and on the im2col path and compared with the TypeScript loops;
// every case here satisfies the predicate (checked below, so a case cannot silently test im2col only).
// grad_input (stride 1, pad <= dilation * (kernel - 1)) is the same path run on grad_output padded by
// d (k - 1) - p with the weight transposed and flipped; these cases take it too (their transposed
// geometry satisfies the predicate: pad' = 1, 2, (4, 2), (0, 1), 1), checked against the TypeScript
// loops on both paths.
const implicitCases: [string, number[], number[], Record<string, unknown>, boolean][] = [
  // 64 -> 64 channels (AVX-512: 8 tiles of 8), W 30: Wp 32, 17 x 32 = 544 columns = 17 panels of 32 (3 tasks)
  ["3x3 pad 1, 64 -> 64, several tasks", [1, 64, 17, 30], [64, 64, 3, 3], { padding: 1 }, true],
  // 16 outputs (AVX-512: 2 tiles of 8), three images: a thread's later images reuse its pack of A
  ["3x3 pad 1, 16 outputs, three images", [3, 8, 9, 30], [16, 8, 3, 3], { padding: 1 }, true],
  // 13 outputs (12 + 1 / 6 + 6 + 1), a partial last panel (9 x 19 = 171 columns), strided input
  ["3x3 pad 1, 13 outputs, channels-last input", [3, 5, 9, 17], [13, 5, 3, 3], { padding: 1 }, false],
  // 7 outputs (AVX-512: a 8-row tail tile), 5x5 pad 2, dilation 1: Wp 36, OW 32
  ["5x5 pad 2, 7 outputs", [1, 3, 11, 32], [7, 3, 5, 5], { padding: 2 }, true],
  // no padding (valid): Wp = W, OW = W - 2; dilation 2 along h only
  ["3x3 valid, dilation (2, 1), 1 output", [2, 4, 12, 40], [1, 4, 3, 3], { dilation: [2, 1] }, true],
  // asymmetric padding (2, 1), 3x3 with dilation (1, 1) -> OH = H + 2, one image on both threads
  ["3x3 pad (2, 1), batch 1 (threads split the columns)", [1, 6, 20, 48], [9, 6, 3, 3], { padding: [2, 1] }, true],
  ["groups 2, 3x3 pad 1", [2, 8, 10, 22], [6, 4, 3, 3], { groups: 2, padding: 1 }, true],
];

function takesImplicit(xs: number[], ws: number[], opts: Record<string, unknown>): boolean {
  const pair = (v: unknown, d: number) => (v === undefined ? [d, d] : Array.isArray(v) ? (v as number[]) : [v as number, v as number]);
  const [sh, sw] = pair(opts.stride, 1), [ph, pw] = pair(opts.padding, 0), [dh, dw] = pair(opts.dilation, 1);
  const Wp = xs[3] + 2 * pw, OW = Wp - dw * (ws[3] - 1), OH = xs[2] + 2 * ph - dh * (ws[2] - 1);
  return sh === 1 && sw === 1 && ws[2] * ws[3] > 1 && ws[1] * ws[2] * ws[3] >= 32 && OW > 0 && OH > 0 && (Wp - OW) * 8 <= Wp;
}

describe("native conv2d implicit-GEMM forward and grad_input agree with the TypeScript loops and the im2col path", () => {
  for (const [name, xs, ws, opts, contiguous] of implicitCases) {
    native(name, () => {
      expect(takesImplicit(xs, ws, opts)).toBe(true);
      for (const dtype of [torch.float32, torch.float64]) {
        const run = () => {
          torch.manual_seed(4);
          const x = (contiguous ? torch.randn(xs, { dtype }) : torch.randn([xs[0], xs[2], xs[3], xs[1]], { dtype }).permute(0, 3, 1, 2)).requires_grad_(true);
          const w = torch.randn(ws, { dtype });
          const b = torch.randn([ws[0]], { dtype });
          const y = F.conv2d(x, w, b, opts);
          y.mul(torch.randn(y.shape, { dtype })).sum().backward();
          return [y, F.conv2d(x, w, null, opts), x.grad!];
        };
        const ts = underTs(run);
        const k = ws[1] * ws[2] * ws[3];
        for (const path of ["implicit", "im2col"] as const) {
          nativeAddon!.set_conv_path(path);
          for (const threads of [1, 2]) {
            for (const isa of ISAS) {
              _set_native_isa(isa as any);
              torch.set_num_threads(threads);
              const [yb, y, gi] = run();
              const what = `${name} ${dtype} ${path} ${threads}t ${isa}`;
              closeTo(yb, ts[0], k, `${what} output (bias)`);
              closeTo(y, ts[1], k, `${what} output`);
              closeTo(gi, ts[2], ws[0] * ws[2] * ws[3], `${what} grad_input`);
            }
          }
        }
      }
    }, 60_000);
  }

  native("the implicit path does not depend on the thread count and matches the direct GEMM on im2col columns bit for bit", () => {
    // 64 outputs, K = 576: the im2col path runs the direct GEMM (no K blocks), whose sum over k has the
    // implicit path's order; both round bias + sum once
    torch.manual_seed(6);
    const x = torch.randn(3, 64, 9, 40), w = torch.randn(64, 64, 3, 3), b = torch.randn(64);
    const res: number[][] = [];
    for (const path of ["implicit", "im2col"] as const)
      for (const threads of [1, 2, 3]) {
        nativeAddon!.set_conv_path(path);
        torch.set_num_threads(threads);
        res.push(flat(F.conv2d(x, w, b, { padding: 1 })));
      }
    for (const r of res.slice(1)) expect(r).toEqual(res[0]);
  }, 60_000);
  native("K blocks resume each tile's sums from C: a partial last panel and a tail tile over 216 taps keep the im2col path's bits", () => {
    // 24 channels x 9 taps = 216 > kConvKc (192): two blocks of 108; 13 outputs (a tail tile), 9 x 19 = 171
    // columns (a partial last panel), so the resume reads partial tiles back too
    torch.manual_seed(7);
    const x = torch.randn(2, 24, 9, 17), w = torch.randn(13, 24, 3, 3);
    const res: number[][] = [];
    for (const path of ["implicit", "im2col"] as const)
      for (const threads of [1, 2]) {
        nativeAddon!.set_conv_path(path);
        torch.set_num_threads(threads);
        res.push(flat(F.conv2d(x, w, null, { padding: 1 })));
      }
    for (const r of res.slice(1)) expect(r).toEqual(res[0]);
  }, 60_000);
});

// The Winograd F(2x2, 3x3) path (ConvWinograd.cc: 3x3, stride 1, no dilation, float32), forced
// wherever it applies ("winograd") and compared with the TypeScript loops: blocks of whole tile rows
// (several blocks, a short last one, a block of one wide row), odd output sizes (a last tile half
// outside), padding 0, asymmetric, and wider than the filter (whole zero tiles), strided input, channel
// counts off the GEMM's 8/12-row tiles, group slices. grad_input of a 3x3 stride-1 layer with padding
// <= 2 is the same path (padding 2 - p, the weight flipped and transposed).
// Tolerance: the GEMM's bound with k = 9 C (each output combines 16 sums of C products of transformed
// values; the error measured ~1e-6 of the largest value, the bound ~1e-3 of it at C = 64).
const winogradCases: [string, number[], number[], Record<string, unknown>, boolean][] = [
  ["64 -> 64, 17 x 30, pad 1: two blocks, odd height", [2, 64, 17, 30], [64, 64, 3, 3], { padding: 1 }, true],
  ["16 -> 16 valid, odd width", [1, 16, 11, 13], [16, 16, 3, 3], {}, true],
  ["7 -> 5 channels, pad (0, 2), channels-last input", [2, 7, 8, 9], [5, 7, 3, 3], { padding: [0, 2] }, false],
  ["pad 3: rows and tiles wholly in the padding", [1, 4, 5, 6], [3, 4, 3, 3], { padding: 3 }, true],
  ["one output element", [1, 3, 3, 3], [2, 3, 3, 3], {}, true],
  ["a block of one wide tile row", [1, 16, 4, 150], [16, 16, 3, 3], { padding: 1 }, true],
  ["groups 2: each group's channel slices", [2, 32, 10, 12], [32, 16, 3, 3], { groups: 2, padding: 1 }, true],
];

describe("native conv2d Winograd F(2x2, 3x3) forward and grad_input agree with the TypeScript loops", () => {
  for (const [name, xs, ws, opts, contiguous] of winogradCases) {
    native(name, () => {
      const run = () => {
        torch.manual_seed(8);
        const x = (contiguous ? torch.randn(xs) : torch.randn([xs[0], xs[2], xs[3], xs[1]]).permute(0, 3, 1, 2)).requires_grad_(true);
        const w = torch.randn(ws);
        const b = torch.randn([ws[0]]);
        const y = F.conv2d(x, w, b, opts);
        y.mul(torch.randn(y.shape)).sum().backward();
        return [y, F.conv2d(x, w, null, opts), x.grad!];
      };
      const ts = underTs(run);
      nativeAddon!.set_conv_path("winograd");
      for (const threads of [1, 2]) {
        for (const isa of ISAS) {
          _set_native_isa(isa as any);
          torch.set_num_threads(threads);
          const [yb, y, gi] = run();
          const what = `${name} ${threads}t ${isa}`;
          closeTo(yb, ts[0], ws[1] * 9, `${what} output (bias)`);
          closeTo(y, ts[1], ws[1] * 9, `${what} output`);
          closeTo(gi, ts[2], ws[0] * 9, `${what} grad_input`);
        }
      }
    }, 60_000);
  }

  native("Winograd on an empty batch gives the empty result; one tile half outside, a 1x1 output", () => {
    nativeAddon!.set_conv_path("winograd");
    expect(F.conv2d(torch.randn(0, 4, 5, 5), torch.randn(3, 4, 3, 3), torch.randn(3), { padding: 1 }).shape).toEqual([0, 3, 5, 5]);
    expect(flat(F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(2, 1, 3, 3), torch.tensor([1, -1], { dtype: torch.float32 }), {}))).toEqual([10, 8]);
  });

  native("auto takes Winograd for 64 channels and 768 tiles or more, else the implicit GEMM; no result depends on the thread count", () => {
    const bits = (path: "auto" | "implicit" | "winograd", xs: number[], ws: number[], threads: number) => {
      nativeAddon!.set_conv_path(path);
      torch.set_num_threads(threads);
      torch.manual_seed(9);
      const x = torch.randn(xs), w = torch.randn(ws), b = torch.randn([ws[0]]);
      return flat(F.conv2d(x, w, b, { padding: 1 }));
    };
    const big: [number[], number[]] = [[2, 64, 40, 40], [64, 64, 3, 3]]; // 2 x 20 x 20 = 800 tiles
    const winograd = bits("winograd", ...big, 1);
    expect(bits("auto", ...big, 2)).toEqual(winograd);
    expect(bits("winograd", ...big, 2)).toEqual(winograd);
    expect(bits("winograd", ...big, 3)).toEqual(winograd);
    expect(bits("implicit", ...big, 2)).not.toEqual(winograd); // (the two paths round differently)
    const thin: [number[], number[]] = [[2, 32, 40, 40], [64, 32, 3, 3]];
    const few: [number[], number[]] = [[1, 64, 20, 20], [64, 64, 3, 3]]; // 100 tiles
    for (const layer of [thin, few]) {
      expect(bits("auto", ...layer, 2)).toEqual(bits("implicit", ...layer, 2));
      expect(bits("auto", ...layer, 2)).not.toEqual(bits("winograd", ...layer, 2));
    }
  }, 60_000);
});
