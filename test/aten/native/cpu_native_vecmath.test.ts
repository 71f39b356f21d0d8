// The native vector math (native/cpu/vecmath.h: float32 exp; the last-dim float32 softmax /
// log_softmax kernels and their backward in nn_kernels.inc; the 64-lane double sums in
// pointwise_kernels.inc; the thread pool's polling hand-off in ThreadPool.cc), on every
// instruction-set unit the CPU runs (`_set_native_isa`).
//
// Bounds stated here:
//  - float32 exp: within 1 ulp (integer distance of the bit patterns) of the correctly rounded e^x
//    (V8's double Math.exp rounded once to float32) for a dense sweep of float32 inputs (every 257th
//    bit pattern from -104 to 89: ~8.7e6 inputs, both signs, results from subnormal to FLT_MAX and the
//    rounding to 0 and to inf), and at most 2% of those inputs off by that ulp (measured: 0.78%);
//    exact for NaN, +-inf, +-0, subnormal inputs. The units with FMA (AVX2, AVX-512: expf_fma) give
//    the same bits as each other (AVX-512's VSCALEFPS rounds as the two-step scaling does); the
//    baseline unit (unfused expf) differs from them in some last places, within the same bound.
//  - softmax / log_softmax (float32, last dim): within 6e-7 relative of the TypeScript kernel (the
//    exps' ulp), each exp within 1 ulp of the correctly rounded one; the same bits on every thread
//    count, on the units with FMA (AVX2, AVX-512: the forward's fused expf_fma; all float32 inputs of
//    expf_fma were swept offline, 0 over 1 ulp, 0.40% at 1 ulp) and on the baseline unit (expf: its
//    bits may differ from the FMA units' in last places; log_softmax's backward likewise); NaN and
//    infinities propagate as in PyTorch (a NaN makes its row NaN; +inf with finite values gives NaN where x = +inf - inf ...).
//    softmax's backward: the TypeScript kernel's bits (no exp, the same summation order).
//  - sum / mean: float64 inputs sum in double, float32 ones in float runs of 16 elements per lane
//    (16 rows per column for column sums) that then join double lanes (as PyTorch, whose float32 sums accumulate in float); results on 1
//    and 2 threads and on every unit are bit-identical; against the TypeScript kernel (a serial
//    double sum) within 1 ulp + 16 * 2^-24 * sum|x| (at most 16 float roundings per element) for
//    float32 outputs, and 1e-12 (absolute, values O(1)) for float64 ones. The norm's sum of squares
//    stays in double: within 1 ulp.
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { typedView } from "../../../engine/c10/ElementAccess.js";
import { _softmax_backward_data_default } from "../../../engine/generated/_softmax_backward_data.js";
import { _log_softmax_backward_data_default } from "../../../engine/generated/_log_softmax_backward_data.js";
import { kernelsRan, underTs } from "../../support/native_paths.js";
import { ulps32 } from "../../support/ulps.js";

nativeSizePolicy.minNumel = 0;

const status = torch._C._native_status();
const native = status.loaded ? it : it.skip;
const best = status.loaded ? (status.addon!.best_capability as "DEFAULT" | "AVX2" | "AVX512") : "DEFAULT";
const ISAS = status.loaded ? (["DEFAULT", "AVX2", "AVX512"] as const).filter((isa) => _set_native_isa(isa)) : [];
if (status.loaded) _set_native_isa(best);
const defaultThreads = torch.get_num_threads();

afterEach(() => {
  set_cpu_capability(null);
  torch.set_num_threads(defaultThreads);
  if (status.loaded) _set_native_isa(best);
});


/** The kernels (stub:impl) a call ran. */

/** A fresh contiguous float32/float64 tensor's values as a typed array (a copy). */
function values(t: torch.Tensor): Float32Array | Float64Array {
  const c = t.contiguous();
  const view = typedView((c as any)._impl.storage, c.dtype) as Float32Array | Float64Array;
  const off = c.storage_offset();
  return view.slice(off, off + c.numel());
}

/** the spacing of float32 values at |x| (normal range) */
function ulpOf32(x: number): number {
  return x === 0 ? 2 ** -149 : 2 ** (Math.floor(Math.log2(Math.abs(x))) - 23);
}
const i64 = new BigInt64Array(1), f64 = new Float64Array(i64.buffer);
function ulps64(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  const key = (x: number) => {
    f64[0] = x;
    return i64[0] < 0n ? -9223372036854775808n - i64[0] : i64[0];
  };
  const d = key(a) - key(b);
  return Number(d < 0n ? -d : d);
}

/** Bits of a typed array, -0 and NaN payloads included, for "the same bits" comparisons. */
/** float32 exp's bit families: the units with FMA run expf_fma, the baseline the unfused expf. */
const expFamily = (isa: string): string => (isa === "DEFAULT" ? "baseline" : "fma");
const bitsOf = (v: Float32Array | Float64Array): string => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");

describe("float32 exp (vecmath.h)", () => {
  native("a dense sweep of float32 inputs: within 1 ulp of the correctly rounded e^x, the same bits on the units with FMA", () => {
    const STEP = 257; // odd: the sweep meets every residue of the low mantissa bits
    const ranges: [number, number][] = [[0x00000000, 0x42b20000], [0x80000000, 0xc2d00000]]; // [0, 89], [-0, -104]
    const CHUNK = 1 << 20;
    const x = torch.empty(CHUNK), y = torch.empty(CHUNK);
    const xb = new Uint32Array((typedView((x as any)._impl.storage, torch.float32) as Float32Array).buffer, 0, CHUNK);
    const xv = typedView((x as any)._impl.storage, torch.float32) as Float32Array;
    const yv = typedView((y as any)._impl.storage, torch.float32) as Float32Array;
    const stats = new Map<string, { n: number; off: number; worst: number; at: number; hash: number }>();
    for (const isa of ISAS) stats.set(isa, { n: 0, off: 0, worst: 0, at: 0, hash: 0 });
    for (const [lo, hi] of ranges) {
      for (let b = lo; b < hi; ) {
        let k = 0;
        for (; k < CHUNK && b < hi; k++, b += STEP) xb[k] = b;
        const xs = k === CHUNK ? x : x.narrow(0, 0, k), ys = k === CHUNK ? y : y.narrow(0, 0, k);
        const want = new Float32Array(k);
        for (let i = 0; i < k; i++) want[i] = Math.exp(xv[i]);
        const firsts = new Map<string, { isa: string; bits: string }>();
        for (const isa of ISAS) {
          _set_native_isa(isa);
          torch.exp(xs, { out: ys });
          const s = stats.get(isa)!;
          s.n += k;
          for (let i = 0; i < k; i++) {
            if (yv[i] === want[i]) continue;
            const u = ulps32(yv[i], want[i]);
            s.off++;
            if (u > s.worst) [s.worst, s.at] = [u, xv[i]];
          }
          const first = firsts.get(expFamily(isa)), bits = bitsOf(yv.subarray(0, k));
          if (first === undefined) firsts.set(expFamily(isa), { isa, bits });
          else expect(bits === first.bits, `${isa} vs ${first.isa}`).toBe(true);
        }
      }
    }
    for (const [isa, s] of stats) {
      expect(s.n, isa).toBeGreaterThan(8_000_000);
      expect(s.worst <= 1 ? null : { isa, worst: s.worst, at: s.at }).toBeNull();
      expect(s.off / s.n, isa).toBeLessThan(0.02);
    }
  }, 120_000);

  native("special values, the rounding to 0 and to inf, subnormal inputs and results", () => {
    const xs = [
      NaN, Infinity, -Infinity, 0, -0, 1e-45, -1e-45, 1e-38, -1e-38, 1, -1, 0.5, 1e-7, -1e-7,
      88.72283172607422, 88.72283935546875, 88.7228470, 89, 89.5, 100, 1e30, 3.4e38,
      -87.33654022216797, -87.4, -100, -103, -103.27892, -103.97207641601562, -103.9721, -104, -104.5, -150, -1e30, -3.4e38,
    ];
    const x = torch.tensor(xs, { dtype: torch.float32 });
    const xf = values(x);
    for (const isa of ISAS) {
      _set_native_isa(isa);
      const got = values(torch.exp(x));
      for (let i = 0; i < xf.length; i++) {
        const want = Math.fround(Math.exp(xf[i]));
        const exact = Number.isNaN(want) || !Number.isFinite(want) || want === 0 || want === 1 || !Number.isFinite(xf[i]);
        expect(ulps32(got[i], want) <= (exact ? 0 : 1), `${isa} exp(${xf[i]}) = ${got[i]}, want ${want}`).toBe(true);
      }
    }
  });

  native("odd tails, strided and transposed inputs, out= strided: the TS kernel's values within 1 ulp, the same bits on the units with FMA", () => {
    torch.manual_seed(5);
    const cases: [string, () => torch.Tensor][] = [];
    for (const n of [0, 1, 3, 4, 7, 8, 15, 16, 17, 31, 33, 63, 65, 1031, 70_001]) {
      const x = torch.randn(n).mul(30);
      cases.push([`n=${n}`, () => torch.exp(x)]);
    }
    const m = torch.randn(37, 41).mul(20);
    cases.push(["transposed", () => torch.exp(m.t())]);
    cases.push(["strided", () => torch.exp(m.get("::2", "1::3"))]);
    cases.push(["out= strided", () => {
      const o = torch.zeros(41, 37).t();
      torch.exp(m, { out: o });
      return o;
    }]);
    cases.push(["in place", () => m.clone().exp_()]);
    for (const [what, f] of cases) {
      const want = values(underTs(f));
      const firsts = new Map<string, string>();
      for (const isa of ISAS) {
        _set_native_isa(isa);
        const r = torch.trace.record(f);
        if (want.length > 0) expect(r.events.some((e: any) => e.type === "kernel" && e.stub === "exp_stub" && e.impl === "native"), what).toBe(true);
        const got = values(r.result as torch.Tensor);
        expect(got.length, what).toBe(want.length);
        let worst = 0;
        for (let i = 0; i < got.length; i++) worst = Math.max(worst, ulps32(got[i], want[i]));
        expect(worst, `${what} [${isa}]`).toBeLessThanOrEqual(1);
        const first = firsts.get(expFamily(isa));
        if (first === undefined) firsts.set(expFamily(isa), bitsOf(got));
        else expect(bitsOf(got) === first, `${what} [${isa}] bits`).toBe(true);
      }
    }
  });
});

describe("float32 softmax / log_softmax over the last dim", () => {
  const FWD = ["softmax_lastdim_kernel", "log_softmax_lastdim_kernel"];
  const BWD = ["softmax_backward_lastdim_kernel", "log_softmax_backward_lastdim_kernel"];
  // row lengths around each unit's vector widths (4, 8, 16) and the 8-lane sum's tail
  const DIMS = [1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 64, 100, 1024, 1031];

  function rows(dim: number, seed: number): torch.Tensor {
    torch.manual_seed(seed);
    const x = torch.randn(5, dim).mul(6);
    return x;
  }

  /**
   * f natively on every unit and 1/2 threads: each within rtol of the TS values, all the same bits; with
   * `fma`, the same bits within the units with FMA (AVX2, AVX-512: the forward's expf_fma) and within the
   * baseline unit, each on 1 and 2 threads.
   */
  function check(what: string, f: () => torch.Tensor[], stubs: string[], rtol: number, atol: number, fma = false): void {
    const want = underTs(f).map(values);
    const firstOf = new Map<string, string>();
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const threads of [1, 2]) {
        torch.set_num_threads(threads);
        let out: torch.Tensor[] = [];
        const ran = kernelsRan(() => (out = f()));
        for (const s of stubs) if (ran.some((k) => k.startsWith(s + ":"))) expect(ran, what).toContain(`${s}:native`);
        expect(ran.some((k) => k.endsWith(":native")), what).toBe(true);
        const got = out.map(values);
        for (let t = 0; t < got.length; t++) {
          for (let i = 0; i < got[t].length; i++) {
            const a = got[t][i], b = want[t][i];
            const ok = Number.isNaN(b) ? Number.isNaN(a) : a === b || Math.abs(a - b) <= atol + rtol * Math.abs(b);
            if (!ok) expect.fail(`${what} [${isa}, ${threads} threads] output ${t} element ${i}: ${a} vs TS ${b}`);
          }
        }
        const bits = got.map(bitsOf).join("|");
        const group = fma && isa !== "DEFAULT" ? "FMA units" : fma ? "DEFAULT" : "every unit";
        const first = firstOf.get(group);
        if (first === undefined) firstOf.set(group, bits);
        else expect(bits === first, `${what} [${isa}, ${threads} threads]: the same bits as the first run of ${group}`).toBe(true);
      }
    }
  }

  native("forward: every row length, the TS kernel's values within the exps' ulp", () => {
    for (const dim of DIMS) {
      const x = rows(dim, dim);
      check(`dim ${dim}`, () => [torch.softmax(x, -1), torch.log_softmax(x, -1)], FWD, 6e-7, 1e-7, true);
    }
  });

  native("forward: the row's exps, each within 1 ulp of the correctly rounded e^x on every unit (FMA or not)", () => {
    // rows [0, v1 .. v15] with v in [-104, -20]: the 15 exps sum below half an ulp of exp(0) = 1, so the
    // row sum is exactly 1 and softmax's output is each exp itself (the vector path on every unit)
    const vs: number[] = [];
    for (let v = -104; v <= -20; v += 0.00131) vs.push(v);
    const R = Math.ceil(vs.length / 15);
    const rowsOf = new Float32Array(R * 16).fill(-150);
    for (let r = 0; r < R; r++) {
      rowsOf[r * 16] = 0;
      for (let j = 0; j < 15 && r * 15 + j < vs.length; j++) rowsOf[r * 16 + 1 + j] = vs[r * 15 + j];
    }
    const x = torch.tensor(Array.from(rowsOf), { dtype: torch.float32 }).reshape([R, 16]);
    for (const isa of ISAS) {
      _set_native_isa(isa);
      const ran = kernelsRan(() => torch.softmax(x, -1));
      expect(ran).toContain("softmax_lastdim_kernel:native");
      const got = values(torch.softmax(x, -1));
      let off = 0;
      for (let i = 0; i < got.length; i++) {
        if (i % 16 === 0) {
          expect(got[i], `${isa}: row ${i / 16}'s exp(0) / 1`).toBe(1);
          continue;
        }
        const want = Math.fround(Math.exp(rowsOf[i]));
        const d = ulps32(got[i], want);
        if (d > 1) expect.fail(`${isa}: exp(${rowsOf[i]}) = ${got[i]}, correctly rounded ${want} (${d} ulp)`);
        off += d;
      }
      // measured in this range: 8.2% (expf, baseline unit) and 7.9% (expf_fma); the bound leaves a little room
      expect(off / (R * 15), `${isa}: the share of exps 1 ulp off`).toBeLessThan(0.1);
    }
  });

  native("forward: NaN, +inf and -inf rows propagate as PyTorch's (values from PyTorch 1.13)", () => {
    const x = torch.tensor([
      [1, 2, NaN, 4, 5, 6, 7, 8, 9, 10],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, Infinity],
      [-Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity],
      [0, -Infinity, 1, -Infinity, 2, 3, 4, 5, 6, -Infinity],
      [80, 89, -104, -150, 1e30, -1e30, 0, 0, 0, 0],
    ], { dtype: torch.float32 });
    check("specials", () => [torch.softmax(x, -1), torch.log_softmax(x, -1)], FWD, 6e-7, 1e-7, true);
    // PyTorch 1.13: torch.softmax / log_softmax of these rows (checked with /usr/bin/python3)
    const sm = values(torch.softmax(x, -1)), lsm = values(torch.log_softmax(x, -1));
    for (let j = 0; j < 10; j++) {
      expect(Number.isNaN(sm[j]) && Number.isNaN(lsm[j]), "a NaN makes its row NaN").toBe(true);
      expect(Number.isNaN(sm[20 + j]) && Number.isNaN(lsm[20 + j]), "an all -inf row is NaN").toBe(true);
    }
    // +inf: inf - inf = NaN in the max's place, exp(-inf) = 0 elsewhere, and the NaN sum spreads
    for (let j = 0; j < 10; j++) expect(Number.isNaN(sm[10 + j]), "a +inf row").toBe(true);
    expect([sm[31], sm[33], sm[39]]).toEqual([0, 0, 0]);
    expect([lsm[31], lsm[33], lsm[39]]).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(sm[44]).toBe(1);
    expect(lsm[44]).toBe(0);
  });

  native("backward: softmax's gives the TS kernel's bits, log_softmax's within the exps' ulp", () => {
    for (const dim of DIMS) {
      const x = rows(dim, 100 + dim), g = rows(dim, 200 + dim);
      const [out, logOut] = underTs(() => [torch.softmax(x, -1), torch.log_softmax(x, -1)]);
      check(`softmax backward dim ${dim}`, () => [_softmax_backward_data_default.call(g, out, -1, torch.float32) as torch.Tensor], BWD, 0, 0);
      check(`log_softmax backward dim ${dim}`, () => [_log_softmax_backward_data_default.call(g, logOut, -1, torch.float32) as torch.Tensor], BWD, 6e-7, 4e-6, true);
    }
  });
});

describe("sums: the same result on 1 and 2 threads and on every unit", () => {
  native("sum and mean of 3e5 + 7 elements (several fixed blocks), float32 and float64, and over the last dim of 2-d tensors", () => {
    for (const dtype of [torch.float32, torch.float64]) {
      torch.manual_seed(9);
      const big = torch.randn(300_007, { dtype }).add(0.25);
      const m = torch.randn(301, 1029, { dtype });
      const absBig = big.abs(), absM = m.abs();
      // [what, op, the same reduction of |x| where float32 sums add in float runs]
      const runs: [string, () => torch.Tensor, (() => torch.Tensor)?][] = [
        ["sum", () => torch.sum(big), () => torch.sum(absBig)],
        ["mean", () => torch.mean(big), () => torch.mean(absBig)],
        ["sum strided", () => torch.sum(big.get("::3")), () => torch.sum(absBig.get("::3"))],
        ["sum dim -1", () => torch.sum(m, -1), () => torch.sum(absM, -1)],
        ["mean dim -1", () => torch.mean(m, -1), () => torch.mean(absM, -1)],
        // columns: 1029 of them (whole tiles, single vectors, a masked tail) over 301 rows (float runs of 16 and a short one)
        ["sum dim 0", () => torch.sum(m, 0), () => torch.sum(absM, 0)],
        ["amax dim -1", () => torch.amax(m, -1)],
        ["max dim -1", () => torch.max(m, -1)[0]],
        ["sum of squares (norm)", () => torch.linalg.vector_norm(big)],
      ];
      for (const [what, f, absOf] of runs) {
        const want = values(underTs(f));
        const floatRuns = dtype === torch.float32 && absOf ? Array.from(values(underTs(absOf)), (a) => 16 * 2 ** -24 * a) : null;
        let first: string | null = null;
        for (const isa of ISAS) {
          _set_native_isa(isa);
          for (const threads of [1, 2]) {
            torch.set_num_threads(threads);
            const got = values(f());
            for (let i = 0; i < got.length; i++) {
              const u = dtype === torch.float32 ? ulps32(got[i], want[i]) : ulps64(got[i], want[i]);
              // float64: another order of ~3e5 double additions of O(1) values: 1e-12 absolute
              const ok = dtype === torch.float32 ? u <= 1 || (floatRuns !== null && Math.abs(got[i] - want[i]) <= floatRuns[i] + ulpOf32(want[i])) : Math.abs(got[i] - want[i]) <= 1e-12 * Math.max(1, Math.abs(want[i]));
              expect(ok, `${what} ${dtype} [${isa}, ${threads} threads] ${i}: ${got[i]} vs TS ${want[i]}`).toBe(true);
            }
            const bits = bitsOf(got);
            if (first === null) first = bits;
            else expect(bits === first, `${what} ${dtype} [${isa}, ${threads} threads]: the same bits`).toBe(true);
          }
        }
      }
    }
  }, 60_000);
});

describe("the thread pool's hand-off (workers poll briefly before sleeping)", () => {
  native("thousands of back-to-back two-thread calls, interleaved with pauses longer than the polling, all complete and agree", async () => {
    torch.set_num_threads(2);
    const x = torch.randn(40_000).mul(5); // > GRAIN_SIZE: two tasks
    const want = bitsOf(values(torch.exp(x)));
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 300; i++) expect(bitsOf(values(torch.exp(x))) === want).toBe(true);
      await new Promise((r) => setTimeout(r, 5)); // longer than the polling: the workers sleep, then wake
    }
    torch.set_num_threads(1);
    expect(bitsOf(values(torch.exp(x)))).toBe(want);
    torch.set_num_threads(2);
    expect(bitsOf(values(torch.exp(x)))).toBe(want);
  }, 60_000);
});
