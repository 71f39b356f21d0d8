// The native NN kernels (native/cpu/NN.cc, nn_kernels.inc; engine/aten/native/cpu_native/NativeNN.ts)
// against the TypeScript reference kernels: softmax / log_softmax forward and backward on the last and
// an inner dim, layer norm, batch norm (train and eval), 2-d max / average / adaptive-average pooling.
// Each case runs on every instruction-set unit the CPU has (2 threads; the best unit on 1 thread too), checks from the
// trace that the native kernel ran (or declined, for layouts it does not take), and compares values:
//  - exactly where the native loop keeps the TypeScript kernel's operation order (pooling, batch norm's
//    affine step, float64 softmax's arithmetic apart from exp),
//  - within a stated bound where an exp or a double sum split into lanes differs in the last bits.
// The PyTorch fixtures (activation/normalization/pooling tests) check both paths against PyTorch.
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { _set_native_isa } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { _log_softmax_backward_data_default } from "../../../engine/generated/_log_softmax_backward_data.js";
import { _softmax_backward_data_default } from "../../../engine/generated/_softmax_backward_data.js";
import { native_layer_norm_backward_default } from "../../../engine/generated/native_layer_norm_backward.js";
import { native_batch_norm_backward_default } from "../../../engine/generated/native_batch_norm_backward.js";
import { max_pool2d_with_indices_backward_default } from "../../../engine/generated/max_pool2d_with_indices_backward.js";
import { avg_pool2d_backward_default } from "../../../engine/generated/avg_pool2d_backward.js";
import { _adaptive_avg_pool2d_backward_default } from "../../../engine/generated/_adaptive_avg_pool2d_backward.js";
import { embedding_dense_backward_default } from "../../../engine/generated/embedding_dense_backward.js";
import { underTs } from "../../support/native_paths.js";

const status = torch._C._native_status();
const native = status.loaded ? describe : describe.skip;
const defaultThreads = torch.get_num_threads();
const UNITS = ["DEFAULT", "AVX2", "AVX512"] as const;

afterEach(() => {
  set_cpu_capability(null);
  torch.set_num_threads(defaultThreads);
  if (status.loaded) _set_native_isa(status.addon!.best_capability as any);
});

const flat = (t: torch.Tensor): number[] => (t.dim() === 0 ? [t.item() as number] : (Array.from(t.contiguous().tolist() as any).flat(Infinity) as number[]));

/** Runs f on the TypeScript kernels, returning its tensors' values. */
function flatUnderTs(f: () => torch.Tensor[]): number[][] {
  return underTs(() => f().map(flat));
}


/** Runs f natively, returning its values and the implementations of the named stubs that ran. */
function underNative(f: () => torch.Tensor[], stubs: string[]): { values: number[][]; impls: string[] } {
  let out: torch.Tensor[] = [];
  const { events } = torch.trace.record(() => {
    out = f();
  });
  const impls = events.filter((e: any) => e.type === "kernel" && stubs.includes(e.stub)).map((e: any) => e.impl);
  return { values: out.map(flat), impls };
}

/** |a - b| <= atol + rtol * |b| elementwise, NaN matching NaN; returns the worst excess for the message. */
function expectClose(a: number[], b: number[], rtol: number, atol: number, what: string): void {
  expect(a.length, what).toBe(b.length);
  let bad = -1;
  for (let i = 0; i < a.length; i++) {
    const ok = Number.isNaN(b[i]) ? Number.isNaN(a[i]) : a[i] === b[i] || Math.abs(a[i] - b[i]) <= atol + rtol * Math.abs(b[i]);
    if (!ok) {
      bad = i;
      break;
    }
  }
  if (bad >= 0) expect.fail(`${what}: element ${bad}: native ${a[bad]} vs TypeScript ${b[bad]}`);
}

/**
 * Compares f's tensors natively (each unit, 1 and 2 threads) with the TypeScript kernels' results;
 * `ran` says whether the native kernel must have run ("native") or declined ("ts").
 */
function compare(f: () => torch.Tensor[], stubs: string[], tol: { rtol: number; atol: number }, ran: "native" | "ts" = "native"): void {
  const ref = flatUnderTs(f);
  const best = status.addon!.best_capability;
  for (const unit of UNITS) {
    if (!_set_native_isa(unit)) continue;
    // every unit on 2 threads, the best one on 1 thread too (the split never changes a result)
    for (const threads of unit === best ? [1, 2] : [2]) {
      torch.set_num_threads(threads);
      const { values, impls } = underNative(f, stubs);
      expect(impls.length, `${unit}: the stubs ${stubs} ran`).toBeGreaterThan(0);
      expect(new Set(impls), `${unit}: implementations`).toEqual(new Set([ran]));
      values.forEach((v, k) => expectClose(v, ref[k], tol.rtol, tol.atol, `${unit}, ${threads} threads, result ${k}`));
    }
  }
}

const EXACT = { rtol: 0, atol: 0 };
// float32 softmax: the native exp is within 1 ulp of the correctly rounded one; sums of such values
// and the division keep the result within a few ulp (2^-23 = 1.2e-7)
const F32 = { rtol: 6e-7, atol: 1e-7 };
// float64: glibc's exp and log against V8's differ at most in the last bit
const F64 = { rtol: 1e-14, atol: 1e-15 };
const tolFor = (dt: torch.dtype) => (dt === torch.float32 ? F32 : F64);

function randn(shape: number[], dt: torch.dtype, seed: number, scale = 3): torch.Tensor {
  torch.manual_seed(seed);
  return torch.mul(torch.randn(shape, { dtype: dt }), scale);
}

native("softmax and log_softmax", () => {
  const FORWARD = ["softmax_lastdim_kernel", "log_softmax_lastdim_kernel", "softmax_kernel", "log_softmax_kernel"];
  const BACKWARD = ["softmax_backward_lastdim_kernel", "log_softmax_backward_lastdim_kernel", "softmax_backward_kernel", "log_softmax_backward_kernel"];
  // last dims: 1, shorter than a vector, odd tails, several vectors; inner dims of 1, 3, 300 (> one block)
  const shapes: [number[], number][] = [
    [[5, 1], 1], [[3, 7], 1], [[4, 8], -1], [[2, 37], 1], [[6, 130], 1], [[2, 3, 5], 1], [[4, 9, 300], 1], [[7, 5, 1], 1], [[9], 0], [[3, 4, 2, 6], 0],
  ];
  for (const dt of [torch.float32, torch.float64]) {
    for (const [shape, dim] of shapes) {
      it(`forward ${dt} ${JSON.stringify(shape)} dim ${dim}`, () => {
        const x = randn(shape, dt, shape.length * 100 + shape[0]);
        compare(() => [torch.softmax(x, dim), torch.log_softmax(x, dim)], FORWARD, tolFor(dt));
      });
      it(`backward ${dt} ${JSON.stringify(shape)} dim ${dim}`, () => {
        // the same output for both paths (the forward's results differ in the last bits)
        const x = randn(shape, dt, 7 + shape[0]);
        const g = randn(shape, dt, 11 + shape[0], 1);
        const [out, logOut] = underTs(() => [torch.softmax(x, dim), torch.log_softmax(x, dim)]);
        // softmax's backward has no exp: the operation order is the TypeScript kernel's, so the bits are
        compare(() => [_softmax_backward_data_default.call(g, out, dim, dt) as torch.Tensor], BACKWARD, EXACT);
        // log_softmax's: grad - exp(output) * sum(grad), the exp within 1 ulp, times |sum(grad)| <= ~20 here
        const logTol = dt === torch.float32 ? { rtol: 6e-7, atol: 4e-6 } : { rtol: 1e-14, atol: 1e-14 };
        compare(() => [_log_softmax_backward_data_default.call(g, logOut, dim, dt) as torch.Tensor], BACKWARD, logTol);
      });
    }
  }
  it("large and special values: -inf, +inf rows, NaN propagation, values far below the max (subnormal exps)", () => {
    const rows = [
      [0, -Infinity, 1, 2, -Infinity, 3, 4, 5, 6],
      [NaN, 1, 2, 3, 4, 5, 6, 7, 8],
      [1, 2, 3, 4, 5, 6, 7, 8, NaN],
      [0, -87, -88, -100, -103, -104, -110, -150, 0.5],
      [80, 70, 60, 88, 89, 95, 100, 1e30, -1e30],
      [-Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity],
    ];
    for (const dt of [torch.float32, torch.float64]) {
      const x = torch.tensor(rows, { dtype: dt });
      compare(() => [torch.softmax(x, 1), torch.log_softmax(x, 1), torch.softmax(x, 0), torch.log_softmax(x, 0)], FORWARD, tolFor(dt));
    }
  });
  it("the float32 exp over its range, through log_softmax's backward", () => {
    // the backward computes grad - exp(output) * sum(grad): with grad = [1, 0, 0, ...], element j > 0 is -exp(output[j])
    const xs: number[] = [];
    for (let v = -104; v <= 0; v += 0.0137) xs.push(v);
    const out = torch.tensor([xs], { dtype: torch.float32 });
    const grad = torch.tensor([xs.map((_, j) => (j === 0 ? 1 : 0))], { dtype: torch.float32 });
    const f = () => [_log_softmax_backward_data_default.call(grad, out, 1, torch.float32) as torch.Tensor];
    const ref = flatUnderTs(f)[0];
    const nat = underNative(f, ["log_softmax_backward_lastdim_kernel"]).values[0];
    // grad_input[j] = grad[j] - exp(x_j) * 1: within one float32 ulp of the correctly rounded exp
    for (let j = 1; j < xs.length; j++) {
      const e = -ref[j];
      const ulp = e === 0 ? 2 ** -149 : 2 ** (Math.floor(Math.log2(e)) - 23);
      expect(Math.abs(-nat[j] - e) <= Math.max(ulp, 2 ** -149), `exp(${xs[j]}): ${-nat[j]} vs ${e}`).toBe(true);
    }
  });
  it("a strided input, and bfloat16's last-dim log_softmax (1.13 rounds its every step to bfloat16), decline to the TypeScript kernel", () => {
    const x = randn([6, 10], torch.float32, 3).t();
    compare(() => [torch.softmax(x, 1)], FORWARD, EXACT, "ts");
    const h = randn([4, 5], torch.float32, 4).to(torch.bfloat16);
    compare(() => [torch.log_softmax(h, 1)], FORWARD, EXACT, "ts");
  });
  it("bfloat16: computed in float (widened, the float32 kernel, rounded once), as 1.13 and the TS kernels compute it", () => {
    // the float32 results agree within a few float ulps; rounded to bfloat16 they agree but at a rounding boundary
    const BF16 = { rtol: 2 ** -8, atol: 1e-30 };
    for (const [shape, dim] of [[[6, 130], 1], [[4, 9, 300], 1], [[3, 4, 2, 6], 0], [[2, 37], -1]] as [number[], number][]) {
      const x = randn(shape, torch.float32, 5 + shape[0]).to(torch.bfloat16), g = randn(shape, torch.float32, 9, 1).to(torch.bfloat16);
      const lastdim = dim === -1 || dim === shape.length - 1;
      compare(() => [torch.softmax(x, dim), ...(lastdim ? [] : [torch.log_softmax(x, dim)])], FORWARD, BF16);
      const [out, logOut] = underTs(() => [torch.softmax(x, dim), torch.log_softmax(x, dim)]);
      compare(() => [_softmax_backward_data_default.call(g, out, dim, torch.bfloat16) as torch.Tensor], BACKWARD, BF16);
      compare(() => [_log_softmax_backward_data_default.call(g, logOut, dim, torch.bfloat16) as torch.Tensor], BACKWARD, BF16);
    }
  });
  it("an empty input and a 0-d input", () => {
    const e = torch.zeros([0, 4]);
    expect(torch.softmax(e, 1).shape).toEqual([0, 4]);
    compare(() => [torch.softmax(torch.tensor(2.5), 0), torch.log_softmax(torch.tensor(2.5, { dtype: torch.float64 }), 0)], FORWARD, EXACT);
  });
});

native("upsample: bilinear and nearest (UpSampleKernel.cpp), the TS kernel's sources and weights, the same bits", () => {
  const F = torch.nn.functional;
  for (const dt of [torch.float32, torch.float64]) {
    it(`${dt} bilinear up and down, align_corners both ways, explicit scales; nearest 1-d and 2-d`, () => {
      const x = randn([2, 3, 9, 14], dt, 21);
      const f = () => [
        F.interpolate(x, { scale_factor: 2, mode: "bilinear" }),
        F.interpolate(x, { size: [20, 31], mode: "bilinear", align_corners: true }),
        F.interpolate(x, { size: [4, 5], mode: "bilinear" }),
        F.interpolate(x, { scale_factor: [1.7, 0.6], mode: "bilinear", recompute_scale_factor: false }),
        F.interpolate(x, { size: [9, 14], mode: "bilinear" }),
        // one plane (rows over the pool) and many (planes over the pool, each input row's horizontal step once)
        F.interpolate(randn([1, 1, 9, 14], dt, 23), { scale_factor: 2, mode: "bilinear" }),
        F.interpolate(randn([4, 8, 5, 7], dt, 24), { size: [13, 3], mode: "bilinear", align_corners: true }),
        F.interpolate(x, { scale_factor: 3, mode: "nearest" }),
        F.interpolate(x, { size: [5, 30], mode: "nearest" }),
        F.interpolate(randn([2, 3, 11], dt, 22), { size: 25, mode: "nearest" }),
        // nearest rows repeated from the row above (copied), irregularly at 1.5, and across the two
        // threads' chunks: 246 rows of 200 split at row 123, the second of a repeated pair
        F.interpolate(randn([1, 3, 41, 100], dt, 25), { scale_factor: 2, mode: "nearest" }),
        F.interpolate(randn([2, 2, 30, 70], dt, 26), { scale_factor: 1.5, mode: "nearest" }),
      ];
      compare(f, ["upsample_bilinear2d_kernel", "upsample_nearest2d_kernel"], EXACT);
    });
  }
});

native("upsample nearest on 2 threads: a row copied from the row above only where this thread wrote it", () => {
  it("the first row of the second thread's chunk is computed, not read before the first thread writes it", () => {
    const F = torch.nn.functional;
    torch.set_num_threads(2);
    const a = randn([1, 3, 41, 100], torch.float32, 27), b = randn([1, 3, 41, 100], torch.float32, 28);
    const want = flatUnderTs(() => [F.interpolate(b, { scale_factor: 2, mode: "nearest" })])[0];
    for (let i = 0; i < 20; i++) {
      F.interpolate(a, { scale_factor: 2, mode: "nearest" }).dispose(); // a's rows left in the block b's result reuses
      const got = F.interpolate(b, { scale_factor: 2, mode: "nearest" });
      expectClose(flat(got), want, 0, 0, `call ${i}`);
      got.dispose();
    }
  });
});

native("group norm", () => {
  // [N, C, *] with G groups: rows of D * HxW (tails of the 8-lane moments), 1 and many groups, no spatial dims
  const cases: [number[], number][] = [[[2, 6, 5], 3], [[3, 8, 4, 4], 2], [[2, 4], 4], [[4, 16, 7, 9], 8], [[2, 32, 33], 1]];
  for (const dt of [torch.float32, torch.float64]) {
    for (const [shape, G] of cases) {
      it(`${dt} ${JSON.stringify(shape)} in ${G} groups, with and without weight / bias`, () => {
        const x = randn(shape, dt, shape.reduce((a, b) => a + b) + G);
        const w = randn([shape[1]], dt, 7, 1), b = randn([shape[1]], dt, 8, 1);
        // moments in double over 8 lanes (the TypeScript kernel sums in order) then rounded to T
        const tol = dt === torch.float32 ? { rtol: 3e-7, atol: 1e-7 } : { rtol: 1e-13, atol: 1e-14 };
        const F = torch.nn.functional;
        const f = () => [
          ...(torch.native_group_norm(x, w, b, shape[0], shape[1], shape.slice(2).reduce((a, c) => a * c, 1), G, 1e-5) as torch.Tensor[]),
          F.group_norm(x, G, null, null, 1e-5),
          F.group_norm(x, G, w, null, 1e-3),
          F.group_norm(x, G, null, b, 0),
        ];
        compare(f, ["GroupNormKernel"], tol);
      });
    }
  }
  it("a non-contiguous input (spatial dims transposed) gives the TS kernel's values", () => {
    const x = randn([2, 4, 3, 5], torch.float32, 1).transpose(2, 3);
    compare(() => [torch.nn.functional.group_norm(x, 2)], ["GroupNormKernel"], { rtol: 3e-7, atol: 1e-7 });
  });
});

native("layer norm", () => {
  // ... [300, 129]: rows and columns both split between 2 threads, 16 full 8-lane blocks and a tail of 1
  const cases: [number[], number[]][] = [[[4, 7], [7]], [[3, 5, 33], [33]], [[2, 3, 4], [3, 4]], [[6, 1], [1]], [[2, 300], [300]], [[300, 129], [129]]];
  for (const dt of [torch.float32, torch.float64]) {
    for (const [shape, ns] of cases) {
      it(`${dt} ${JSON.stringify(shape)} normalized ${JSON.stringify(ns)}, with and without weight / bias`, () => {
        const x = randn(shape, dt, shape.reduce((a, b) => a + b));
        const w = randn(ns, dt, 5, 1), b = randn(ns, dt, 6, 1);
        // moments in double over 8 lanes (the TypeScript kernel sums in order) then rounded to T
        const tol = dt === torch.float32 ? { rtol: 3e-7, atol: 1e-7 } : { rtol: 1e-13, atol: 1e-14 };
        const f = () => [
          ...(torch.native_layer_norm(x, ns, w, b, 1e-5) as torch.Tensor[]),
          ...(torch.native_layer_norm(x, ns, null, null, 1e-5) as torch.Tensor[]),
          (torch.native_layer_norm(x, ns, w, null, 1e-3) as torch.Tensor[])[0],
          (torch.native_layer_norm(x, ns, null, b, 0) as torch.Tensor[])[0],
        ];
        compare(f, ["LayerNormKernel"], tol);
      });
    }
  }
  for (const dt of [torch.float32, torch.float64]) {
    for (const [shape, ns] of cases) {
      it(`backward ${dt} ${JSON.stringify(shape)} normalized ${JSON.stringify(ns)}: every output mask, with and without weight`, () => {
        const x = randn(shape, dt, 3 + shape[0]);
        const dy = randn(shape, dt, 4 + shape[0], 1);
        const w = randn(ns, dt, 5, 1), b = randn(ns, dt, 6, 1);
        const [, mean, rstd] = underTs(() => torch.native_layer_norm(x, ns, w, b, 1e-5) as torch.Tensor[]);
        // in double, the TypeScript kernel's loops; the row sums of the input gradient are split into 8 fixed lanes
        // here (vectorized) and summed in order there: float32 equal after the rounding but for a last-bit tie, float64
        // within a few ulp (the weight and bias gradients sum each column in row order on both: the same bits)
        const tol = dt === torch.float32 ? { rtol: 2.4e-7, atol: 1e-7 } : { rtol: 1e-13, atol: 1e-14 };
        for (const weight of [w, null]) {
          // (a weight gradient needs a weight)
          for (const mask of weight ? [[true, true, true], [true, false, false], [false, true, true]] : [[true, false, true], [true, false, false]]) {
            const f = () => (native_layer_norm_backward_default.call(dy, x, ns, mean, rstd, weight, b, mask) as (torch.Tensor | null)[]).filter((t): t is torch.Tensor => t !== null);
            compare(f, ["LayerNormBackwardKernel"], mask[0] ? tol : EXACT);
          }
        }
      });
    }
  }
  for (const dt of [torch.float32, torch.float64]) {
    it(`backward ${dt}: a strided weight and a strided gradient (made dense first), 2 threads splitting rows and columns`, () => {
      const x = randn([97, 403], dt, 11), dy = randn([403, 97], dt, 12, 1).t();
      const w = torch.select(randn([403, 2], dt, 13, 1), 1, 0), b = randn([403], dt, 14, 1);
      const [, mean, rstd] = underTs(() => torch.native_layer_norm(x, [403], w, b, 1e-5) as torch.Tensor[]);
      const f = () => (native_layer_norm_backward_default.call(dy, x, [403], mean, rstd, w, b, [true, true, true]) as torch.Tensor[]);
      compare(f, ["LayerNormBackwardKernel"], dt === torch.float32 ? { rtol: 2.4e-7, atol: 1e-7 } : { rtol: 1e-13, atol: 1e-14 });
    });
  }
  it("a strided input is made contiguous first and still runs natively", () => {
    const x = randn([8, 6], torch.float32, 9).t();
    compare(() => (torch.native_layer_norm(x, [8], null, null, 1e-5) as torch.Tensor[]).slice(0, 1), ["LayerNormKernel"], { rtol: 3e-7, atol: 1e-7 });
  });
});

native("batch norm", () => {
  // ... [2, 20, 33, 33]: the channels split between 2 threads, each image 136 full 8-lane blocks and a tail of 1
  const shapes = [[4, 3], [2, 5, 7], [3, 4, 5, 6], [1, 2, 17, 9], [2, 20, 33, 33]];
  for (const dt of [torch.float32, torch.float64]) {
    for (const shape of shapes) {
      it(`${dt} ${JSON.stringify(shape)} train (statistics and running stats) and eval`, () => {
        const C = shape[1];
        const x = randn(shape, dt, shape.length + C, 2);
        const w = randn([C], dt, 1, 1), b = randn([C], dt, 2, 1);
        const f = () => {
          const rm = torch.zeros([C], { dtype: dt }), rv = torch.ones([C], { dtype: dt });
          const train = torch.native_batch_norm(x, w, b, rm, rv, true, 0.1, 1e-5) as torch.Tensor[];
          const evalOut = (torch.native_batch_norm(x, w, b, rm, rv, false, 0.1, 1e-5) as torch.Tensor[])[0];
          return [...train, rm, rv, evalOut];
        };
        // the double statistics are summed over 8 lanes here, in order there: equal after the rounding to
        // float32; float64 within a few ulp
        compare(f, ["batch_norm_cpu_collect_stats_stub", "batch_norm_cpu_stub"], dt === torch.float32 ? { rtol: 2.4e-7, atol: 1e-7 } : { rtol: 1e-13, atol: 1e-14 });
      });
    }
  }
  for (const dt of [torch.float32, torch.float64]) {
    for (const shape of shapes) {
      it(`backward ${dt} ${JSON.stringify(shape)}: train and eval, every output mask`, () => {
        const C = shape[1];
        const x = randn(shape, dt, 20 + C, 2);
        const dy = randn(shape, dt, 21 + C, 1);
        const w = randn([C], dt, 1, 1);
        const rm = randn([C], dt, 2, 0.5), rv = torch.add(torch.rand([C], { dtype: dt }), 0.5);
        const [, sm, si] = underTs(() => torch.native_batch_norm(x, w, null, null, null, true, 0.1, 1e-5) as torch.Tensor[]);
        // the channel sums in double over 8 fixed lanes here (vectorized), in order there: float32 equal after the
        // rounding but for a last-bit tie, float64 within a few ulp
        const tol = dt === torch.float32 ? { rtol: 2.4e-7, atol: 1e-7 } : { rtol: 1e-13, atol: 1e-14 };
        for (const train of [true, false]) {
          for (const mask of [[true, true, true], [true, false, false], [false, true, true]]) {
            for (const weight of [w, null]) {
              const f = () => (native_batch_norm_backward_default.call(dy, x, weight, rm, rv, sm, si, train, 1e-5, mask) as (torch.Tensor | null)[]).filter((t): t is torch.Tensor => t !== null);
              compare(f, ["batch_norm_cpu_backward_stub"], tol);
            }
          }
        }
      });
    }
  }
  it("a strided input declines to the TypeScript kernels", () => {
    const x = randn([2, 5, 3, 4], torch.float32, 4).transpose(1, 3);
    const f = () => [(torch.native_batch_norm(x, null, null, torch.zeros([4]), torch.ones([4]), false, 0.1, 1e-5) as torch.Tensor[])[0]];
    compare(f, ["batch_norm_cpu_stub"], EXACT, "ts");
  });
});

native("pooling", () => {
  const F = torch.nn.functional;
  const cases: { shape: number[]; k: number[]; s: number[]; p: number[]; d: number[]; ceil: boolean }[] = [
    { shape: [2, 3, 8, 8], k: [2, 2], s: [2, 2], p: [0, 0], d: [1, 1], ceil: false },
    { shape: [1, 4, 9, 7], k: [3, 2], s: [2, 1], p: [1, 1], d: [1, 1], ceil: true },
    { shape: [3, 11, 13], k: [3, 3], s: [2, 3], p: [1, 0], d: [2, 1], ceil: false },
    { shape: [2, 2, 5, 5], k: [5, 5], s: [1, 1], p: [2, 2], d: [1, 1], ceil: false },
    { shape: [1, 1, 1, 1], k: [1, 1], s: [1, 1], p: [0, 0], d: [1, 1], ceil: false },
  ];
  for (const dt of [torch.float32, torch.float64]) {
    for (const c of cases) {
      it(`max_pool2d_with_indices, avg_pool2d ${dt} ${JSON.stringify(c)}`, () => {
        const x = randn(c.shape, dt, c.shape.reduce((a, b) => a * b));
        compare(() => [...(F.max_pool2d(x, c.k, { stride: c.s, padding: c.p, dilation: c.d, ceil_mode: c.ceil, return_indices: true }) as torch.Tensor[])], ["max_pool2d_kernel"], EXACT);
        // backward: overlapping windows add several gradients into one element (in output order)
        const [out, idx] = F.max_pool2d(x, c.k, { stride: c.s, padding: c.p, dilation: c.d, ceil_mode: c.ceil, return_indices: true }) as torch.Tensor[];
        const go = randn(out.shape, dt, 5, 1);
        compare(() => [max_pool2d_with_indices_backward_default.call(go, x, c.k, c.s, c.p, c.d, c.ceil, idx) as torch.Tensor], ["max_pool2d_backward_kernel"], EXACT);
        const pad = [Math.min(c.p[0], Math.floor(c.k[0] / 2)), Math.min(c.p[1], Math.floor(c.k[1] / 2))];
        for (const count_include_pad of [true, false]) {
          for (const divisor_override of [null, 3]) {
            compare(() => [F.avg_pool2d(x, c.k, { stride: c.s, padding: pad, ceil_mode: c.ceil, count_include_pad, divisor_override })], ["avg_pool2d_kernel"], EXACT);
            const ago = randn((F.avg_pool2d(x, c.k, { stride: c.s, padding: pad, ceil_mode: c.ceil }) as torch.Tensor).shape, dt, 6, 1);
            compare(() => [avg_pool2d_backward_default.call(ago, x, c.k, c.s, pad, c.ceil, count_include_pad, divisor_override) as torch.Tensor], ["avg_pool2d_backward_kernel"], EXACT);
          }
        }
      });
    }
    it(`adaptive_avg_pool2d ${dt}: shrinking, growing and uneven windows`, () => {
      const x = randn([2, 3, 10, 7], dt, 8);
      // (an output of 1 x 1 is a mean in adaptive_avg_pool2d, not this kernel)
      for (const size of [[2, 1], [3, 4], [10, 7], [13, 9], [4, 1]]) {
        compare(() => [F.adaptive_avg_pool2d(x, size)], ["adaptive_avg_pool2d_kernel"], EXACT);
        const go = randn([2, 3, ...size], dt, 9, 1);
        compare(() => [_adaptive_avg_pool2d_backward_default.call(go, x) as torch.Tensor], ["adaptive_avg_pool2d_backward_kernel"], EXACT);
      }
    });
  }
  it("NaN wins a max window, and its index is recorded", () => {
    const x = torch.tensor([[[[1, NaN, 3, 4], [5, 6, 7, NaN], [9, 10, -Infinity, 12], [13, 14, 15, 16]]]]);
    compare(() => [...(F.max_pool2d(x, [2, 2], { return_indices: true }) as torch.Tensor[])], ["max_pool2d_kernel"], EXACT);
  });
  it("max pooling's backward with an index outside its plane declines to the TypeScript kernel", () => {
    const x = randn([1, 2, 4, 4], torch.float32, 3);
    const go = randn([1, 2, 2, 2], torch.float32, 4, 1);
    const idx = torch.tensor([[[[0, 3], [9, 15]], [[1, 2], [16, 5]]]]);
    compare(() => [max_pool2d_with_indices_backward_default.call(go, x, [2, 2], [2, 2], [0, 0], [1, 1], false, idx) as torch.Tensor], ["max_pool2d_backward_kernel"], EXACT, "ts");
  });
  it("a strided input declines to the TypeScript kernel", () => {
    const x = randn([2, 6, 3, 6], torch.float32, 3).transpose(1, 2);
    compare(() => [F.max_pool2d(x, [2, 2]) as torch.Tensor], ["max_pool2d_kernel"], EXACT, "ts");
    compare(() => [F.avg_pool2d(x, [2, 2]) as torch.Tensor], ["avg_pool2d_kernel"], EXACT, "ts");
  });
});

native("index kernels", () => {
  /** Values of any dtype, as numbers (int64 through BigInt) for the comparisons. */
  const typed = (shape: number[], dt: torch.dtype, seed: number): torch.Tensor => {
    const x = randn(shape, torch.float64, seed, 5);
    return dt === torch.bool ? torch.gt(x, 0) : dt.is_floating_point ? x.to(dt) : torch.trunc(x).to(dt);
  };
  const randIndex = (shape: number[], bound: number, seed: number): torch.Tensor => {
    torch.manual_seed(seed);
    return torch.randint(0, bound, shape);
  };
  const DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool];

  for (const dt of DTYPES) {
    it(`index_select and embedding ${dt}: every dim, repeated and edge indices, an empty index`, () => {
      const x = typed([4, 5, 6], dt, 1);
      for (const dim of [0, 1, 2, -1]) {
        const size = x.shape[dim < 0 ? dim + 3 : dim];
        const idx = torch.tensor([size - 1, 0, 0, 1, size - 1]);
        compare(() => [torch.index_select(x, dim, idx)], ["index_select"], EXACT);
      }
      const one = typed([7], dt, 2);
      compare(() => [torch.index_select(one, 0, torch.tensor([6, 6, 0]))], ["index_select"], EXACT);
      expect(torch.index_select(x, 1, torch.tensor([], { dtype: torch.int64 })).shape).toEqual([4, 0, 6]);
      if (dt.is_floating_point) {
        const w = typed([10, 3], dt, 3);
        compare(() => [torch.nn.functional.embedding(torch.tensor([[1, 9, 9], [0, 4, 1]]), w)], ["index_select"], EXACT);
      }
    });
    it(`gather, scatter and scatter_add ${dt}: contiguous and strided operands, duplicates along dim`, () => {
      const self = typed([4, 6, 5], dt, 4);
      for (const dim of [0, 1, 2]) {
        const ishape = [3, 4, 5];
        ishape[dim] = 7; // longer than self along dim: indices repeat
        const index = randIndex(ishape, self.shape[dim], 5 + dim);
        const src = typed([7, 7, 7], dt, 6);
        compare(() => [torch.gather(self, dim, index)], ["gather_stub"], EXACT);
        compare(() => [torch.scatter(self, dim, index, src)], ["scatter_stub"], EXACT);
        if (dt !== torch.bool) compare(() => [torch.scatter_add(self, dim, index, src)], ["scatter_stub"], EXACT);
        // strided: a transposed self and src, an index read through a step
        const selfT = typed([5, 6, 4], dt, 7).permute([2, 1, 0]);
        const idxS = randIndex([ishape[0] * 2, ishape[1], ishape[2]], self.shape[dim], 8).slice(0, 0, null, 2);
        const srcT = typed([7, 7, 7], dt, 9).transpose(0, 2);
        compare(() => [torch.gather(selfT, dim, idxS)], ["gather_stub"], EXACT);
        if (dt !== torch.bool) compare(() => [torch.scatter_add(selfT, dim, idxS, srcT)], ["scatter_stub"], EXACT);
      }
      if (dt === torch.float32 || dt === torch.float64 || dt === torch.int64) {
        const index = randIndex([3, 6, 5], 4, 10);
        compare(() => [torch.scatter(self, 0, index, 2.75)], ["scatter_stub"], EXACT);
      }
    });
  }
  it("gather along a contiguous last dim (the units' vector gathers): 4- and 8-byte elements, vector lanes and tails, a bad index in a lane", () => {
    for (const dt of [torch.float32, torch.int32, torch.float64, torch.int64]) {
      const self = typed([3, 50], dt, 11);
      for (const len of [8, 37, 64]) {
        const index = randIndex([3, len], 50, 12 + len);
        compare(() => [torch.gather(self, 1, index)], ["gather_stub"], EXACT);
      }
      // NaN payloads and -0 move as bits (a gather instruction loads, it computes nothing)
      if (dt.is_floating_point) {
        const special = self.clone();
        special.set(0, 3, NaN);
        special.set(1, 7, -0);
        compare(() => [torch.gather(special, 1, torch.tensor([[3, 3, 0, 1, 2, 3, 4, 5, 3], [7, 7, 7, 7, 7, 7, 7, 7, 7], [0, 0, 0, 0, 0, 0, 0, 0, 0]]))], ["gather_stub"], EXACT);
      }
    }
    const x = randn([4, 40], torch.float32, 13);
    for (const unit of UNITS) {
      if (!_set_native_isa(unit)) continue;
      for (const [pos, v] of [[5, 40], [17, -1], [33, 1 << 40]] as const) {
        const idx = randIndex([4, 36], 40, 14);
        idx.set(2, pos, v);
        expect(() => torch.gather(x, 1, idx), `${unit}: index ${v} at ${pos}`).toThrow(`index ${v} is out of bounds for dimension 1 with size 40`);
      }
    }
  });
  it("scatter_reduce sum and mean run natively; prod, amax and amin stay in TypeScript", () => {
    const self = randn([4, 5], torch.float32, 1), src = randn([6, 5], torch.float32, 2);
    const index = randIndex([6, 5], 4, 3);
    for (const reduce of ["sum", "mean"]) {
      for (const include_self of [true, false]) compare(() => [torch.scatter_reduce(self, 0, index, src, reduce, { include_self })], ["scatter_stub"], EXACT);
    }
    compare(() => [torch.scatter_reduce(self, 0, index, src, "amax")], ["scatter_stub"], EXACT, "ts");
  });
  it("an index out of range raises the TypeScript kernel's PyTorch error, and nothing is written", () => {
    const x = randn([3, 4], torch.float32, 1);
    const bad = torch.tensor([[0, 1, 2, 3]]);
    expect(() => torch.gather(x, 0, bad)).toThrow("index 3 is out of bounds for dimension 0 with size 3");
    const target = torch.zeros([3, 4]);
    expect(() => target.scatter_(0, torch.tensor([[0, 1, 2, -1]]), x)).toThrow("index -1 is out of bounds for dimension 0 with size 3");
    expect(() => torch.index_select(x, 1, torch.tensor([4]))).toThrow("index out of range in self");
    // long indices (checked over the pool, by the OR of the values first): one bad value deep inside, for a
    // power-of-two size (the OR is caught) and another (each value compared), int64 and int32, and negative
    const table = randn([64, 5], torch.float32, 4), odd = randn([60, 5], torch.float32, 5);
    for (const dtype of [torch.int64, torch.int32]) {
      for (const [t, bad] of [[table, 64], [odd, 60], [table, -1], [odd, -3]] as const) {
        const idx = randIndex([70000], 60, 6).to(dtype);
        expect(() => torch.index_select(t, 0, idx), `${dtype} in range`).not.toThrow();
        idx.set(51234, bad);
        expect(() => torch.index_select(t, 0, idx), `${dtype} ${bad}`).toThrow("index out of range in self");
        expect(() => torch.nn.functional.embedding(idx, t), `embedding ${dtype} ${bad}`).toThrow("index out of range in self");
      }
    }
    // the scatters' range check ORs the indices first: an OR below the bound settles it, else each is compared
    const src = randn([64, 1024], torch.float32, 2);
    const idx = randIndex([64, 1024], 1024, 3);
    idx.set(40, 700, 1024); // one past a power-of-two bound, deep inside
    const y = torch.zeros([64, 1024]), want = torch.zeros([64, 1024]);
    expect(() => y.scatter_add_(1, idx, src)).toThrow("index 1024 is out of bounds for dimension 1 with size 1024");
    expect(() => underTs(() => want.scatter_add_(1, idx, src))).toThrow("index 1024 is out of bounds for dimension 1 with size 1024");
    // nothing written natively: self as the TypeScript kernel alone leaves it (the rows before the bad index)
    expect(y.sub(want).abs().max().item()).toBe(0);
    expect(y.abs().sum().item()).toBeGreaterThan(0);
    // a bound that is not a power of two: the OR of valid indices passes it, and every index is compared
    compare(() => [torch.zeros([64, 1000]).scatter_add_(1, randIndex([64, 1024], 1000, 4), src)], ["scatter_stub"], EXACT);
  });
  for (const dt of [torch.float32, torch.float64]) {
    it(`embedding_dense_backward ${dt}: repeated indices, padding_idx, scale_grad_by_freq`, () => {
      const idx = torch.tensor([[1, 3, 3, 7], [0, 3, 1, 9]]);
      const grad = randn([2, 4, 6], dt, 4, 1);
      for (const padding of [-1, 3, 0]) {
        for (const scale of [false, true]) {
          compare(() => [embedding_dense_backward_default.call(grad, idx, 10, padding, scale) as torch.Tensor], ["embedding_dense_backward_cpu"], EXACT);
        }
      }
      // many rows: split between the threads
      const big = randIndex([3000], 700, 5);
      const g2 = randn([3000, 16], dt, 6, 1);
      compare(() => [embedding_dense_backward_default.call(g2, big, 700, 5, true) as torch.Tensor], ["embedding_dense_backward_cpu"], EXACT);
    });
  }
});

native("nll_loss", () => {
  const F = torch.nn.functional;
  for (const dt of [torch.float32, torch.float64]) {
    it(`forward and backward ${dt}: every reduction, weights, ignore_index, batch sizes across the cascade's levels`, () => {
      for (const [N, C, ignore_index] of [[1, 3, -100], [40, 10, 1], [300, 4, 2]]) {
        const x = randn([N, C], dt, N + C);
        torch.manual_seed(N);
        const target = torch.randint(0, C, [N]);
        const weight = torch.add(torch.rand([C], { dtype: dt }), 0.5);
        for (const reduction of ["none", "mean", "sum"]) {
          for (const w of [null, weight]) {
            {
              compare(() => [F.nll_loss(x, target, { weight: w, reduction, ignore_index })], ["nll_loss_out_frame"], EXACT);
              if (reduction === "sum") continue;
              // the backward through autograd: cross_entropy = log_softmax + nll_loss
              const f = () => {
                const xs = x.detach().requires_grad_(true);
                const loss = F.nll_loss(xs, target, { weight: w, reduction, ignore_index });
                (reduction === "none" ? torch.sum(torch.mul(loss, torch.arange(N, { dtype: dt }))) : loss).backward();
                return [xs.grad!];
              };
              compare(f, ["nll_loss_backward_out_frame"], EXACT);
            }
          }
        }
      }
    }, 30_000);
  }
  it("a 1-d input with a 0-d target, and a target out of range (the TypeScript kernel's error)", () => {
    const x = randn([5], torch.float32, 1);
    compare(() => [F.nll_loss(x, torch.tensor(3))], ["nll_loss_out_frame"], EXACT);
    expect(() => F.nll_loss(randn([2, 5], torch.float32, 2), torch.tensor([1, 5]))).toThrow("Target 5 is out of bounds.");
  });
});
