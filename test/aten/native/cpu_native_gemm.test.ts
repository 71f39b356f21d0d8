// The native GEMM (native/cpu/Gemm.cc, gemm_kernels.inc) and the native convolution (Conv.cc) against
// the TypeScript kernels and a float64 reference: both GEMMs (the own blocked one and the linked
// CBLAS), each instruction-set unit, 1 and 2 threads; sizes 0 and 1, odd tails, transposed, strided,
// sliced and broadcast operands, strided outputs, alpha/beta; every op built on gemm_stub; conv2d with
// stride, padding, dilation, groups and strided inputs, forward and backward. (The PyTorch values of
// these ops are checked on both paths by linalg.test.ts and conv.test.ts: vitest.config.ts's ts-kernels
// project runs them on the TypeScript kernels.)
//
// Tolerance: a float32 GEMM sums in another order than the TypeScript kernel (vector lanes, K blocks,
// FMA), so each element is checked against the float64 product within the classic bound
// |C - C64| <= (k + 2) * u * (|A| @ |B| + |beta| |C0|) with u = 2^-24 (float32) or 2^-53 (float64): a
// wrong element, index or stride is off by the size of the values, far beyond it.
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import type { Tensor } from "../../../engine/aten/core/Tensor.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { gemm_stub } from "../../../engine/aten/native/linalg/Gemm.js";
import { ScalarType } from "../../../engine/c10/ScalarType.js";
import { _set_native_isa, _set_native_blas, nativeAddon } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { SMALL_GEMM_FLOPS } from "../../../engine/aten/native/cpu_native/NativeGemm.js";
import { bestIsa, nativeIt, nativeStatus, restoreNativeDefaults, underTs } from "../../support/native_paths.js";

const status = nativeStatus, native = nativeIt, best = bestIsa;
const cblasLinked = status.loaded && status.addon!.gemm.cblas_linked;

afterEach(() => {
  restoreNativeDefaults();
  if (status.loaded) nativeAddon!.set_gemm_path("auto");
});

const ISAS = (["DEFAULT", "AVX2", "AVX512"] as const).filter((isa) => !status.loaded || isa === "DEFAULT" || (isa === "AVX2" ? best !== "DEFAULT" : best === "AVX512"));
const BLASES = cblasLinked ? (["own", "cblas"] as const) : (["own"] as const);

/** Every (blas, isa, threads) configuration; the CBLAS one does not depend on the ISA unit, so it runs once per thread count. */
function configs(): { blas: "own" | "cblas"; isa: string; threads: number }[] {
  const out: { blas: "own" | "cblas"; isa: string; threads: number }[] = [];
  for (const blas of BLASES) for (const threads of [1, 2]) for (const isa of blas === "cblas" ? [best] : ISAS) out.push({ blas, isa, threads });
  return out;
}
function use(c: { blas: "own" | "cblas"; isa: string; threads: number }): void {
  expect(_set_native_blas(c.blas)).toBe(true);
  expect(_set_native_isa(c.isa as any)).toBe(true);
  torch.set_num_threads(c.threads);
  set_cpu_capability("native");
}
const label = (c: { blas: string; isa: string; threads: number }) => `${c.blas}/${c.isa}/${c.threads}t`;

// ---- the kernel itself: gemm_stub on raw arrays with arbitrary strides ----

/** A pseudo-random array (fixed seed: failures reproduce). */
function values(n: number, seed: number): number[] {
  let s = seed >>> 0 || 1;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    out.push((s / 4294967296) * 2 - 1);
  }
  return out;
}

interface Layout { rs: number; cs: number; offset: number; length: number }
/** rows x cols stored row-major, column-major, or with gaps (a slice of a larger matrix), at an offset. */
function layout(rows: number, cols: number, kind: "row" | "col" | "gap" | "bcast"): Layout {
  const offset = 3;
  if (kind === "row") return { rs: cols, cs: 1, offset, length: offset + rows * cols };
  if (kind === "col") return { rs: 1, cs: rows, offset, length: offset + rows * cols };
  if (kind === "bcast") return { rs: 0, cs: 1, offset, length: offset + cols }; // every row the same (expand)
  return { rs: 2 * cols + 5, cs: 2, offset, length: offset + rows * (2 * cols + 5) + 1 };
}

interface Case { m: number; n: number; k: number; alpha: number; beta: number; la: string; lb: string; lc: string }

function runStub(dtype: "f32" | "f64", c: Case, impl: "native" | "ts") {
  const { m, n, k } = c;
  const Arr = dtype === "f32" ? Float32Array : Float64Array;
  const LA = layout(m, k, c.la as any), LB = layout(k, n, c.lb as any), LC = layout(m, n, c.lc as any);
  const A = Arr.from(values(LA.length, 11 + m)), B = Arr.from(values(LB.length, 23 + n)), C = Arr.from(values(LC.length, 37 + k));
  const C0 = Float64Array.from(C);
  set_cpu_capability(impl);
  gemm_stub.call("cpu", {
    dtype: dtype === "f32" ? ScalarType.Float : ScalarType.Double, m, n, k, alpha: c.alpha, beta: c.beta,
    a: { data: A, offset: LA.offset, rs: LA.rs, cs: LA.cs }, b: { data: B, offset: LB.offset, rs: LB.rs, cs: LB.cs }, c: { data: C, offset: LC.offset, rs: LC.rs, cs: LC.cs },
  });
  set_cpu_capability(null);
  return { A, B, C, C0, LA, LB, LC };
}

/** The float64 product and the error bound of each element of C for a case (computed once per case). */
const references = new Map<string, { offsets: Int32Array; want: Float64Array; bound: Float64Array }>();
function reference(dtype: "f32" | "f64", c: Case, r: ReturnType<typeof runStub>) {
  const key = `${dtype} ${JSON.stringify(c)}`;
  let ref = references.get(key);
  if (ref) return ref;
  const u = dtype === "f32" ? 2 ** -24 : 2 ** -53;
  const { A, B, C0, LA, LB, LC } = r;
  ref = { offsets: new Int32Array(c.m * c.n), want: new Float64Array(c.m * c.n), bound: new Float64Array(c.m * c.n) };
  for (let i = 0, e = 0; i < c.m; i++) {
    for (let j = 0; j < c.n; j++, e++) {
      let s = 0, abs = 0;
      for (let q = 0; q < c.k; q++) {
        const p = A[LA.offset + i * LA.rs + q * LA.cs] * B[LB.offset + q * LB.rs + j * LB.cs];
        s += p;
        abs += Math.abs(p);
      }
      const o = LC.offset + i * LC.rs + j * LC.cs;
      ref.offsets[e] = o;
      ref.want[e] = c.alpha * s + (c.beta === 0 ? 0 : c.beta * C0[o]);
      ref.bound[e] = (c.k + 2) * u * (Math.abs(c.alpha) * abs + Math.abs(c.beta * C0[o])) + (dtype === "f32" ? 1e-30 : 0);
    }
  }
  references.set(key, ref);
  return ref;
}

/** Checks C against the float64 product within the stated bound; elements outside C's view must be untouched. */
function checkAgainstReference(dtype: "f32" | "f64", c: Case, r: ReturnType<typeof runStub>, what: string): void {
  const { C, C0 } = r;
  const ref = reference(dtype, c, r);
  const touched = new Uint8Array(C.length);
  for (let e = 0; e < ref.want.length; e++) {
    const o = ref.offsets[e];
    touched[o] = 1;
    if (!(Math.abs(C[o] - ref.want[e]) <= ref.bound[e])) {
      throw new Error(`${what}: C[${Math.floor(e / c.n)}, ${e % c.n}] = ${C[o]}, float64 product ${ref.want[e]}, bound ${ref.bound[e]} (${JSON.stringify(c)})`);
    }
  }
  for (let o = 0; o < C.length; o++) if (!touched[o] && C[o] !== C0[o]) throw new Error(`${what}: wrote outside C at ${o}`);
}

const SIZES: [number, number, number][] = [
  [0, 5, 3], [4, 0, 3], [1, 1, 1], [1, 1, 0], [3, 2, 0], [1, 70, 9], [70, 1, 9], [1, 1, 300], [5, 7, 1],
  [17, 33, 65], [13, 32, 16], [12, 32, 257], [40, 3, 100], [257, 129, 300],
];

describe("gemm_stub: the native GEMM against a float64 reference (any strides, alpha/beta)", () => {
  native("every size and layout, on each GEMM, instruction-set unit and thread count, float32 and float64", () => {
    const layouts: [string, string, string][] = [["row", "row", "row"], ["col", "col", "col"], ["gap", "col", "gap"], ["row", "gap", "col"], ["bcast", "row", "row"]];
    const scal: [number, number][] = [[1, 0], [0.5, 1], [-2, 0.25]];
    for (const cfg of configs()) {
      use(cfg);
      for (const dtype of ["f32", "f64"] as const) {
        for (const [m, n, k] of SIZES) {
          for (const [la, lb, lc] of layouts) {
            if (lc === "bcast") continue;
            for (const [alpha, beta] of scal) {
              // the large case on fewer combinations, to keep the file quick
              if (m * n * k > 1e6 && (alpha !== 1 || la === "bcast" || dtype === "f64")) continue;
              const c: Case = { m, n, k, alpha, beta, la, lb, lc };
              checkAgainstReference(dtype, c, runStub(dtype, c, "native"), label(cfg));
            }
          }
        }
      }
    }
  }, 60_000);

  native("beta == 0 does not read C: NaN and inf there do not reach the result (as BLAS)", () => {
    for (const cfg of configs()) {
      use(cfg);
      const m = 20, n = 40, k = 30;
      const A = Float32Array.from(values(m * k, 1)), B = Float32Array.from(values(k * n, 2));
      const C = new Float32Array(m * n).fill(NaN);
      C[5] = Infinity;
      gemm_stub.call("cpu", { dtype: ScalarType.Float, m, n, k, alpha: 1, beta: 0, a: { data: A, offset: 0, rs: k, cs: 1 }, b: { data: B, offset: 0, rs: n, cs: 1 }, c: { data: C, offset: 0, rs: n, cs: 1 } });
      expect(C.every(Number.isFinite), label(cfg)).toBe(true);
    }
  });

  native("NaN in A reaches the result; a zero product of inf does not hide it (no shortcut for zeros)", () => {
    for (const cfg of configs()) {
      use(cfg);
      const m = 16, n = 48, k = 24;
      const A = Float64Array.from(values(m * k, 3)), B = Float64Array.from(values(k * n, 4));
      A[2 * k + 5] = NaN;
      const C = new Float64Array(m * n);
      gemm_stub.call("cpu", { dtype: ScalarType.Double, m, n, k, alpha: 1, beta: 0, a: { data: A, offset: 0, rs: k, cs: 1 }, b: { data: B, offset: 0, rs: n, cs: 1 }, c: { data: C, offset: 0, rs: n, cs: 1 } });
      for (let j = 0; j < n; j++) expect(Number.isNaN(C[2 * n + j]), label(cfg)).toBe(true);
      expect(Number.isNaN(C[3 * n])).toBe(false);
    }
  });

  native("the own GEMM gives the same bits on 1 and 2 threads (threads split C, never the sum)", () => {
    for (const isa of ISAS) {
      const results: Float32Array[] = [];
      for (const threads of [1, 2]) {
        use({ blas: "own", isa, threads });
        const c: Case = { m: 257, n: 129, k: 300, alpha: 1, beta: 0, la: "row", lb: "col", lc: "row" };
        results.push(runStub("f32", c, "native").C);
      }
      expect(Array.from(results[1]), isa).toEqual(Array.from(results[0]));
    }
  });

  native("the TypeScript kernel agrees with the same reference (so native and TS agree within the bound)", () => {
    for (const [m, n, k] of [[17, 33, 65], [1, 1, 1], [40, 3, 100]] as [number, number, number][]) {
      const c: Case = { m, n, k, alpha: 0.5, beta: 1, la: "gap", lb: "col", lc: "row" };
      checkAgainstReference("f32", c, runStub("f32", c, "ts"), "ts");
    }
  });
});

describe("the own GEMV (gemv_kernels.inc: n == 1, and m == 1 through the transpose)", () => {
  // rows past a 4-row group and past a whole number of vectors, k past the 2-vector steps; A row-major
  // (dot products), column-major (axpy over 512-row blocks: 1030 rows is three blocks), with gaps (the
  // GEMM's path); x and y contiguous, strided, broadcast
  const GEMV: [number, number, number][] = [[1030, 1, 77], [1, 1030, 77], [7, 1, 1000], [1, 9, 1000], [3000, 1, 40]];
  const layouts: [string, string, string][] = [["row", "row", "row"], ["col", "col", "col"], ["row", "gap", "gap"], ["col", "gap", "row"], ["gap", "row", "col"], ["bcast", "row", "row"]];
  native("each unit, 1 and 2 threads, float32 and float64, alpha/beta: within the bound and bit for bit across thread counts", () => {
    for (const isa of ISAS) {
      for (const dtype of ["f32", "f64"] as const) {
        for (const [m, n, k] of GEMV) {
          for (const [la, lb, lc] of layouts) {
            for (const [alpha, beta] of [[1, 0], [-2, 0.25]] as [number, number][]) {
              const c: Case = { m, n, k, alpha, beta, la, lb, lc };
              const out: (Float32Array | Float64Array)[] = [];
              for (const threads of [1, 2]) {
                use({ blas: "own", isa, threads });
                const r = runStub(dtype, c, "native");
                checkAgainstReference(dtype, c, r, `gemv ${isa}/${threads}t`);
                out.push(r.C);
              }
              expect(Array.from(out[1]), `${isa} ${dtype} ${JSON.stringify(c)}`).toEqual(Array.from(out[0]));
            }
          }
        }
      }
    }
  }, 60_000);

  native("NaN and inf in A or x reach y; beta == 0 does not read y", () => {
    for (const isa of ISAS) {
      use({ blas: "own", isa, threads: 2 });
      for (const colMajor of [false, true]) {
        const m = 600, k = 50;
        const A = Float32Array.from(values(m * k, 5)), x = Float32Array.from(values(k, 6));
        const at = (i: number, q: number) => (colMajor ? i + q * m : i * k + q);
        A[at(3, 7)] = NaN;
        A[at(599, 49)] = Infinity;
        const y = new Float32Array(m).fill(NaN);
        gemm_stub.call("cpu", { dtype: ScalarType.Float, m, n: 1, k, alpha: 1, beta: 0,
          a: { data: A, offset: 0, rs: colMajor ? 1 : k, cs: colMajor ? m : 1 }, b: { data: x, offset: 0, rs: 1, cs: 1 }, c: { data: y, offset: 0, rs: 1, cs: 1 } });
        expect(Number.isNaN(y[3]), `${isa} ${colMajor}`).toBe(true);
        expect(Math.abs(y[599]), `${isa} ${colMajor}`).toBe(Infinity);
        expect(y.filter((v, i) => i !== 3 && i !== 599).every(Number.isFinite), `${isa} ${colMajor}`).toBe(true);
      }
    }
  });
});

// ---- the own GEMM's two paths (gemm_kernels.inc): direct (A in place, B in place or packed, no K
// blocking, short row tiles of MR/3 and 2MR/3) and packed (BLIS blocking), each forced, and the size rule ----

describe("the own GEMM's direct and packed paths against a float64 reference", () => {
  // m around the row tiles (MR = 12 AVX-512, 6 AVX2/SSE: tails of MR/3, 2MR/3), n around the NR panels
  // (32/16/8 floats; a partial last panel is packed), k from 1
  const EDGE: [number, number, number][] = [
    [1, 1, 1], [1, 1, 2], [2, 3, 1], [4, 17, 5], [5, 16, 7], [8, 31, 3], [9, 32, 9], [11, 33, 2], [12, 47, 64],
    [13, 48, 13], [25, 65, 33], [1, 40, 70], [40, 1, 70], [37, 100, 129],
  ];
  const layouts: [string, string, string][] = [["row", "row", "row"], ["row", "col", "row"], ["col", "row", "col"], ["gap", "gap", "gap"], ["bcast", "col", "row"]];
  native("every edge size and layout, forced direct and forced packed, each unit, 1 and 2 threads, float32 and float64", () => {
    for (const path of ["direct", "packed"] as const) {
      expect(nativeAddon!.set_gemm_path(path)).toBe(true);
      for (const cfg of configs().filter((c) => c.blas === "own")) {
        use(cfg);
        for (const dtype of ["f32", "f64"] as const) {
          for (const [m, n, k] of EDGE) {
            for (const [la, lb, lc] of layouts) {
              for (const [alpha, beta] of (dtype === "f32" ? [[1, 0], [0.5, 1], [-2, 0.25]] : [[1, 0], [-2, 0.25]]) as [number, number][]) {
                const c: Case = { m, n, k, alpha, beta, la, lb, lc };
                checkAgainstReference(dtype, c, runStub(dtype, c, "native"), `${path} ${label(cfg)}`);
              }
            }
          }
        }
      }
    }
  }, 60_000);

  native("the size rule picks each path: few rows with a large B, a B in L2, a large problem (linear's X @ W^T layouts too)", () => {
    expect(nativeAddon!.set_gemm_path("auto")).toBe(true);
    // 20 x 1100 x 300 (B 1.3 MB, 20 rows: direct), 70 x 200 x 300 (B in L2: direct), 100 x 1040 x 300 (packed)
    const shapes: [number, number, number][] = [[20, 1100, 300], [70, 200, 300], [100, 1040, 300]];
    for (const cfg of configs().filter((c) => c.blas === "own" && c.isa === best)) {
      use(cfg);
      for (const [m, n, k] of shapes) {
        for (const [la, lb, lc] of [["row", "row", "row"], ["row", "col", "row"], ["col", "row", "row"]] as [string, string, string][]) {
          const c: Case = { m, n, k, alpha: 1, beta: 0.5, la, lb, lc };
          checkAgainstReference("f32", c, runStub("f32", c, "native"), `auto ${label(cfg)} ${m}x${n}x${k}`);
        }
      }
    }
  }, 60_000);

  native("the direct path gives the same bits on 1 and 2 threads, and forced direct and packed agree within the bound", () => {
    for (const isa of ISAS) {
      const results: Float32Array[] = [];
      for (const threads of [1, 2]) {
        use({ blas: "own", isa, threads });
        nativeAddon!.set_gemm_path("direct");
        const c: Case = { m: 157, n: 129, k: 200, alpha: 1, beta: 0, la: "row", lb: "row", lc: "row" };
        results.push(runStub("f32", c, "native").C);
      }
      expect(Array.from(results[1]), isa).toEqual(Array.from(results[0]));
    }
  });

  native("set_gemm_path refuses an unknown path", () => {
    expect(nativeAddon!.set_gemm_path("fastest" as any)).toBe(false);
  });
});

// ---- the large path's threading (gemm_kernels.inc): the packed driver's items (K block, row block
// of up to MC rows) taken in order by whichever thread is free, each waiting for its tile's previous K block; the direct
// driver's tiles claimed a few at a time above kGemmSmallMaxMNK (Gemm.h). The split depends on timing,
// the sums must not: every configuration is checked against the float64 reference and 1 and 2 threads
// must give the same bits. ----

describe("the own GEMM's large path: dynamic tile claiming gives the same bits on any thread count", () => {
  // packed: 3 K blocks x 13 row tiles; 2 column blocks (n past NC) with 2 K blocks; 10 K blocks of a
  // strided A; a row count that is not a whole number of tiles; several row blocks of many tiles (AVX2:
  // 78, 78, 78 and 67 rows), the last with a partial tile
  const PACKED: [number, number, number][] = [[150, 70, 600], [13, 3500, 300], [40, 100, 2500], [61, 97, 513], [301, 50, 520]];
  const layouts: [string, string, string][] = [["row", "row", "row"], ["gap", "col", "col"], ["col", "gap", "row"]];
  native("forced packed: each unit, 1 and 2 threads, float32 and float64, alpha/beta, against the reference and bit for bit across thread counts", () => {
    expect(nativeAddon!.set_gemm_path("packed")).toBe(true);
    for (const isa of ISAS) {
      for (const dtype of ["f32", "f64"] as const) {
        for (const [m, n, k] of PACKED) {
          // float64 on the mixed layout only, to keep the file quick
          for (const [la, lb, lc] of dtype === "f32" ? layouts : layouts.slice(1, 2)) {
            const c: Case = { m, n, k, alpha: dtype === "f32" ? 0.5 : -2, beta: dtype === "f32" ? 1 : 0.25, la, lb, lc };
            const out: (Float32Array | Float64Array)[] = [];
            for (const threads of [1, 2]) {
              use({ blas: "own", isa, threads });
              const r = runStub(dtype, c, "native");
              checkAgainstReference(dtype, c, r, `packed ${isa}/${threads}t`);
              out.push(r.C);
            }
            expect(Array.from(out[1]), `${isa} ${dtype} ${JSON.stringify(c)}`).toEqual(Array.from(out[0]));
          }
        }
      }
    }
  }, 60_000);

  native("direct above the small-size bound (300 x 300 x 200 with B in L2; 100 x 300 x 1000 forced, B's panels in 3 groups): the same bits on 1 and 2 threads, within the bound", () => {
    const cases: [string, Case][] = [
      ["auto", { m: 300, n: 300, k: 200, alpha: 1, beta: 0, la: "row", lb: "row", lc: "row" }],
      ["auto", { m: 300, n: 300, k: 200, alpha: -2, beta: 0.25, la: "gap", lb: "col", lc: "gap" }],
      ["direct", { m: 100, n: 300, k: 1000, alpha: 0.5, beta: 1, la: "row", lb: "row", lc: "row" }],
      ["direct", { m: 100, n: 300, k: 1000, alpha: 1, beta: 0, la: "col", lb: "gap", lc: "col" }],
    ];
    for (const isa of ISAS) {
      for (const [path, c] of cases) {
        expect(nativeAddon!.set_gemm_path(path as any)).toBe(true);
        const { la, lb, lc } = c;
        const out: Float32Array[] = [];
        for (const threads of [1, 2]) {
          use({ blas: "own", isa, threads });
          const r = runStub("f32", c, "native");
          checkAgainstReference("f32", c, r, `direct ${isa}/${threads}t`);
          out.push(r.C as Float32Array);
        }
        expect(Array.from(out[1]), `${isa} ${la}/${lb}/${lc}`).toEqual(Array.from(out[0]));
      }
    }
  }, 60_000);
});

describe("measure_fma_peak: the measured multiply-add peak the benchmark reports", () => {
  native("answers per thread for each unit; rejects bad arguments", () => {
    for (const isa of ISAS) {
      expect(_set_native_isa(isa as any)).toBe(true);
      for (const threads of [1, 2]) {
        const r = nativeAddon!.measure_fma_peak(threads, 20000);
        expect(r.isa).toBe(isa);
        expect(r.threads).toBe(threads);
        expect(r.per_thread.length).toBe(threads);
        // rates are whatever the machine gives; they are positive and finite, and the total is the threads' sum
        for (const t of r.per_thread) expect(Number.isFinite(t.gflops) && t.gflops > 0 && Number.isFinite(t.clock_ghz) && t.clock_ghz > 0).toBe(true);
        expect(r.gflops).toBeCloseTo(r.per_thread.reduce((s, t) => s + t.gflops, 0), 6);
        expect(Number.isFinite(r.checksum)).toBe(true);
      }
    }
    expect(() => nativeAddon!.measure_fma_peak(0)).toThrow(/threads in 1..1024/);
    expect(() => nativeAddon!.measure_fma_peak(1, 0)).toThrow(/iters >= 1/);
  });
});

// ---- the ops on gemm_stub: native vs TypeScript ----

function flat(t: Tensor): number[] {
  return (t.contiguous().reshape(-1).tolist() as number[]);
}
/** native and TypeScript results of f agree within the float32 GEMM bound (relative to the values' scale). */
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

const kernelsRun = (f: () => unknown) =>
  torch.trace.record(f).events.filter((e: any) => e.type === "kernel" && e.stub === "gemm_stub").map((e: any) => e.impl);

describe("the ops built on gemm_stub run natively and agree with the TypeScript kernel", () => {
  const g = (...s: number[]) => torch.randn(s);
  const ops: [string, number, () => Tensor][] = [
    ["mm", 65, () => torch.mm(g(17, 65), g(65, 33))],
    ["mm transposed operands", 40, () => torch.mm(g(40, 17).t(), g(9, 40).t())],
    ["mm sliced operands", 20, () => torch.mm(g(30, 50).narrow(0, 3, 21).as_strided([21, 20], [50, 2], 7), g(20, 44).narrow(1, 5, 31))],
    ["addmm alpha/beta", 65, () => torch.addmm(g(17, 33), g(17, 65), g(65, 33), { beta: 0.5, alpha: -2 })],
    ["addmm broadcast self", 65, () => torch.addmm(g(33), g(17, 65), g(65, 33))],
    ["bmm", 30, () => torch.bmm(g(5, 13, 30), g(5, 30, 7))],
    ["bmm transposed batches", 30, () => torch.bmm(g(5, 30, 13).transpose(1, 2), g(5, 7, 30).transpose(1, 2))],
    ["baddbmm", 30, () => torch.baddbmm(g(4, 9, 11), g(4, 9, 30), g(4, 30, 11), { beta: 2, alpha: 0.5 })],
    ["addbmm", 30, () => torch.addbmm(g(9, 11), g(4, 9, 30), g(4, 30, 11))],
    ["mv", 100, () => torch.mv(g(70, 100), g(100))],
    ["mv transposed", 100, () => torch.mv(g(100, 70).t(), g(100))],
    ["addmv", 100, () => torch.addmv(g(70), g(70, 100), g(100), { beta: 0.5, alpha: 3 })],
    ["dot", 300, () => torch.dot(g(300), g(300))],
    ["matmul 3-d @ 2-d", 40, () => torch.matmul(g(3, 7, 40), g(40, 9))],
    ["matmul broadcast batch", 24, () => torch.matmul(g(2, 1, 6, 24), g(3, 24, 5))],
    ["linear", 64, () => torch.nn.functional.linear(g(8, 64), g(48, 64), g(48))],
    ["mm float64", 65, () => torch.mm(torch.randn(17, 65, { dtype: torch.float64 }), torch.randn(65, 33, { dtype: torch.float64 }))],
    ["mm empty k", 0, () => torch.mm(g(5, 0), g(0, 6))],
    ["mm 1x1x1", 1, () => torch.mm(g(1, 1), g(1, 1))],
  ];
  for (const [name, k, make] of ops) {
    native(name, () => {
      for (const cfg of configs().filter((c) => c.isa === best)) {
        use(cfg);
        torch.manual_seed(7);
        set_cpu_capability(null);
        const nat = make();
        torch.manual_seed(7);
        const ts = underTs(make);
        closeTo(nat, ts, k, `${name} ${label(cfg)}`);
      }
    });
  }

  native("float32 products above the small-product cut run natively, smaller ones and integer dtypes in TypeScript", () => {
    expect(kernelsRun(() => torch.mm(torch.randn(8, 8), torch.randn(8, 8)))).toEqual(["native"]);
    const side = Math.floor(Math.cbrt(SMALL_GEMM_FLOPS - 1));
    expect(kernelsRun(() => torch.mm(torch.randn(side, side), torch.randn(side, side)))).toEqual(["ts"]);
    expect(kernelsRun(() => torch.mm(torch.ones(8, 8, { dtype: torch.int64 }), torch.ones(8, 8, { dtype: torch.int64 })))).toEqual(["ts"]);
  });

  native("bfloat16: float copies, float accumulation, C rounded once: within one bfloat16 ulp of the TypeScript kernel, every layout", () => {
    // the float sums differ from the TS kernel's (another order) by a few float ulps; rounded to
    // bfloat16 they agree but where one lands on the other side of a rounding boundary
    const f32 = new Float32Array(1), i32 = new Int32Array(f32.buffer);
    const key = (x: number) => {
      f32[0] = x;
      return i32[0] < 0 ? -2147483648 - i32[0] - 1 : i32[0];
    };
    const b16 = (...s: number[]) => torch.randn(s).to(torch.bfloat16);
    const cases: [string, () => Tensor][] = [
      ["mm", () => torch.mm(b16(17, 65), b16(65, 33))],
      ["mm transposed operands", () => torch.mm(b16(40, 17).t(), b16(9, 40).t())],
      ["mm sliced operands", () => torch.mm(b16(30, 50).narrow(0, 3, 21).as_strided([21, 20], [50, 2], 7), b16(20, 44).narrow(1, 5, 31))],
      ["addmm alpha/beta", () => torch.addmm(b16(17, 33), b16(17, 65), b16(65, 33), { beta: 0.5, alpha: -2 })],
      ["linear (W^T, broadcast bias)", () => torch.nn.functional.linear(b16(8, 300), b16(48, 300), b16(48))],
      ["bmm", () => torch.bmm(b16(5, 13, 30), b16(5, 30, 7))],
      ["matmul 3-d @ 2-d", () => torch.matmul(b16(3, 7, 40), b16(40, 9))],
      ["mv", () => torch.mv(b16(70, 100), b16(100))],
      ["mm 256", () => torch.mm(b16(256, 256), b16(256, 256))],
      ["mm out= strided", () => {
        const out = torch.zeros(33, 40, { dtype: torch.bfloat16 }).t().narrow(0, 2, 17);
        torch.mm(b16(17, 65), b16(65, 33), { out });
        return out;
      }],
    ];
    for (const [name, make] of cases) {
      torch.manual_seed(11);
      expect(kernelsRun(make), name).toContain("native");
      torch.manual_seed(11);
      const nat = make();
      torch.manual_seed(11);
      const ts = underTs(make);
      expect(nat.dtype, name).toBe(torch.bfloat16);
      expect(nat.shape, name).toEqual(ts.shape);
      const a = flat(nat.to(torch.float32)), b = flat(ts.to(torch.float32));
      const bad = a.findIndex((v, i) => Math.abs(key(v) - key(b[i])) > 65536);
      expect(bad === -1 ? null : { at: bad, native: a[bad], ts: b[bad] }, name).toBeNull();
    }
    // beta == 0 does not read C (NaN there stays out); half has no CPU gemm in PyTorch 1.13
    const c = torch.full([4, 5], NaN, { dtype: torch.bfloat16 });
    torch.mm(b16(4, 6), b16(6, 5), { out: c });
    expect(torch.isnan(c).any().item()).toBe(false);
    const h = torch.ones(8, 8, { dtype: torch.float16 });
    expect(() => torch.mm(h, h)).toThrow(`"addmm_impl_cpu_" not implemented for 'Half'`);
  });

  native("the backward of matmul and linear (mm calls) runs natively and agrees with TypeScript", () => {
    const grads = () => {
      torch.manual_seed(3);
      const x = torch.randn(6, 40, { requires_grad: true }), w = torch.randn(30, 40, { requires_grad: true }), y = torch.randn(4, 40, 9, { requires_grad: true });
      torch.nn.functional.linear(x, w).sum().backward();
      torch.matmul(x, y).pow(2).sum().backward();
      return [x.grad!, w.grad!, y.grad!];
    };
    const nat = grads(), ts = underTs(grads);
    for (let i = 0; i < 3; i++) closeTo(nat[i], ts[i], 80, `grad ${i}`);
  });

  native("an output sharing storage with an operand goes to TypeScript", () => {
    const a = torch.randn(20, 20);
    const kinds = kernelsRun(() => a.addmm_(a, a));
    expect(kinds).toEqual(["ts"]);
  });

  native("torch._C._native_status() says which BLAS runs", () => {
    const s = torch._C._native_status().addon!;
    expect(["own", "cblas"]).toContain(s.blas);
    expect(s.gemm.own_gemm).toBe(s.capability);
    _set_native_blas("own");
    expect(torch._C._native_status().addon!.blas).toBe("own");
    expect(_set_native_blas("cblas")).toBe(cblasLinked);
  });
});

// ---- conv2d: native vs TypeScript ----

describe("conv2d forward and backward: the native im2col + GEMM kernels agree with the TypeScript loops", () => {
  const F = torch.nn.functional as any;
  const cases: [string, number[], number[], Record<string, unknown>][] = [
    ["3x3 pad 1", [2, 3, 9, 8], [4, 3, 3, 3], { padding: 1 }],
    ["stride 2, pad (1, 2)", [3, 2, 11, 7], [5, 2, 3, 2], { stride: 2, padding: [1, 2] }],
    ["stride (2, 1), dilation 2", [2, 3, 10, 12], [4, 3, 3, 3], { stride: [2, 1], dilation: 2, padding: 1 }],
    ["1x1", [2, 6, 5, 7], [3, 6, 1, 1], {}],
    ["groups 2", [2, 4, 7, 6], [6, 2, 3, 3], { groups: 2, padding: 1 }],
    ["depthwise groups 3", [1, 3, 6, 6], [3, 1, 3, 3], { groups: 3 }],
    ["kernel as large as the image", [1, 2, 4, 5], [3, 2, 4, 5], {}],
    ["batch of 1, 1 channel", [1, 1, 5, 5], [1, 1, 2, 2], { stride: 3 }],
    // C*KH*KW = 576: the image is unfolded in bands of output rows (2 bands in float32, 4 in float64)
    ["64 channels, unfolded in bands", [1, 64, 12, 16], [4, 64, 3, 3], { padding: 1 }],
    ["64 channels, stride (1, 2), dilation 2, bands", [1, 64, 9, 20], [2, 64, 3, 3], { stride: [1, 2], dilation: 2, padding: 2 }],
  ];
  const kernels = (f: () => unknown) => torch.trace.record(f).events.filter((e: any) => e.type === "kernel" && /conv/.test(e.stub)).map((e: any) => `${e.stub}:${e.impl}`);

  for (const [name, xs, ws, opts] of cases) {
    native(name, () => {
      for (const dtype of [torch.float32, torch.float64]) {
        const run = () => {
          torch.manual_seed(11);
          // a non-contiguous input: a channels-last-strided copy
          const x = torch.randn([xs[0], xs[2], xs[3], xs[1]], { dtype }).permute(0, 3, 1, 2).requires_grad_(true);
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
            const k = ws[1] * ws[2] * ws[3];
            const what = `${name} ${dtype} ${threads}t ${isa}`;
            closeTo(nat[0], ts[0], k, `${what} output`);
            closeTo(nat[1], ts[1], ws[0] * ws[2] * ws[3], `${what} grad_input`);
            closeTo(nat[2], ts[2], xs[0] * nat[0].shape[2] * nat[0].shape[3], `${what} grad_weight`);
            closeTo(nat[3], ts[3], xs[0] * nat[0].shape[2] * nat[0].shape[3], `${what} grad_bias`);
          }
        }
      }
    });
  }

  native("the native kernels run for float32/float64 (forward, backward, dilated); other dtypes decline to TypeScript", () => {
    const x = torch.randn(1, 2, 5, 5, { requires_grad: true }), w = torch.randn(3, 2, 3, 3, { requires_grad: true });
    expect(kernels(() => F.conv2d(x, w).sum().backward())).toEqual(["slow_conv2d_stub:native", "slow_conv2d_backward_stub:native", "slow_conv2d_backward_stub:native"]);
    expect(kernels(() => F.conv2d(x, w, null, { dilation: 2 }))).toEqual(["slow_conv_dilated2d_stub:native"]);
    const xl = torch.ones(1, 2, 5, 5, { dtype: torch.int64 }), wl = torch.ones(3, 2, 3, 3, { dtype: torch.int64 });
    expect(kernels(() => F.conv2d(xl, wl))).toEqual(["slow_conv2d_stub:ts"]);
    // (the transposed convolution's forward is native too: NativeConvTranspose.ts, cpu_native_conv_transpose.test.ts)
    expect(kernels(() => F.conv_transpose2d(x, torch.randn(2, 3, 3, 3)))).toEqual(["slow_conv_transpose2d_stub:native"]);
  });

  native("results do not depend on the thread count (whole images per thread; the GEMM never splits a sum)", () => {
    const run = (threads: number) => {
      torch.set_num_threads(threads);
      torch.manual_seed(5);
      const x = torch.randn(4, 3, 12, 12, { requires_grad: true }), w = torch.randn(8, 3, 3, 3, { requires_grad: true });
      const y = F.conv2d(x, w, null, { padding: 1 });
      y.sum().backward();
      return [flat(y), flat(x.grad!), flat(w.grad!)];
    };
    expect(run(2)).toEqual(run(1));
  });
});
