// The native asin, acos, atan, atan2, erf, erfc, erfinv and logit (native/cpu/pointwise_special.inc) against the
// TypeScript kernels. asin/acos/atan/atan2 are FDLIBM's algorithms, V8's Math functions, computed
// branch-free and vectorized: the same bits as the TS kernels for float64 too, and so for bfloat16 and
// float32 atan2 (rounded once); float32 asin, acos and atan compute in float (float_math.inc), within 1
// ulp of the TS kernels, their special inputs exactly (cpu_native_float_math.test.ts sweeps them). erfc of float32 and bfloat16 and erf of bfloat16 are FDLIBM's s_erf.c branch-free
// with a vectorized exp (the TS kernels' bits on every input here, across all of its ranges); float32 erf
// computes in float (erf_ff, within 1 ulp); erfinv and logit
// give the TS kernels' float32 and bfloat16 bits; float64 erf/erfc/erfinv/logit call glibc and are
// within the last bits (glibc's exp and log against V8's), bounds stated below.
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

/** The elements of t (contiguous copy) as a typed array of its dtype. */
function valuesOf(t: torch.Tensor): Float32Array | Float64Array | Uint16Array {
  const c = t.contiguous();
  const v = typedView((c as any)._impl.storage, c.dtype) as Float32Array | Float64Array | Uint16Array;
  return v.slice(c.storage_offset(), c.storage_offset() + c.numel());
}
function tensorOf(values: Float32Array | Float64Array): torch.Tensor {
  const t = torch.empty(values.length, { dtype: values instanceof Float32Array ? torch.float32 : torch.float64 });
  (typedView((t as any)._impl.storage, t.dtype) as Float32Array | Float64Array).set(values);
  return t;
}

/** Indices where two results differ in bits (NaNs of any payload count as equal). */
function differences(a: ArrayLike<number>, b: ArrayLike<number>, limit = 5): number[] {
  const bad: number[] = [];
  for (let i = 0; i < a.length && bad.length < limit; i++) if (!Object.is(a[i], b[i]) && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) bad.push(i);
  return bad;
}

/** Distance in float32 units in the last place (NaN pairs: 0; +-0 apart: 0). */
function ulps32(a: number, b: number): number {
  if (Number.isNaN(a) && Number.isNaN(b)) return 0;
  const k = new Int32Array(new Float32Array([a, b]).buffer);
  const key = (i: number) => (i < 0 ? -2147483648 - i : i);
  return Math.abs(key(k[0]) - key(k[1]));
}

/** Distance in units in the last place between two doubles of the same sign (NaN pairs: 0). */
function ulps(a: number, b: number): number {
  if (Number.isNaN(a) && Number.isNaN(b)) return 0;
  if (Object.is(a, b)) return 0;
  const u = new BigInt64Array(new Float64Array([a, b]).buffer);
  const d = u[0] - u[1];
  return Number(d < 0n ? -d : d);
}

let seed = 99;
const nextBits = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);

/** FDLIBM's range boundaries, the specials, and their neighbours, then random bit patterns and a sweep. */
function inputs(kind: "float32" | "float64"): Float32Array | Float64Array {
  const edges = [0, -0, Infinity, -Infinity, NaN, 1, -1, 0.5, -0.5, 0x1.f3333p-1, 0.975, 0.4375, 0.6875, 1.1875, 2.4375, 2 ** 66, 2 ** -27, 2 ** -57, 1e-45, 3.4e38];
  const out: number[] = [];
  for (const e of edges) for (const s of [1, -1]) out.push(s * e, s * e * (1 + 2 ** -23), s * e * (1 - 2 ** -24));
  if (kind === "float32") {
    const words = new Uint32Array(1 << 17);
    for (let i = 0; i < words.length; i++) words[i] = nextBits();
    for (const v of new Float32Array(words.buffer)) out.push(v);
    for (let i = -(1 << 15); i < 1 << 15; i++) out.push(i / 2 ** 14); // [-2, 2], the ranges' interior
    return new Float32Array(out);
  }
  const words = new Uint32Array(1 << 17);
  for (let i = 0; i < words.length; i++) words[i] = nextBits();
  for (const v of new Float64Array(words.buffer)) out.push(v); // every exponent
  for (let i = 0; i < 1 << 15; i++) out.push(((nextBits() / 2 ** 32) * 2 - 1) * 1.25, (nextBits() / 2 ** 32) * 8);
  return new Float64Array(out);
}

const EXACT: [string, (t: torch.Tensor) => torch.Tensor][] = [
  ["asin", torch.asin],
  ["acos", torch.acos],
  ["atan", torch.atan],
];

describe("native asin, acos, atan, atan2 (FDLIBM, vectorized)", () => {
  nativeIt("the TS kernels' bits (V8's Math functions) for float32 and float64, on every unit", () => {
    for (const kind of ["float32", "float64"] as const) {
      const xs = inputs(kind), x = tensorOf(xs);
      const y = x.flip(0); // atan2's pairs: every input against another, specials against specials
      for (const isa of ISAS) {
        _set_native_isa(isa);
        for (const [name, f] of EXACT) {
          expect(kernelsRan(() => f(x)), `${name} ${kind} [${isa}]`).toContain(`${name}_stub:native`);
          const got = valuesOf(f(x)), want = valuesOf(underTs(() => f(x)));
          if (kind === "float32") {
            // within 1 ulp, and the special inputs (zeros, infinities, NaN, +-1, outside [-1, 1], subnormal) exactly
            const far = [...got.keys()].filter((i) => ulps32(got[i], want[i]) > 1);
            expect(far.slice(0, 5).map((i) => xs[i]), `${name} ${kind} [${isa}]: inputs over 1 ulp off the TS kernel`).toEqual([]);
            const specials = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, -2, 1e-45, -1e-45, 3.4e38, -3.4e38].map((v) => Math.fround(v));
            const sx = new Float32Array(specials), sg = valuesOf(f(tensorOf(sx))), sw = valuesOf(underTs(() => f(tensorOf(sx))));
            expect(differences(sg, sw).map((i) => specials[i]), `${name} specials [${isa}]`).toEqual([]);
          } else {
            const bad = differences(got, want);
            expect(bad.map((i) => xs[i]), `${name} ${kind} [${isa}]: inputs off the TS kernel`).toEqual([]);
          }
        }
        expect(kernelsRan(() => torch.atan2(x, y)), `atan2 ${kind} [${isa}]`).toContain("atan2_stub:native");
        const ga = valuesOf(torch.atan2(x, y)), wa = valuesOf(underTs(() => torch.atan2(x, y)));
        // float32 atan2 computes in float on the units with FMA: within 1 ulp there
        const bad = kind === "float32" && isa !== "DEFAULT" ? [...ga.keys()].filter((i) => ulps32(ga[i], wa[i]) > 1) : differences(ga, wa);
        expect(bad.slice(0, 5).map((i) => [xs[i], xs[xs.length - 1 - i]]), `atan2 ${kind} [${isa}]`).toEqual([]);
      }
    }
  }, 120_000);

  nativeIt("atan2's special pairs (zeros, infinities, NaN, x = 1, exponents 60 apart) in every sign combination", () => {
    const specials = [0, -0, 1, -1, Infinity, -Infinity, NaN, 2 ** 70, 2 ** -70, 3, -3, 2 ** 61, 2 ** -61];
    const a: number[] = [], b: number[] = [];
    for (const p of specials) for (const q of specials) a.push(p), b.push(q);
    for (const dtype of [torch.float32, torch.float64]) {
      // each pair once in a block of its own (the per-element path) and once among regular pairs (the block check)
      const ya = torch.tensor(a, { dtype }), xb = torch.tensor(b, { dtype });
      for (const isa of ISAS) {
        _set_native_isa(isa);
        // float32 on the units with FMA (in float): the pairs with a zero, infinity or NaN exactly, the rest within 1 ulp
        const inFloat = dtype === torch.float32 && isa !== "DEFAULT";
        const off = (g: ArrayLike<number>, w: ArrayLike<number>, ys: number[], xs: number[]) =>
          inFloat
            ? Array.from(g, (_, i) => i).filter((i) => (!Number.isFinite(ys[i] * xs[i]) || ys[i] * xs[i] === 0 ? !(Object.is(g[i], w[i]) || (Number.isNaN(g[i]) && Number.isNaN(w[i]))) : ulps32(g[i], w[i]) > 1))
            : differences(g, w);
        expect(off(valuesOf(torch.atan2(ya, xb)), valuesOf(underTs(() => torch.atan2(ya, xb))), a, b), `${dtype} [${isa}]`).toEqual([]);
        const many = torch.randn(3000, { dtype }), other = torch.randn(3000, { dtype });
        many.narrow(0, 1200, a.length).copy_(ya);
        other.narrow(0, 1200, a.length).copy_(xb);
        const ms = Array.from(valuesOf(many)), os = Array.from(valuesOf(other));
        expect(off(valuesOf(torch.atan2(many, other)), valuesOf(underTs(() => torch.atan2(many, other))), ms, os), `${dtype} mixed [${isa}]`).toEqual([]);
      }
    }
  });

  nativeIt("strided, broadcast and in-place operands, bfloat16", () => {
    torch.manual_seed(5);
    const base = torch.randn(60, 70).mul(1.3), other = torch.randn(70, 60);
    for (const isa of ISAS) {
      _set_native_isa(isa);
      const cases: [string, () => torch.Tensor][] = [
        ["asin transposed", () => torch.asin(base.t())],
        ["acos every other row", () => torch.acos(base.get("::2"))],
        ["atan in place", () => base.clone().atan_()],
        ["atan2 transposed against contiguous", () => torch.atan2(other.t(), base)],
        ["atan2 broadcast row", () => torch.atan2(base, base.get(0))],
        ["atan2 scalar", () => torch.atan2(base, torch.tensor(-0.5))],
        ["asin bfloat16", () => torch.asin(base.to(torch.bfloat16))],
        ["atan bfloat16", () => torch.atan(base.to(torch.bfloat16))],
      ];
      for (const [name, f] of cases) {
        const got = valuesOf(f()), want = valuesOf(underTs(f));
        if (/^a(sin|cos|tan) (?!bfloat16)/.test(name) || (name.startsWith("atan2") && isa !== "DEFAULT")) {
          // float32 asin, acos, atan (and atan2 on the units with FMA): in float, within 1 ulp
          expect([...got.keys()].filter((i) => ulps32(got[i], want[i]) > 1), `${name} [${isa}]`).toEqual([]);
          continue;
        }
        expect(differences(got, want), `${name} [${isa}]`).toEqual([]);
      }
    }
  });
});

describe("native erf, erfc, erfinv, logit", () => {
  nativeIt("float32 and bfloat16: the TS kernels' bits (float32 erf within 1 ulp); float64 within the stated bounds, on every unit", () => {
    torch.manual_seed(11);
    const wide = tensorOf(inputs("float64") as Float64Array);
    const unit = torch.rand(40000, { dtype: torch.float64 }).mul(2.2).sub(1.1); // erfinv's domain and beyond
    const inner = torch.rand(40000, { dtype: torch.float64 }).mul(1.98).sub(0.99);
    const prob = torch.rand(40000, { dtype: torch.float64 }); // logit's domain
    // float64 bounds: erf within 2 ulps, erfc within 4 (its tail multiplies two exps), erfinv within 8 on |y| <= 0.99
    // (Newton steps on erf and exp; nearer 1 erfinv magnifies their last bit further), logit within 2
    const sweep = torch.linspace(-12, 12, 300001, { dtype: torch.float64 }); // every range of s_erf.c, densely
    const cases: [string, (t: torch.ScalarType | any) => torch.Tensor, number][] = [
      ["erf", (d) => torch.erf(wide.to(d)), 2],
      ["erf sweep", (d) => torch.erf(sweep.to(d)), 2],
      ["erfc sweep", (d) => torch.erfc(sweep.to(d)), 4],
      ["erfc", (d) => torch.erfc(wide.to(d)), 4],
      ["erfc [-5.5, 5.5]", (d) => torch.erfc(unit.mul(5).to(d)), 4],
      ["erfinv", (d) => torch.erfinv(unit.to(d)), Infinity],
      ["erfinv |y| <= 0.99", (d) => torch.erfinv(inner.to(d)), 8],
      ["logit", (d) => torch.logit(prob.to(d)), 2],
      ["logit eps 0.1", (d) => torch.logit(unit.to(d), 0.1), 2],
      ["logit eps 0.7 (lo > hi)", (d) => torch.logit(prob.to(d), 0.7), 2],
      ["logit eps 0", (d) => torch.logit(unit.to(d), 0), 2],
      ["logit strided", (d) => torch.logit(prob.to(d).view(200, 200).t(), 1e-3), 2],
      ["erfinv in place", (d) => inner.to(d).clone().erfinv_(), 8],
    ];
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const [name, f, bound] of cases) {
        const stub = name.split(" ")[0];
        for (const dtype of [torch.float32, torch.bfloat16, torch.float64]) {
          const what = `${name} ${dtype} [${isa}]`;
          expect(kernelsRan(() => f(dtype)), what).toContain(`${stub}_stub:native`);
          const got = valuesOf(f(dtype)), want = valuesOf(underTs(() => f(dtype)));
          if (dtype === torch.float32 && (stub === "erf" || stub === "logit")) {
            // float32 erf and logit's log compute in float (erf_ff, log_ff): within 1 ulp of the TS kernel's correctly rounded value
            let worst = 0;
            for (let i = 0; i < got.length; i++) worst = Math.max(worst, ulps32(got[i], want[i]));
            expect(worst, what).toBeLessThanOrEqual(1);
          } else if (dtype !== torch.float64) {
            expect(differences(got, want), what).toEqual([]);
          } else if (Number.isFinite(bound)) {
            let worst = 0;
            for (let i = 0; i < got.length; i++) worst = Math.max(worst, ulps(got[i], want[i]));
            expect(worst, what).toBeLessThanOrEqual(bound);
          }
        }
      }
    }
  }, 60_000);

  nativeIt("erfinv's and logit's edges: +-1, beyond, NaN, 0 and 1, eps None / NaN / negative", () => {
    const y = torch.tensor([1, -1, 1.5, -1.5, NaN, 0, -0, 0.7, -0.7, 0.70000001, 1e-30, -1e-30, 0.99, -0.99]);
    const p = torch.tensor([0, 1, -0, 0.5, 1e-40, 1 - 2 ** -24, NaN, -0.5, 2, Infinity]);
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64, torch.bfloat16]) {
        const cases: [string, () => torch.Tensor][] = [
          ["erfinv", () => torch.erfinv(y.to(dtype))],
          ["erfc", () => torch.erfc(y.to(dtype).mul(30))],
          ["logit", () => torch.logit(p.to(dtype))],
          ["logit eps NaN", () => torch.logit(p.to(dtype), NaN)],
          ["logit eps -1", () => torch.logit(p.to(dtype), -1)],
          ["logit eps 0.25", () => torch.logit(p.to(dtype), 0.25)],
        ];
        for (const [name, f] of cases) {
          const got = valuesOf(f()), want = valuesOf(underTs(f));
          if (dtype === torch.float32 && name.startsWith("logit")) {
            // float32 logit's log in float: within 1 ulp, its infinities, NaN and 0 exactly
            for (let i = 0; i < got.length; i++) {
              if (!Number.isFinite(want[i]) || want[i] === 0) expect(Object.is(got[i], want[i]) || (Number.isNaN(got[i]) && Number.isNaN(want[i])), `${name} #${i} [${isa}]`).toBe(true);
              else expect(ulps32(got[i], want[i]), `${name} #${i} [${isa}]`).toBeLessThanOrEqual(1);
            }
          } else if (dtype !== torch.float64) expect(differences(got, want), `${name} ${dtype} [${isa}]`).toEqual([]);
          else for (let i = 0; i < got.length; i++) expect(ulps(got[i], want[i]), `${name} ${dtype} [${isa}] #${i}`).toBeLessThanOrEqual(2);
        }
      }
    }
  });
});
