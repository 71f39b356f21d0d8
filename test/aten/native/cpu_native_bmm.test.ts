// The native batched GEMM (native/cpu/Bmm.cc under bmm_stub, NativeBmm.ts) against a float64 reference
// and the TypeScript kernel (one gemm_stub call per batch item): each GEMM (own, CBLAS), each
// instruction-set unit, 1 and 2 threads; float32 and float64; batches contiguous, transposed, strided,
// sliced, broadcast (batch stride 0) and batch-innermost; sizes 0, 1 and odd tails; alpha/beta; C
// items that overlap (run in order, as the loop does); and bmm, baddbmm, matmul's broadcast batch
// through the ops, native vs TypeScript. (The PyTorch values of bmm/baddbmm/matmul are checked on both
// paths by linalg.test.ts: vitest.config.ts's ts-kernels project runs it on the TypeScript kernels.)
//
// Tolerance: each element against the float64 product within |C - C64| <= (k + 2) u (|A| @ |B| + |beta C0|),
// u = 2^-24 (float32) or 2^-53 (float64), as cpu_native_gemm.test.ts: a wrong item, index or stride is
// off by the size of the values. The own GEMM runs each item as one whole product on one thread, so its
// bits do not depend on the thread count nor on being batched: those checks are exact.
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import type { Tensor } from "../../../engine/aten/core/Tensor.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { bmm_stub, type BatchedGemmOperand } from "../../../engine/aten/native/linalg/BatchedGemm.js";
import { ScalarType } from "../../../engine/c10/ScalarType.js";
import { _set_native_isa, _set_native_blas, nativeAddon } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { bestIsa, nativeIt, nativeStatus, restoreNativeDefaults, underTs } from "../../support/native_paths.js";

const status = nativeStatus, native = nativeIt, best = bestIsa;
const cblasLinked = status.loaded && status.addon!.gemm.cblas_linked;

afterEach(restoreNativeDefaults);

const ISAS = (["DEFAULT", "AVX2", "AVX512"] as const).filter((isa) => !status.loaded || isa === "DEFAULT" || (isa === "AVX2" ? best !== "DEFAULT" : best === "AVX512"));
const BLASES = cblasLinked ? (["own", "cblas"] as const) : (["own"] as const);
type Config = { blas: "own" | "cblas"; isa: string; threads: number };
function configs(): Config[] {
  const out: Config[] = [];
  for (const blas of BLASES) for (const threads of [1, 2]) for (const isa of blas === "cblas" ? [best] : ISAS) out.push({ blas, isa, threads });
  return out;
}
function use(c: Config): void {
  expect(_set_native_blas(c.blas)).toBe(true);
  expect(_set_native_isa(c.isa as any)).toBe(true);
  torch.set_num_threads(c.threads);
}
const label = (c: Config) => `${c.blas}/${c.isa}/${c.threads}t`;

function values(n: number, seed: number): number[] {
  let s = seed >>> 0 || 1;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    out.push((s / 4294967296) * 2 - 1);
  }
  return out;
}

type Kind = "row" | "col" | "gap" | "bcast" | "inner" | "overlap";
interface Layout { bs: number; rs: number; cs: number; offset: number; length: number }
/**
 * batch x rows x cols: items row-major or column-major one after another, sliced with gaps, one item
 * for every batch index (bs 0, matmul's expanded batch), batch innermost (bs 1, a permuted tensor),
 * or (C only) every item at the same place, accumulated in order.
 */
function layout(batch: number, rows: number, cols: number, kind: Kind): Layout {
  const offset = 3, item = rows * cols;
  switch (kind) {
    case "row": return { bs: item, rs: cols, cs: 1, offset, length: offset + batch * item };
    case "col": return { bs: item, rs: 1, cs: rows, offset, length: offset + batch * item };
    case "bcast":
    case "overlap": return { bs: 0, rs: cols, cs: 1, offset, length: offset + item };
    case "inner": return { bs: 1, rs: cols * batch, cs: batch, offset, length: offset + batch * item };
    case "gap": {
      const rs = 2 * cols + 5, bs = rows * rs + 7;
      return { bs, rs, cs: 2, offset, length: offset + batch * bs + 1 };
    }
  }
}

interface Case { batch: number; m: number; n: number; k: number; alpha: number; beta: number; la: Kind; lb: Kind; lc: Kind }

function run(dtype: "f32" | "f64", c: Case, impl: "native" | "ts" | null) {
  const Arr = dtype === "f32" ? Float32Array : Float64Array;
  const LA = layout(c.batch, c.m, c.k, c.la), LB = layout(c.batch, c.k, c.n, c.lb), LC = layout(c.batch, c.m, c.n, c.lc);
  const A = Arr.from(values(LA.length, 11 + c.m + c.batch)), B = Arr.from(values(LB.length, 23 + c.n)), C = Arr.from(values(LC.length, 37 + c.k));
  const C0 = Float64Array.from(C);
  const op = (data: Float32Array | Float64Array, L: Layout): BatchedGemmOperand => ({ data, offset: L.offset, bs: L.bs, rs: L.rs, cs: L.cs });
  set_cpu_capability(impl);
  try {
    bmm_stub.call("cpu", {
      deviceType: "cpu", dtype: dtype === "f32" ? ScalarType.Float : ScalarType.Double, batch: c.batch, m: c.m, n: c.n, k: c.k, alpha: c.alpha, beta: c.beta,
      a: op(A, LA), b: op(B, LB), c: op(C, LC),
    });
  } finally {
    set_cpu_capability(null);
  }
  return { A, B, C, C0, LA, LB, LC };
}

/** C against the float64 product of every item in order (overlapping C items accumulate), elements outside C untouched. */
function check(dtype: "f32" | "f64", c: Case, r: ReturnType<typeof run>, what: string): void {
  const u = dtype === "f32" ? 2 ** -24 : 2 ** -53;
  const { A, B, C, C0, LA, LB, LC } = r;
  const want = Float64Array.from(C0), bound = new Float64Array(C0.length);
  const touched = new Uint8Array(C.length);
  for (let b = 0; b < c.batch; b++) {
    for (let i = 0; i < c.m; i++) {
      for (let j = 0; j < c.n; j++) {
        let s = 0, abs = 0;
        for (let q = 0; q < c.k; q++) {
          const p = A[LA.offset + b * LA.bs + i * LA.rs + q * LA.cs] * B[LB.offset + b * LB.bs + q * LB.rs + j * LB.cs];
          s += p;
          abs += Math.abs(p);
        }
        const o = LC.offset + b * LC.bs + i * LC.rs + j * LC.cs;
        touched[o] = 1;
        // the previous value's own error scaled by |beta|, plus this step's
        bound[o] = Math.abs(c.beta) * bound[o] + (c.k + 2) * u * (Math.abs(c.alpha) * abs + Math.abs(c.beta * want[o])) + (dtype === "f32" ? 1e-30 : 0);
        want[o] = c.alpha * s + (c.beta === 0 ? 0 : c.beta * want[o]);
      }
    }
  }
  for (let o = 0; o < C.length; o++) {
    if (touched[o]) {
      if (!(Math.abs(C[o] - want[o]) <= bound[o])) throw new Error(`${what}: C at ${o} = ${C[o]}, float64 ${want[o]}, bound ${bound[o]} (${JSON.stringify(c)})`);
    } else if (C[o] !== C0[o]) {
      throw new Error(`${what}: wrote outside C at ${o} (${JSON.stringify(c)})`);
    }
  }
}

// batch, m, n, k: empty batch and items, k = 0, single elements, odd tails around the micro-tiles
// (MR 12/6, NR 32/16/8), the attention shape [*, 64, 32] x [*, 32, 64], and items large enough that
// the GEMM threads them itself (one after another)
const SIZES: [number, number, number, number][] = [
  [0, 3, 4, 5], [3, 0, 4, 5], [3, 4, 0, 5], [4, 3, 5, 0], [1, 1, 1, 1], [7, 1, 1, 1], [5, 1, 9, 7], [6, 9, 1, 7],
  [3, 13, 17, 19], [9, 12, 33, 5], [2, 2, 2, 2], [16, 64, 64, 32], [3, 130, 70, 150],
];
const LAYOUTS: [Kind, Kind, Kind][] = [
  ["row", "row", "row"], ["col", "col", "col"], ["row", "col", "row"], ["gap", "gap", "gap"], ["bcast", "row", "row"], ["row", "bcast", "gap"],
  ["inner", "inner", "inner"], ["row", "row", "overlap"],
];

/** The first index where two arrays' bits differ, -1 if none (a large array's diff would swamp the report). */
function firstDifference(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) return 0;
  for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return i;
  return -1;
}

describe("bmm_stub: the native batched GEMM against a float64 reference", () => {
  native("every size and layout, on each GEMM, instruction-set unit and thread count, float32 and float64, alpha/beta", () => {
    for (const cfg of configs()) {
      use(cfg);
      for (const dtype of ["f32", "f64"] as const) {
        for (const [batch, m, n, k] of SIZES) {
          for (const [la, lb, lc] of LAYOUTS) {
            for (const [alpha, beta] of [[1, 0], [0.5, 1], [-2, 0.25]] as [number, number][]) {
              // the large items on fewer combinations, to keep the file quick
              if (m * n * k > 2e5 && (alpha === 0.5 || dtype === "f64" || la === "gap")) continue;
              if (dtype === "f64" && alpha === 0.5) continue;
              const c: Case = { batch, m, n, k, alpha, beta, la, lb, lc };
              check(dtype, c, run(dtype, c, "native"), label(cfg));
            }
          }
        }
      }
    }
  }, 60_000);

  native("the TypeScript kernel (one gemm per item) meets the same reference", () => {
    for (const [batch, m, n, k] of [[3, 13, 17, 19], [5, 1, 9, 7], [4, 3, 5, 0]] as [number, number, number, number][]) {
      for (const [la, lb, lc] of LAYOUTS) {
        const c: Case = { batch, m, n, k, alpha: 0.5, beta: 1, la, lb, lc };
        check("f32", c, run("f32", c, "ts"), "ts");
      }
    }
  });

  native("the own GEMM: the same bits on 1 and 2 threads, and the same bits as one native gemm per item", () => {
    for (const isa of ISAS) {
      for (const [batch, m, n, k] of [[16, 64, 64, 32], [3, 130, 70, 150], [9, 12, 33, 5]] as [number, number, number, number][]) {
        const c: Case = { batch, m, n, k, alpha: 1, beta: 0, la: "row", lb: "col", lc: "row" };
        const results: Float32Array[] = [];
        for (const threads of [1, 2]) {
          use({ blas: "own", isa, threads });
          results.push(run("f32", c, "native").C as Float32Array);
        }
        expect(firstDifference(results[1], results[0]), `${isa} threads`).toBe(-1);
        // the loop of native gemm_stub calls: bmm_stub's TypeScript kernel with the native gemm
        const saved = (bmm_stub as any).nativeImpl;
        (bmm_stub as any).nativeImpl = null;
        try {
          const loop = run("f32", c, null).C; // bmm_stub's TypeScript loop, gemm_stub's native kernel per item
          expect(firstDifference(loop, results[0]), `${isa} loop`).toBe(-1);
        } finally {
          (bmm_stub as any).nativeImpl = saved;
        }
      }
    }
  });

  native("declines what it does not take: int dtypes (the TypeScript loop runs), an output sharing storage with an input", () => {
    // integers: exact
    const A = Int32Array.from({ length: 2 * 3 * 4 }, (_, i) => (i % 7) - 3), B = Int32Array.from({ length: 2 * 4 * 5 }, (_, i) => (i % 5) - 2);
    const C = new Int32Array(2 * 3 * 5);
    bmm_stub.call("cpu", {
      deviceType: "cpu", dtype: ScalarType.Int, batch: 2, m: 3, n: 5, k: 4, alpha: 1, beta: 0,
      a: { data: A, offset: 0, bs: 12, rs: 4, cs: 1 }, b: { data: B, offset: 0, bs: 20, rs: 5, cs: 1 }, c: { data: C, offset: 0, bs: 15, rs: 5, cs: 1 },
    });
    for (let b = 0; b < 2; b++) for (let i = 0; i < 3; i++) for (let j = 0; j < 5; j++) {
      let s = 0;
      for (let q = 0; q < 4; q++) s += A[b * 12 + i * 4 + q] * B[b * 20 + q * 5 + j];
      expect(C[b * 15 + i * 5 + j]).toBe(s);
    }
    // C inside A's storage: the TypeScript kernel packs the operands before writing, as before
    const S = Float32Array.from(values(2 * 4 * 4 + 2 * 16, 5));
    const want = Float32Array.from(S);
    set_cpu_capability("ts");
    bmm_stub.call("cpu", {
      deviceType: "cpu", dtype: ScalarType.Float, batch: 2, m: 4, n: 4, k: 4, alpha: 1, beta: 0,
      a: { data: want, offset: 0, bs: 16, rs: 4, cs: 1 }, b: { data: want, offset: 0, bs: 16, rs: 1, cs: 4 }, c: { data: want, offset: 32, bs: 16, rs: 4, cs: 1 },
    });
    set_cpu_capability(null);
    bmm_stub.call("cpu", {
      deviceType: "cpu", dtype: ScalarType.Float, batch: 2, m: 4, n: 4, k: 4, alpha: 1, beta: 0,
      a: { data: S, offset: 0, bs: 16, rs: 4, cs: 1 }, b: { data: S, offset: 0, bs: 16, rs: 1, cs: 4 }, c: { data: S, offset: 32, bs: 16, rs: 4, cs: 1 },
    });
    expect(Array.from(S)).toEqual(Array.from(want));
  });

  native("the addon rejects out-of-bounds operands and a short meta", () => {
    const A = new Float32Array(10), B = new Float32Array(10), C = new Float32Array(10);
    // batch 2 of 2 x 2 with batch stride 4: A needs 8 elements from offset 3 (up to 10): out of bounds
    const meta = Float64Array.from([2, 2, 2, 2, 1, 0, 3, 4, 2, 1, 0, 4, 2, 1, 0, 4, 2, 1]);
    expect(() => nativeAddon!.bmm(6, meta, A, B, C)).toThrow(/out of bounds/);
    meta[6] = 0;
    expect(nativeAddon!.bmm(6, meta, A, B, C)).toBe(true);
    expect(nativeAddon!.bmm(3, meta, A, B, C)).toBe(false); // int32: not taken
    expect(() => nativeAddon!.bmm(6, new Float64Array(14), A, B, C)).toThrow(/Float64Array of 18/);
  });
});

// ---- the ops: native vs TypeScript ----

function expectClose(a: Tensor, b: Tensor, rtol: number, what: string): void {
  expect(a.shape, what).toEqual(b.shape);
  expect(a.dtype, what).toBe(b.dtype);
  const x = a.contiguous().tolist().flat(4) as number[], y = b.contiguous().tolist().flat(4) as number[];
  const scale = Math.max(1, ...y.map(Math.abs));
  for (let i = 0; i < x.length; i++) if (!(Math.abs(x[i] - y[i]) <= rtol * scale)) throw new Error(`${what}: element ${i}: ${x[i]} vs ${y[i]}`);
}

describe("bmm, baddbmm, matmul (batched) on the native batched GEMM vs the TypeScript kernels", () => {
  native("contiguous, transposed, sliced and broadcast batches; out=; float32 and float64; 1 and 2 threads", () => {
    torch.manual_seed(3);
    for (const threads of [1, 2]) {
      torch.set_num_threads(threads);
      for (const dtype of [torch.float32, torch.float64]) {
        const rtol = dtype === torch.float32 ? 1e-5 : 1e-12;
        const a = torch.randn(6, 9, 7, { dtype }), b = torch.randn(6, 7, 11, { dtype });
        const at = torch.randn(6, 7, 9, { dtype }).transpose(1, 2), bt = torch.randn(11, 7, 6, { dtype }).permute(2, 1, 0);
        const big = torch.randn(12, 9, 14, { dtype });
        const sliced = big.narrow(0, 2, 6).narrow(2, 3, 7); // strided items at an offset
        const self = torch.randn(6, 1, 11, { dtype });
        const cases: [string, () => Tensor][] = [
          ["bmm", () => torch.bmm(a, b)],
          ["bmm transposed", () => torch.bmm(at, bt)],
          ["bmm sliced", () => torch.bmm(sliced, b)],
          ["baddbmm", () => torch.baddbmm(self, a, b, { beta: 0.5, alpha: -1.5 })],
          ["matmul broadcast batch", () => torch.matmul(torch.randn(1, 9, 7, { dtype }).expand(6, 9, 7), b)],
          ["matmul 4-D broadcast", () => torch.matmul(a.reshape(2, 3, 9, 7), b.reshape(2, 3, 7, 11).narrow(0, 0, 1))],
          ["bmm out= transposed", () => { const o = torch.empty(6, 11, 9, { dtype }).transpose(1, 2); torch.bmm(a, b, { out: o }); return o; }],
          ["baddbmm_", () => self.expand(6, 9, 11).clone().baddbmm_(a, b)],
          ["bmm empty", () => torch.bmm(torch.randn(0, 3, 4, { dtype }), torch.randn(0, 4, 5, { dtype }))],
          ["bmm k=0", () => torch.baddbmm(self, torch.randn(6, 9, 0, { dtype }), torch.randn(6, 0, 11, { dtype }), { beta: 2 })],
        ];
        for (const [name, f] of cases) {
          const seed = 100 + name.length;
          torch.manual_seed(seed);
          const n = f();
          torch.manual_seed(seed);
          const t = underTs(f);
          expectClose(n, t, rtol, `${name} ${dtype} ${threads}t`);
        }
      }
    }
  });

  native("bmm's gradients (bmm of the transposed operands) agree native vs TypeScript", () => {
    const run = () => {
      torch.manual_seed(7);
      const a = torch.randn(5, 8, 6, { requires_grad: true }), b = torch.randn(5, 6, 10, { requires_grad: true });
      torch.bmm(a, b).pow(2).sum().backward();
      return [a.grad!, b.grad!];
    };
    const n = run(), t = underTs(run);
    expectClose(n[0], t[0], 1e-5, "grad a");
    expectClose(n[1], t[1], 1e-5, "grad b");
  });
});
