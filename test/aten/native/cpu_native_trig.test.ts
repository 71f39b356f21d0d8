// The native float32 sin, cos and tan (native/cpu/pointwise_kernels.inc). The baseline unit (and
// bfloat16 on every unit): trig_f32, double arithmetic (Cody-Waite reduction by pi/2 in three parts,
// Taylor series through r^19), vectorized, with glibc for |x| > 2^20, inf and NaN: the correctly rounded
// float of the true value, as the TypeScript kernels' Math.fround(Math.sin(x)), except where the true
// value lies within ~1e-16 of a rounding boundary: none of the inputs here (random bit patterns over the
// whole float range, a dense sweep, the floats nearest the multiples of pi/2 up to 2^20, the specials)
// is off. The units with FMA: trig_ff32 (float_math.inc's trig_ff, in float) for |x| <= 2^20, within
// 1 ulp of the correctly rounded value on every input here (every float32 in that range, by
// scripts/scan_float_math.cc), glibc's beyond as the baseline's; specials and |x| > 2^20 exactly so.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { typedView } from "../../../engine/c10/ElementAccess.js";
import { bestIsa, kernelsRan, nativeIt, runnableIsas, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();

afterEach(() => {
  if (ISAS.length > 0) _set_native_isa(bestIsa as any);
});

/** A float32 tensor holding exactly these floats (no trip through JS arrays of numbers). */
function fromFloats(f: Float32Array): torch.Tensor {
  const t = torch.empty(f.length, { dtype: torch.float32 });
  (typedView((t as any)._impl.storage, t.dtype) as Float32Array).set(f);
  return t;
}
function floatsOf(t: torch.Tensor): Float32Array {
  const c = t.contiguous();
  const v = typedView((c as any)._impl.storage, c.dtype) as Float32Array;
  return v.slice(c.storage_offset(), c.storage_offset() + c.numel());
}

function inputs(): Float32Array {
  const out: number[] = [0, -0, Infinity, -Infinity, NaN, 1e-45, -1e-45, 1.17549435e-38, 3.4028235e38, -3.4028235e38];
  out.push(1048576, -1048576, Math.fround(1048576.125), Math.fround(-1048576.125), Math.fround(1048575.9375), 1e7, 123456789);
  // the floats on both sides of k pi/2 (the reduction's cancellation), k up to 2^20 * 2/pi
  for (let k = 1; k < 667000; k += k < 1000 ? 1 : 997) {
    const c = Math.fround((k * Math.PI) / 2), bits = new Float32Array([c]), u = new Uint32Array(bits.buffer);
    for (const du of [-1, 0, 1]) out.push(new Float32Array(new Uint32Array([u[0] + du]).buffer)[0], -new Float32Array(new Uint32Array([u[0] + du]).buffer)[0]);
  }
  // random bit patterns (every exponent: subnormals, huge values, NaNs) and a dense sweep of [-400, 400]
  let s = 2024;
  const rnd = new Uint32Array(1 << 19);
  for (let i = 0; i < rnd.length; i++) rnd[i] = s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
  for (const v of new Float32Array(rnd.buffer)) out.push(v);
  for (let i = -(1 << 18); i < 1 << 18; i++) out.push(Math.fround(i * 0.0015258789));
  return new Float32Array(out);
}

const i32 = new Int32Array(1), f32v = new Float32Array(i32.buffer);
function ulps32(a: number, b: number): number {
  const key = (x: number) => {
    f32v[0] = x;
    return i32[0] < 0 ? -2147483648 - i32[0] : i32[0];
  };
  return Math.abs(key(a) - key(b));
}
function expectWithin(got: Float32Array, want: Float32Array, bound: number, what: string): void {
  let worst = 0;
  for (let i = 0; i < got.length; i++) if (!(Number.isNaN(got[i]) && Number.isNaN(want[i]))) worst = Math.max(worst, ulps32(got[i], want[i]));
  expect(worst, what).toBeLessThanOrEqual(bound);
}

const FUNCTIONS: [string, (t: torch.Tensor) => torch.Tensor, (x: number) => number][] = [
  ["sin", torch.sin, Math.sin],
  ["cos", torch.cos, Math.cos],
  ["tan", torch.tan, Math.tan],
];

describe("native float32 sin, cos, tan", () => {
  nativeIt("the correctly rounded value (Math.fround of the double function) on every input here, on every unit", () => {
    const xs = inputs(), x = fromFloats(xs);
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const [name, f, ref] of FUNCTIONS) {
        expect(kernelsRan(() => f(x)), `${name} [${isa}]`).toContain(`${name}_stub:native`);
        const got = floatsOf(f(x));
        const bad: number[] = [];
        const floatPath = isa !== "DEFAULT"; // (in float: within 1 ulp for |x| <= 2^20, exact elsewhere)
        for (let i = 0; i < xs.length && bad.length < 5; i++) {
          const want = Math.fround(ref(xs[i]));
          if (Object.is(got[i], want) || (Number.isNaN(got[i]) && Number.isNaN(want))) continue;
          const inRange = Math.abs(xs[i]) <= 1048576 && Math.abs(xs[i]) >= 2 ** -126 && want !== 0;
          if (floatPath && inRange && ulps32(got[i], want) <= 1) continue;
          bad.push(xs[i]);
        }
        expect(bad, `${name} [${isa}]: inputs off their bound (${floatPath ? "1 ulp" : "correctly rounded"})`).toEqual([]);
      }
    }
  }, 120_000);

  nativeIt("strided and in-place rows, a block with one |x| > 2^20 among small ones, bfloat16", () => {
    torch.manual_seed(3);
    const base = torch.randn(40, 2100).mul(10);
    base.view(-1).get(1500).fill_(3e9); // the second block of the first row takes the per-element path
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const [name, f] of FUNCTIONS) {
        const what = `${name} [${isa}]`;
        // the strided and in-place rows give the contiguous row's bits (each within its bound of the TS kernel)
        const full = floatsOf(f(base));
        expectWithin(full, floatsOf(underTs(() => f(base))), isa === "DEFAULT" ? 0 : 1, what);
        expect(floatsOf(f(base.t())), `${what} transposed`).toEqual(floatsOf(f(base.t().contiguous())));
        expect(floatsOf(f(base.get(":", "::3"))), `${what} strided`).toEqual(floatsOf(f(base.get(":", "::3").contiguous())));
        const inPlace = base.clone();
        (inPlace as any)[`${name}_`]();
        expect(floatsOf(inPlace), `${what} in place`).toEqual(full);
        // (float16 has no CPU sin in PyTorch 1.13: "sin_vml_cpu" not implemented for 'Half')
        const h = base.get(":8").to(torch.bfloat16);
        expect(f(h).to(torch.float32).tolist(), `${what} bfloat16`).toEqual(underTs(() => f(h)).to(torch.float32).tolist());
      }
    }
  }, 60_000);
});
