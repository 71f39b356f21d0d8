// The float32 transcendentals computed in float precision (native/cpu/float_math.inc: sigmoid, silu,
// tanh, log, log2, log10, log1p, expm1, erf, asin, acos, atan, sinh; sin, cos, tan on the units with FMA), on every instruction-set unit the CPU runs, against a float64
// reference (V8's Math functions, rounded once to float32): the largest distance in ulps over a dense
// sweep of float32 inputs (every 4099th bit pattern of both signs, plus every float in the ranges where
// each function changes method), within the bound float_math.inc states; exactly the TS kernels'
// results for NaN, +-inf, +-0, subnormal inputs and the thresholds where a result saturates or
// overflows. The units with FMA (AVX2, AVX-512) give the same bits as each other; the baseline
// (multiply-adds unfused) may differ from them in last places, within the same bound.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { typedView } from "../../../engine/c10/ElementAccess.js";
import { erf as erf_f64 } from "../../../engine/aten/native/unary/UnaryMath.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, runnableIsas, underTs } from "../../support/native_paths.js";
import { ulps32 } from "../../support/ulps.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();
afterEach(restoreNativeDefaults);

const fround = Math.fround;
const i32 = new Int32Array(1), f32 = new Float32Array(i32.buffer);
const fromBits = (b: number) => {
  i32[0] = b | 0;
  return f32[0];
};

/** e^-x overflows float32 there (the TS kernels' fround(exp(-x)) is inf): sigmoid 0, silu x / inf */
const overflows = (x: number) => fround(Math.exp(-x)) === Infinity;
// [name, op, stub, float64 reference, bound in ulps (units with FMA), bound on the baseline, the ranges swept densely]
type Case = [string, (x: torch.Tensor) => torch.Tensor, string, (x: number) => number, number, number, [number, number][]];
const TRIG_RANGES: [number, number][] = [[-0.8, 0.8], [1.5, 1.65], [3.1, 3.2], [333772, 333773], [1048000, 1049000]];
const CASES: Case[] = [
  ["sigmoid", torch.sigmoid, "sigmoid_stub", (x) => (overflows(x) ? 0 : 1 / (1 + Math.exp(-x))), 2, 2, [[-81, -79], [-89, -88], [-1.2, 0.1]]],
  ["silu", (x) => torch.nn.functional.silu(x), "silu_stub", (x) => (overflows(x) ? x / Infinity : x / (1 + Math.exp(-x))), 3, 3, [[-81, -79], [-89, -88], [-2, 0.1]]],
  ["tanh", torch.tanh, "tanh_stub", Math.tanh, 1, 1, [[-0.7, 0.7], [9, 10]]],
  ["log", torch.log, "log_stub", Math.log, 1, 1, [[0.7, 1.45], [1e-39, 1.2e-38]]],
  ["log2", torch.log2, "log2_stub", Math.log2, 1, 1, [[0.7, 1.45], [1e-39, 1.2e-38]]],
  ["log10", torch.log10, "log10_stub", Math.log10, 1, 2, [[0.7, 1.45], [1e-39, 1.2e-38]]],
  ["log1p", torch.log1p, "log1p_stub", Math.log1p, 1, 1, [[-0.3, 0.45], [-1, -0.99], [1e-8, 1e-7]]],
  // erf: the TS kernel's FDLIBM erf in double as the reference (Math has none)
  ["erf", torch.erf, "erf_stub", erf_f64, 1, 1, [[-0.9, 0.9], [1.2, 1.3], [2.8, 2.9], [3.9, 4.01], [1e-9, 4e-9]]],
  ["expm1", torch.expm1, "expm1_stub", Math.expm1, 1, 1, [[-0.4, 0.4], [88, 89], [-18, -17], [1e-8, 1e-7]]],
  // sin, cos, tan: float precision on the FMA units (|x| <= 2^20; beyond, glibc's double functions), the
  // double path on the baseline; the ranges: around 0, pi/2 and pi, a multiple of pi near 2^20, and
  // either side of 2^20 (blocks mixing both paths)
  ["sin", torch.sin, "sin_stub", Math.sin, 1, 1, TRIG_RANGES],
  ["cos", torch.cos, "cos_stub", Math.cos, 1, 1, TRIG_RANGES],
  ["tan", torch.tan, "tan_stub", Math.tan, 2, 1, TRIG_RANGES],
  // asin, acos, atan: Cephes' polynomials (every unit); the ranges: where each changes form (|x| = 1/2,
  // tan(pi/8), tan(3pi/8)), near +-1, around 0 and large |x|
  ["asin", torch.asin, "asin_stub", Math.asin, 1, 1, [[-1, -0.99], [0.49, 0.51], [-0.01, 0.01], [0.99, 1]]],
  ["acos", torch.acos, "acos_stub", Math.acos, 1, 1, [[-1, -0.99], [-0.51, -0.49], [0.49, 0.51], [-0.01, 0.01], [0.99, 1]]],
  ["atan", torch.atan, "atan_stub", Math.atan, 1, 1, [[0.41, 0.42], [2.41, 2.42], [-0.05, 0.05], [1e7, 1.001e7]]],
  // sinh: the polynomial below 1, expm1's form above, the e^(|x| - c) form from 88.5 to overflow (89.42)
  ["sinh", torch.sinh, "sinh_stub", Math.sinh, 1, 1, [[-1.05, 1.05], [88, 90], [-90, -88], [5, 5.1]]],
];
const SPECIALS = [0, -0, Infinity, -Infinity, NaN, 1, -1, 1e-45, -1e-45, 1e-40, -1e-40, 1.1754942e-38, -88.72284, -88.72283, -88.7228394, -80, -79.99999,
  -103.97, -104, -200, 9.5, -9.5, 9.1, 20, 0.625, -0.625, 0.62499994, 3.4028235e38, -3.4028235e38, -0.99999994, 16777216, -0.5,
  1048576, -1048576, 1048576.1, 1e7, 3.92, -3.92, 4, 0.84375, 1.25, 2.857143, 3.7e-9, -3.7e-9, 88.72283, 88.72284, 88.7228394, -17.3, -17.4, -30, -31, Math.fround(Math.PI), Math.fround(Math.PI / 2), -Math.fround(Math.PI / 2)];

/** Where a result must be the TS kernel's exactly: special inputs (NaN, +-inf, +-0, subnormal) and results (0, +-1, +-inf, NaN). */
const isSpecial = (x: number, want: number) =>
  !Number.isFinite(x) || Math.abs(x) < 2 ** -126 || !Number.isFinite(want) || want === 0 || Math.abs(want) === 1;

/** The bit patterns of float32 inputs: every `step`-th one of both signs, and every float in `ranges`. */
function sweep(step: number, ranges: [number, number][]): Float32Array {
  const out: number[] = [];
  for (let b = 0; b < 0x7f800000; b += step) out.push(fromBits(b), fromBits(b | 0x80000000));
  for (const [lo, hi] of ranges) {
    // every float in [lo, hi], up to 2^18 of them (else evenly spaced)
    const a = new Float32Array([lo, hi]);
    const ia = new Int32Array(a.buffer);
    const key = (i: number) => (i < 0 ? -2147483648 - i : i);
    const k0 = key(ia[0]), k1 = key(ia[1]);
    const stride = Math.max(1, Math.ceil((k1 - k0) / (1 << 18)));
    for (let k = k0; k <= k1; k += stride) out.push(fromBits(k < 0 ? -2147483648 - k : k));
  }
  return new Float32Array([...out, ...SPECIALS]);
}

describe("float32 transcendentals in float precision (float_math.inc)", () => {
  for (const [name, f, stub, ref, boundFma, boundBase, ranges] of CASES) {
    native(`${name}: within ${boundFma} ulp (baseline unit ${boundBase}) of the correctly rounded value over a dense sweep; the TS kernels' specials`, () => {
      const xs = sweep(4099, ranges);
      const x = torch.empty(xs.length);
      (typedView((x as any)._impl.storage, torch.float32) as Float32Array).set(xs);
      const want = Float32Array.from(xs, (v) => fround(ref(v)));
      const sx = torch.tensor(SPECIALS, { dtype: torch.float32 });
      const specialWant = Array.from(underTs(() => f(sx)).tolist() as number[]);
      let fmaBits: string | undefined;
      for (const isa of ISAS) {
        _set_native_isa(isa);
        expect(kernelsRan(() => f(x)), `${name} [${isa}]`).toEqual([`${stub}:native`]);
        const got = typedView((f(x) as any)._impl.storage, torch.float32) as Float32Array;
        let worst = 0, at = 0;
        for (let i = 0; i < xs.length; i++) {
          const u = ulps32(got[i], want[i]);
          if (u > worst) [worst, at] = [u, i];
        }
        const bound = isa === "DEFAULT" ? boundBase : boundFma;
        expect(worst <= bound ? null : { x: xs[at], got: got[at], want: want[at], ulps: worst }, `${name} [${isa}]`).toBeNull();
        // the specials: the TS kernels' values, -0 and NaN included
        const sg = f(sx).tolist() as number[];
        sg.forEach((v, i) => {
          if (isSpecial(SPECIALS[i], specialWant[i])) expect(Object.is(v, specialWant[i]), `${name}(${SPECIALS[i]}) [${isa}]: ${v} vs ${specialWant[i]}`).toBe(true);
        });
        if (isa !== "DEFAULT") {
          const bits = Buffer.from(got.buffer, got.byteOffset, got.byteLength).toString("base64");
          if (fmaBits === undefined) fmaBits = bits;
          else expect(bits === fmaBits, `${name} [${isa}]: the FMA units' bits`).toBe(true);
        }
      }
    }, 60_000);
  }
  native("strided, broadcast and in-place operands give the contiguous loop's values", () => {
    const x = torch.linspace(-30, 30, 2001).mul(torch.linspace(0.01, 1, 2001));
    for (const [name, f] of CASES) {
      const arg = name.startsWith("log") ? x.abs().add(name === "log1p" ? -0.5 : 1e-6) : x;
      const full = f(arg.contiguous()).tolist() as number[];
      const strided = f(arg.get("::3")).tolist() as number[];
      expect(strided, `${name} strided`).toEqual(full.filter((_, i) => i % 3 === 0));
      expect(f(arg.get(7).expand(5)).tolist(), `${name} broadcast`).toEqual(Array(5).fill(full[7]));
      if (["sin", "cos", "tan"].includes(name)) {
        // a block holding an element beyond the float path's range (or NaN) computes the others as before
        const mixed = arg.clone();
        mixed.get(100).fill_(1e7);
        mixed.get(900).fill_(NaN);
        const got = f(mixed).tolist() as number[];
        expect(got.filter((_, i) => i !== 100 && i !== 900), `${name} mixed block`).toEqual(full.filter((_, i) => i !== 100 && i !== 900));
        expect(got[100], `${name}(1e7)`).toBe(Math.fround((Math as any)[name](1e7)));
      }
    }
  });
});
