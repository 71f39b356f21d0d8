// The reduction fixtures (reduce.json, reduce2.json): PyTorch's inputs rebuilt as windows onto their data,
// calls replayed through torch.* or Tensor methods, and results compared with PyTorch's (dtype, sizes,
// strides, values within a per-op tolerance) or its error. Shared by reduce.test.ts and reduce2.test.ts.
import { expect } from "vitest";
import * as torch from "../../engine/index.js";
import * as G from "../../engine/generated/index.js";
import { TensorImpl } from "../../engine/c10/TensorImpl.js";
import { loadFixture, dec } from "./fixtures.js";

export type Spec = { data: unknown[]; dtype: string; sizes: number[]; strides: number[]; offset: number };
export type Layout = { dtype: string; sizes: number[]; strides: number[]; values?: unknown[] };
export type Outcome = { value?: Layout | Layout[]; error?: string; message?: string };
export type Call = { kind: "function" | "method"; name: string; self: string; args: unknown[]; kwargs: Record<string, unknown> };
export type Case = { group: string; dtype: string; layout: string; call: Call; result: Outcome; meta: Outcome };
export type Form = { group: string; call: Call; outs: string[]; result: Outcome };

/** Relative tolerance for an op's values of one dtype (0: exact, signed zeros included). */
export type Tolerance = (op: string, dtype: string) => number;

export function reductionFixture(file: string, tolerance: Tolerance, opts: { namedPairs: boolean }) {
  const decode = (v: any): any =>
    Array.isArray(v) ? v.map(decode) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)])) : dec(v);
  const F = decode(loadFixture(file)) as { inputs: Record<string, Spec>; cases: Case[]; forms: Form[] };

  function close(a: unknown, e: unknown, tol: number): boolean {
    if (typeof a === "number" && typeof e === "number") {
      if (Number.isNaN(e) || Number.isNaN(a)) return Number.isNaN(a) && Number.isNaN(e);
      if (tol === 0 || !Number.isFinite(e)) return Object.is(a, e);
      return Math.abs(a - e) <= tol * Math.max(Math.abs(e), 1);
    }
    return Object.is(a, e);
  }

  // ---- rebuilding PyTorch's inputs and calls ----

  const dt = (name: string) => (torch as any)[name] as torch.dtype;

  function build(spec: Spec, device = "cpu"): torch.Tensor {
    const base = device === "meta" ? torch.empty(spec.data.length, { dtype: dt(spec.dtype), device: "meta" }) : torch.tensor(spec.data as any, { dtype: dt(spec.dtype) });
    return new torch.Tensor(new TensorImpl(base._impl.storage, base._impl.dtype, spec.sizes, spec.strides, spec.offset));
  }

  function invoke(c: Call, device = "cpu"): () => unknown {
    const self = build(F.inputs[c.self], device);
    const kwargs = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, k === "dtype" ? dt(v as string) : v]));
    const argv = Object.keys(kwargs).length ? [...c.args, kwargs] : c.args;
    const fn = c.kind === "function" ? (G as any)[c.name] : (self as any)[c.name];
    if (typeof fn !== "function") throw new Error(`no ${c.kind} ${c.name}`);
    return () => (c.kind === "function" ? fn(self, ...argv) : fn.apply(self, argv));
  }

  const flat = (v: unknown): unknown[] => (Array.isArray(v) ? v.flatMap(flat) : [v]);
  const layoutOf = (t: torch.Tensor) => ({ dtype: t.dtype.name, sizes: [...t.shape], strides: t.stride() });

  function checkTensor(label: string, r: torch.Tensor, want: Layout, op: string): void {
    expect(layoutOf(r), label).toEqual({ dtype: want.dtype, sizes: want.sizes, strides: want.strides });
    if (!want.values) return;
    const tol = tolerance(op, want.dtype);
    const values = flat(r.tolist());
    const bad = values.map((v, i) => [i, v, want.values![i]] as const).filter(([, v, w]) => !close(v, w, tol));
    expect(bad.slice(0, 5), `${label}: elements [index, got, PyTorch] (tolerance ${tol})`).toEqual([]);
    expect(values.length, label).toBe(want.values.length);
  }

  /** PyTorch's error (type and text), or the tensor (or the (values, indices) pair) it returned. */
  function expectOutcome(label: string, got: () => unknown, expected: Outcome, op: string): unknown {
    let r: any;
    try {
      r = got();
    } catch (e: any) {
      expect({ error: e.name, message: e.message }, label).toEqual(expected);
      return undefined;
    }
    expect(expected.error, `${label}: PyTorch raised ${expected.message}`).toBeUndefined();
    const want = expected.value!;
    if (Array.isArray(want)) {
      expect(Array.isArray(r), `${label}: a (values, indices) pair`).toBe(true);
      expect(r.length, label).toBe(2);
      want.forEach((w, i) => checkTensor(`${label} [${i}]`, r[i], w, op));
      if (opts.namedPairs) {
        expect(r.values, `${label}: .values`).toBe(r[0]);
        expect(r.indices, `${label}: .indices`).toBe(r[1]);
      }
    } else {
      checkTensor(label, r as torch.Tensor, want, op);
    }
    return r;
  }

  function byKey<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
    const m = new Map<string, T[]>();
    for (const x of items) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
    return m;
  }

  const describeCall = (c: Call) => `${c.kind === "method" ? "Tensor." : "torch."}${c.name}(${c.self}, ${JSON.stringify(c.args)}, ${JSON.stringify(c.kwargs)})`;
  return { F, dt, build, invoke, expectOutcome, byKey, describeCall };
}
