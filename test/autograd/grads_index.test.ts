// The index family's derivatives.yaml formulas against PyTorch 1.13 (test/fixtures/gen_grads_index.py ->
// grads_index.json): indexing (index.Tensor, index_put, index_put_), index_select, gather, take, scatter,
// scatter_add, scatter_reduce (every reduction, include_self both ways), index_add, index_fill, masked_fill,
// masked_select, the cumulative ops, logsumexp, the norms, the value-selecting reductions, and the ops
// PyTorch leaves non-differentiable. Per case and dtype: grad_fn name, forward values, first-order
// gradients, create_graph flags and second-order gradients.
// Tolerances: the defaults of describeGradCases (float64 1e-12 + 1e-12 |e|; float32 1e-6 + 1e-5 |e|),
// except as stated below.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { dec, loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

// p = inf travels as the string "inf" in the JSON: decoded here (dec maps only "nan"/"inf"/"-inf"/"-0.0")
const fixture = loadFixture("grads_index.json");
for (const c of fixture.cases) c.args = c.args.map((a: unknown) => (a === "inf" ? dec(a) : a));

describeGradCases("index-family gradients against PyTorch 1.13 (grads_index.json)", fixture, {
  tolerance: (name, dtype) =>
    // cumprod with zeros: PyTorch's first-order pass is an O(n) scan, ours the O(n^2) sums its double
    // backward uses (same math, other summation order); logcumsumexp/norm go through exp/log/pow kernels
    // that may round a last bit differently
    /cumprod|logcumsumexp|norm|logsumexp/.test(name) ? (dtype === "float64" ? [1e-11, 1e-11] : [1e-5, 1e-5]) : undefined,
});

describe("t.get / t.set give PyTorch's grad_fn names and gradients", () => {
  const x = () => torch.tensor([[0.5, -1.5, 2, 1], [0.25, 3, -0.75, 1.5], [1.25, -2, 0.125, -1]], { dtype: torch.float64, requires_grad: true });
  const i = torch.tensor([0, 2, 0]);
  const gradOf = (a: any, f: (t: any) => any) => {
    const out = f(a);
    const w = torch.arange(out.numel(), { dtype: torch.float64 }).reshape([...out.shape]);
    return [out.grad_fn?.name() ?? null, torch.autograd.grad([out], [a], { grad_outputs: [w] })[0]!.tolist()];
  };
  // names from PyTorch 1.13: x[i], x[1], x[1:], x[:, i], x[x > 0] -> IndexBackward0 SelectBackward0
  // SliceBackward0 IndexBackward0 IndexBackward0
  it("get: IndexBackward0 / SelectBackward0 / SliceBackward0, gradients scattered back (repeats accumulate)", () => {
    const a = x();
    const [n1, g1] = gradOf(a, (t) => t.get(i));
    expect(n1).toBe("IndexBackward0");
    // x[[0, 2, 0]] with w = arange(12).reshape(3, 4): row 0 gets w[0] + w[2], row 2 gets w[1]
    expect(g1).toEqual([[8, 10, 12, 14], [0, 0, 0, 0], [4, 5, 6, 7]]);
    expect(gradOf(a, (t) => t.get(1))[0]).toBe("SelectBackward0");
    expect(gradOf(a, (t) => t.get("1:"))).toEqual(["SliceBackward0", [[0, 0, 0, 0], [0, 1, 2, 3], [4, 5, 6, 7]]]);
    expect(gradOf(a, (t) => t.get(":", torch.tensor([3, 1])))).toEqual(["IndexBackward0", [[0, 1, 0, 0], [0, 3, 0, 2], [0, 5, 0, 4]]]);
    const [nm, gm] = gradOf(a, (t) => t.get(t.gt(0)));
    expect(nm).toBe("IndexBackward0");
    expect(gm).toEqual([[0, 0, 1, 2], [3, 4, 0, 5], [6, 0, 7, 0]]);
  });
  // y = x.clone(); y[i] = v -> IndexPutBackward0; y[x > 0] = 0 -> IndexPutBackward0
  it("set with tensor indices: IndexPutBackward0, self's gradient zero where written, values get grad[i]", () => {
    const a = x();
    const v = torch.tensor([1, 2, 3, 4], { dtype: torch.float64, requires_grad: true });
    const y = a.clone();
    y.set(torch.tensor([2, 0]), v);
    expect(y.grad_fn!.name()).toBe("IndexPutBackward0");
    const w = torch.arange(12, { dtype: torch.float64 }).reshape([3, 4]);
    const [ga, gv] = torch.autograd.grad([y], [a, v], { grad_outputs: [w] });
    expect(ga!.tolist()).toEqual([[0, 0, 0, 0], [4, 5, 6, 7], [0, 0, 0, 0]]);
    // v broadcasts over the two rows: its gradient is the sum of rows 2 and 0 of w
    expect(gv!.tolist()).toEqual([8, 10, 12, 14]);
    const z = a.clone();
    z.set(a.gt(0), 0);
    expect(z.grad_fn!.name()).toBe("IndexPutBackward0");
  });
  // y = x.clone(); y[1] = 2.0 -> torch::autograd::CopySlices (fill_.Tensor on the select view); the
  // gradient of x is zero on the overwritten row
  it("set a number through an int index: fill_ on the view, recorded as CopySlices", () => {
    const a = x();
    const y = a.clone();
    y.set(1, 2.0);
    expect(y.grad_fn!.name()).toBe("CopySlices");
    const w = torch.arange(12, { dtype: torch.float64 }).reshape([3, 4]);
    expect(torch.autograd.grad([y], [a], { grad_outputs: [w] })[0]!.tolist()).toEqual([[0, 1, 2, 3], [0, 0, 0, 0], [8, 9, 10, 11]]);
  });
});

// dtype= overloads the fixture runner cannot pass (Python's keyword-only dtype), from PyTorch 1.13:
// aten.norm.ScalarOpt_dtype -> NormBackward2, cumsum/cumprod(dtype=float64) -> CumsumBackward0/CumprodBackward0;
// cumsum(x, 1, dtype=float64) with w = arange(12).reshape(3, 4): a float32 gradient
// [[6, 6, 5, 3], [22, 18, 13, 7], [38, 30, 21, 11]]
describe("dtype= overloads: Node names and the gradient cast back to the input's dtype", () => {
  it("norm.ScalarOpt_dtype, cumsum and cumprod with dtype", () => {
    const x = torch.tensor([[0.5, -1.5, 2, 1], [0.25, 3, -0.75, 1.5], [1.25, -2, 0.125, -1]], { requires_grad: true });
    expect((torch.ops.aten.norm.ScalarOpt_dtype.call(x, 2, { dtype: torch.float64 }) as any).grad_fn.name()).toBe("NormBackward2");
    expect(torch.cumprod(x, 1, { dtype: torch.float64 }).grad_fn!.name()).toBe("CumprodBackward0");
    const b = torch.cumsum(x, 1, { dtype: torch.float64 });
    expect(b.grad_fn!.name()).toBe("CumsumBackward0");
    const g = torch.autograd.grad([b], [x], { grad_outputs: [torch.arange(12, { dtype: torch.float64 }).reshape([3, 4])] })[0]!;
    expect(g.dtype).toBe(torch.float32);
    expect(g.tolist()).toEqual([[6, 6, 5, 3], [22, 18, 13, 7], [38, 30, 21, 11]]);
  });
});
