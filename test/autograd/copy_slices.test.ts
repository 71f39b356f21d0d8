// copy_ and the other in-place ops on views against PyTorch 1.13: copy_ records CopyBackwards (self's
// gradient zero, src's converted to src's dtype and summed to its shape), an in-place op on a view makes
// CopySlices on the base wrapping that op's Node, and t.set (Tensor.__setitem__) takes PyTorch's path
// (copy_ for equal sizes, fill_ for a 0-d value, view + expand + copy_, index_put_ for tensor indices).
// Every expected value, Node name and next_functions list was printed by PyTorch 1.13 running the Python
// in the comment (Node names without the "torch::autograd::" prefix PyTorch gives its C++-only Nodes).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import type { Node } from "../../engine/autograd/function.js";

// X = torch.arange(12., dtype=torch.float64).reshape(4, 3).requires_grad_(); W = torch.arange(1., 13., dtype=torch.float64).reshape(4, 3)
const X = () => torch.arange(12, { dtype: torch.float64 }).reshape([4, 3]).requires_grad_();
const W = () => torch.arange(1, 13, { dtype: torch.float64 }).reshape([4, 3]);
const nf = (fn: Node | null) => fn!.next_functions.map(([n, i]) => [n?.name() ?? null, i]);
const grads = (y: Tensor, inputs: Tensor[]) => torch.autograd.grad([y], inputs, { grad_outputs: [W()] }).map((g) => g!.tolist());

describe("copy_ into a view: CopySlices wrapping CopyBackwards", () => {
  // y = X.clone(); v = y[0:2]; v.copy_(torch.ones(2, 3))
  it("a constant copied into a slice: the slice's gradient is zero, version bumped, _base kept", () => {
    const x = X();
    const y = x.clone();
    const v = y.get("0:2");
    v.copy_(torch.ones(2, 3));
    expect(y.grad_fn!.name()).toBe("CopySlices");
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0], [null, 0]]);
    expect(v.grad_fn!.name()).toBe("AsStridedBackward0");
    expect([y._version, v._version, v._base === y]).toEqual([1, 1, true]);
    expect(grads(y, [x])).toEqual([[[0, 0, 0], [0, 0, 0], [7, 8, 9], [10, 11, 12]]]);
  });
  // s = torch.tensor([1., 2., 3., 4.], requires_grad=True).reshape(4, 1); y = X.clone(); y[:, 1:3].copy_(s)
  it("a broadcast float32 src into a float64 column view: src's gradient summed to its shape, in float32", () => {
    const x = X();
    const s0 = torch.tensor([1, 2, 3, 4], { dtype: torch.float32, requires_grad: true });
    const s = s0.reshape([4, 1]);
    const y = x.clone();
    y.get(":", "1:3").copy_(s);
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0], ["ReshapeAliasBackward0", 0]]);
    const [gx, gs] = torch.autograd.grad([y], [x, s], { grad_outputs: [W()] });
    expect(gx!.tolist()).toEqual([[1, 0, 0], [4, 0, 0], [7, 0, 0], [10, 0, 0]]);
    expect(gs!.tolist()).toEqual([[5], [11], [17], [23]]);
    expect(gs!.dtype).toBe(torch.float32);
  });
  // s = torch.tensor([1., 2.], requires_grad=True); d = torch.zeros(2); d.copy_(s) -> CopyBackwards [(None, 0), (AccumulateGrad, 0)]
  // di = torch.zeros(2, dtype=torch.int64); di.copy_(s) -> requires_grad False, no grad_fn
  it("copy_ without views: CopyBackwards over (self, src); an integer self records nothing", () => {
    const s = torch.tensor([1, 2], { dtype: torch.float32, requires_grad: true });
    const d = torch.zeros(2);
    d.copy_(s);
    expect(d.grad_fn!.name()).toBe("CopyBackwards");
    expect(nf(d.grad_fn)).toEqual([[null, 0], ["AccumulateGrad", 0]]);
    const di = torch.zeros(2, { dtype: torch.int64 });
    di.copy_(s);
    expect([di.requires_grad, di.grad_fn]).toEqual([false, null]);
    // a = X.clone(); a.copy_(torch.ones(3)) -> CopyBackwards [(CloneBackward0, 0), (None, 0)], a's gradient zero
    const x = X();
    const a = x.clone();
    a.copy_(torch.ones(3));
    expect(a.grad_fn!.name()).toBe("CopyBackwards");
    expect(nf(a.grad_fn)).toEqual([["CloneBackward0", 0], [null, 0]]);
    expect(grads(a, [x])).toEqual([[[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]]);
  });
  // X().copy_(torch.ones(4, 3)) and X()[0].copy_(torch.ones(3)): X() is a view (reshape) that is a leaf
  it("refuses a leaf that requires grad and views of it, with PyTorch's text", () => {
    expect(() => X().copy_(torch.ones(4, 3))).toThrow("a view of a leaf Variable that requires grad is being used in an in-place operation.");
    expect(() => X().get(0).copy_(torch.ones(3))).toThrow("a view of a leaf Variable that requires grad is being used in an in-place operation.");
    const leaf = torch.zeros(2, { requires_grad: true });
    expect(() => leaf.copy_(torch.ones(2))).toThrow("a leaf Variable that requires grad is being used in an in-place operation.");
  });
  // y = X.clone(); y[2].copy_(s * s); g, = torch.autograd.grad((y * y).sum(), s, create_graph=True) -> [4, 32, 108];
  // torch.autograd.grad(g.sum(), s) -> [12, 48, 108]
  it("differentiates twice through CopySlices and CopyBackwards", () => {
    const x = X();
    const s = torch.tensor([1, 2, 3], { dtype: torch.float64, requires_grad: true });
    const y = x.clone();
    y.get(2).copy_(s.mul(s));
    const [g] = torch.autograd.grad([y.mul(y).sum()], [s], { create_graph: true });
    expect(g!.tolist()).toEqual([4, 32, 108]);
    expect(torch.autograd.grad([g!.sum()], [s])[0]!.tolist()).toEqual([12, 48, 108]);
  });
});

describe("t.set (Tensor.__setitem__) records what PyTorch records", () => {
  // y = X.clone(); y[0:2] = 1 -> fill_ with a 0-d tensor on the slice
  it("y[0:2] = 1: CopySlices over fill_'s Node (self, value)", () => {
    const x = X();
    const y = x.clone();
    y.set("0:2", 1);
    expect(y.grad_fn!.name()).toBe("CopySlices");
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0], [null, 0]]);
    expect(grads(y, [x])).toEqual([[[0, 0, 0], [0, 0, 0], [7, 8, 9], [10, 11, 12]]]);
  });
  // o = torch.full((2, 3), 7., dtype=torch.float64, requires_grad=True); y[1:3] = o
  it("y[1:3] = o with o requiring grad: CopySlices over CopyBackwards, o gets its slice of the gradient", () => {
    const x = X();
    const o = torch.full([2, 3], 7, { dtype: torch.float64, requires_grad: true });
    const y = x.clone();
    y.set("1:3", o);
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0], ["AccumulateGrad", 0]]);
    expect(grads(y, [x, o])).toEqual([[[1, 2, 3], [0, 0, 0], [0, 0, 0], [10, 11, 12]], [[4, 5, 6], [7, 8, 9]]]);
  });
  // r = torch.tensor([5., 6., 7.], dtype=torch.float64, requires_grad=True); y[1:3] = r -> view + expand + copy_
  it("y[1:3] = row: the row is expanded, its gradient summed over the rows it filled", () => {
    const x = X();
    const r = torch.tensor([5, 6, 7], { dtype: torch.float64, requires_grad: true });
    const y = x.clone();
    y.set("1:3", r);
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0], ["ExpandBackward0", 0]]);
    expect(grads(y, [x, r])).toEqual([[[1, 2, 3], [0, 0, 0], [0, 0, 0], [10, 11, 12]], [11, 13, 15]]);
  });
  // m = torch.tensor([True, False, True, False]); y[m] = r -> index_put_ on y itself
  it("y[mask] = r: IndexPutBackward0 on y", () => {
    const x = X();
    const r = torch.tensor([5, 6, 7], { dtype: torch.float64, requires_grad: true });
    const y = x.clone();
    y.set(torch.tensor([true, false, true, false]), r);
    expect(y.grad_fn!.name()).toBe("IndexPutBackward0");
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0], ["AccumulateGrad", 0]]);
    expect(grads(y, [x, r])).toEqual([[[0, 0, 0], [4, 5, 6], [0, 0, 0], [10, 11, 12]], [8, 10, 12]]);
  });
  // m3 = torch.tensor([True, False, True]); y[1:, m3] = r (r = [5., 6.]) -> slice view, then index_put_ on it
  it("y[1:, mask] = r: CopySlices over IndexPutBackward0", () => {
    const x = X();
    const r = torch.tensor([5, 6], { dtype: torch.float64, requires_grad: true });
    const y = x.clone();
    y.set("1:", torch.tensor([true, false, true]), r);
    expect(y.grad_fn!.name()).toBe("CopySlices");
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0], ["AccumulateGrad", 0]]);
    expect(grads(y, [x, r])).toEqual([[[1, 2, 3], [0, 5, 0], [0, 8, 0], [0, 11, 0]], [21, 27]]);
  });
});

describe("fill_, zero_, masked_fill_ and index_put_ on views", () => {
  // val = torch.tensor(3., dtype=torch.float64, requires_grad=True); y = X.clone(); y[0].fill_(2.); y[:, 2].zero_();
  // y[3].fill_(val); y[:, 0].masked_fill_(torch.tensor([False, True, True, False]), val)
  it("chain CopySlices on the base; the value's gradient collects every element it wrote", () => {
    const x = X();
    const val = torch.tensor(3, { dtype: torch.float64, requires_grad: true });
    const y = x.clone();
    y.get(0).fill_(2);
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0]]);
    y.get(":", 2).zero_();
    y.get(3).fill_(val);
    y.get(":", 0).masked_fill_(torch.tensor([false, true, true, false]), val);
    expect(y.grad_fn!.name()).toBe("CopySlices");
    expect(nf(y.grad_fn)).toEqual([["CopySlices", 0], ["AccumulateGrad", 0]]);
    expect(y._version).toBe(4);
    expect(grads(y, [x, val])).toEqual([[[0, 0, 0], [0, 5, 0], [0, 8, 0], [0, 0, 0]], 44]);
  });
  // r = torch.tensor([9., 8.], dtype=torch.float64, requires_grad=True); y[1].index_put_((torch.tensor([0, 2]),), r)
  it("index_put_ on a row view", () => {
    const x = X();
    const r = torch.tensor([9, 8], { dtype: torch.float64, requires_grad: true });
    const y = x.clone();
    y.get(1).index_put_([torch.tensor([0, 2])], r);
    expect(y.grad_fn!.name()).toBe("CopySlices");
    expect(nf(y.grad_fn)).toEqual([["CloneBackward0", 0], ["AccumulateGrad", 0]]);
    expect(grads(y, [x, r])).toEqual([[[1, 2, 3], [0, 5, 0], [7, 8, 9], [10, 11, 12]], [4, 6]]);
  });
});
