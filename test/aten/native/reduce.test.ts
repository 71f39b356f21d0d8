// The reduction family against PyTorch 1.13 (fixtures/reduce.json, written by gen_reduce.py): mean,
// prod, max/min (full and .dim with (values, indices)), amax/amin, argmax/argmin, all/any — values,
// dtype, shape and strides on every dtype and layout (transposed, permuted, strided, 0-d, empty),
// NaN propagation and ties, device='meta' results, out= forms and PyTorch's error texts.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import * as G from "../../../engine/generated/index.js";
import { max_dim_max } from "../../../engine/generated/max.js";
import { min_dim_min } from "../../../engine/generated/min.js";
import { reductionFixture, type Call, type Outcome } from "../../support/reduce_fixture.js";

// ---- tolerances ----

/**
 * mean and prod of floating inputs: PyTorch sums float32 in float32 with a cascade of vectorized
 * partial sums (and multiplies in float32 in vectorized order); Glasstorch accumulates in double and
 * rounds once, so results may differ by a few float32 ulp: relative 1e-6 (of max(|expected|, 1))
 * for float32, 1e-12 for float64, 1e-3 for float16. Every other result (max/min/amax/amin/argmax/
 * argmin/all/any, and every integral result) must be exactly PyTorch's, signed zeros included.
 */
function tolerance(op: string, dtype: string): number {
  if (op !== "mean" && op !== "prod") return 0;
  return ({ float32: 1e-6, float64: 1e-12, float16: 1e-3, bfloat16: 1e-2 } as Record<string, number>)[dtype] ?? 0;
}

const { F, dt, build, invoke, expectOutcome, byKey, describeCall } = reductionFixture("reduce.json", tolerance, { namedPairs: true });

describe("reductions match PyTorch: values, dtype, shape, strides, errors", () => {
  for (const [group, cases] of byKey(F.cases, (c) => c.group)) {
    describe(group, () => {
      for (const [dtype, list] of byKey(cases, (c) => c.dtype)) {
        it(`${group} on ${dtype}`, () => {
          for (const c of list) expectOutcome(describeCall(c.call), invoke(c.call), c.result, c.call.name);
        });
      }
    });
  }
});

describe("device='meta' computes PyTorch's result shape and dtype without data", () => {
  for (const [group, cases] of byKey(F.cases, (c) => c.group)) {
    it(group, () => {
      for (const c of cases) {
        const r = expectOutcome(`${describeCall(c.call)} on meta`, invoke(c.call, "meta"), c.meta, c.call.name);
        for (const t of r === undefined ? [] : Array.isArray(r) ? r : [r]) expect((t as torch.Tensor).device.type).toBe("meta");
      }
    });
  }
});

describe("out= forms write their tensors, return them, and bump their versions once", () => {
  for (const f of F.forms) {
    it(`${describeCall(f.call)} with out of ${f.outs.join(", ")}`, () => {
      const self = build(F.inputs[f.call.self]);
      const outs = f.outs.map((d) => torch.empty(0, { dtype: dt(d) }));
      const before = outs.map((o) => o._version);
      const keepdim = (f.call.kwargs.keepdim as boolean | undefined) ?? false;
      // torch.max(x, dim, out=(values, indices)) needs a TensorList[2] out= in the generated binding
      // (it declares `Tensor? out`): the overload is called through the dispatcher here
      const run = () =>
        outs.length === 2
          ? (f.group === "max" ? max_dim_max : min_dim_min).call(self, f.call.args[0], keepdim, outs[0], outs[1])
          : (G as any)[f.group](self, ...f.call.args, { ...f.call.kwargs, out: outs[0] });
      const r: any = expectOutcome(f.group, run, f.result, f.group);
      const returned = Array.isArray(r) ? r : [r];
      returned.forEach((t: torch.Tensor, i: number) => expect(t, `returns out[${i}]`).toBe(outs[i]));
      outs.forEach((o, i) => expect(o._version - before[i], `out[${i}] version bump`).toBe(1));
    });
  }
});

describe("the ops are generated from reduce.yaml", () => {
  it("torch.* and Tensor.* bindings exist", () => {
    for (const op of ["mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "all", "any"]) {
      expect(typeof (G as any)[op], op).toBe("function");
      expect(typeof (torch.Tensor.prototype as any)[op], `Tensor.${op}`).toBe("function");
    }
    expect(torch._C._dispatch_dump_table("aten::mean.out")).toMatch(/Meta: registered at engine\/ops\/native_functions\/reduce\.yaml:\d+ \[kernel\]/);
  });
  it("mean(self) calls mean.dim through the dispatcher, as at::mean does", () => {
    const { events } = torch.trace.record(() => G.mean(torch.tensor(new Float32Array([1, 2]))));
    const calls = events.filter((e: any) => e.type === "call").map((e: any) => [e.name, e.depth]);
    expect(calls).toEqual([["aten::mean", 0], ["aten::mean.dim", 1]]);
  });
  it("max.dim returns a destructurable (values, indices) pair with named fields", () => {
    const x = torch.tensor(new Float32Array([1, 5, 2, 7, 0, 3])).view(2, 3);
    const r = (G as any).max(x, 1);
    const [v, i] = r;
    expect(v.tolist()).toEqual([5, 7]);
    expect(i.tolist()).toEqual([1, 0]);
    expect(r.values).toBe(v);
    expect(r.indices).toBe(i);
  });
});
