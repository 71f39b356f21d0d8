// torch.autograd.gradcheck (float64, PyTorch's defaults: eps 1e-6, atol 1e-5, rtol 1e-3) over every linalg
// entry of derivatives.yaml and the CompositeImplicitAutograd products built on them, with gradgradcheck-style
// second order where it is cheap (gradcheck of the first-order gradient under create_graph). PyTorch 1.13 accepts
// each of these same calls (its OpInfo tests gradcheck these ops the same way).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const { gradcheck } = torch.autograd;
const T = torch as any;
// a small LCG: full-rank matrices with distinct singular values (an arithmetic pattern would be rank-deficient)
const u = (n: number, lo: number, hi: number, seed: number) => {
  let s = (seed * 2654435761) % 2147483647 || 1;
  return Array.from({ length: n }, () => ((s = (s * 48271) % 2147483647), lo + (s / 2147483647) * (hi - lo)));
};
const numel = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
const X = (shape: number[], seed = 1) => torch.tensor(u(numel(shape), -1, 1, seed), { dtype: torch.float64 }).reshape(shape).requires_grad_(true);
/** Diagonally dominant (well-conditioned) square matrices: entries in [-1, 1] plus 3 I. */
const W = (shape: number[], seed = 1) => {
  const n = shape[shape.length - 1];
  const v = u(numel(shape), -1, 1, seed).map((x, k) => x + (Math.floor(k / n) % n === k % n ? 3 : 0));
  return torch.tensor(v, { dtype: torch.float64 }).reshape(shape).requires_grad_(true);
};
/** A symmetric positive definite matrix from any square A: A A^T + n I, so cholesky sees a symmetric input. */
const spdOf = (a: Tensor) => a.matmul(a.transpose(-2, -1)).add(torch.eye(a.shape[a.shape.length - 1], { dtype: torch.float64 }).mul(a.shape[a.shape.length - 1]));

type Case = [string, (...a: any[]) => Tensor | Tensor[], () => any[]];
const CASES: Case[] = [
  ["mm", (a, b) => torch.mm(a, b), () => [X([3, 4]), X([4, 2], 2)]],
  ["mm column-major", (a, b) => torch.mm(a.t(), b.t()), () => [X([4, 3]), X([2, 4], 2)]],
  ["bmm", (a, b) => torch.bmm(a, b), () => [X([2, 3, 4]), X([2, 4, 2], 2)]],
  ["mv", (a, b) => torch.mv(a, b), () => [X([3, 4]), X([4], 2)]],
  ["dot", (a, b) => torch.dot(a, b), () => [X([5]), X([5], 2)]],
  ["vdot", (a, b) => torch.vdot(a, b), () => [X([5]), X([5], 2)]],
  ["addmm", (s, a, b) => torch.addmm(s, a, b, { beta: 0.5, alpha: 2 }), () => [X([2]), X([3, 4], 2), X([4, 2], 3)]],
  ["addmv", (s, a, b) => torch.addmv(s, a, b, { beta: 0.5, alpha: 2 }), () => [X([3]), X([3, 4], 2), X([4], 3)]],
  ["addbmm", (s, a, b) => torch.addbmm(s, a, b, { beta: 0.5, alpha: 2 }), () => [X([3, 2]), X([2, 3, 4], 2), X([2, 4, 2], 3)]],
  ["baddbmm", (s, a, b) => torch.baddbmm(s, a, b, { beta: 0.5, alpha: 2 }), () => [X([3, 1]), X([2, 3, 4], 2), X([2, 4, 2], 3)]],
  ["addr", (s, a, b) => torch.addr(s, a, b, { beta: 0.5, alpha: 2 }), () => [X([3, 4]), X([3], 2), X([4], 3)]],
  ["matmul 1d 2d", (a, b) => torch.matmul(a, b), () => [X([4]), X([4, 2], 2)]],
  ["matmul batched broadcast", (a, b) => torch.matmul(a, b), () => [X([2, 1, 3, 4]), X([3, 4, 2], 2)]],
  ["outer", (a, b) => torch.outer(a, b), () => [X([3]), X([4], 2)]],
  ["kron", (a, b) => torch.kron(a, b), () => [X([2, 3]), X([2, 2], 2)]],
  ["einsum", (a, b) => torch.einsum("bij,bjk->bik", a, b), () => [X([2, 3, 4]), X([2, 4, 2], 2)]],
  ["tensordot", (a, b) => torch.tensordot(a, b, [[1, 2], [1, 0]]), () => [X([2, 3, 4]), X([4, 3, 2], 2)]],
  ["linear", (a, w, b) => T.nn.functional.linear(a, w, b), () => [X([2, 4]), X([3, 4], 2), X([3], 3)]],
  ["bilinear (_trilinear)", (a, b, w, bias) => T.nn.functional.bilinear(a, b, w, bias), () => [X([3, 2]), X([3, 4], 2), X([2, 2, 4], 3), X([2], 4)]],
  ["linalg.inv", (a) => T.linalg.inv(a), () => [W([2, 3, 3])]],
  ["linalg.det", (a) => T.linalg.det(a), () => [W([2, 3, 3])]],
  ["linalg.slogdet", (a) => [...T.linalg.slogdet(a)], () => [W([3, 3])]],
  ["linalg.cholesky", (a) => T.linalg.cholesky(spdOf(a)), () => [X([3, 3])]],
  ["linalg.cholesky upper", (a) => T.linalg.cholesky(spdOf(a), { upper: true }), () => [X([2, 3, 3])]],
  ["linalg.solve", (a, b) => T.linalg.solve(a, b), () => [W([3, 3]), X([3, 2], 2)]],
  ["linalg.solve vector", (a, b) => T.linalg.solve(a, b), () => [W([3, 3]), X([3], 2)]],
  ["linalg.solve left=False batched", (a, b) => T.linalg.solve(a, b, { left: false }), () => [W([2, 3, 3]), X([2, 4, 3], 2)]],
  ["linalg.qr tall", (a) => [...T.linalg.qr(a)], () => [X([4, 3])]],
  ["linalg.qr wide", (a) => [...T.linalg.qr(a)], () => [X([3, 4])]],
  ["linalg.qr complete square", (a) => [...T.linalg.qr(a, "complete")], () => [W([3, 3])]],
  ["linalg.svdvals", (a) => T.linalg.svdvals(a), () => [X([3, 4])]],
  ["linalg.svd reduced tall (U, S, Vh)", (a) => [...T.linalg.svd(a, { full_matrices: false })], () => [X([4, 3])]],
  ["linalg.svd reduced wide (U, S, Vh)", (a) => [...T.linalg.svd(a, { full_matrices: false })], () => [X([3, 4])]],
  ["linalg.svd full square (U, S, Vh)", (a) => [...T.linalg.svd(a)], () => [X([3, 3], 5)]],
];

describe("gradcheck over the linalg entries (float64)", () => {
  for (const [name, f, inputs] of CASES) {
    it(name, () => {
      expect(gradcheck(f, inputs())).toBe(true);
    });
  }
});

// Second order: gradcheck of the first-order gradients (what gradgradcheck checks), for the decompositions
// whose backward runs other differentiable linalg ops.
const firstOrder = (f: (...a: Tensor[]) => Tensor) => (...a: Tensor[]) => {
  const out = f(...a);
  const v = torch.tensor(u(out.numel(), -1, 1, 9), { dtype: torch.float64 }).reshape([...out.shape]);
  return torch.autograd.grad([out], a, { grad_outputs: [v], create_graph: true }) as Tensor[];
};
describe("second order (gradcheck of the create_graph gradients)", () => {
  const SECOND: Case[] = [
    ["mm", firstOrder((a, b) => torch.mm(a, b)), () => [X([3, 4]), X([4, 2], 2)]],
    ["addbmm", firstOrder((s, a, b) => torch.addbmm(s, a, b, { alpha: 2 })), () => [X([3, 2]), X([2, 3, 4], 2), X([2, 4, 2], 3)]],
    ["linalg.inv", firstOrder((a) => T.linalg.inv(a)), () => [W([3, 3])]],
    ["linalg.det", firstOrder((a) => T.linalg.det(a)), () => [W([3, 3])]],
    ["linalg.solve", firstOrder((a, b) => T.linalg.solve(a, b)), () => [W([3, 3]), X([3, 2], 2)]],
    ["linalg.cholesky", firstOrder((a) => T.linalg.cholesky(spdOf(a))), () => [X([3, 3])]],
    ["linalg.svdvals", firstOrder((a) => T.linalg.svdvals(a)), () => [X([3, 4])]],
  ];
  for (const [name, f, inputs] of SECOND) {
    it(name, () => {
      expect(gradcheck(f, inputs())).toBe(true);
    });
  }
});
