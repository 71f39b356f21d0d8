// grad_fn names against PyTorch 1.13 (test/fixtures/gen_node_names.py -> node_names.json): for every
// derivatives.yaml entry a generic call reaches (and the in-place variants PyTorch has), the same
// torch.ops.aten call here must make a Node of the same name — PyTorch numbers the Nodes of one name
// (FillBackward0..3) in the order of its derivatives.yaml, and in-place variants with their own entries
// (fill_, squeeze_, elu_...) get their own numbers. PyTorch's C++-only Nodes print as
// "torch::autograd::NotImplemented" / "torch::autograd::CopySlices"; Glasstorch (and the fixture) drop that
// prefix, as everywhere in Glasstorch.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { loadFixture } from "../support/fixtures.js";
const T = torch as any;

const fixture = loadFixture("node_names.json");

// In-place view ops PyTorch has and Glasstorch does not declare yet (shape family): their cases check that
// they are still absent, so whoever adds them is pointed here.
const NOT_DECLARED = new Set(["t_.default", "as_strided_.default", "mul_.Scalar"]);
const declared = (op: string, overload: string) => {
  try {
    return T.ops.aten[op][overload] !== undefined;
  } catch {
    return false; // "No such operator aten::t_"
  }
};

function decode(a: any): any {
  if (a && typeof a === "object" && "t" in a) {
    const s = a.t;
    return torch.tensor(s.values, { dtype: T[s.dtype] }).reshape(s.sizes).requires_grad_(s.grad);
  }
  if (a && typeof a === "object" && "list" in a) return a.list.map(decode);
  return a;
}

function firstName(out: unknown): string | null {
  for (const o of Array.isArray(out) ? out : [out]) {
    const fn = (o as Tensor | null)?.grad_fn;
    if (fn) return fn.name();
  }
  return null;
}

describe("grad_fn.name() of each derivatives.yaml entry, as PyTorch 1.13 names it", () => {
  for (const c of fixture.cases) {
    it(`aten::${c.op}.${c.overload}: ${c.name}`, () => {
      if (NOT_DECLARED.has(`${c.op}.${c.overload}`)) {
        expect(declared(c.op, c.overload)).toBe(false);
        return;
      }
      const args = c.args.map(decode);
      if (c.inplace) args[0] = args[0].clone();
      const kwargs = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, decode(v)]));
      const out = T.ops.aten[c.op][c.overload].call(...args, ...(Object.keys(kwargs).length ? [kwargs] : []));
      expect(firstName(out)).toBe(c.name);
    });
  }
});

// x = torch.rand(3, dtype=torch.float64, requires_grad=True); torch.ops.aten.remainder.Scalar_Tensor(2., x).sum().backward()
// -> RuntimeError: derivative for aten::remainder is not implemented; torch.ops.aten.embedding_renorm_ on a
// clone, then backward -> NotImplementedError: the derivative for 'embedding_renorm' is not implemented.
describe("backward reaching a missing derivative raises PyTorch's error", () => {
  it("the NotImplemented fallback Node and a not_implemented() formula", () => {
    const x = torch.tensor([0.5, 1.5, 2.5], { dtype: torch.float64, requires_grad: true });
    const y = T.ops.aten.remainder.Scalar_Tensor.call(2, x) as Tensor;
    expect(y.grad_fn!.name()).toBe("NotImplemented");
    expect(() => y.sum().backward()).toThrow(expect.objectContaining({ name: "RuntimeError", message: "derivative for aten::remainder is not implemented" }));
    const w = x.reshape([3, 1]).clone();
    T.ops.aten.embedding_renorm_.default.call(w, torch.tensor([0]), 1.0, 2.0);
    expect(w.grad_fn!.name()).toBe("EmbeddingRenormBackward0");
    expect(() => w.sum().backward()).toThrow(expect.objectContaining({ name: "NotImplementedError", message: "the derivative for 'embedding_renorm' is not implemented." }));
  });
});

// x = torch.rand(3, requires_grad=True); y = x.clone(); y.floor_divide_(2.) -> NotImplemented ((CloneBackward0, 0),)
// y.floor_divide_(torch.tensor([2., 3., 4.])) -> the same; z = torch.rand(3); z.floor_divide_(x) -> ((AccumulateGrad, 0),)
// torch.floor_divide(x, torch.tensor([2., 3., 4.])) -> ((AccumulateGrad, 0),): one edge per input that requires grad
describe("the NotImplemented fallback's edges (autogradNotImplementedFallback)", () => {
  it("go to the inputs that require grad only, self included for in-place ops", () => {
    const nf = (t: Tensor) => t.grad_fn!.next_functions.map(([n, i]) => [n?.name() ?? null, i]);
    const x = torch.tensor([0.5, 1.5, 2.5], { requires_grad: true });
    const y = x.clone();
    y.floor_divide_(2.5);
    expect([y.grad_fn!.name(), nf(y)]).toEqual(["NotImplemented", [["CloneBackward0", 0]]]);
    const y2 = x.clone();
    y2.floor_divide_(torch.tensor([2, 3, 4], { dtype: torch.float32 }));
    expect(nf(y2)).toEqual([["CloneBackward0", 0]]);
    const z = torch.tensor([1.5, 2.5, 3.5]);
    z.floor_divide_(x);
    expect(nf(z)).toEqual([["AccumulateGrad", 0]]);
    expect(nf(torch.floor_divide(x, torch.tensor([2, 3, 4], { dtype: torch.float32 })))).toEqual([["AccumulateGrad", 0]]);
  });
});
