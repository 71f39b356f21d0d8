// torch.autograd.gradcheck (float64, the slow mode's finite differences: eps 1e-6, atol 1e-5, rtol 1e-3) over
// every differentiable entry of the index family in derivatives.yaml: indexing, index_put(_), index_select,
// gather, take, scatter (src/value), scatter_add, scatter_reduce (each reduction, include_self both ways),
// index_add, index_fill, masked_fill, masked_select, the cumulative ops, logsumexp, the norms and the
// value-selecting reductions. Inputs keep away from ties and kinks (distinct values), as PyTorch's OpInfo
// samples do. Second order: gradcheck of the first-order gradient taken with create_graph (what
// gradgradcheck does), for the formulas PyTorch differentiates twice.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const { gradcheck } = torch.autograd;
const u = (n: number, lo: number, hi: number, seed: number) => Array.from({ length: n }, (_, i) => lo + ((((i + 1) * 7919 * seed) % 997) / 997) * (hi - lo));
const X = (shape: number[], lo = -2, hi = 2, seed = 1) =>
  torch.tensor(u(shape.reduce((a, b) => a * b, 1), lo, hi, seed), { dtype: torch.float64 }).reshape(shape).requires_grad_(true);
const leaf = (v: any) => torch.tensor(v, { dtype: torch.float64, requires_grad: true });
const I = (v: any) => torch.tensor(v);
const mask = torch.tensor([[true, false, true, false], [false, false, true, true], [true, true, false, false]]);

type Case = [string, (...a: any[]) => Tensor | Tensor[], () => any[]];
const idx34 = () => I([[0, 0, 3], [1, 2, 1], [3, 3, 3]]);
const CASES: Case[] = [
  ["index.Tensor", (a) => torch.ops.aten.index.Tensor.call(a, [I([2, 0, 2]), null]) as Tensor, () => [X([3, 4])]],
  ["index (get, two tensors)", (a) => a.get(I([[0], [2]]), I([1, 3, 1])), () => [X([3, 4])]],
  ["index (get, mask)", (a) => a.get(mask), () => [X([3, 4])]],
  ["index_put", (a, v) => torch.index_put(a, [I([1, 3])], v), () => [X([4, 3]), X([2, 3], -2, 2, 2)]],
  ["index_put accumulate", (a, v) => torch.index_put(a, [I([1, 3, 1])], v, true), () => [X([4, 3]), X([3], -2, 2, 2)]],
  ["index_put_ (set)", (a, v) => { const y = a.mul(1); y.set(I([2, 0]), v); return y; }, () => [X([3, 4]), X([4], -2, 2, 2)]],
  ["fill_.Tensor (set a 0-d tensor)", (a, v) => { const y = a.mul(1); y.set(1, v); return y; }, () => [X([3, 4]), leaf(0.5)]],
  ["index_select", (a) => a.index_select(0, I([3, 1, 3])), () => [X([4, 3])]],
  ["gather", (a) => a.gather(1, I([[0, 3], [3, 3], [1, 0]])), () => [X([3, 4])]],
  ["take", (a) => a.take(I([[0, 11, 5], [5, 7, 2]])), () => [X([3, 4])]],
  ["scatter.src", (a, s) => a.scatter(1, I([[0, 3], [2, 1], [1, 0]]), s), () => [X([3, 4]), X([3, 2], -2, 2, 2)]],
  ["scatter.value", (a) => a.scatter(0, I([[0, 1, 2, 0]]), 1.5), () => [X([3, 4])]],
  ["scatter_add", (a, s) => a.scatter_add(1, idx34(), s), () => [X([3, 4]), X([3, 3], -2, 2, 2)]],
  ...["sum", "prod", "mean", "amax", "amin"].flatMap((r): Case[] => [true, false].map((inc): Case =>
    [`scatter_reduce ${r} include_self=${inc}`, (a, s) => a.scatter_reduce(1, idx34(), s, r, { include_self: inc }), () => [X([3, 4], 0.5, 2), X([3, 3], 0.5, 2, 2)]])),
  ["index_add", (a, s) => a.index_add(1, I([2, 2, 0]), s, { alpha: -1.5 }), () => [X([3, 4]), X([3, 3], -2, 2, 2)]],
  ["index_fill.int_Scalar", (a) => a.index_fill(1, I([3, 0]), -2.5), () => [X([3, 4])]],
  ["index_fill.int_Tensor", (a, v) => a.index_fill(0, I([2, 0, 2]), v), () => [X([3, 4]), leaf(0.75)]],
  ["masked_fill.Scalar", (a) => a.masked_fill(mask, 0.5), () => [X([3, 4])]],
  ["masked_fill.Tensor", (a, v) => a.masked_fill(mask, v), () => [X([3, 4]), leaf(-0.25)]],
  ["masked_select (broadcast)", (a) => a.masked_select(mask), () => [X([4])]],
  ["cumsum", (a) => a.cumsum(1), () => [X([3, 4])]],
  ["cumprod", (a) => a.cumprod(1), () => [X([3, 4], 0.5, 1.5)]],
  ["cumprod with zeros", (a) => a.cumprod(1), () => [leaf([[0.5, 0, 1.5, -2], [0, 1.25, 0, 0.75]])]],
  ["cummax", (a) => a.cummax(1)[0], () => [X([3, 4])]],
  ["cummin", (a) => a.cummin(0)[0], () => [X([3, 4])]],
  ["logcumsumexp", (a) => a.logcumsumexp(1), () => [X([3, 4])]],
  ["logsumexp", (a) => a.logsumexp([0, 2], true), () => [X([2, 3, 2])]],
  ["norm.Scalar", (a) => a.norm(), () => [X([3, 4])]],
  ...[1, 3, 1.5, 0.5, Infinity].map((p): Case => [`norm.ScalarOpt_dim p=${p}`, (a) => torch.ops.aten.norm.ScalarOpt_dim.call(a, p, [1]) as Tensor, () => [X([3, 4], 0.2, 2)]]),
  ["norm.ScalarOpt_dtype", (a) => torch.ops.aten.norm.ScalarOpt_dtype.call(a, 2, { dtype: torch.float64 }) as Tensor, () => [X([3, 4])]],
  ["norm.ScalarOpt_dim_dtype", (a) => torch.ops.aten.norm.ScalarOpt_dim_dtype.call(a, 3, [0], true, { dtype: torch.float64 }) as Tensor, () => [X([3, 4])]],
  ["linalg.vector_norm", (a) => torch.linalg.vector_norm(a, 3, [1]), () => [X([3, 4])]],
  ["linalg.vector_norm inf", (a) => torch.linalg.vector_norm(a, Infinity), () => [X([3, 4])]],
  ["median", (a) => a.median(), () => [X([3, 3])]],
  ["median.dim", (a) => a.median(1)[0], () => [X([3, 4])]],
  ["nanmedian", (a) => a.nanmedian(), () => [X([3, 3])]],
  ["nanmedian.dim", (a) => a.nanmedian(0, true)[0], () => [X([3, 4])]],
  ["mode", (a) => a.mode(1)[0], () => [X([3, 4])]],
  ["topk", (a) => a.topk(2, 0, false)[0], () => [X([3, 4])]],
  ["msort", (a) => a.msort(), () => [X([3, 4])]],
];

describe("gradcheck over the index family's differentiable ops (float64)", () => {
  for (const [name, fn, make] of CASES) it(name, () => expect(gradcheck(fn as any, make())).toBe(true));
});

describe("second order: gradcheck of the create_graph gradient (float64)", () => {
  const firstOrder = (f: (...a: any[]) => Tensor) => (...a: Tensor[]) => {
    const out = f(...a);
    const v = torch.arange(out.numel(), { dtype: torch.float64 }).reshape([...out.shape]).sub(2).div(3);
    return torch.autograd.grad([out], a, { grad_outputs: [v], create_graph: true }) as Tensor[];
  };
  const cases: Case[] = [
    ["index.Tensor", (a) => a.get(I([2, 0, 2])).pow(2), () => [X([3, 4])]],
    ["index_put", (a, v) => torch.index_put(a.pow(2), [I([1, 0])], v.pow(2)), () => [X([3, 2]), X([2], -2, 2, 2)]],
    ["cumprod", (a) => a.cumprod(1), () => [X([2, 3], 0.5, 1.5)]],
    ["cumprod with zeros", (a) => a.cumprod(0), () => [leaf([0.5, 0, 1.5, -2])]],
    ["logcumsumexp", (a) => a.logcumsumexp(1), () => [X([2, 3])]],
    ["logsumexp", (a) => a.logsumexp(1), () => [X([2, 3])]],
    ["norm p=3", (a) => a.norm(3), () => [X([2, 3], 0.2, 2)]],
    ["linalg.vector_norm p=2 dim", (a) => torch.linalg.vector_norm(a, 2, [1]), () => [X([2, 3], 0.2, 2)]],
    ["scatter_reduce prod", (a, s) => a.scatter_reduce(1, I([[0, 0, 2], [1, 1, 1]]), s, "prod"), () => [X([2, 3], 0.5, 2), X([2, 3], 0.5, 2, 2)]],
    ["scatter_reduce mean", (a, s) => a.scatter_reduce(1, I([[0, 0, 2], [1, 1, 1]]), s.pow(2), "mean"), () => [X([2, 3], 0.5, 2), X([2, 3], 0.5, 2, 2)]],
    ["masked_select", (a) => a.masked_select(mask).pow(2), () => [X([3, 4])]],
  ];
  for (const [name, fn, make] of cases) it(name, () => expect(gradcheck(firstOrder(fn as any) as any, make())).toBe(true));
});
