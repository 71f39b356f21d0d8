// var/std/var_mean/std_mean/count_nonzero against PyTorch 1.13 (fixtures/reduce2.json, written by
// gen_reduce2.py): values, dtype, shape and strides on float32/float64/float16/bfloat16 and integral
// inputs, every layout (transposed, permuted, strided, 0-d, empty), correction 0/1/2, unbiased,
// keepdim, negative and repeated dims, device='meta', out= forms and PyTorch's error texts.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import * as G from "../../../engine/generated/index.js";
import { reductionFixture, type Call, type Outcome } from "../../support/reduce_fixture.js";

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

const { F, dt, build, invoke, expectOutcome, byKey, describeCall } = reductionFixture("reduce2.json", tolerance, { namedPairs: false });

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
