// float32 pow on the native path (native/cpu/pointwise_binary_math.inc's pow_fd): e^(y log|x|) in double,
// rounded once, with C's table of special cases selected without branches. Against a float64 reference
// (C's pow in double, rounded once to float32: the correctly rounded result but within 1e-16 of a
// boundary) within 1 ulp, every exact float result exactly, C's special cases (zeros, infinities, NaN,
// +-1, negative bases with integer and non-integer exponents) exactly as the TS kernel gives them, on
// every unit (all give the same bits: no fused multiply-adds), pow(Tensor, Tensor) and pow(Tensor, Scalar).
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { typedView } from "../../../engine/c10/ElementAccess.js";
import { cpow } from "../../../engine/aten/native/binary/Pow.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, runnableIsas, underTs } from "../../support/native_paths.js";
import { ulps32 } from "../../support/ulps.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();
afterEach(restoreNativeDefaults);

function f32(values: number[]): torch.Tensor {
  const t = torch.empty(values.length);
  (typedView((t as any)._impl.storage, t.dtype) as Float32Array).set(values);
  return t;
}
const valuesOf = (t: torch.Tensor) => Array.from(typedView((t.contiguous() as any)._impl.storage, t.dtype) as Float32Array).slice(0, t.numel());
const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

let seed = 11;
const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

describe("native float32 pow", () => {
  native("within 1 ulp of C's pow in double, on every unit (the same bits on each), Tensor and Scalar exponents", () => {
    const xs: number[] = [], ys: number[] = [];
    for (let i = 0; i < 20000; i++) {
      xs.push(Math.fround(0.01 + 0.98 * rand()), Math.fround(rand() * 100), Math.fround((rand() - 0.5) * 20), Math.fround(1 + (rand() - 0.5) * 1e-3));
      ys.push(Math.fround((rand() - 0.5) * 8), Math.fround((rand() - 0.5) * 40), Math.round((rand() - 0.5) * 30), Math.fround((rand() - 0.5) * 2e4));
    }
    const x = f32(xs), y = f32(ys);
    let first: number[] | null = null;
    for (const isa of ISAS) {
      _set_native_isa(isa);
      expect(kernelsRan(() => torch.pow(x, y))).toEqual(["pow_tensor_tensor_stub:native"]);
      const got = valuesOf(torch.pow(x, y));
      const far = got.map((g, i) => [i, ulps32(g, Math.fround(cpow(xs[i], ys[i])))]).filter(([, u]) => u > 1);
      expect(far.slice(0, 5).map(([i, u]) => [xs[i], ys[i], u]), `pow(Tensor, Tensor) [${isa}]`).toEqual([]);
      if (first === null) first = got;
      else expect(got.filter((g, i) => !same(g, first![i])).length, `[${isa}] vs [${ISAS[0]}]`).toBe(0);
      for (const e of [2.5, -1.5, 0.1, 1 / 3, 7, -9, 1e3, -0.75]) {
        expect(kernelsRan(() => torch.pow(x, e))).toEqual(["pow_tensor_scalar_stub:native"]);
        const gs = valuesOf(torch.pow(x, e));
        // the exponent as the TS kernel takes it for float32: a double
        const off = gs.map((g, i) => [i, ulps32(g, Math.fround(cpow(xs[i], e)))]).filter(([, u]) => u > 1);
        expect(off.slice(0, 5).map(([i, u]) => [xs[i], e, u]), `pow(Tensor, ${e}) [${isa}]`).toEqual([]);
      }
    }
  });

  native("every exact float32 result exactly (integer powers, square roots of squares, negative bases)", () => {
    const xs: number[] = [], ys: number[] = [];
    for (const b of [2, 3, 5, 7, 10, 0.5, 0.25, 4, 9, 16, 1024, 1.5, -2, -3, -0.5, -1.5, 6, 11])
      for (let k = -12; k <= 12; k++) for (const y of [k, k / 2]) {
        const r = cpow(b, y);
        if (Math.fround(r) === r && r !== 0 && Number.isFinite(r)) xs.push(b), ys.push(y);
      }
    const x = f32(xs), y = f32(ys);
    for (const isa of ISAS) {
      _set_native_isa(isa);
      const got = valuesOf(torch.pow(x, y));
      const bad = got.map((g, i) => i).filter((i) => got[i] !== cpow(xs[i], ys[i]));
      expect(bad.map((i) => [xs[i], ys[i], got[i]]), `[${isa}]`).toEqual([]);
    }
    expect(xs.length).toBeGreaterThan(200);
  });

  native("C's special cases as the TS kernel gives them: every pair of the specials, Tensor and Scalar exponents", () => {
    const specials = [0, -0, 1, -1, 0.5, -0.5, 2, -2, 3, -3, 2.5, -2.5, Infinity, -Infinity, NaN, 1e-45, -1e-45, 3.4e38, -3.4e38, 16777216, -16777215, 1e30, 7, -7, 1e-3, 88, -104, 150, 0.25];
    const xs: number[] = [], ys: number[] = [];
    for (const p of specials) for (const q of specials) xs.push(Math.fround(p)), ys.push(Math.fround(q));
    const x = f32(xs), y = f32(ys);
    for (const isa of ISAS) {
      _set_native_isa(isa);
      const got = valuesOf(torch.pow(x, y)), want = valuesOf(underTs(() => torch.pow(x, y)));
      const bad = got.map((g, i) => i).filter((i) => !same(got[i], want[i]));
      expect(bad.map((i) => [xs[i], ys[i], got[i], want[i]]), `[${isa}]`).toEqual([]);
      const xu = f32(specials.map(Math.fround));
      for (const e of [0, -0, 1, -1.5, 2.5, 1e3, -1e3, Infinity, -Infinity, NaN, 5, -5, 0.1]) {
        const gs = valuesOf(torch.pow(xu, e)), ws = valuesOf(underTs(() => torch.pow(xu, e)));
        expect(gs.map((g, i) => i).filter((i) => !same(gs[i], ws[i])).map((i) => [specials[i], e, gs[i], ws[i]]), `pow(x, ${e}) [${isa}]`).toEqual([]);
      }
    }
  });

  native("contiguous blocks (e^(y log x) alone where every x > 0 and y finite) give the strided loop's bits", () => {
    // blocks of regular pairs, some with one result below 2^-126 (0.5^140: the block is redone), one with a
    // special (a negative base); each against the same pairs read with a stride (every element through pow_fd)
    const n = 4096, xs: number[] = [], ys: number[] = [];
    for (let i = 0; i < n; i++) xs.push(Math.fround(0.05 + 3 * rand())), ys.push(Math.fround((rand() - 0.5) * 30));
    xs[300] = 0.5, ys[300] = 140; // 2^-140
    xs[301] = 0.5, ys[301] = 150; // 2^-150: halfway, to even (0)
    xs[1000] = -2, ys[1000] = 3;
    xs[2000] = 3, ys[2000] = Infinity;
    const x = f32(xs), y = f32(ys);
    const wide = (v: number[]) => f32(v.flatMap((u) => [u, 7]));
    const xw = wide(xs).get("::2"), yw = wide(ys).get("::2");
    for (const isa of ISAS) {
      _set_native_isa(isa);
      const got = valuesOf(torch.pow(x, y)), strided = valuesOf(torch.pow(xw, yw));
      expect(got.map((g, i) => i).filter((i) => !same(got[i], strided[i])), `Tensor exponent [${isa}]`).toEqual([]);
      expect([got[300], got[301], got[1000], got[2000]]).toEqual([2 ** -140, 0, -8, Infinity]);
      for (const e of [2.5, 140, -60.5]) {
        const gs = valuesOf(torch.pow(x, e)), ss = valuesOf(torch.pow(xw, e));
        expect(gs.map((g, i) => i).filter((i) => !same(gs[i], ss[i])), `pow(x, ${e}) [${isa}]`).toEqual([]);
      }
      const yb = valuesOf(torch.pow(x, y.get(5))), sb = valuesOf(torch.pow(xw, y.get(5)));
      expect(yb.map((g, i) => i).filter((i) => !same(yb[i], sb[i])), `broadcast exponent [${isa}]`).toEqual([]);
    }
  });

  native("strided, broadcast and in-place operands", () => {
    torch.manual_seed(3);
    const base = torch.rand(40, 50).mul(3), ex = torch.randn(50, 40);
    const cases: [string, () => torch.Tensor][] = [
      ["transposed exponent", () => torch.pow(base, ex.t())],
      ["every other row", () => torch.pow(base.get("::2"), ex.t().get("1::2"))],
      ["broadcast row", () => torch.pow(base, ex.get(":", 0))],
      ["0-d base", () => torch.pow(base.get(3, 4), ex)],
      ["in place", () => base.clone().pow_(ex.t())],
      ["Scalar, transposed", () => torch.pow(base.t(), 1.7)],
    ];
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const [name, f] of cases) {
        const got = valuesOf(f()), want = valuesOf(underTs(f));
        expect(got.filter((g, i) => ulps32(g, want[i]) > 1).length, `${name} [${isa}]`).toBe(0);
      }
    }
  });
});
