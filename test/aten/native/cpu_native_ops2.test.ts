// The second batch of native ops (native/cpu/Ops2.cc, registered by engine/aten/native/cpu_native/NativeOps2.ts)
// against the TypeScript reference kernels: where, masked_fill_, cumsum/cumprod, arange, linspace on
// every dtype each claims, contiguous / strided / broadcast / 0-d / out= / in-place operands, edge
// sizes (0, 1, odd tails, more than one vector, more than one thread's grain), each instruction-set
// unit and 1 and 2 threads. The trace checks that the native kernel ran (a kernel that silently
// declined would compare TS with TS), and that what a kernel does not cover falls back to TS.
//
// Tolerance: none. Every result has the TS kernel's dtype, shape, strides and every bit (-0 included;
// a NaN matches any NaN, since a NaN that arithmetic makes has x86's sign bit natively and V8's in TS):
// where and masked_fill copy bits, the scans and norms accumulate in the same type in the same order,
// and arange / linspace evaluate the same formula per element (cpu_serial_kernel_vec's blocks).
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { typedView } from "../../../engine/c10/ElementAccess.js";
import { kernelsRan, underTs } from "../../support/native_paths.js";

// these tests check the native kernels themselves, on tiny operands too: no size cut-over to TypeScript
nativeSizePolicy.minNumel = 0;

const status = torch._C._native_status();
/** A test of the native kernels (skipped without the addon); generous time: the machine is shared and each case runs up to 7 times. */
const native = (name: string, fn: () => void) => (status.loaded ? it(name, fn, 120_000) : it.skip(name, fn));
const best = status.loaded ? status.addon!.best_capability : "DEFAULT";
const ISAS = status.loaded ? (["DEFAULT", "AVX2", "AVX512"] as const).filter((isa) => _set_native_isa(isa)) : [];
if (status.loaded) _set_native_isa(best as any);
/** Ops2.cc has no per-unit code (it is compiled once): the long sweeps run on the best unit, the rest on every unit. */
const BEST = [best];
const threads0 = torch.get_num_threads();

afterEach(() => {
  set_cpu_capability(null);
  torch.set_num_threads(threads0);
  if (status.loaded) _set_native_isa(best as any);
});



/** The elements' bytes, in row-major order (every bit: -0, NaN payloads, float16 bits). */
function bytesOf(t: torch.Tensor): Uint8Array {
  const c = t.contiguous()._impl;
  const view = typedView(c.storage, c.dtype);
  const z = c.dtype.itemsize;
  return new Uint8Array(view.buffer, view.byteOffset + c.storage_offset() * z, c.numel() * z);
}

function expectSame(got: torch.Tensor, want: torch.Tensor, what: string): void {
  expect(got.dtype, what).toBe(want.dtype);
  expect(got.shape, what).toEqual(want.shape);
  expect(got.stride(), what).toEqual(want.stride());
  const g = bytesOf(got), w = bytesOf(want);
  expect(g.length, what).toBe(w.length);
  // NaN against NaN passes whatever the payload: a NaN an operation makes (inf - inf) is x86's default
  // NaN natively and V8's canonical one in TS, which differ in the sign bit; every other bit must agree
  const z = got.dtype.itemsize;
  const asFloat = (b: Uint8Array) => (got.dtype === torch.float32 ? new Float32Array(b.buffer, b.byteOffset, b.length / 4) : got.dtype === torch.float64 ? new Float64Array(b.buffer, b.byteOffset, b.length / 8) : null);
  const gf = asFloat(g), wf = asFloat(w);
  let at = -1;
  for (let i = 0; i < g.length; i++) {
    if (g[i] !== w[i]) {
      const k = Math.floor(i / z);
      if (gf !== null && wf !== null && Number.isNaN(gf[k]) && Number.isNaN(wf[k])) {
        i = (k + 1) * z - 1;
        continue;
      }
      at = k;
      break;
    }
  }
  const elem = (t: torch.Tensor) => (t.contiguous().reshape(-1).get(at) as torch.Tensor).item();
  expect(at === -1 ? null : { at, got: elem(got), want: elem(want) }, what).toBeNull();
}

/**
 * f on the TS kernels, then natively on every unit and on 1 and 2 threads: the same result each
 * time; `stub` ran natively (once checked with the trace; an empty result runs no kernel).
 */
function check(what: string, f: () => torch.Tensor, stub: string, isas: readonly string[] = ISAS): void {
  const want = underTs(f);
  let traced = false;
  for (const isa of isas) {
    _set_native_isa(isa as any);
    for (const threads of [1, 2]) {
      torch.set_num_threads(threads);
      let got: torch.Tensor;
      if (!traced) {
        const r = torch.trace.record(f);
        got = r.result;
        const k = r.events.filter((e: any) => e.type === "kernel").map((e: any) => `${e.stub}:${e.impl}`);
        if (want.numel() > 0) expect(k, `${what} [${isa}]`).toContain(`${stub}:native`);
        traced = true;
      } else {
        got = f();
      }
      expectSame(got, want, `${what} [${isa}, ${threads} threads]`);
    }
  }
}

// ---- data ----

const SPECIAL = [0, -0, 1, -1, 0.5, -2.5, 3, 1e-30, 1e-40, -1e-42, 88.7, -104, 3.4e38, -3.4e38, Infinity, -Infinity, NaN, 127, -128, 255, 1000.5];
const FLOAT_DTYPES = [torch.float32, torch.float64];
const INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64];
const ALL_DTYPES = [...FLOAT_DTYPES, torch.float16, torch.bfloat16, ...INT_DTYPES, torch.bool];

let seed = 1;
function rand(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

/** n values of dtype (specials first for floats), the same for the same arguments. */
function data(n: number, dtype: torch.dtype, offset = 0, specials = true): torch.Tensor {
  seed = 1 + n * 31 + offset * 7;
  const vals: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = i + offset;
    if (dtype.is_floating_point) vals.push(specials && k < SPECIAL.length && offset === 0 ? SPECIAL[k] : (rand() - 0.5) * [2, 10, 200][k % 3]);
    else if (dtype === torch.bool) vals.push(rand() < 0.5 ? 1 : 0);
    else {
      const lim = dtype === torch.uint8 ? 255 : dtype === torch.int8 ? 127 : 3000;
      vals.push(dtype === torch.uint8 ? Math.floor(rand() * 256) : Math.round((rand() - 0.5) * 2 * lim));
    }
  }
  if (dtype === torch.bool) return torch.tensor(vals.map((v) => v !== 0), { dtype });
  return dtype.is_floating_point ? torch.tensor(vals, { dtype: torch.float64 }).to(dtype) : torch.tensor(vals, { dtype });
}

function mask(n: number, offset = 3): torch.Tensor {
  return data(n, torch.bool, offset);
}

// ---- where ----

describe("where: native vs TS", () => {
  for (const dtype of ALL_DTYPES) {
    native(`${dtype}: contiguous, strided, broadcast, 0-d and Scalar operands, out=, edge sizes`, () => {
      const [R, C] = [10, 36];
      const a = data(R * C, dtype).reshape(R, C), b = data(R * C, dtype, 5).reshape(R, C), c = mask(R * C).reshape(R, C);
      check("contiguous", () => torch.where(c, a, b), "where_kernel");
      check("transposed", () => torch.where(c.t(), a.t(), b.t()), "where_kernel");
      check("strided", () => torch.where(c.get("::2", "::3"), a.get("1::2", "::3"), b.get("::2", "1::3")), "where_kernel");
      check("condition row broadcast", () => torch.where(c.get(0), a, b), "where_kernel");
      check("column broadcast", () => torch.where(c, a.get(":", "0:1"), b), "where_kernel");
      check("0-d other", () => torch.where(c, a, b.get(0, 0)), "where_kernel");
      check("0-d self", () => torch.where(c, a.get(1, 1), b), "where_kernel");
      if (dtype !== torch.bool) {
        const s = dtype.is_floating_point ? 0.1 : 7;
        check("Scalar other", () => torch.where(c, a, s), "where_kernel");
      }
      check("uint8 condition", () => torch.where(data(R * C, torch.uint8).reshape(R, C), a, b), "where_kernel");
      check("out=", () => {
        const out = torch.empty([C, R], { dtype }).t();
        torch.where(c, a, b, { out });
        return out;
      }, "where_kernel");
      for (const n of [0, 1, 7, 65, 40000]) {
        const x = data(n, dtype, 1, false), y = data(n, dtype, 2, false), m = mask(n);
        check(`size ${n}`, () => torch.where(m, x, y), "where_kernel");
      }
    });
  }
  native("operands of another dtype (not 0-d) fall back to TS; a 0-d one of another dtype is converted", () => {
    const c = mask(40), a = data(40, torch.float32), b = data(40, torch.float64, 3);
    expect(kernelsRan(() => torch.where(c, a, b))).toContain("where_kernel:ts");
    check("0-d float64 other with float32 self", () => torch.where(c, a, torch.tensor(1.1, { dtype: torch.float64 })), "where_kernel");
    check("0-d int32 other with int64 self", () => torch.where(c, data(40, torch.int64), torch.tensor(-5, { dtype: torch.int32 })), "where_kernel");
    check("0-d int64 other with float32 self", () => torch.where(c, a, torch.tensor(3, { dtype: torch.int64 })), "where_kernel");
    check("0-d float64 other with float16 self", () => torch.where(c, data(40, torch.float16), torch.tensor(0.3, { dtype: torch.float64 })), "where_kernel");
    // an out= that shares an input's storage runs in TS
    const x = data(40, torch.float32);
    expect(kernelsRan(() => torch.where(c, x, b.to(torch.float32), { out: x }))).toContain("where_kernel:ts");
  });
});

// ---- masked_fill_ ----

describe("masked_fill_: native vs TS", () => {
  for (const dtype of ALL_DTYPES) {
    native(`${dtype}: contiguous, strided, broadcast mask, Scalar and 0-d values, edge sizes`, () => {
      const [R, C] = [12, 30];
      const v = dtype === torch.bool ? true : dtype.is_floating_point ? -0.3 : 5;
      const base = () => data(R * C, dtype).reshape(R, C);
      const c = mask(R * C).reshape(R, C);
      check("contiguous", () => base().masked_fill_(c, v), "masked_fill_stub");
      check("out of place", () => torch.masked_fill(base(), c, v), "masked_fill_stub");
      check("transposed self", () => base().t().masked_fill_(c.t(), v), "masked_fill_stub");
      check("strided self and mask", () => base().get("::2", "1::3").masked_fill_(c.get("1::2", "::3"), v), "masked_fill_stub");
      check("row mask broadcast", () => base().masked_fill_(c.get(2), v), "masked_fill_stub");
      check("column mask broadcast", () => base().masked_fill_(c.get(":", "0:1"), v), "masked_fill_stub");
      check("0-d mask", () => base().masked_fill_(torch.tensor(true), v), "masked_fill_stub");
      check("0-d value tensor", () => base().masked_fill_(c, torch.tensor(v as any)), "masked_fill_stub");
      if (dtype.is_floating_point) {
        check("value -0", () => base().masked_fill_(c, -0), "masked_fill_stub");
        check("value NaN", () => base().masked_fill_(c, NaN), "masked_fill_stub");
        check("value -inf", () => base().masked_fill_(c, -Infinity), "masked_fill_stub");
      }
      for (const n of [0, 1, 7, 65, 40000]) check(`size ${n}`, () => data(n, dtype, 1, false).masked_fill_(mask(n), v), "masked_fill_stub");
    });
  }
  native("integer values convert as the TS kernel does (truncation, wrap)", () => {
    const c = mask(50);
    check("int32 fill 2.7", () => data(50, torch.int32).masked_fill_(c, 2.7), "masked_fill_stub");
    check("int64 fill -3.9", () => data(50, torch.int64).masked_fill_(c, -3.9), "masked_fill_stub");
    check("uint8 fill 300", () => data(50, torch.uint8).masked_fill_(c, 300), "masked_fill_stub");
    check("float32 fill 1e300", () => data(50, torch.float32).masked_fill_(c, 1e300), "masked_fill_stub");
  });
  native("a uint8 mask and an expanded self fall back to TS", () => {
    const x = data(50, torch.float32);
    expect(kernelsRan(() => x.clone().masked_fill_(data(50, torch.uint8).clamp(0, 1), 1))).toContain("masked_fill_stub:ts");
    expect(kernelsRan(() => torch.zeros(1, 8).expand(4, 8).masked_fill_(mask(32).reshape(4, 8), 1))).toContain("masked_fill_stub:ts");
  });
});

// ---- cumsum / cumprod ----

describe("cumsum / cumprod: native vs TS", () => {
  const ops: [string, (x: torch.Tensor, dim: number, o?: any) => torch.Tensor, string][] = [
    ["cumsum", (x, d) => torch.cumsum(x, d), "cumsum_stub"],
    ["cumprod", (x, d) => torch.cumprod(x, d), "cumprod_stub"],
  ];
  const DT = [...FLOAT_DTYPES, ...INT_DTYPES, torch.bool];
  for (const dtype of DT) {
    native(`${dtype}: every dim of contiguous, transposed and strided inputs, edge sizes`, () => {
      // cumprod of random values overflows to inf / wraps: exactly as in TS (the same order)
      const x = data(4 * 7 * 19, dtype).reshape(4, 7, 19);
      for (const [name, f, stub] of ops) {
        for (const d of [0, 1, 2, -1]) {
          check(`${name} dim ${d}`, () => f(x, d), stub);
          check(`${name} permuted dim ${d}`, () => f(x.permute(2, 0, 1), d), stub);
          check(`${name} strided dim ${d}`, () => f(x.get("::2", ":", "1::3"), d), stub);
        }
        for (const n of [1, 7, 65, 5000]) check(`${name} 1-D size ${n}`, () => f(data(n, dtype, 2, false), 0), stub);
        check(`${name} many short lanes`, () => f(data(3000 * 3, dtype, 1, false).reshape(3000, 3), 1), stub);
        check(`${name} long lanes along dim 0`, () => f(data(300 * 130, dtype, 1, false).reshape(300, 130), 0), stub);
        check(`${name} size 0`, () => f(data(0, dtype).reshape(0, 5), 1), stub);
      }
    });
  }
  native("dtype=, out= and in-place", () => {
    const x = data(6 * 33, torch.float32).reshape(6, 33);
    check("float32 -> float64", () => torch.cumsum(x, 1, { dtype: torch.float64 }), "cumsum_stub");
    check("int32 -> int64", () => torch.cumprod(data(6 * 33, torch.int32).reshape(6, 33), 0), "cumprod_stub");
    check("out= transposed", () => {
      const out = torch.empty([33, 6]).t();
      torch.cumsum(x, 0, { out });
      return out;
    }, "cumsum_stub");
    check("in place", () => x.clone().cumsum_(1), "cumsum_stub");
    check("in place on a transposed view", () => x.clone().t().cumprod_(0), "cumprod_stub");
    // not covered natively: float64 -> float32, int -> int32, float16: TS
    expect(kernelsRan(() => torch.cumsum(data(40, torch.float64), 0, { dtype: torch.float32 }))).toContain("cumsum_stub:ts");
    expect(kernelsRan(() => torch.cumsum(data(40, torch.int32), 0, { dtype: torch.int32 }))).toContain("cumsum_stub:ts");
    expect(kernelsRan(() => torch.cumsum(data(40, torch.bfloat16), 0))).toContain("cumsum_stub:ts");
  });
  native("int64 wraps like the TS kernel's BigInt.asIntN(64)", () => {
    // 2^53 * 1500 passes 2^63 (the sums wrap); 2^40 * 2^40 does too (the products wrap)
    const big = torch.tensor([...Array(1500).fill(2 ** 53), -(2 ** 53), 3, 2 ** 40, 2 ** 40, 7, -(2 ** 30), 11], { dtype: torch.int64 });
    check("cumsum", () => torch.cumsum(big, 0), "cumsum_stub");
    check("cumprod", () => torch.cumprod(big, 0), "cumprod_stub");
  });
});

// ---- arange / linspace ----

describe("arange / linspace: native vs TS (the same per-element formula)", () => {
  native("arange float32 / float64: integral and fractional starts and steps, every tail length", () => {
    for (const dtype of FLOAT_DTYPES) {
      const o = { dtype };
      for (const n of [1, 2, 15, 16, 17, 31, 33, 100, 1000, 70001]) {
        check(`${dtype} 0..${n}`, () => torch.arange(0, n, 1, o), "arange_stub", BEST);
        check(`${dtype} -3.5 step 0.1 x ${n}`, () => torch.arange(-3.5, -3.5 + 0.1 * n, 0.1, o), "arange_stub", BEST);
        check(`${dtype} 1e7 step -0.37 x ${n}`, () => torch.arange(1e7, 1e7 - 0.37 * n, -0.37, o), "arange_stub", BEST);
      }
      check(`${dtype} start 2^52`, () => torch.arange(2 ** 52, 2 ** 52 + 100, 3, o), "arange_stub", BEST);
      // integral and within 2^24: float32 computes in float (exact); several chunks, negative values and steps
      check(`${dtype} descending integral`, () => torch.arange(1000, -1000, -7, o), "arange_stub", BEST);
      check(`${dtype} -5e6..5e6 step 3`, () => torch.arange(-5e6, 5e6, 3, o), "arange_stub");
      check(`${dtype} integral, just past 2^24`, () => torch.arange(2 ** 24 - 40_000, 2 ** 24 + 40_000, 1, o), "arange_stub");
      check(`${dtype} step 1/3`, () => torch.arange(0, 1000, 1 / 3, o), "arange_stub", BEST);
      check(`${dtype} 1e6`, () => torch.arange(0, 1_000_000, 1, o), "arange_stub");
    }
  });
  native("arange int32 / int64; out of int32 range or other dtypes fall back to TS", () => {
    for (const dtype of [torch.int32, torch.int64]) {
      check(`${dtype} 0..100000`, () => torch.arange(0, 100000, { dtype }), "arange_stub", BEST);
      check(`${dtype} -7 step 3`, () => torch.arange(-7, 5000, 3, { dtype }), "arange_stub", BEST);
      check(`${dtype} fractional args truncated`, () => torch.arange(-7.9, 500.5, 2.7, { dtype }), "arange_stub", BEST);
      check(`${dtype} descending`, () => torch.arange(1000, -1000, -7, { dtype }), "arange_stub", BEST);
      // long enough for both threads (each chunk's first value from its index, then added step by step)
      check(`${dtype} long descending step -3`, () => torch.arange(100001, -100000, -3, { dtype }), "arange_stub", BEST);
      check(`${dtype} up to 2^31 - 1`, () => torch.arange(2 ** 31 - 100000, 2 ** 31, 1, { dtype }), "arange_stub", BEST);
    }
    check("int64 default", () => torch.arange(12345), "arange_stub");
    check("int64 beyond int32", () => torch.arange(2 ** 40, 2 ** 40 + 9000, 17), "arange_stub");
    // int32 values past 2^31 wrap in TS: not claimed natively
    expect(kernelsRan(() => torch.arange(2 ** 31 - 10, 2 ** 31 + 10, { dtype: torch.int32 }))).toContain("arange_stub:ts");
    expect(kernelsRan(() => torch.arange(0, 100, { dtype: torch.int16 }))).toContain("arange_stub:ts");
    expect(kernelsRan(() => torch.arange(0, 100, { dtype: torch.float16 }))).toContain("arange_stub:ts");
  });
  native("linspace float32 / float64: every tail length, both halves, reversed and degenerate ranges", () => {
    for (const dtype of FLOAT_DTYPES) {
      const o = { dtype };
      for (const n of [1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 100, 1001, 70001]) {
        check(`${dtype} 0..1 x ${n}`, () => torch.linspace(0, 1, n, o), "linspace_stub", BEST);
        check(`${dtype} -3.3..7.1 x ${n}`, () => torch.linspace(-3.3, 7.1, n, o), "linspace_stub", BEST);
        check(`${dtype} 1e6..-2e-3 x ${n}`, () => torch.linspace(1e6, -2e-3, n, o), "linspace_stub", BEST);
      }
      check(`${dtype} start = end`, () => torch.linspace(2.5, 2.5, 50, o), "linspace_stub", BEST);
      check(`${dtype} 1e6`, () => torch.linspace(0, 1, 1_000_000, o), "linspace_stub");
    }
    expect(kernelsRan(() => torch.linspace(0, 10, 100, { dtype: torch.int64 }))).toContain("linspace_stub:ts");
  });
});

// ---- norm_stub (native: Reductions.cc lane_reduce, registered by NativeReductions.ts; more blocks in cpu_native_lane_reductions.test.ts) ----

describe("norm (ord 0, 1, 2, +-inf): native vs TS", () => {
  const ORDS = [2, 1, 0, Infinity, -Infinity];
  for (const dtype of FLOAT_DTYPES) {
    native(`${dtype}: full and partial reductions, keepdim, strided inputs, dtype=, edge sizes`, () => {
      const x = data(6 * 9 * 37, dtype).reshape(6, 9, 37);
      // specials include inf and NaN: a second tensor of finite values checks the sums themselves
      const y = data(6 * 9 * 37, dtype, 3, false).reshape(6, 9, 37);
      for (const ord of ORDS) {
        for (const [name, t] of [["specials", x], ["finite", y]] as const) {
          check(`${name} ord ${ord} all`, () => torch.linalg.vector_norm(t, ord), "norm_stub");
          check(`${name} ord ${ord} dim -1`, () => torch.linalg.vector_norm(t, ord, [-1]), "norm_stub");
          check(`${name} ord ${ord} dim 0 keepdim`, () => torch.linalg.vector_norm(t, ord, [0], true), "norm_stub");
          check(`${name} ord ${ord} dims 0,2`, () => torch.linalg.vector_norm(t, ord, [0, 2]), "norm_stub");
          check(`${name} ord ${ord} transposed`, () => torch.linalg.vector_norm(t.permute(2, 0, 1), ord, [1, 2]), "norm_stub");
          check(`${name} ord ${ord} strided`, () => torch.linalg.vector_norm(t.get(":", "::2", "1::3"), ord, [1]), "norm_stub");
        }
      }
      check("torch.norm", () => torch.norm(y), "norm_stub");
      check("torch.norm dim 1", () => torch.norm(y, 2, 1), "norm_stub");
      for (const n of [1, 7, 65, 40000]) check(`1-D size ${n}`, () => torch.linalg.vector_norm(data(n, dtype, 1, false)), "norm_stub");
      check("size-0 dim, kept dims non-empty", () => torch.linalg.vector_norm(data(0, dtype).reshape(4, 0), 2, [1]), "norm_stub");
      check("0-d", () => torch.linalg.vector_norm(data(1, dtype).reshape([])), "norm_stub");
    });
  }
  native("float32 -> float64 (dtype=), and what stays in TS", () => {
    const x = data(300, torch.float32, 2, false).reshape(10, 30);
    check("dtype float64", () => torch.linalg.vector_norm(x, 2, [1], false, { dtype: torch.float64 }), "norm_stub");
    check("out=", () => {
      const out = torch.empty([10]);
      torch.linalg.vector_norm(x, 2, [1], false, { out });
      return out;
    }, "norm_stub");
    expect(kernelsRan(() => torch.linalg.vector_norm(x, 3))).toContain("norm_stub:ts");
    expect(kernelsRan(() => torch.linalg.vector_norm(x.to(torch.bfloat16), 2))).toContain("norm_stub:ts");
  });
});

describe("tril / triu: native vs TS (apply_triu_tril: the kept elements' bits, +0 elsewhere)", () => {
  native("every dtype, diagonals inside and beyond the matrix, batches, strided and transposed inputs, out=, in place", () => {
    for (const dtype of ALL_DTYPES) {
      const x = data(3 * 7 * 5, dtype).reshape(3, 7, 5);
      for (const k of [0, 1, -1, 3, -6, 9, -9]) {
        check(`tril ${dtype} k=${k}`, () => torch.tril(x, k), "apply_triu_tril", BEST);
        check(`triu ${dtype} k=${k}`, () => torch.triu(x, k), "apply_triu_tril", BEST);
      }
      check(`tril ${dtype} transposed`, () => torch.tril(x.transpose(1, 2), 1), "apply_triu_tril", BEST);
      check(`triu ${dtype} strided`, () => torch.triu(x.get(":", "::2", "1::2"), 0), "apply_triu_tril", BEST);
      check(`tril_ ${dtype} in place`, () => x.clone().tril_(-1), "apply_triu_tril", BEST);
      check(`triu_ ${dtype} in place, transposed`, () => x.clone().transpose(0, 2).triu_(1), "apply_triu_tril", BEST);
      check(`tril ${dtype} out=`, () => {
        const out = torch.empty(0, { dtype });
        torch.tril(x, 2, { out });
        return out;
      }, "apply_triu_tril", BEST);
    }
    // a big square (rows over several threads' grains): the causal mask of an attention layer
    const big = torch.full([300, 300], -Infinity);
    check("triu causal mask 300x300", () => torch.triu(big, 1), "apply_triu_tril");
  });
});
