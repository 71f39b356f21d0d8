// var/std/var_mean/std_mean/count_nonzero against PyTorch 1.13 (fixtures/reduce2.json, written by
// gen_reduce2.py): values, dtype, shape and strides on float32/float64/float16/bfloat16 and integral
// inputs, every layout (transposed, permuted, strided, 0-d, empty), correction 0/1/2, unbiased,
// keepdim, negative and repeated dims, device='meta', out= forms and PyTorch's error texts.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import * as G from "../../../engine/generated/index.js";
import { TensorImpl } from "../../../engine/c10/TensorImpl.js";
import { loadFixture, dec } from "../../support/fixtures.js";

type Spec = { data: unknown[]; dtype: string; sizes: number[]; strides: number[]; offset: number };
type Layout = { dtype: string; sizes: number[]; strides: number[]; values?: unknown[] };
type Outcome = { value?: Layout | Layout[]; error?: string; message?: string };
type Call = { kind: "function" | "method"; name: string; self: string; args: unknown[]; kwargs: Record<string, unknown> };
type Case = { group: string; dtype: string; layout: string; call: Call; result: Outcome; meta: Outcome };
type Form = { group: string; call: Call; outs: string[]; result: Outcome };

const decode = (v: any): any =>
  Array.isArray(v) ? v.map(decode) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)])) : dec(v);
const F = decode(loadFixture("reduce2.json")) as { inputs: Record<string, Spec>; cases: Case[]; forms: Form[] };

// ---- tolerances ----

/**
 * var/std/var_mean/std_mean of floating inputs: PyTorch runs Welford in float32 for float32 (float
 * for half), Glasstorch a two-pass sum in double rounded once: relative 1e-5 (of max(|expected|, 1))
 * for float32, 1e-12 for float64, 1e-3 for float16, 1e-2 for bfloat16. count_nonzero is exact.
 */
function tolerance(op: string, dtype: string): number {
  if (op === "count_nonzero") return 0;
  return ({ float32: 1e-5, float64: 1e-12, float16: 1e-3, bfloat16: 1e-2 } as Record<string, number>)[dtype] ?? 0;
}

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

// every fixture case is declared now (var, a reserved word in JavaScript, is generated as var_)
const DECLARED = (_c: Call) => true;

describe("statistics match PyTorch: values, dtype, shape, strides, errors", () => {
  for (const [group, cases] of byKey(F.cases.filter((c) => DECLARED(c.call)), (c) => c.group)) {
    describe(group, () => {
      for (const [dtype, list] of byKey(cases, (c) => c.dtype)) {
        it(`${group} on ${dtype}`, () => {
          for (const c of list) expectOutcome(describeCall(c.call), invoke(c.call), c.result, c.call.name);
        });
      }
    });
  }
});

/**
 * device='meta': PyTorch 1.13 computes these through Python decompositions, whose error texts differ
 * from the CPU kernels' (some fail outright on 0-d inputs, and var_mean's keepdim meta result has
 * strides 0): the meta result must have the CPU result's dtype, sizes and strides, and where the CPU
 * call fails, the meta call must fail with the CPU error.
 */
describe("device='meta' computes the result shape and dtype without data", () => {
  for (const [group, cases] of byKey(F.cases.filter((c) => DECLARED(c.call)), (c) => c.group)) {
    it(group, () => {
      for (const c of cases) {
        const strip = (v: any): any => (Array.isArray(v) ? v.map(strip) : { dtype: v.dtype, sizes: v.sizes, strides: v.strides });
        const want: Outcome = c.result.error ? c.result : { value: strip(c.result.value) };
        const r = expectOutcome(`${describeCall(c.call)} on meta`, invoke(c.call, "meta"), want, c.call.name);
        for (const t of r === undefined ? [] : Array.isArray(r) ? r : [r]) expect((t as torch.Tensor).device.type).toBe("meta");
      }
    });
  }
});

describe("out= forms write their tensors, return them, and bump their versions once", () => {
  for (const f of F.forms.filter((f) => DECLARED(f.call))) {
    it(`${describeCall(f.call)} with out of ${f.outs.join(", ")}`, () => {
      const self = build(F.inputs[f.call.self]);
      const outs = f.outs.map((d) => torch.empty(0, { dtype: dt(d) }));
      const before = outs.map((o) => o._version);
      const r: any = expectOutcome(f.group, () => (G as any)[f.group](self, ...f.call.args, { ...f.call.kwargs, out: outs[0] }), f.result, f.group);
      expect(r, "returns out").toBe(outs[0]);
      expect(outs[0]._version - before[0], "out version bump").toBe(1);
    });
  }
});

describe("the ops are generated from reduce2.yaml", () => {
  it("torch.* and Tensor.* bindings exist", () => {
    for (const op of ["var", "std", "var_mean", "std_mean", "count_nonzero"]) expect(typeof (G as any)[op], op).toBe("function");
    for (const op of ["std", "count_nonzero"]) expect(typeof (torch.Tensor.prototype as any)[op], `Tensor.${op}`).toBe("function");
    expect(torch._C._dispatch_dump_table("aten::std.correction")).toMatch(/Meta: registered at engine\/ops\/native_functions\/reduce2\.yaml:\d+ \[kernel\]/);
  });
  it("std(self, unbiased) calls std.correction through the dispatcher, as at::std does", () => {
    const { events } = torch.trace.record(() => (G as any).std(torch.tensor(new Float32Array([1, 2]))));
    const calls = events.filter((e: any) => e.type === "call").map((e: any) => [e.name, e.depth]);
    expect(calls).toEqual([["aten::std", 0], ["aten::std.correction", 1]]);
  });
  it("var_mean returns a destructurable (var, mean) pair", () => {
    const [v, m] = (G as any).var_mean(torch.tensor(new Float64Array([1, 2, 3, 4])).view(2, 2), 1);
    expect(v.tolist()).toEqual([0.5, 0.5]);
    expect(m.tolist()).toEqual([1.5, 3.5]);
  });
});
