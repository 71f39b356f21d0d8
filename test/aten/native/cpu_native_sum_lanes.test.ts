// The native float sums' order of additions, pinned down (native/cpu/pointwise_kernels.inc: sum64,
// sum_float_runs_rows and their short- and medium-row forms; Reductions.cc: the rows, blocks and
// columns around them). A model of that order in plain doubles, written here from the comments, must
// give the same bits as every native unit on rows of every length: the short (n < 64) and medium
// (one float run per lane) forms are rewrites of the same additions for speed, and this is what says
// they still are.
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { bestIsa, kernelsRan, nativeIt, runnableIsas } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();
const defaultThreads = torch.get_num_threads();

afterEach(() => {
  torch.set_num_threads(defaultThreads);
  if (ISAS.length > 0) _set_native_isa(bestIsa as any);
});

const LANES = 64, FLOAT_RUN = 16, BLOCK = 32768;

/** 64 lanes combined pairwise: lane j += lane j + d for d = 32, 16, ..., 1. */
function combine(acc: Float64Array): number {
  for (let d = LANES / 2; d >= 1; d /= 2) for (let j = 0; j < d; j++) acc[j] += acc[j + d];
  return acc[0];
}

/**
 * One contiguous run of x (at most a block): element i in lane i % 64. floatRuns: each lane first adds
 * up to FLOAT_RUN of its elements in float32, and that run joins the lane's double; the last n % 64
 * elements join as one more (zero-padded) block. Otherwise every element joins its lane's double.
 */
function rowSum(x: ArrayLike<number>, from: number, n: number, floatRuns: boolean): number {
  const acc = new Float64Array(LANES);
  let i = 0;
  while (i + LANES <= n) {
    const blocks = floatRuns ? Math.min(FLOAT_RUN, Math.floor((n - i) / LANES)) : 1;
    const run = new Float64Array(LANES);
    for (let b = 0; b < blocks; b++, i += LANES)
      for (let l = 0; l < LANES; l++) run[l] = floatRuns ? Math.fround(run[l] + x[from + i + l]) : run[l] + x[from + i + l];
    for (let l = 0; l < LANES; l++) acc[l] += run[l];
  }
  if (i < n) for (let l = 0; l < LANES; l++) acc[l] += i + l < n ? x[from + i + l] : 0;
  return combine(acc);
}

/** A whole row: blocks of BLOCK elements, each block's sum as rowSum, the block sums added in order. */
function modelSum(x: ArrayLike<number>, floatRuns: boolean): number {
  if (x.length <= BLOCK) return rowSum(x, 0, x.length, floatRuns);
  let s = 0;
  for (let b = 0; b < x.length; b += BLOCK) s += rowSum(x, b, Math.min(BLOCK, x.length - b), floatRuns);
  return s;
}

/** Values of many magnitudes and both signs (so that the order of additions shows in the bits), with -0. */
function values(n: number, seed: number): number[] {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  return Array.from({ length: n }, (_, i) => (i % 97 === 13 ? -0 : Math.fround((next() - 0.5) * 10 ** Math.floor(next() * 12 - 6))));
}

const LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 300, 1000, 1023, 1024, 1087, 1088, 1089, 2049, 5000, 40000,
  // blocks four at a time (Reductions.cc's streams), then three, then the short last one alone
  8 * 32768 + 77];

describe("native float sums add in the documented lane order", () => {
  nativeIt("float32 -> float32 (float runs), float64, and float32 -> float64, rows of every length, on every unit", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const n of LENGTHS) {
        const x = values(n, n + 1);
        const f32 = torch.tensor(x, { dtype: torch.float32 }), f64 = torch.tensor(x, { dtype: torch.float64 });
        const what = `[${isa}] n=${n}`;
        expect(kernelsRan(() => torch.sum(f32)), what).toContain("sum_stub:native");
        expect(Object.is(torch.sum(f32).item(), Math.fround(modelSum(x, true))), `float32 ${what}`).toBe(true);
        expect(Object.is(torch.sum(f64).item(), modelSum(x, false)), `float64 ${what}`).toBe(true);
        expect(Object.is(torch.sum(f32, { dtype: torch.float64 }).item(), modelSum(x, false)), `float32 -> float64 ${what}`).toBe(true);
        if (n > 4 * BLOCK) {  // one thread: a single chunk of every block, four at a time
          torch.set_num_threads(1);
          expect(Object.is(torch.sum(f32).item(), Math.fround(modelSum(x, true))), `float32 ${what} one thread`).toBe(true);
          torch.set_num_threads(defaultThreads);
        }
      }
    }
  });

  nativeIt("many rows at once (sum over the last dim), each row as alone, on any thread count", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const n of [0, 1, 6, 8, 40, 63, 64, 65, 200, 1000, 1100, 2100]) {
        const rows = 37, x = values(rows * n, 7 * n + 3);
        const t = torch.tensor(x, { dtype: torch.float32 }).reshape(rows, n);
        const want = Array.from({ length: rows }, (_, r) => Math.fround(modelSum(x.slice(r * n, (r + 1) * n), true)));
        for (const threads of [1, 2, 3]) {
          torch.set_num_threads(threads);
          const got = torch.sum(t, 1).tolist() as number[];
          const bad = got.findIndex((v, r) => !Object.is(v, want[r]));
          expect(bad === -1 ? null : { row: bad, got: got[bad], want: want[bad] }, `[${isa}] n=${n} threads=${threads}`).toBeNull();
        }
        // the same rows as a strided view (every other row of a taller tensor): the cursor's steps
        const tall = torch.tensor([...x, ...x], { dtype: torch.float32 }).reshape(2, rows, n).transpose(0, 1).get(":", 0);
        const got = torch.sum(tall, 1).tolist() as number[];
        expect(got.every((v, r) => Object.is(v, want[r])), `[${isa}] strided n=${n}`).toBe(true);
      }
    }
  });
});
