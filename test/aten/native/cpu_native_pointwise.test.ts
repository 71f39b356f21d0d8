// The native pointwise kernels (native/cpu/Pointwise.cc, pointwise_kernels.inc; registered by
// engine/aten/native/cpu_native/NativePointwise.ts) against the TypeScript reference kernels: every
// op on every dtype it claims, contiguous / strided / broadcast / 0-d / out= operands, edge sizes
// (0, 1, odd tails, more than one vector, more than one thread's grain), NaN / inf / -0 / subnormal
// inputs, and each instruction-set unit (DEFAULT, AVX2, AVX512 where the CPU has them). The trace
// checks that the native kernel ran (a kernel that silently declined would compare TS with TS).
//
// Tolerances: bit-exact everywhere (dtype, shape, strides and every bit, -0 included) except the
// transcendental functions: float32 exp/log/tanh/sigmoid/silu/gelu/sin/cos/erf within 1 ulp of the TS
// kernels' correctly rounded values (in practice all but ~1e-8 of inputs are equal, except exp, which
// computes in float: up to ~9% of inputs 1 ulp off; the scan test counts), float64 exp/log/tanh/sigmoid/silu/sin/cos/erf within 2 ulp (glibc's vs V8's last bit).
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { bfloat16BitsToNumber, halfBitsToNumber } from "../../../engine/c10/util/Half.js";
import { bestIsa, kernelsRan, nativeIt, nativeStatus, runnableIsas, underTs } from "../../support/native_paths.js";
import { gelu_backward_default } from "../../../engine/generated/gelu_backward.js";
import { silu_backward_default } from "../../../engine/generated/silu_backward.js";

// these tests check the native kernels themselves, on tiny operands too: no size cut-over to TypeScript
nativeSizePolicy.minNumel = 0;

const status = nativeStatus, native = nativeIt, best = bestIsa;
/** The units this CPU can run. */
const ISAS = runnableIsas();

afterEach(() => {
  set_cpu_capability(null);
  if (status.loaded) _set_native_isa(best as any);
});



function flat(t: torch.Tensor): (number | bigint | boolean)[] {
  return (Array.from([t.contiguous().tolist()] as any) as any[]).flat(Infinity);
}

const f32bits = new Int32Array(1), f32view = new Float32Array(f32bits.buffer);
const f64bits = new BigInt64Array(1), f64view = new Float64Array(f64bits.buffer);
/** Distance in ulps (monotone integer order of the bit patterns, -0 one below +0); 0 for equal values incl. NaN/NaN. */
function ulps(a: number, b: number, dtype: torch.dtype): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  if (Object.is(a, b)) return 0;
  if (dtype === torch.bfloat16) return ulps(a, b, torch.float32) / 65536; // bfloat16 values are float32 with 16 zero bits
  if (dtype === torch.float32) {
    const key = (x: number) => {
      f32view[0] = x;
      const i = f32bits[0];
      return i < 0 ? -2147483648 - i - 1 : i;
    };
    return Math.abs(key(a) - key(b));
  }
  const key = (x: number) => {
    f64view[0] = x;
    const i = f64bits[0];
    return i < 0n ? -9223372036854775808n - i - 1n : i;
  };
  const d = key(a) - key(b);
  return Number(d < 0n ? -d : d);
}

/**
 * got and want agree: dtype, shape, strides, values within maxUlps (0: the same bits, -0 too), or where
 * absTol is given (an element's bound, in the flattened order, or one for all), within it in value.
 */
function expectSame(got: torch.Tensor, want: torch.Tensor, what: string, maxUlps = 0, absTol?: number[] | number): void {
  expect(got.dtype, what).toBe(want.dtype);
  expect(got.shape, what).toEqual(want.shape);
  expect(got.stride(), what).toEqual(want.stride());
  const g = flat(got), w = flat(want);
  expect(g.length, what).toBe(w.length);
  if (got.dtype === torch.float32 || got.dtype === torch.float64 || got.dtype === torch.bfloat16) {
    let worst = 0, at = -1;
    for (let i = 0; i < g.length; i++) {
      let u = ulps(g[i] as number, w[i] as number, got.dtype);
      const tol = absTol === undefined ? -1 : typeof absTol === "number" ? absTol : absTol[i];
      if (u > maxUlps && Math.abs((g[i] as number) - (w[i] as number)) <= tol) u = 0;
      if (u > worst) [worst, at] = [u, i];
    }
    expect(worst <= maxUlps ? null : { at, got: g[at], want: w[at], ulps: worst }, what).toBeNull();
  } else {
    expect(g, what).toEqual(w);
  }
}

/** Units that give the same bits: all of them, or (float32 exp, fused on the units with FMA) those with FMA and the baseline apart. */
type BitFamily = (isa: string) => string;
const allUnits: BitFamily = () => "all";
const fmaApart: BitFamily = (isa) => (isa === "DEFAULT" ? "baseline" : "fma");

/**
 * Runs f natively on every unit and on the TS kernels: each unit's result equals the TS one within
 * maxUlps and the units of one `family` give the same bits; `stub` must have run natively.
 */
function check(what: string, f: () => torch.Tensor, stub: string, maxUlps = 0, family: BitFamily = allUnits, absTol?: number[] | number): void {
  const want = underTs(f);
  let ranChecked = false;
  const firsts = new Map<string, { isa: string; bits: (number | bigint | boolean)[] }>();
  for (const isa of ISAS) {
    _set_native_isa(isa);
    let got: torch.Tensor;
    if (!ranChecked) {
      // once: the native kernel ran (the kernel choice does not depend on the unit)
      ranChecked = true;
      const r = torch.trace.record(f);
      got = r.result;
      const ran = r.events.filter((e: any) => e.type === "kernel").map((e: any) => `${e.stub}:${e.impl}`);
      if (got.numel() > 0) expect(ran, `${what} [${isa}]`).toContain(`${stub}:native`); // (an empty op runs no kernel)
    } else {
      got = f();
    }
    expectSame(got, want, `${what} [${isa}]`, maxUlps, absTol);
    // the units of a family give the same bits
    const signed = (bits: (number | bigint | boolean)[]) => bits.map((v) => (typeof v === "number" && v === 0 ? (Object.is(v, -0) ? "-0" : "0") : v));
    const bits = flat(got), first = firsts.get(family(isa));
    if (first === undefined) firsts.set(family(isa), { isa, bits });
    else expect(signed(bits), `${what} [${isa} vs ${first.isa}]`).toEqual(signed(first.bits));
  }
}

// ---- data: random values, the edge values each op cares about, in every dtype ----

const SPECIAL = [0, -0, 1, -1, 0.5, -0.5, 2, -2.5, 3, 1e-30, -1e-30, 1e-40, -1e-42, 1e-8, -1e-8, 0.549, 0.551, 1.1, 9.01, -9.01, 20, -20, 30,
  88.72, 88.73, 89, -87.3, -103.9, -104, -150, 200, 3.4e38, -3.4e38, Infinity, -Infinity, NaN, 127, -128, 255, 1000.5];
const FLOAT_DTYPES = [torch.float32, torch.float64];
const INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64];
const ALL_DTYPES = [...FLOAT_DTYPES, ...INT_DTYPES, torch.bool];

let seed = 1;
function rand(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

/** n values: the specials first (floats), then random ones of a few magnitudes, in `dtype` (the same for the same arguments). */
function data(n: number, dtype: torch.dtype, offset = 0): torch.Tensor {
  seed = 1 + n * 31 + offset * 7;
  const vals: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = i + offset;
    if (dtype.is_floating_point) {
      vals.push(k < SPECIAL.length && offset === 0 ? SPECIAL[k] : (rand() - 0.5) * [2, 10, 200][k % 3]);
    } else if (dtype === torch.bool) {
      vals.push(rand() < 0.5 ? 1 : 0);
    } else {
      const lim = dtype === torch.uint8 ? 255 : dtype === torch.int8 ? 127 : 3000;
      vals.push(dtype === torch.uint8 ? Math.floor(rand() * 256) : Math.round((rand() - 0.5) * 2 * lim));
    }
  }
  if (dtype === torch.bool) return torch.tensor(vals.map((v) => v !== 0), { dtype });
  // float64 values rounded into the dtype by .to(), so every dtype sees the same edge cases
  return dtype.is_floating_point ? torch.tensor(vals, { dtype: torch.float64 }).to(dtype) : torch.tensor(vals, { dtype });
}

/** Positive values (log, sqrt, the divisors' dtype-safe range) */
const positive = (t: torch.Tensor) => torch.abs(t).add(t.dtype.is_floating_point ? 1e-3 : 1);

/** The layouts each binary op is checked on: [name, a, b] over a 2-D base of `rows` x `cols`. */
function binaryLayouts(dtype: torch.dtype, rows: number, cols: number): [string, torch.Tensor, torch.Tensor | number][] {
  const a = data(rows * cols, dtype).reshape(rows, cols);
  const b = data(rows * cols, dtype, 7).reshape(rows, cols);
  const scalar = dtype === torch.bool ? true : dtype.is_floating_point ? 1.5 : 3;
  return [
    ["contiguous", a, b],
    ["broadcast row", a, b.get(0)],
    ["broadcast column", a, b.get(":", "0:1")],
    ["0-d tensor", a, b.get(0, 0)],
    ["python scalar", a, scalar as any],
    ["transposed", a.t(), b.t()],
    ["strided", a.get("::2", "::3"), b.get("1::2", "::3")],
    ["mixed", a.t().contiguous().t(), b],
  ];
}

const SIZES = [0, 1, 7, 16, 17, 33, 257];

/** The binary ops every dtype runs natively: [name, op, stub]. */
const arith: [string, (a: torch.Tensor, b: any) => torch.Tensor, string][] = [
  ["add", (a, b) => torch.add(a, b), "add_stub"],
  ["mul", (a, b) => torch.mul(a, b), "mul_stub"],
  ["maximum", (a, b) => torch.maximum(a, typeof b === "object" ? b : torch.tensor(b, { dtype: a.dtype })), "maximum_stub"],
  ["minimum", (a, b) => torch.minimum(a, typeof b === "object" ? b : torch.tensor(b, { dtype: a.dtype })), "minimum_stub"],
  ["eq", (a, b) => torch.eq(a, b), "eq_stub"],
  ["ne", (a, b) => torch.ne(a, b), "ne_stub"],
  ["lt", (a, b) => torch.lt(a, b), "lt_stub"],
  ["le", (a, b) => torch.le(a, b), "le_stub"],
  ["gt", (a, b) => torch.gt(a, b), "gt_stub"],
  ["ge", (a, b) => torch.ge(a, b), "ge_stub"],
];

describe("binary ops: native vs TS, every dtype and layout", () => {
  for (const dtype of ALL_DTYPES) {
    native(`${dtype}: add, sub (alpha), mul, div, maximum, minimum, comparisons`, () => {
      for (const [lname, a, b] of binaryLayouts(dtype, 10, 35)) {
        for (const [name, f, stub] of arith) check(`${name} ${lname}`, () => f(a, b), stub);
        if (dtype !== torch.bool) {
          check(`sub ${lname}`, () => torch.sub(a, b), "add_stub");
          check(`add alpha ${lname}`, () => torch.add(a, b, { alpha: dtype.is_floating_point ? 2.5 : -3 }), "add_stub");
        } else {
          check(`add alpha=False ${lname}`, () => torch.add(a, b, { alpha: false }), "add_stub");
        }
        if (dtype.is_floating_point) check(`div ${lname}`, () => torch.div(a, b), "div_true_stub");
      }
    }, 60_000);
  }
  native("edge sizes, out= (strided), in-place, and the multi-threaded range", () => {
    for (const dtype of [torch.float32, torch.int64, torch.uint8]) {
      for (const n of dtype === torch.float32 ? [...SIZES, 40_000] : SIZES) {
        const a = data(n, dtype), b = data(n, dtype, 3);
        check(`add n=${n} ${dtype}`, () => torch.add(a, b, { alpha: 2 }), "add_stub");
        check(`lt n=${n} ${dtype}`, () => torch.lt(a, b), "lt_stub");
      }
      const a = data(6 * 10, dtype).reshape(6, 10), b = data(10, dtype, 5);
      check(`mul out= strided ${dtype}`, () => {
        const out = torch.zeros(10, 12, { dtype }).get(":", "1:7").t();
        torch.mul(a, b, { out });
        return out;
      }, "mul_stub");
      check(`add_ in place ${dtype}`, () => a.clone().add_(b), "add_stub");
      check(`lt out= bool ${dtype}`, () => torch.lt(a, b, { out: torch.empty(0, { dtype: torch.bool }) }), "lt_stub");
    }
  }, 60_000);
  native("operands of another dtype than the computation's decline to the TS kernel", () => {
    const a = data(50, torch.float32), b = data(50, torch.int32);
    expect(kernelsRan(() => torch.add(a, b))).toEqual(["add_stub:ts"]);
    expect(kernelsRan(() => torch.lt(a, b))).toEqual(["lt_stub:ts"]);
    expect(kernelsRan(() => torch.add(torch.ones(3, { dtype: torch.float16 }), torch.ones(3, { dtype: torch.bfloat16 })))).toEqual(["add_stub:ts"]); // (computed in float32)
    // a 0-d operand of another dtype is converted once and still runs natively
    expect(kernelsRan(() => torch.add(a, torch.tensor(2, { dtype: torch.int64 })))).toEqual(["add_stub:native"]);
  });
});

describe("binary math ops (pointwise_binary_math.inc): native vs TS", () => {
  /** A divisor with no zeros: zero becomes 7 (the zero-divisor error has its own test). */
  const nonzero = (b: torch.Tensor | number) => (typeof b === "number" ? b : torch.where(b.eq(0), torch.tensor(7, { dtype: b.dtype }), b));
  const tensor = (b: torch.Tensor | number | boolean, like: torch.Tensor) => (typeof b !== "object" ? torch.tensor(b, { dtype: like.dtype }) : b);
  // [name, op, stub (per layout), dtypes, ulps allowed for float32 and float64]
  type Case = [string, (a: torch.Tensor, b: any) => torch.Tensor, (layout: string) => string, torch.dtype[], [number, number]];
  const stub = (s: string) => () => s;
  const cases: Case[] = [
    ["remainder", (a, b) => torch.remainder(a, b), stub("remainder_stub"), [...FLOAT_DTYPES, ...INT_DTYPES], [0, 0]],
    ["fmod", (a, b) => torch.fmod(a, b), stub("fmod_stub"), [...FLOAT_DTYPES, ...INT_DTYPES], [0, 0]],
    ["div floor", (a, b) => torch.div(a, b, { rounding_mode: "floor" }), stub("div_floor_stub"), [...FLOAT_DTYPES, ...INT_DTYPES], [0, 0]],
    ["div trunc", (a, b) => torch.div(a, b, { rounding_mode: "trunc" }), stub("div_trunc_stub"), [...FLOAT_DTYPES, ...INT_DTYPES], [0, 0]],
    ["atan2", (a, b) => torch.atan2(a, tensor(b, a)), stub("atan2_stub"), FLOAT_DTYPES, [1, 2]],
    ["hypot", (a, b) => torch.hypot(a, tensor(b, a)), stub("hypot_stub"), FLOAT_DTYPES, [0, 0]],
    ["copysign", (a, b) => torch.copysign(a, b), stub("copysign_stub"), FLOAT_DTYPES, [0, 0]],
    ["fmax", (a, b) => torch.fmax(a, tensor(b, a)), stub("fmax_stub"), [...FLOAT_DTYPES, ...INT_DTYPES, torch.bool], [0, 0]],
    ["fmin", (a, b) => torch.fmin(a, tensor(b, a)), stub("fmin_stub"), [...FLOAT_DTYPES, ...INT_DTYPES, torch.bool], [0, 0]],
    ["xlogy", (a, b) => torch.xlogy(a, b), stub("xlogy_stub"), FLOAT_DTYPES, [1, 2]],
    ["pow", (a, b) => torch.pow(a, b), (l) => (l === "python scalar" ? "pow_tensor_scalar_stub" : "pow_tensor_tensor_stub"), [...FLOAT_DTYPES, ...INT_DTYPES], [1, 2]],
  ];
  for (const dtype of [...FLOAT_DTYPES, ...INT_DTYPES, torch.bool]) {
    const mine = cases.filter((c) => c[3].includes(dtype));
    native(`${dtype}: ${mine.map((c) => c[0]).join(", ")}, every layout`, () => {
      for (const [lname, a, b] of binaryLayouts(dtype, 10, 35)) {
        for (const [name, f, stubOf, , [u32, u64]] of mine) {
          if (name === "pow" && lname === "python scalar" && !dtype.is_floating_point) continue; // (integer ** Scalar: the TS kernel)
          const divisor = name === "remainder" || name === "fmod" || name.startsWith("div") ? nonzero(b) : b;
          // (float32 atan2 computes in float on the units with FMA: those apart from the baseline)
          const family = name === "atan2" && dtype === torch.float32 ? fmaApart : allUnits;
          check(`${name} ${lname}`, () => f(a, divisor), stubOf(lname), dtype === torch.float32 ? u32 : dtype === torch.float64 ? u64 : 0, family);
        }
      }
    }, 60_000);
  }
  native("float divisions: zero, infinite and huge quotients, signed zeros (each op against the TS kernel)", () => {
    const vals = [0, -0, 1, -1, 2.5, -2.5, 3, 1e-30, 1e-40, 7e37, -3.4e38, 1e10, 16777217, Infinity, -Infinity, NaN, 0.1, 5.75, -1e-3];
    for (const dtype of FLOAT_DTYPES) {
      const a = torch.tensor(vals.flatMap((x) => vals.map(() => x)), { dtype }), b = torch.tensor(vals.flatMap(() => vals), { dtype });
      check(`remainder ${dtype}`, () => torch.remainder(a, b), "remainder_stub");
      check(`fmod ${dtype}`, () => torch.fmod(a, b), "fmod_stub");
      check(`div floor ${dtype}`, () => torch.div(a, b, { rounding_mode: "floor" }), "div_floor_stub");
      check(`div trunc ${dtype}`, () => torch.div(a, b, { rounding_mode: "trunc" }), "div_trunc_stub");
      check(`hypot ${dtype}`, () => torch.hypot(a, b), "hypot_stub");
      check(`pow ${dtype}`, () => torch.pow(a, b), "pow_tensor_tensor_stub", dtype === torch.float32 ? 1 : 2);
      check(`xlogy ${dtype}`, () => torch.xlogy(a, b), "xlogy_stub", dtype === torch.float32 ? 1 : 2);
      check(`atan2 ${dtype}`, () => torch.atan2(a, b), "atan2_stub", dtype === torch.float32 ? 1 : 2, dtype === torch.float32 ? fmaApart : allUnits);
      for (const e of [2.5, -1.5, 4, 0, 1, 0.25, -3, 1e3]) check(`pow ^${e} ${dtype}`, () => torch.pow(a, e), "pow_tensor_scalar_stub", dtype === torch.float32 ? 1 : 2);
    }
  });
  native("float32 remainder and fmod over many quotient sizes, contiguous and strided, in place: the TS kernel's bits", () => {
    // quotients from 1e-3 to 1e12 (past 2^28, where a fast path has to hand over to an exact fmod)
    const n = 3000, av: number[] = [], bv: number[] = [];
    seed = 5;
    for (let i = 0; i < n; i++) {
      av.push((rand() - 0.5) * 10 ** (rand() * 12));
      bv.push((rand() - 0.5) * 10 ** (rand() * 3 - 1));
    }
    const a = torch.tensor(av), b = torch.tensor(bv);
    check("remainder", () => torch.remainder(a, b), "remainder_stub");
    check("fmod", () => torch.fmod(a, b), "fmod_stub");
    check("div floor", () => torch.div(a, b, { rounding_mode: "floor" }), "div_floor_stub");
    check("fmod strided", () => torch.fmod(a.get("::3"), b.get("1::3")), "fmod_stub");
    check("remainder_ in place", () => a.clone().remainder_(b), "remainder_stub");
    check("fmod_ in place, b broadcast", () => a.clone().fmod_(b.get(4)), "fmod_stub");
    check("remainder, a broadcast", () => torch.remainder(a.get(7), b), "remainder_stub");
    check("div floor, a broadcast", () => torch.div(a.get(9), b, { rounding_mode: "floor" }), "div_floor_stub");
  });
  native("integer division: zero divisors raise ZeroDivisionError, MIN / -1 and MIN % -1 wrap as the TS kernels do (no SIGFPE)", () => {
    for (const dtype of INT_DTYPES) {
      const a = data(40, dtype), z = torch.zeros(40, { dtype });
      for (const [name, f] of [["remainder", torch.remainder], ["fmod", torch.fmod], ["floor", (x: any, y: any) => torch.div(x, y, { rounding_mode: "floor" })],
        ["trunc", (x: any, y: any) => torch.div(x, y, { rounding_mode: "trunc" })]] as const) {
        expect(kernelsRan(() => { try { f(a, z); } catch { /* traced up to the error */ } }), `${name} ${dtype}`).toContain(`${name === "floor" || name === "trunc" ? `div_${name}` : name}_stub:native`);
        expect(() => f(a, z), `${name} ${dtype}`).toThrow(/^ZeroDivisionError$/);
        expect(() => underTs(() => f(a, z)), `${name} ${dtype} (TS)`).toThrow(/^ZeroDivisionError$/);
        expect(() => f(a, a.get("0:1").mul(0).expand(40)), `${name} ${dtype} broadcast zero`).toThrow(/^ZeroDivisionError$/);
      }
      if (dtype === torch.uint8) continue;
      const min = dtype === torch.int8 ? -128 : dtype === torch.int16 ? -32768 : dtype === torch.int32 ? -2147483648 : -(2 ** 62);
      const m = torch.full([40], min, { dtype }).mul(dtype === torch.int64 ? 2 : 1), minusOne = torch.full([40], -1, { dtype }); // (int64: -2^63)
      check(`remainder MIN % -1 ${dtype}`, () => torch.remainder(m, minusOne), "remainder_stub");
      check(`fmod MIN % -1 ${dtype}`, () => torch.fmod(m, minusOne), "fmod_stub");
      check(`floor MIN / -1 ${dtype}`, () => torch.div(m, minusOne, { rounding_mode: "floor" }), "div_floor_stub");
      check(`trunc MIN / -1 ${dtype}`, () => torch.div(m, minusOne, { rounding_mode: "trunc" }), "div_trunc_stub");
      check(`a / -1 ${dtype}`, () => torch.div(data(40, dtype), minusOne, { rounding_mode: "floor" }), "div_floor_stub");
    }
  });
  native("integer pow: wrapping products, negative exponents (0, 1, -1), int64 beyond 2^53", () => {
    for (const dtype of INT_DTYPES) {
      const base = torch.tensor([0, 1, -1, 2, -2, 3, 7, -7, 100, 5, 0, 1, -1, 2, 3, 10].map((v) => (dtype === torch.uint8 ? Math.abs(v) : v)), { dtype });
      const exp = torch.tensor([0, 5, 7, 40, 41, 21, 30, 3, 3, 0, 3, -2, -3, -1, 2, 19].map((v) => (dtype === torch.uint8 ? Math.abs(v) : v)), { dtype });
      check(`pow ${dtype}`, () => torch.pow(base, exp), "pow_tensor_tensor_stub");
    }
  });
  native("bool, float16 and bfloat16 have no native loop: their TS kernels compute or refuse them", () => {
    const h = torch.ones(40, { dtype: torch.float16 }), bb = torch.ones(40, { dtype: torch.bool });
    expect(kernelsRan(() => torch.remainder(h, h))).toEqual(["remainder_stub:ts"]);
    expect(kernelsRan(() => torch.fmax(h, h))).toEqual(["fmax_stub:ts"]);
    expect(() => torch.remainder(bb, bb)).toThrow(/"remainder_cpu" not implemented for 'Bool'/);
    expect(() => torch.hypot(torch.ones(40, { dtype: torch.int32 }), torch.ones(40, { dtype: torch.int32 }))).toThrow(/"hypot_cpu" not implemented for 'Int'/);
  });
});

describe("unary ops and activations: native vs TS", () => {
  const exact: [string, (x: torch.Tensor) => torch.Tensor, string, torch.dtype[]][] = [
    ["neg", (x) => torch.neg(x), "neg_stub", [...FLOAT_DTYPES, ...INT_DTYPES.filter((t) => t !== torch.uint8)]],
    ["abs", (x) => torch.abs(x), "abs_stub", [...FLOAT_DTYPES, ...INT_DTYPES]],
    ["relu", (x) => torch.relu(x), "clamp_min_scalar_stub", [...FLOAT_DTYPES, ...INT_DTYPES]],
    ["clamp", (x) => torch.clamp(x, -2, 3), "clamp_scalar_stub", [...FLOAT_DTYPES, ...INT_DTYPES]],
    ["clamp_max", (x) => torch.clamp(x, { max: 2 }), "clamp_max_scalar_stub", [...FLOAT_DTYPES, ...INT_DTYPES]],
    ["threshold", (x) => torch.nn.functional.threshold(x, 1, -5), "threshold_stub", [...FLOAT_DTYPES, ...INT_DTYPES.filter((t) => t !== torch.uint8)]],
    ["sqrt", (x) => torch.sqrt(positive(x)), "sqrt_stub", FLOAT_DTYPES],
    ["rsqrt", (x) => torch.rsqrt(x), "rsqrt_stub", FLOAT_DTYPES],
    ["reciprocal", (x) => torch.reciprocal(x), "reciprocal_stub", FLOAT_DTYPES],
    ["pow 2", (x) => torch.pow(x, 2), "pow_tensor_scalar_stub", FLOAT_DTYPES],
    ["pow 3", (x) => torch.pow(x, 3), "pow_tensor_scalar_stub", FLOAT_DTYPES],
    ["pow 0.5", (x) => torch.pow(x, 0.5), "pow_tensor_scalar_stub", FLOAT_DTYPES],
    ["pow -0.5", (x) => torch.pow(x, -0.5), "pow_tensor_scalar_stub", FLOAT_DTYPES],
    ["pow -1", (x) => torch.pow(x, -1), "pow_tensor_scalar_stub", FLOAT_DTYPES],
    ["pow -2", (x) => torch.pow(x, -2), "pow_tensor_scalar_stub", FLOAT_DTYPES],
    ["floor", (x) => torch.floor(x), "floor_stub", FLOAT_DTYPES],
    ["ceil", (x) => torch.ceil(x), "ceil_stub", FLOAT_DTYPES],
    ["trunc", (x) => torch.trunc(x), "trunc_stub", FLOAT_DTYPES],
    ["round (halves to even)", (x) => torch.round(x.mul(2)), "round_stub", FLOAT_DTYPES],
    ["frac", (x) => torch.frac(x), "frac_stub", FLOAT_DTYPES],
    ["sign", (x) => torch.sign(x), "sign_stub", [...FLOAT_DTYPES, ...INT_DTYPES, torch.bool]],
  ];
  const transcendental: [string, (x: torch.Tensor) => torch.Tensor, string, torch.dtype[]][] = [
    ["exp", (x) => torch.exp(x), "exp_stub", FLOAT_DTYPES],
    ["log", (x) => torch.log(x), "log_stub", FLOAT_DTYPES],
    ["tanh", (x) => torch.tanh(x), "tanh_stub", FLOAT_DTYPES],
    ["sigmoid", (x) => torch.sigmoid(x), "sigmoid_stub", FLOAT_DTYPES],
    ["silu", (x) => torch.nn.functional.silu(x), "silu_stub", FLOAT_DTYPES],
    ["sin", (x) => torch.sin(x), "sin_stub", FLOAT_DTYPES],
    ["cos", (x) => torch.cos(x), "cos_stub", FLOAT_DTYPES],
    ["erf", (x) => torch.erf(x), "erf_stub", FLOAT_DTYPES],
    ["gelu", (x) => torch.nn.functional.gelu(x), "GeluKernel", [torch.float32]],
    ["gelu tanh", (x) => torch.nn.functional.gelu(x, { approximate: "tanh" }), "GeluKernel", FLOAT_DTYPES],
    ["log1p", (x) => torch.log1p(x), "log1p_stub", FLOAT_DTYPES],
    ["expm1", (x) => torch.expm1(x), "expm1_stub", FLOAT_DTYPES],
    ["log2", (x) => torch.log2(x), "log2_stub", FLOAT_DTYPES],
    ["log10", (x) => torch.log10(x), "log10_stub", FLOAT_DTYPES],
    ["exp2", (x) => torch.exp2(x), "exp2_stub", FLOAT_DTYPES],
    ["sinh", (x) => torch.sinh(x), "sinh_stub", FLOAT_DTYPES],
    ["cosh", (x) => torch.cosh(x), "cosh_stub", FLOAT_DTYPES],
    ["tan", (x) => torch.tan(x), "tan_stub", FLOAT_DTYPES],
    ["asin", (x) => torch.asin(x), "asin_stub", FLOAT_DTYPES],
    ["acos", (x) => torch.acos(x), "acos_stub", FLOAT_DTYPES],
    ["atan", (x) => torch.atan(x), "atan_stub", FLOAT_DTYPES],
  ];
  // float32 ops computed in float (float_math.inc, within 1 ulp of the correctly rounded value as the TS
  // kernels are; the baseline unit's log10 2; sigmoid and silu 2 and 3, against the TS kernels' float steps
  // 1 / (1 + e^-x), which are up to ~2 ulps off themselves): their distance to the TS result, and the
  // FMA units apart from the baseline (cpu_native_float_math.test.ts sweeps them against float64)
  const F32_VS_TS: Record<string, number> = { sigmoid: 4, silu: 4, tanh: 1, log: 1, log2: 1, log10: 2, log1p: 1, gelu: 1, "gelu tanh": 1, sin: 1, cos: 1, tan: 1, expm1: 1, erf: 1, asin: 1, acos: 1, atan: 1, sinh: 1 };
  const layouts = (x: torch.Tensor): [string, torch.Tensor][] => [
    ["contiguous", x],
    ["transposed", x.reshape(9, -1).t()],
    ["strided", x.get("1::3")],
    ["broadcast", x.get(5).expand(4, 6)],
    ["0-d", x.get(3)],
  ];
  for (const [group, list] of [["exact", exact], ["transcendental", transcendental]] as const) {
    native(`${group}: ${list.map((c) => c[0]).join(", ")}`, () => {
      for (const [name, f, stub, dtypes] of list) {
        for (const dtype of dtypes) {
          const f32 = dtype === torch.float32;
          const maxUlps = group === "exact" ? 0 : f32 ? (F32_VS_TS[name] ?? 1) : 2;
          const family = (name === "exp" || name in F32_VS_TS) && f32 ? fmaApart : allUnits;
          // gelu: 1 + erf(x / sqrt 2) cancels for x < -1, so erf's exp's ulp is x / 2 times that ulp in the result
          const tol = (x: torch.Tensor) => (name.startsWith("gelu") && f32 ? (flat(x) as number[]).map((v) => 4 * 2 ** -24 * Math.abs(v)) : undefined);
          for (const n of SIZES) check(`${name} ${dtype} n=${n}`, () => f(data(n, dtype)), stub, maxUlps, family, tol(data(n, dtype)));
          for (const [lname, x] of layouts(data(9 * 40, dtype))) check(`${name} ${dtype} ${lname}`, () => f(x), stub, maxUlps, family, tol(x));
        }
      }
    }, 60_000);
  }
  native("mse_loss's (a - b)^2 (mse_stub): every layout, the TS kernel's bits; the reductions after it", () => {
    for (const dtype of FLOAT_DTYPES) {
      for (const [lname, a, b] of binaryLayouts(dtype, 10, 35)) {
        if (typeof b === "number" || b.dim() === 0) continue; // (mse_loss takes tensors of broadcastable shapes)
        check(`mse_loss ${dtype} ${lname}`, () => torch.nn.functional.mse_loss(a, b.expand_as(a), { reduction: "none" }), "mse_stub");
        for (const reduction of ["mean", "sum"] as const) {
          const f = () => torch.nn.functional.mse_loss(a, b.expand_as(a), { reduction });
          expectSame(f(), underTs(f), `mse_loss ${reduction} ${dtype} ${lname}`, dtype === torch.float32 ? 16 : 2); // (the sums: float runs then double, NativeReductions.ts)
        }
      }
    }
  });
  native("relu backward (threshold_backward), sigmoid/tanh backward through autograd", () => {
    for (const dtype of FLOAT_DTYPES) {
      const x = data(300, dtype), g = data(300, dtype, 11);
      check(`threshold_backward ${dtype}`, () => {
        const w = x.clone().requires_grad_();
        torch.relu(w).backward(g);
        return w.grad!;
      }, "threshold_stub");
      const step = () => {
        const w = data(300, dtype).requires_grad_();
        torch.sigmoid(w).mul(torch.tanh(w)).sum().backward();
        return w.grad!;
      };
      // float32: sigmoid and tanh within a few ulps (float_math.inc), through products and a sum of terms <= 1
      expectSame(step(), underTs(step), `sigmoid/tanh backward ${dtype}`, dtype === torch.float32 ? 1 : 4, dtype === torch.float32 ? 8 * 2 ** -24 : undefined);
    }
  });
  native("float64 gelu: glibc's erf (PyTorch's std::erf) against the TS kernel's FDLIBM erf, within a few ulps of x / 2", () => {
    // for x < -1, 1 + erf(x / sqrt(2)) cancels: the two erfs' last-bit difference (their exp) is
    // x / 2 times that bit in the result, many ulps of a small result, so the bound is in units of x
    for (const [lname, x] of [["values", data(2000, torch.float64)], ["strided", data(600, torch.float64).get("::3")], ["dense", torch.linspace(-12, 12, 4001, { dtype: torch.float64 })]] as const) {
      const want = flat(underTs(() => torch.nn.functional.gelu(x))) as number[];
      for (const isa of ISAS) {
        _set_native_isa(isa);
        expect(kernelsRan(() => torch.nn.functional.gelu(x))).toContain("GeluKernel:native");
        const got = flat(torch.nn.functional.gelu(x)) as number[];
        const xs = flat(x) as number[];
        const bad = got.findIndex((g, i) => !(Object.is(g, want[i]) || (Number.isNaN(g) && Number.isNaN(want[i])) || Math.abs(g - want[i]) <= 4 * 2 ** -53 * Math.abs(xs[i])));
        expect(bad === -1 ? null : { x: xs[bad], got: got[bad], want: want[bad] }, `${lname} [${isa}]`).toBeNull();
      }
    }
  });
  native("float32 exp/log/tanh/sigmoid: a scan of 1e5 inputs per range agrees with the correctly rounded result", () => {
    // every float from wide ranges: native vs TS (double libm rounded once)
    const n = 100_000;
    const xs = torch.linspace(-110, 90, n);
    const small = torch.linspace(-1, 1, n).mul(torch.linspace(1e-6, 1, n));
    for (const [name, f, input] of [
      ["exp", torch.exp, xs], ["tanh", torch.tanh, small], ["tanh large", torch.tanh, xs], ["sigmoid", torch.sigmoid, xs],
      ["log", torch.log, torch.abs(xs).add(1e-30)], ["log near 1", torch.log, small.add(1)],
    ] as const) {
      const got = flat((f as any)(input)) as number[], want = flat(underTs(() => (f as any)(input))) as number[];
      let off = 0, worst = 0;
      for (let i = 0; i < n; i++) {
        const u = ulps(got[i], want[i], torch.float32);
        if (u > worst) worst = u;
        if (u) off++;
      }
      // all compute in float now (exp: vecmath.h's Cephes expf, 8.8% of these inputs, uniform in value over
      // [-110, 90], 1 ulp off; the others float_math.inc's); within 1 ulp of the TS kernels' correctly
      // rounded values, sigmoid within 4 of its float steps (the dense sweeps: cpu_native_vecmath.test.ts,
      // cpu_native_float_math.test.ts)
      expect(worst, name).toBeLessThanOrEqual(name === "sigmoid" ? 4 : 1);
      // (sigmoid: 13.5% differ from the TS steps, which are not correctly rounded themselves)
      expect(off / n, name).toBeLessThan(name === "sigmoid" ? 0.16 : 0.12);
    }
  }, 60_000);
});

describe("activation backward kernels: gelu_backward, silu_backward", () => {
  const geluBackward = (dy: torch.Tensor, x: torch.Tensor, approximate = "none") => gelu_backward_default.call(dy, x, approximate) as torch.Tensor;
  const siluBackward = (dy: torch.Tensor, x: torch.Tensor) => silu_backward_default.call(dy, x) as torch.Tensor;
  const layouts = (dtype: torch.dtype): [string, torch.Tensor, torch.Tensor][] => {
    const x = data(12 * 35, dtype).reshape(12, 35), dy = data(12 * 35, dtype, 3).reshape(12, 35);
    return [
      ["contiguous", x, dy],
      ["strided", x.get("::2", "1::3"), dy.get("1::2", "::3")],
      ["transposed", x.t(), dy.t()],
      ["broadcast grad", x, dy.get(0)],
    ];
  };
  // float32 and bfloat16: the TS kernels' steps, each a float (or bfloat16) operation. bfloat16: the same
  // bits (exp and tanh are the double polynomials rounded once, within 1 ulp, and on these inputs equal).
  // float32: exp, tanh and sigmoid in float precision (float_math.inc, within a few ulps), through sums of
  // terms up to |dy| (1 + |x|) that cancel, so the bound is in units of those terms; the units with FMA
  // apart from the baseline
  for (const dtype of [torch.float32, torch.bfloat16]) {
    native(`${dtype}: every layout, both gelu forms and the strided erf one`, () => {
      const f32 = dtype === torch.float32;
      const family = f32 ? fmaApart : allUnits;
      const tol = (dy: torch.Tensor, x: torch.Tensor) => (f32 ? (flat(torch.abs(dy).mul(torch.abs(x).add(1))) as number[]).map((v) => 16 * 2 ** -24 * v) : undefined);
      for (const [lname, x, dy] of layouts(dtype)) {
        check(`gelu_backward ${lname}`, () => geluBackward(dy, x), "GeluBackwardKernel", 0, family, tol(dy, x));
        check(`gelu_backward tanh ${lname}`, () => geluBackward(dy, x, "tanh"), "GeluBackwardKernel", 0, family, tol(dy, x));
        check(`silu_backward ${lname}`, () => siluBackward(dy, x), "silu_backward_stub", 0, family, tol(dy, x));
      }
      const dense = torch.linspace(-12, 12, 4001).to(dtype), g = torch.linspace(3, -2, 4001).to(dtype);
      check("gelu_backward dense", () => geluBackward(g, dense), "GeluBackwardKernel", 0, family, tol(g, dense));
      check("gelu_backward tanh dense", () => geluBackward(g, dense, "tanh"), "GeluBackwardKernel", 0, family, tol(g, dense));
      check("silu_backward dense", () => siluBackward(g, dense), "silu_backward_stub", 0, family, tol(g, dense));
    });
  }
  native("float64: glibc's erf, exp and tanh against the TS kernels' FDLIBM ones, within a few ulps of dy * (1 + |x|)", () => {
    // erf's and exp's last-bit differences pass through 1 + erf(x / sqrt 2) and 1 + x (1 - sigmoid), which
    // cancel: the bound is in units of the terms, not of the (small) result
    const x = torch.linspace(-12, 12, 4001, { dtype: torch.float64 }), dy = torch.linspace(3, -2, 4001, { dtype: torch.float64 });
    for (const [name, f, stub] of [
      ["gelu_backward", () => geluBackward(dy, x), "GeluBackwardKernel"],
      ["gelu_backward strided", () => geluBackward(dy.get("::3"), x.get("::3")), "GeluBackwardKernel"],
      ["gelu_backward tanh", () => geluBackward(dy, x, "tanh"), "GeluBackwardKernel"],
      ["silu_backward", () => siluBackward(dy, x), "silu_backward_stub"],
    ] as const) {
      const want = flat(underTs(f)) as number[];
      const stride = name.includes("strided") ? 3 : 1;
      const xs = flat(x) as number[], gs = flat(dy) as number[];
      for (const isa of ISAS) {
        _set_native_isa(isa);
        expect(kernelsRan(f), `${name} [${isa}]`).toContain(`${stub}:native`);
        const got = flat(f()) as number[];
        const bad = got.findIndex((v, i) => Math.abs(v - want[i]) > 2 ** -49 * Math.abs(gs[i * stride]) * (1 + Math.abs(xs[i * stride])));
        expect(bad === -1 ? null : { x: xs[bad * stride], got: got[bad], want: want[bad] }, `${name} [${isa}]`).toBeNull();
      }
    }
  });
  native("through autograd: gelu and silu backward run natively; float16 gets the TS kernels' errors", () => {
    for (const dtype of [torch.float32, torch.bfloat16]) {
      const step = (approximate: "none" | "tanh") => {
        const w = data(300, dtype).clamp(-20, 20).requires_grad_(true);
        torch.nn.functional.gelu(w, { approximate }).mul(torch.nn.functional.silu(w)).sum().backward();
        return w.grad!;
      };
      for (const approximate of ["none", "tanh"] as const) {
        expect(kernelsRan(() => step(approximate)), `${dtype} ${approximate}`).toEqual(expect.arrayContaining(["GeluBackwardKernel:native", "silu_backward_stub:native"]));
        // float32: gelu'(w) silu(w) + gelu(w) silu'(w), terms up to (1 + |w|)^2 (|w| <= 20)
        expectSame(step(approximate), underTs(() => step(approximate)), `${dtype} ${approximate}`, dtype === torch.float32 ? 1 : 0, dtype === torch.float32 ? 16 * 2 ** -24 * 21 * 21 : undefined);
      }
    }
    const h = data(40, torch.float16);
    expect(() => geluBackward(h, h)).toThrow(`"GeluBackwardKernelImpl" not implemented for 'Half'`);
    expect(() => siluBackward(h, h)).toThrow(`"silu_backward_cpu" not implemented for 'Half'`);
  });
});

describe("optimizer ops: addcmul_, addcdiv_, lerp_", () => {
  for (const dtype of FLOAT_DTYPES) {
    native(`${dtype}: contiguous, broadcast, strided, in place`, () => {
      const p = data(8 * 33, dtype).reshape(8, 33), a = data(8 * 33, dtype, 2).reshape(8, 33), b = positive(data(33, dtype, 9));
      check(`addcmul`, () => torch.addcmul(p, a, b, { value: -0.3 }), "addcmul_stub");
      check(`addcmul_ strided`, () => p.clone().t().addcmul_(a.t(), a.t(), { value: 0.001 }), "addcmul_stub");
      check(`addcdiv`, () => torch.addcdiv(p, a, b, { value: 0.7 }), "addcdiv_stub");
      check(`addcdiv_ broadcast`, () => p.clone().addcdiv_(a, b.sqrt().add(1e-8), { value: -0.01 }), "addcdiv_stub");
      check(`lerp scalar`, () => torch.lerp(p, a, 0.1), "lerp_kernel_scalar_weight");
      check(`lerp_ scalar 0.9`, () => p.clone().lerp_(a, 0.9), "lerp_kernel_scalar_weight");
      const wgt = data(33, dtype, 4).abs().remainder(1);
      check(`lerp tensor`, () => torch.lerp(p, a, wgt), "lerp_kernel_tensor_weight");
    });
  }
  native("an Adam step runs natively and matches the TS kernels", () => {
    const step = () => {
      torch.manual_seed(3);
      const w = torch.randn(64, 33, { requires_grad: true });
      const opt = new torch.optim.Adam([w], { lr: 0.01, weight_decay: 0.01 });
      for (let i = 0; i < 3; i++) {
        opt.zero_grad();
        torch.nn.functional.gelu(w.mul(w)).sum().backward();
        opt.step();
      }
      return w.detach();
    };
    expectSame(step(), underTs(step), "adam", 2);
  });
});

describe("copy_: casts, contiguous(), broadcast", () => {
  native("every dtype pair, contiguous and strided sources", () => {
    for (const from of ALL_DTYPES) {
      const base = from.is_floating_point ? data(7 * 41, torch.float64).mul(1e3).to(from) : data(7 * 41, from);
      const src = base.reshape(7, 41);
      for (const to of ALL_DTYPES) {
        if (from !== to) check(`${from} -> ${to}`, () => src.to(to), "copy_stub");
        check(`${from} -> ${to} transposed`, () => torch.empty(41, 7, { dtype: to }).copy_(src.t()), "copy_stub");
      }
    }
  }, 60_000);
  native("float -> int edge values follow x86 (cvttss2si), as the TS kernel says", () => {
    const x = torch.tensor([NaN, Infinity, -Infinity, 3e9, -3e9, 1e19, -1e19, 2.9, -2.9, 255.5, 256, -1, 70000, -40000]);
    for (const to of INT_DTYPES) check(`float32 -> ${to}`, () => x.to(to), "copy_stub");
    // int64 values no double holds exactly (2^62 + 1, ...): the TS kernel converts through a double
    const big = torch.tensor([2 ** 62, -(2 ** 60), 2 ** 53, 2 ** 31, -1], { dtype: torch.int64 }).add(torch.tensor([1, -3, 1, 5, 0], { dtype: torch.int64 }));
    for (const to of ALL_DTYPES) if (to !== torch.int64) check(`int64 -> ${to}`, () => big.to(to), "copy_stub");
  });
  native("contiguous() of permuted views, expand, and edge sizes", () => {
    const x = data(4 * 5 * 6, torch.float32).reshape(4, 5, 6);
    check("permute", () => x.permute(2, 0, 1).contiguous(), "copy_stub");
    check("slice step", () => x.get("::2", ":", "1::2").contiguous(), "copy_stub");
    check("expand", () => x.get(0, 0).expand(3, 6).contiguous(), "copy_stub");
    for (const n of [...SIZES, 40_000]) check(`n=${n}`, () => data(n, torch.float64).to(torch.float32), "copy_stub");
    // a copy within one storage stays in TypeScript (where views overlap, its order decides the result)
    const y = torch.arange(10, { dtype: torch.float32 });
    expect(kernelsRan(() => y.get("5:").copy_(y.get(":5")))).toEqual(["copy_stub:ts"]);
  });
});

describe("flip: the copy read backwards along the flipped dims", () => {
  native("every dtype, subsets of dims, strided, transposed and channels-last inputs, edge sizes", () => {
    for (const dtype of [...ALL_DTYPES, torch.float16, torch.bfloat16]) {
      const x = (dtype.is_floating_point ? data(3 * 7 * 5, torch.float64).mul(1e3).to(dtype) : data(3 * 7 * 5, dtype)).reshape(3, 7, 5);
      for (const dims of [[0], [1], [2], [0, 2], [-1, 0, 1], []]) check(`${dtype} flip ${JSON.stringify(dims)}`, () => torch.flip(x, dims), "flip_stub");
      check(`${dtype} transposed`, () => torch.flip(x.transpose(0, 2), [0]), "flip_stub");
      check(`${dtype} strided`, () => torch.flip(x.get(":", "::2", "1::2"), [1, 2]), "flip_stub");
    }
    // channels-last strides (N, H, W, C in memory): the result keeps them (empty_like, preserve_format)
    const img = data(2 * 3 * 4 * 5, torch.float32).reshape(2, 4, 5, 3).permute(0, 3, 1, 2);
    check("channels-last strides", () => torch.flip(img, [1, 3]), "flip_stub");
    for (const n of [1, 7, 17, 257, 40_000]) check(`n=${n}`, () => torch.flip(data(n, torch.float32), [0]), "flip_stub");
  });
});

describe("float16 and bfloat16: computed in float, rounded once", () => {
  const REDUCED = [torch.float16, torch.bfloat16];
  for (const dtype of REDUCED) {
    native(`${dtype}: add, sub (alpha), mul, div, maximum, minimum, comparisons, every layout`, () => {
      for (const [lname, a, b] of binaryLayouts(dtype, 10, 35)) {
        for (const [name, f, stub] of arith) check(`${name} ${lname}`, () => f(a, b), stub);
        check(`sub ${lname}`, () => torch.sub(a, b), "add_stub");
        check(`add alpha ${lname}`, () => torch.add(a, b, { alpha: 2.7 }), "add_stub"); // alpha rounds to float, not to the dtype
        check(`div ${lname}`, () => torch.div(a, b), "div_true_stub");
      }
    }, 60_000);
    native(`${dtype}: neg, abs, reciprocal, clamp with Tensor bounds; edge sizes across the conversion blocks; out= and in place`, () => {
      for (const n of [...SIZES, 255, 256, 513, 40_000]) {
        const x = data(n, dtype), y = data(n, dtype, 5);
        check(`neg n=${n}`, () => torch.neg(x), "neg_stub");
        check(`abs n=${n}`, () => torch.abs(x), "abs_stub");
        check(`reciprocal n=${n}`, () => torch.reciprocal(x), "reciprocal_stub");
        check(`clamp(min=Tensor) n=${n}`, () => torch.clamp(x, { min: y }), "maximum_stub");
        check(`clamp(max=Tensor) n=${n}`, () => torch.clamp(x, { max: y }), "minimum_stub");
        check(`mul n=${n}`, () => torch.mul(x, y), "mul_stub");
      }
      const a = data(6 * 10, dtype).reshape(6, 10), b = data(10, dtype, 5);
      check("mul out= strided", () => {
        const out = torch.zeros(10, 12, { dtype }).get(":", "1:7").t();
        torch.mul(a, b, { out });
        return out;
      }, "mul_stub");
      check("add_ in place", () => a.clone().add_(b), "add_stub");
      check("le out= strided bool", () => {
        const out = torch.zeros(6, 20, { dtype: torch.bool }).get(":", "::2");
        torch.le(a, b, { out });
        return out;
      }, "le_stub");
    }, 60_000);
  }
  native("bfloat16 sqrt, rsqrt, threshold, clamp with Scalar bounds; float16 gets the TS kernel's error for them", () => {
    for (const [lname, x] of [["contiguous", data(300, torch.bfloat16)], ["strided", data(300, torch.bfloat16).get("1::3")]] as const) {
      check(`sqrt ${lname}`, () => torch.sqrt(positive(x)), "sqrt_stub");
      check(`rsqrt ${lname}`, () => torch.rsqrt(x), "rsqrt_stub");
      check(`threshold ${lname}`, () => torch.nn.functional.threshold(x, 1, -5), "threshold_stub");
      check(`relu ${lname}`, () => torch.relu(x), "clamp_min_scalar_stub");
      check(`clamp ${lname}`, () => torch.clamp(x, -2.01, 3), "clamp_scalar_stub");
    }
    const h = data(40, torch.float16);
    expect(() => torch.sqrt(h)).toThrow(`"sqrt_vml_cpu" not implemented for 'Half'`);
    expect(() => torch.rsqrt(h)).toThrow(`"rsqrt_cpu" not implemented for 'Half'`);
    expect(() => torch.relu(h)).toThrow(`"clamp_min_cpu" not implemented for 'Half'`);
    expect(() => torch.clamp(h, -1, 1)).toThrow(`"clamp_scalar_cpu" not implemented for 'Half'`);
    expect(() => torch.nn.functional.threshold(h, 1, 0)).toThrow(`"threshold_cpu" not implemented for 'Half'`);
    // ops without a native 16-bit loop run the TS kernel: pow's general exponent here
    const b = data(40, torch.bfloat16);
    expect(kernelsRan(() => torch.pow(b, 1.7))).toEqual(["pow_tensor_scalar_stub:ts"]);
  });
  const bf16Transcendental: [string, (x: torch.Tensor) => torch.Tensor, string][] = [
    ["exp", (x) => torch.exp(x), "exp_stub"],
    ["log", (x) => torch.log(positive(x)), "log_stub"],
    ["tanh", (x) => torch.tanh(x), "tanh_stub"],
    ["sigmoid", (x) => torch.sigmoid(x), "sigmoid_stub"],
    ["sin", (x) => torch.sin(x), "sin_stub"],
    ["cos", (x) => torch.cos(x), "cos_stub"],
    ["erf", (x) => torch.erf(x), "erf_stub"],
    ["silu", (x) => torch.nn.functional.silu(x), "silu_stub"],
    ["gelu", (x) => torch.nn.functional.gelu(x), "GeluKernel"],
  ];
  native("bfloat16 exp, log, tanh, sigmoid, sin, cos, erf: within one bfloat16 ulp of the TS kernels, every layout", () => {
    for (const [name, f, stub] of bf16Transcendental) {
      for (const n of [...SIZES, 255, 256, 513, 40_000]) check(`${name} n=${n}`, () => f(data(n, torch.bfloat16)), stub, 1);
      const x = data(300, torch.bfloat16);
      check(`${name} strided`, () => f(x.get("1::3")), stub, 1);
      check(`${name} transposed`, () => f(x.reshape(20, 15).t()), stub, 1);
    }
    const x = data(300, torch.bfloat16).reshape(15, 20);
    check("exp out= strided", () => {
      const out = torch.zeros(20, 30, { dtype: torch.bfloat16 }).get(":", "::2").t();
      torch.exp(x, { out });
      return out;
    }, "exp_stub", 1);
    check("sigmoid_ in place", () => x.clone().sigmoid_(), "sigmoid_stub", 1);
    // float16 has no vml kernel in PyTorch 1.13: the TS kernel's error, as before
    expect(() => torch.exp(data(40, torch.float16))).toThrow(`"exp_vml_cpu" not implemented for 'Half'`);
  }, 60_000);
  native("bfloat16 exp, tanh, sigmoid, erf over every bfloat16 value: the elements a float ulp turns are rare", () => {
    const all = torch.tensor(Array.from({ length: 65536 }, (_, i) => bfloat16BitsToNumber(i)), { dtype: torch.float32 }).to(torch.bfloat16);
    for (const [name, f] of [["exp", torch.exp], ["tanh", torch.tanh], ["sigmoid", torch.sigmoid], ["erf", torch.erf], ["sin", torch.sin]] as const) {
      const want = flat(underTs(() => f(all))) as number[];
      const got = flat(f(all)) as number[];
      let off = 0, worst = 0;
      for (let i = 0; i < got.length; i++) {
        const u = ulps(got[i], want[i], torch.bfloat16);
        if (u > 0) off++;
        worst = Math.max(worst, u);
      }
      expect(worst, name).toBeLessThanOrEqual(1);
      expect(off / got.length, name).toBeLessThan(1e-3);
    }
  }, 60_000);
  native("bfloat16 gelu (strided erf, tanh) and pow's special exponents in bfloat16 steps; float16 gets the TS kernels' errors", () => {
    const x = data(300, torch.bfloat16);
    for (const [lname, v] of [["contiguous", x], ["strided", x.get("1::3")], ["transposed", x.reshape(20, 15).t()]] as const) {
      // the strided erf form rounds each step; erf and tanh are the same libm values as the TS kernel's
      check(`gelu ${lname}`, () => torch.nn.functional.gelu(v), "GeluKernel", 1);
      check(`gelu tanh ${lname}`, () => torch.nn.functional.gelu(v, { approximate: "tanh" }), "GeluKernel");
      for (const e of [2, 3, 0.5, -0.5, -1, -2]) check(`pow ${e} ${lname}`, () => torch.pow(e === 0.5 || e === -0.5 ? positive(v) : v, e), "pow_tensor_scalar_stub");
    }
    const h = data(40, torch.float16);
    expect(() => torch.nn.functional.gelu(h)).toThrow(`"GeluKernelImpl" not implemented for 'Half'`);
    expect(() => torch.nn.functional.silu(h)).toThrow(`"silu_cpu" not implemented for 'Half'`);
    expect(kernelsRan(() => torch.pow(h, 2))).toEqual(["pow_tensor_scalar_stub:ts"]);
  });
  native("bfloat16 addcmul, addcdiv, lerp (computed in float); float16 gets the TS kernels' errors", () => {
    const p = data(8 * 33, torch.bfloat16).reshape(8, 33), a = data(8 * 33, torch.bfloat16, 2).reshape(8, 33), b = positive(data(33, torch.bfloat16, 9));
    check("addcmul", () => torch.addcmul(p, a, b, { value: -0.3 }), "addcmul_stub");
    check("addcmul_ strided", () => p.clone().t().addcmul_(a.t(), a.t(), { value: 0.001 }), "addcmul_stub");
    check("addcdiv", () => torch.addcdiv(p, a, b, { value: 0.7 }), "addcdiv_stub");
    check("addcdiv_ broadcast", () => p.clone().addcdiv_(a, b.sqrt().add(1e-8), { value: -0.01 }), "addcdiv_stub");
    check("lerp scalar", () => torch.lerp(p, a, 0.1), "lerp_kernel_scalar_weight");
    check("lerp_ scalar 0.9", () => p.clone().lerp_(a, 0.9), "lerp_kernel_scalar_weight");
    check("lerp tensor", () => torch.lerp(p, a, data(33, torch.bfloat16, 4).abs().remainder(1)), "lerp_kernel_tensor_weight");
    const h = data(40, torch.float16);
    expect(() => torch.addcmul(h, h, h)).toThrow(`"addcmul_cpu_out" not implemented for 'Half'`);
    expect(() => torch.lerp(h, h, 0.5)).toThrow(`"lerp_kernel_scalar" not implemented for 'Half'`);
  });
  native("casts: to and from every dtype, contiguous and strided", () => {
    for (const red of REDUCED) {
      const src = data(7 * 41, torch.float64).mul(1e3).to(red).reshape(7, 41);
      for (const other of [...ALL_DTYPES, ...REDUCED]) {
        const from = other.is_floating_point ? data(7 * 41, torch.float64).mul(1e3).to(other) : data(7 * 41, other);
        if (other !== red) {
          check(`${red} -> ${other}`, () => src.to(other), "copy_stub");
          check(`${other} -> ${red}`, () => from.reshape(7, 41).to(red), "copy_stub");
        }
        check(`${other} -> ${red} transposed`, () => torch.empty(41, 7, { dtype: red }).copy_(from.reshape(7, 41).t()), "copy_stub");
      }
    }
  }, 60_000);
  native("float32 -> 16 bits: every float16 value, the midpoints between neighbours (ties to even), overflow, subnormals, NaN", () => {
    // every float16 value and the midpoint above it (exact in float32), plus the edges
    const patterns = Array.from({ length: 65536 }, (_, i) => i);
    const all16 = torch.tensor(patterns.map(halfBitsToNumber), { dtype: torch.float32 });
    const mid = torch.tensor(patterns.map((h) => (halfBitsToNumber(h) + halfBitsToNumber(h + 1)) / 2), { dtype: torch.float32 });
    const midBf16 = torch.tensor(patterns.map((h) => (bfloat16BitsToNumber(h) + bfloat16BitsToNumber(h + 1)) / 2), { dtype: torch.float32 });
    const edges = torch.tensor([65504, 65519.99, 65520, 65536, 1e-8, 2 ** -25, 2 ** -25 * 1.0001, 2 ** -24, 3 * 2 ** -26, 1e-45, -0, NaN, -NaN, Infinity, -Infinity,
      3.4e38, 1 + 2 ** -8, 1 + 2 ** -8 + 2 ** -20, 1 + 3 * 2 ** -8]);
    for (const [name, x] of [["float16 values", all16], ["float16 midpoints", mid], ["bfloat16 midpoints", midBf16], ["edges", edges]] as const) {
      for (const red of REDUCED) check(`${name} -> ${red}`, () => x.to(red), "copy_stub");
    }
    // and back: every float16 and bfloat16 value to float32 and float64 (NaN payloads compare as NaN)
    const h16 = underTs(() => all16.to(torch.float16));
    const b16 = underTs(() => torch.tensor(patterns.map(bfloat16BitsToNumber), { dtype: torch.float32 }).to(torch.bfloat16));
    for (const to of [torch.float32, torch.float64]) {
      check(`float16 values -> ${to}`, () => h16.to(to), "copy_stub");
      check(`bfloat16 values -> ${to}`, () => b16.to(to), "copy_stub");
    }
  }, 60_000);
});

describe("reductions: native vs TS", () => {
  /**
   * float results within tol relative to max(1, |want|) (sums accumulate in double in another order),
   * plus, where `absSum` gives the same reduction of |x|, FLOAT_RUN times it: float32 sums add runs
   * of up to 16 elements in float before they join a double (pointwise_kernels.inc, kFloatRun), so
   * each element meets at most 16 float roundings; others exact
   */
  const FLOAT_RUN = 16 * 2 ** -24;
  function close(got: torch.Tensor, want: torch.Tensor, what: string, tol: number, absSum?: torch.Tensor): void {
    expect(got.dtype, what).toBe(want.dtype);
    expect(got.shape, what).toEqual(want.shape);
    const g = flat(got), w = flat(want), a = absSum ? flat(absSum) : null;
    if (!got.dtype.is_floating_point) return void expect(g, what).toEqual(w);
    const bound = (i: number) => tol * Math.max(1, Math.abs(w[i] as number)) + (a ? FLOAT_RUN * (a[i] as number) : 0);
    const bad = g.findIndex((v, i) => !(v === w[i] || (Number.isNaN(w[i] as number) ? Number.isNaN(v as number) : Math.abs((v as number) - (w[i] as number)) <= bound(i))));
    expect(bad === -1 ? null : { at: bad, got: g[bad], want: w[bad], bound: bound(bad) }, what).toBeNull();
  }
  function checkClose(what: string, f: () => torch.Tensor, stub: string, tol: number, absOf?: () => torch.Tensor): void {
    const want = underTs(f);
    const absSum = absOf && want.dtype === torch.float32 ? underTs(absOf) : undefined;
    for (const isa of ISAS) {
      _set_native_isa(isa);
      expect(kernelsRan(f), `${what} [${isa}]`).toContain(`${stub}:native`);
      close(f(), want, `${what} [${isa}]`, tol, absSum);
    }
  }
  const tolOf = (dtype: torch.dtype) => (dtype === torch.float32 ? 1.2e-7 : dtype === torch.float64 ? 1e-13 : 0);
  const shapes: [string, (t: torch.Tensor) => torch.Tensor][] = [
    ["contiguous", (t) => t],
    ["transposed", (t) => t.transpose(0, 2)],
    ["strided", (t) => t.get(":", "::2")],
  ];
  const dimsList: (number[] | null)[] = [null, [0], [1], [2], [0, 2], [1, 2], [0, 1]];

  for (const dtype of ALL_DTYPES) {
    native(`${dtype}: sum over dims (rows, columns), keepdim, out=`, () => {
      const base = data(6 * 10 * 37, dtype).reshape(6, 10, 37);
      for (const [lname, lay] of shapes) {
        const x = lay(base);
        const ax = dtype.is_floating_point ? x.abs() : x;
        for (const dims of dimsList) {
          const sumOf = (t: torch.Tensor) => (dims === null ? torch.sum(t) : torch.sum(t, dims));
          checkClose(`sum ${lname} ${dims}`, () => sumOf(x), "sum_stub", tolOf(dtype), () => sumOf(ax));
          if (dims !== null) checkClose(`sum keepdim ${lname} ${dims}`, () => torch.sum(x, dims, true), "sum_stub", tolOf(dtype), () => torch.sum(ax, dims, true));
          if (dtype.is_floating_point && dims !== null) checkClose(`mean ${lname} ${dims}`, () => torch.mean(x, dims), "sum_stub", tolOf(dtype), () => torch.mean(ax, dims));
        }
      }
      const out = torch.zeros(37, 12, { dtype: dtype.is_floating_point ? dtype : torch.int64 }).get(":", "::2").t();
      const absBase = dtype.is_floating_point ? base.abs() : base;
      checkClose("sum out= strided", () => torch.sum(base, 1, false, { out }), "sum_stub", tolOf(dtype), () => torch.sum(absBase, 1));
    }, 60_000);
  }
  for (const dtype of [torch.float16, torch.bfloat16]) {
    // in double, rounded once through float: a sum in another order can turn a tie, by one 16-bit ulp
    const ulp = dtype === torch.float16 ? 2 ** -10 : 2 ** -7;
    native(`${dtype}: sum and mean over dims (rows, columns), keepdim, dtype=, out=; large rows; any thread count`, () => {
      const base = data(6 * 10 * 37, dtype).reshape(6, 10, 37);
      for (const [lname, lay] of shapes) {
        const x = lay(base);
        for (const dims of dimsList) {
          const sumOf = (t: torch.Tensor) => (dims === null ? torch.sum(t) : torch.sum(t, dims));
          checkClose(`sum ${lname} ${dims}`, () => sumOf(x), "sum_stub", ulp);
          if (dims === null) continue;
          checkClose(`sum keepdim ${lname} ${dims}`, () => torch.sum(x, dims, true), "sum_stub", ulp);
          checkClose(`mean ${lname} ${dims}`, () => torch.mean(x, dims), "sum_stub", ulp);
          checkClose(`sum to float32 ${lname} ${dims}`, () => torch.sum(x, dims, false, { dtype: torch.float32 }), "sum_stub", 1.2e-7);
          checkClose(`sum to float64 ${lname} ${dims}`, () => torch.sum(x, dims, false, { dtype: torch.float64 }), "sum_stub", 1e-13);
        }
      }
      const out = torch.zeros(37, 12, { dtype }).get(":", "::2").t();
      checkClose("sum out= strided", () => torch.sum(base, 1, false, { out }), "sum_stub", ulp);
      // rows longer than the conversion block and the sum's fixed blocks, NaN and inf among them
      const big = data(3 * 70_001, dtype).reshape(3, 70_001);
      for (const [name, f] of [["rows", () => torch.sum(big, 1)], ["all", () => torch.sum(big.get(":", "40:"))], ["columns", () => torch.sum(big.t().contiguous(), 0)]] as const) {
        checkClose(name, f, "sum_stub", ulp);
        const threads = torch.get_num_threads();
        const bits = [1, 2].map((n) => {
          torch.set_num_threads(n);
          return flat(f());
        });
        torch.set_num_threads(threads);
        expect(bits[1], `${name}: the same bits on 1 and 2 threads`).toEqual(bits[0]);
      }
    }, 60_000);
  }
  native("float32 sum: large rows and columns, blocks, NaN/inf, and no dependence on the thread count", () => {
    const x = data(70_000 * 3, torch.float32).reshape(3, 70_000);
    const y = data(3 * 5000, torch.float32).reshape(5000, 3);
    const z = data(333 * 147, torch.float32).reshape(333, 147);
    const ax = x.abs(), ay = y.abs(), az = z.abs();
    const runs: [string, () => torch.Tensor, () => torch.Tensor][] = [
      ["rows", () => torch.sum(x, 1), () => torch.sum(ax, 1)],
      ["all", () => torch.sum(x), () => torch.sum(ax)],
      ["columns", () => torch.sum(y, 0), () => torch.sum(ay, 0)],
      ["mean", () => torch.mean(y, 0), () => torch.mean(ay, 0)],
      ["147 columns", () => torch.sum(z, 0), () => torch.sum(az, 0)],
      ["147 columns to float64", () => torch.sum(z, 0, false, { dtype: torch.float64 }), () => torch.sum(az, 0)],
      ["sum to float64", () => torch.sum(x, 1, false, { dtype: torch.float64 }), () => torch.sum(ax, 1)],
    ];
    for (const [name, f, absOf] of runs) {
      checkClose(name, f, "sum_stub", 1.2e-7, absOf);
      const bits = [1, 2, 3].map((n) => {
        torch.set_num_threads(n);
        return flat(f());
      });
      torch.set_num_threads(2);
      expect(bits[1], name).toEqual(bits[0]);
      expect(bits[2], name).toEqual(bits[0]);
    }
    expect(flat(torch.sum(torch.tensor([1, NaN, 2])))[0]).toBeNaN();
    expect(flat(torch.sum(torch.tensor([Infinity, 1, -Infinity])))[0]).toBeNaN();
    expect(flat(torch.sum(torch.tensor([Infinity, 1]), 0))[0]).toBe(Infinity);
  });

  for (const dtype of [...ALL_DTYPES, torch.float16, torch.bfloat16]) {
    native(`${dtype}: amax, amin, max(), min(), max.dim, min.dim, argmax, argmin`, () => {
      const base = data(5 * 8 * 19, dtype).reshape(5, 8, 19);
      for (const [lname, lay] of shapes) {
        const x = lay(base);
        check(`amax ${lname}`, () => torch.amax(x, [0, 2]), "max_values_stub");
        check(`amin ${lname}`, () => torch.amin(x, [1], true), "min_values_stub");
        check(`max() ${lname}`, () => torch.max(x), "max_all_stub");
        check(`min() ${lname}`, () => torch.min(x), "min_all_stub");
        for (const d of [0, 1, 2]) {
          check(`max.dim ${d} ${lname} values`, () => torch.max(x, d)[0], "max_stub");
          check(`max.dim ${d} ${lname} indices`, () => torch.max(x, d, true)[1], "max_stub");
          check(`min.dim ${d} ${lname} indices`, () => torch.min(x, d)[1], "min_stub");
          check(`argmax ${d} ${lname}`, () => torch.argmax(x, d), "argmax_stub");
          check(`argmin ${d} ${lname}`, () => torch.argmin(x, d, true), "argmin_stub");
        }
        check(`argmax all ${lname}`, () => torch.argmax(x), "argmax_stub");
      }
      // contiguous rows on the vectorized path: four vectors of lanes per block and an overlapping last block
      const rows = data(3 * 1029, dtype).reshape(3, 1029);
      for (const n of [1, 15, 63, 64, 65, 127, 255, 256, 257, 1000, 1029]) {
        check(`amax rows of ${n}`, () => torch.amax(rows.get(":", `:${n}`), 1), "max_values_stub");
        check(`amin rows of ${n}`, () => torch.amin(rows.get(":", `${1029 - n}:`), 1), "min_values_stub");
        check(`max.dim rows of ${n} values`, () => torch.max(rows.get(":", `:${n}`), 1)[0], "max_stub");
        check(`max.dim rows of ${n} indices`, () => torch.max(rows.get(":", `:${n}`), 1)[1], "max_stub");
        check(`argmin rows of ${n}`, () => torch.argmin(rows.get(":", `${1029 - n}:`), 1), "argmin_stub");
      }
    }, 60_000);
  }
  native("max/min: NaN wins (the first one), ties give the first index, -0 and +0 keep their order", () => {
    const x = torch.tensor([[1, NaN, 3, NaN], [0, -0, 5, 5], [-0, 0, -1, -1], [-Infinity, -Infinity, -Infinity, -Infinity]]);
    const cases: [() => torch.Tensor, string][] = [
      [() => torch.max(x, 1)[0], "max_stub"], [() => torch.max(x, 1)[1], "max_stub"], [() => torch.min(x, 1)[1], "min_stub"],
      [() => torch.min(x, 1)[0], "min_stub"], [() => torch.amax(x, 0), "max_values_stub"], [() => torch.argmax(x), "argmax_stub"],
      [() => torch.argmin(x.t(), 1), "argmin_stub"], [() => torch.max(x.get("1:")), "max_all_stub"],
      // contiguous rows take the vectorized path: NaN, and the first zero's sign
      [() => torch.amax(x, 1), "max_values_stub"], [() => torch.amin(x, 1), "min_values_stub"], [() => torch.amax(x.get("1:3", "0:2"), 1), "max_values_stub"],
      [() => torch.amin(torch.tensor([0, -0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, -0]), 0), "min_values_stub"],
      [() => torch.amax(torch.tensor([-0, 0, 0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, 0]), 0), "max_values_stub"],
      // long rows: a NaN in the first block, in the middle, in the overlapping last block; zeros of both signs as the extreme
      ...[3, 150, 997].map((at): [() => torch.Tensor, string] => [() => torch.amax(torch.arange(1000, { dtype: torch.float32 }).index_fill(0, torch.tensor([at]), NaN), 0), "max_values_stub"]),
      ...[3, 150, 997].map((at): [() => torch.Tensor, string] => [() => torch.amin(torch.arange(1000, { dtype: torch.float64 }).index_fill(0, torch.tensor([at]), NaN), 0), "min_values_stub"]),
      ...[3, 150, 997].map((at): [() => torch.Tensor, string] => [() => torch.argmax(torch.arange(1000, { dtype: torch.float32 }).index_fill(0, torch.tensor([at, 998]), NaN), 0), "argmax_stub"]),
      // ties: the first index of the extreme; the extreme zero's index and sign
      [() => torch.argmax(torch.arange(1000, { dtype: torch.float32 }).remainder(97), 0), "argmax_stub"],
      [() => torch.max(torch.arange(-999, 1, { dtype: torch.float32 }).index_fill(0, torch.tensor([600, 700]), -0).reshape(1, 1000), 1)[1], "max_stub"],
      [() => torch.max(torch.arange(-999, 1, { dtype: torch.float32 }).index_fill(0, torch.tensor([600, 700]), -0).reshape(1, 1000), 1)[0], "max_stub"],
      [() => torch.amax(torch.arange(-999, 1, { dtype: torch.float32 }).index_fill(0, torch.tensor([5, 7]), -0), 0), "max_values_stub"],
      [() => torch.amin(torch.arange(0, 999, { dtype: torch.float32 }).index_fill(0, torch.tensor([0]), -0), 0), "min_values_stub"],
    ];
    for (const [f, stub] of cases) check(`edge ${stub}`, f, stub);
    // float16 and bfloat16 (compared in float, converted 256 elements at a time): NaN in the first,
    // a middle and the last block, ties (1000 integers round to fewer bfloat16 values), zeros' signs
    for (const dtype of [torch.float16, torch.bfloat16]) {
      const x16 = x.to(dtype);
      const withNaN = (at: number[]) => torch.arange(1000, { dtype: torch.float32 }).index_fill(0, torch.tensor(at), NaN).to(dtype);
      const negZeros = torch.arange(-999, 1, { dtype: torch.float32 }).index_fill(0, torch.tensor([600, 700]), -0).to(dtype);
      const cases16: [() => torch.Tensor, string][] = [
        [() => torch.max(x16, 1)[0], "max_stub"], [() => torch.max(x16, 1)[1], "max_stub"], [() => torch.min(x16, 1)[1], "min_stub"],
        [() => torch.amax(x16, 1), "max_values_stub"], [() => torch.amin(x16, 1), "min_values_stub"], [() => torch.argmax(x16), "argmax_stub"],
        [() => torch.argmin(x16.t(), 1), "argmin_stub"],
        ...[3, 300, 997].map((at): [() => torch.Tensor, string] => [() => torch.amax(withNaN([at]), 0), "max_values_stub"]),
        ...[3, 300, 997].map((at): [() => torch.Tensor, string] => [() => torch.argmin(withNaN([at, 998]), 0), "argmin_stub"]),
        [() => torch.argmax(torch.arange(1000, { dtype: torch.float32 }).mul(7.3).to(dtype), 0), "argmax_stub"],
        [() => torch.max(negZeros.reshape(1, 1000), 1)[1], "max_stub"],
        [() => torch.amax(negZeros, 0), "max_values_stub"],
        [() => torch.amin(torch.arange(0, 999, { dtype: torch.float32 }).index_fill(0, torch.tensor([0]), -0).to(dtype), 0), "min_values_stub"],
      ];
      for (const [f, stub] of cases16) check(`edge ${stub} ${dtype}`, f, stub);
    }
  });
  for (const dtype of FLOAT_DTYPES) {
    native(`${dtype}: var, std, var_mean, std_mean (correction 0, 1, 2)`, () => {
      const base = data(6 * 10 * 37, dtype).reshape(6, 10, 37).remainder(50);
      for (const [lname, lay] of shapes) {
        const x = lay(base);
        for (const dims of [null, [2], [0], [0, 2]]) {
          for (const correction of [0, 1, 2]) {
            checkClose(`var ${lname} ${dims} ${correction}`, () => torch.var(x, dims, { correction }), "std_var_stub", tolOf(dtype) * 4);
            checkClose(`std ${lname} ${dims} ${correction}`, () => torch.std(x, dims, { correction, keepdim: true }), "std_var_stub", tolOf(dtype) * 4);
          }
          checkClose(`var_mean ${lname} ${dims} mean`, () => torch.var_mean(x, dims)[1], "std_var_stub", tolOf(dtype) * 4);
          checkClose(`std_mean ${lname} ${dims} std`, () => torch.std_mean(x, dims)[0], "std_var_stub", tolOf(dtype) * 4);
        }
      }
      checkClose("var of one element (correction 1: nan)", () => torch.var(base.get(0, 0, "0:1")), "std_var_stub", 0);
    }, 60_000);
  }
});
