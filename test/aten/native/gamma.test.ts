// asinh, acosh, atanh, lgamma, digamma and polygamma against PyTorch 1.13 (fixtures/gamma.json, written
// by gen_gamma.py): every dtype (float16 refused with PyTorch's text), special values, strided layouts,
// the in-place / out= forms and their errors, and float64 gradients with PyTorch's Node names. Each
// value case runs on the TypeScript kernels and on the native ones (when the addon is loaded).
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture, dec } from "../../support/fixtures.js";
import { nativeIt, restoreNativeDefaults, underTs, kernelsRan, runnableIsas } from "../../support/native_paths.js";
import { nativeSizePolicy, _set_native_isa } from "../../../engine/aten/native/cpu_native/NativeBackend.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

type Result = { value?: { dtype: string; sizes: number[]; values: unknown[] }; error?: string; message?: string };
const F = loadFixture("gamma.json") as {
  cases: { op: string; dtype: string; values: unknown[]; result: Result }[];
  layouts: { op: string; layout: string; base: number[]; sizes: number[]; strides: number[]; result: { dtype: string; values: unknown[] } }[];
  forms: { op: string; form: string; dtype: string; values: number[]; result: Result }[];
  grads: { op: string; x: number[]; grad: number[]; node: string }[];
};

const OPS: Record<string, (t: torch.Tensor) => torch.Tensor> = {
  asinh: (t) => torch.asinh(t),
  acosh: (t) => torch.acosh(t),
  atanh: (t) => torch.atanh(t),
  lgamma: (t) => torch.lgamma(t),
  digamma: (t) => torch.digamma(t),
  polygamma1: (t) => torch.polygamma(1, t),
  polygamma2: (t) => torch.polygamma(2, t),
  polygamma3: (t) => torch.polygamma(3, t),
};

/** Relative size of one unit in the last place of each dtype. */
const EPS: Record<string, number> = { float32: 2 ** -23, float64: 2 ** -52, bfloat16: 2 ** -7 };
/**
 * How far a value may be from PyTorch's: ulps of the result, plus an absolute floor for the gamma family
 * near its zeros, where the steps' cancellation leaves an absolute error of a few eps (PyTorch's own
 * float32 lgamma is SLEEF's, asinh glibc's asinhf: 1-2 ulps from the correctly rounded value).
 */
function tolerance(op: string, dtype: string, ref: number): number {
  const eps = EPS[dtype]!;
  if (dtype === "bfloat16") return eps * Math.abs(ref);
  if (op === "asinh" || op === "acosh" || op === "atanh") return 2 * eps * Math.abs(ref);
  const ulps = op.startsWith("polygamma") ? 8 : 4;
  return ulps * eps * Math.abs(ref) + 8 * eps;
}

function expectClose(op: string, dtype: string, got: number[], want: unknown[]): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) {
    const w = dec(want[i]) as number, g = got[i]!;
    if (Number.isNaN(w) || !Number.isFinite(w) || w === 0) {
      if (!Object.is(g, w) && !(Number.isNaN(g) && Number.isNaN(w))) expect([op, dtype, i, g]).toEqual([op, dtype, i, w]);
      continue;
    }
    if (!(Math.abs(g - w) <= tolerance(op, dtype, w))) expect([op, dtype, i, g]).toEqual([op, dtype, i, w]);
  }
}

const dtypeOf = (name: string) => (torch as any)[name] as torch.dtype;

function checkCases(): void {
  for (const c of F.cases) {
    const x = torch.tensor(dec(c.values) as number[], { dtype: dtypeOf(c.dtype) });
    if (c.result.error) {
      expect(() => OPS[c.op]!(x)).toThrow(c.result.message!);
      continue;
    }
    const r = OPS[c.op]!(x);
    expect(r.dtype).toBe(dtypeOf(c.result.value!.dtype));
    const computeDtype = c.result.value!.dtype;
    expectClose(c.op, computeDtype, r.tolist() as number[], c.result.value!.values);
  }
}

function checkLayouts(): void {
  for (const c of F.layouts) {
    const base = torch.tensor(c.base, { dtype: torch.float32 });
    const r = OPS[c.op]!(base.as_strided(c.sizes, c.strides));
    expectClose(c.op, "float32", (r.flatten().tolist() as number[]), c.result.values);
  }
}

describe("gamma family and inverse hyperbolic functions against PyTorch", () => {
  it("values, dtypes and float16's error on the TypeScript kernels", () => underTs(checkCases));
  nativeIt("values on the native kernels (float32, float64, bfloat16), which run", () => {
    checkCases();
    const x = torch.tensor([0.3, 1.7], { dtype: torch.float32 });
    for (const [op, stub] of [["asinh", "asinh_stub"], ["acosh", "acosh_stub"], ["atanh", "atanh_stub"], ["lgamma", "lgamma_stub"], ["digamma", "digamma_stub"], ["polygamma1", "trigamma_stub"]]) {
      expect(kernelsRan(() => OPS[op!]!(x))).toContain(`${stub}:native`);
    }
  });
  nativeIt("native float32 asinh/acosh/atanh/lgamma/digamma give the TS kernels' bits over random bit patterns", () => {
    const n = 1 << 16;
    const bits = new Uint32Array(n);
    let seed = 12345;
    for (let i = 0; i < n; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      bits[i] = seed ^ (seed << 7);
    }
    const x = torch.tensor(Array.from(new Float32Array(bits.buffer)), { dtype: torch.float32 });
    for (const op of ["asinh", "acosh", "atanh", "lgamma", "digamma"]) {
      const native = new Float32Array(OPS[op]!(x).tolist() as number[]);
      const ts = new Float32Array(underTs(() => OPS[op]!(x).tolist() as number[]));
      const a = new Int32Array(native.buffer), b = new Int32Array(ts.buffer);
      let worst = 0;
      for (let i = 0; i < n; i++) if (!(Number.isNaN(native[i]) && Number.isNaN(ts[i]))) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
      expect([op, worst]).toEqual([op, 0]);
    }
  });
  nativeIt("native float32 lgamma gives the TS kernel's bits over [-30, 40] in steps of 2^-10, its region edges and the poles", () => {
    // the native kernel runs GammaMath.ts's regions in vector lanes (pointwise_gamma.inc lgamma_pos_d):
    // every region, the shifts down from [2.5, 10), the reflection of negative arguments, the edges
    const values: number[] = [];
    for (let k = -30 * 1024; k <= 40 * 1024; k++) values.push(k / 1024);
    for (const e of [0.5, 1.5, 2.5, 10]) values.push(e, Math.fround(e - 2 ** -22), Math.fround(e + 2 ** -22));
    values.push(1e-30, 1e-45, 3e38, -1e-30, -3e38, Infinity, -Infinity, NaN, -0);
    const x = torch.tensor(values, { dtype: torch.float32 });
    const native = new Float32Array(torch.lgamma(x).tolist() as number[]);
    const ts = new Float32Array(underTs(() => torch.lgamma(x).tolist() as number[]));
    const a = new Int32Array(native.buffer), b = new Int32Array(ts.buffer);
    const differ: number[] = [];
    for (let i = 0; i < values.length; i++) if (!(Number.isNaN(native[i]) && Number.isNaN(ts[i])) && a[i] !== b[i]) differ.push(values[i]!);
    expect(differ).toEqual([]);
    expect(kernelsRan(() => torch.lgamma(x))).toContain("lgamma_stub:native");
  });
  nativeIt("native float32 digamma gives the TS kernel's bits over [-40, 60] in steps of 2^-12 and its edges, on every unit", () => {
    // the native kernel runs calc_digamma's float steps in vector lanes (pointwise_gamma.inc digamma_pos_f):
    // the recurrence's selects (ten steps from near 0), x == 10, the series, the negatives' reflection
    const values: number[] = [];
    for (let k = -40 * 4096; k <= 60 * 4096; k++) values.push(k / 4096);
    values.push(Math.fround(10 - 2 ** -20), Math.fround(10 + 2 ** -20), 1e-45, -1e-45, 1e-30, -1e-30, Math.fround(1e17), 3e38, -3e38);
    values.push(8388607.5, -8388607.5, Infinity, -Infinity, NaN, -0);
    const x = torch.tensor(values, { dtype: torch.float32 });
    const tsValues = new Float32Array(underTs(() => torch.digamma(x).tolist() as number[]));
    const ts = new Int32Array(tsValues.buffer);
    for (const isa of runnableIsas()) {
      _set_native_isa(isa);
      const out = new Float32Array(torch.digamma(x).tolist() as number[]);
      const bits = new Int32Array(out.buffer);
      const differ: number[] = [];
      for (let i = 0; i < values.length; i++) if (!(Number.isNaN(out[i]) && Number.isNaN(tsValues[i])) && bits[i] !== ts[i]) differ.push(values[i]!);
      expect([isa, differ.slice(0, 5)]).toEqual([isa, []]);
      // a strided view runs the same block one element at a time
      const strided = torch.digamma(x.get(["::3"]));
      expect(strided.tolist()).toEqual(underTs(() => torch.digamma(x.get(["::3"])).tolist()));
      expect(kernelsRan(() => torch.digamma(x))).toContain("digamma_stub:native");
    }
  });
  nativeIt("native float32 trigamma gives the TS kernel's bits from 1/2 up, and within 8 ulps below (sinf), on every unit", () => {
    // polygamma(1, x): the six steps and the series in vector lanes (pointwise_gamma.inc trigamma_steps_f),
    // the reflection below 1/2 a scalar pass with glibc's sinf, where the TS kernel rounds Math.sin
    const values: number[] = [];
    for (let k = -40 * 4096; k <= 60 * 4096; k++) values.push(k / 4096);
    values.push(Math.fround(0.5 - 2 ** -25), 1e-30, -1e-30, 3e38, Infinity, -Infinity, NaN, -0);
    const x = torch.tensor(values, { dtype: torch.float32 });
    const tsValues = new Float32Array(underTs(() => torch.polygamma(1, x).tolist() as number[]));
    const ts = new Int32Array(tsValues.buffer);
    for (const isa of runnableIsas()) {
      _set_native_isa(isa);
      const out = new Float32Array(torch.polygamma(1, x).tolist() as number[]);
      const bits = new Int32Array(out.buffer);
      const above: number[] = [];
      let below = 0, belowDiffer = 0, belowCount = 0;
      for (let i = 0; i < values.length; i++) {
        if (Number.isNaN(out[i]) && Number.isNaN(tsValues[i])) continue;
        if (values[i]! >= 0.5 || Number.isNaN(values[i])) {
          if (bits[i] !== ts[i]) above.push(values[i]!);
        } else {
          belowCount++;
          if (bits[i] !== ts[i]) belowDiffer++;
          below = Math.max(below, Math.abs(bits[i]! - ts[i]!));
        }
      }
      expect([isa, above.slice(0, 5)]).toEqual([isa, []]);
      // the two sines round to different floats now and then (1.3% of this grid), never far
      expect(below, isa).toBeLessThanOrEqual(8);
      expect(belowDiffer / belowCount, isa).toBeLessThan(0.03);
      expect(torch.polygamma(1, x.get(["::3"])).tolist()).toEqual(torch.polygamma(1, x).get(["::3"]).tolist());
      expect(kernelsRan(() => torch.polygamma(1, x))).toContain("trigamma_stub:native");
    }
  });
  it("strided and transposed views (TypeScript)", () => underTs(checkLayouts));
  nativeIt("strided and transposed views (native)", checkLayouts);

  it("in-place, out= and method forms, and PyTorch's errors", () => {
    for (const c of F.forms) {
      const x = torch.tensor(c.values, { dtype: dtypeOf(c.dtype) });
      const [name, nText] = c.op.split("_") as [string, string | undefined];
      const n = nText === undefined ? 0 : Number(nText);
      const run = (): torch.Tensor => {
        switch (c.form) {
          case "inplace": return name === "polygamma" ? x.clone().polygamma_(n) : (x.clone() as any)[`${name}_`]();
          case "method": return x.polygamma(n);
          case "function": return torch.polygamma(n, x);
          case "out_float64": return (torch as any)[name](x, { out: torch.empty(0, { dtype: torch.float64 }) });
          default: return (torch as any)[name](x, { out: torch.empty(0, { dtype: torch.int64 }) });
        }
      };
      if (c.result.error) {
        expect(run).toThrow(c.result.message!);
        continue;
      }
      const r = run();
      expect(r.dtype).toBe(dtypeOf(c.result.value!.dtype));
      const op = name === "polygamma" ? (n === 0 ? "digamma" : `polygamma${Math.min(n, 3)}`) : name;
      expectClose(op, c.result.value!.dtype === "float64" ? "float32" : c.result.value!.dtype, r.tolist() as number[], c.result.value!.values);
    }
  });

  it("float64 gradients match PyTorch's (derivatives.yaml formulas) with its Node names", () => {
    for (const g of F.grads) {
      const x = torch.tensor(g.x, { dtype: torch.float64, requires_grad: true });
      let y: torch.Tensor;
      if (g.op === "polygamma_2_inplace") {
        y = x.mul(1);
        y.polygamma_(2);
      } else {
        y = OPS[g.op]!(x.mul(1));
      }
      expect(y.grad_fn!.name()).toBe(g.node);
      const [grad] = torch.autograd.grad(y.sum(), [x]);
      const op = g.op.startsWith("polygamma") ? "polygamma3" : "lgamma";
      expectClose(op, "float64", grad!.tolist() as number[], g.grad);
    }
  });

  it("gradcheck: the formulas against finite differences, twice differentiable", () => {
    const x = torch.tensor([0.35, 1.3, 2.7], { dtype: torch.float64, requires_grad: true });
    for (const f of [torch.asinh, torch.acosh, torch.atanh, torch.lgamma, torch.digamma]) {
      const input = f === torch.acosh ? x.detach().add(1).requires_grad_() : f === torch.atanh ? x.detach().div(3).requires_grad_() : x;
      expect(torch.autograd.gradcheck((t: torch.Tensor) => f(t), [input])).toBe(true);
      expect(torch.autograd.gradgradcheck((t: torch.Tensor) => f(t), [input])).toBe(true);
    }
  });
});
