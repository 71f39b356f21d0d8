// gradcheck(fn, inputs, {check_forward_ad: true}) in float64: the Jacobians forward-mode AD computes (one
// one-hot tangent per input element) against finite differences, for ops of every family with a forward
// formula; and PyTorch 1.13's verdict and text for a function whose forward-mode derivative is wrong.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const { gradcheck } = torch.autograd;
const fwAD = torch.autograd.forward_ad;
const T = torch as any;
const f64 = (v: any) => torch.tensor(v, { dtype: torch.float64, requires_grad: true });

// inputs away from the kinks of abs/clamp/max..., and inside the domains of log/sqrt/asin...
const A = () => f64([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]]);
const B = () => f64([[1.75, 0.6, -0.4], [-1.1, 0.8, 1.3]]);
const P = () => f64([[0.5, 1.25, 2.0], [1.5, 0.25, 0.75]]);
const U = () => f64([[0.5, -0.25, 0.2], [0.3, -0.6, 0.7]]);
const SQ = () => f64([[2.0, 0.5, -0.25], [0.3, 1.5, 0.4], [-0.2, 0.1, 1.8]]);

const CASES: [string, () => Tensor[], (...a: Tensor[]) => Tensor | Tensor[]][] = [
  // elementwise
  ...["exp", "sin", "cos", "tanh", "sigmoid", "atan", "sinh", "cosh", "erf", "expm1", "neg", "abs"].map(
    (op): [string, () => Tensor[], (...a: Tensor[]) => Tensor] => [op, () => [A()], (a) => T[op](a)],
  ),
  ...["log", "sqrt", "rsqrt", "reciprocal", "log1p", "log2", "log10"].map((op): [string, () => Tensor[], (...a: Tensor[]) => Tensor] => [op, () => [P()], (a) => T[op](a)]),
  ...["asin", "acos", "erfinv", "frac"].map((op): [string, () => Tensor[], (...a: Tensor[]) => Tensor] => [op, () => [U()], (a) => T[op](a)]),
  ["logit", () => [f64([[0.2, 0.4], [0.7, 0.9]])], (a) => torch.logit(a)],
  ["pow scalar", () => [P()], (a) => torch.pow(a, 2.5)],
  ["clamp", () => [A()], (a) => torch.clamp(a, -1, 1)],
  ["clamp Tensor", () => [A(), f64([-1, 0, 0.5]), f64([[1], [1.2]])], (a, lo, hi) => torch.clamp(a, lo, hi)],
  // binary, broadcasting
  ["add alpha", () => [A(), f64([1, 2, 3])], (a, b) => torch.add(a, b, { alpha: 2 })],
  ["sub", () => [A(), B()], (a, b) => torch.sub(a, b)],
  ["mul broadcast", () => [A(), f64([[2], [-3]])], (a, b) => torch.mul(a, b)],
  ["div", () => [A(), P()], (a, b) => torch.div(a, b)],
  ["pow Tensor", () => [P(), B()], (a, b) => torch.pow(a, b)],
  ["atan2", () => [A(), B()], (a, b) => torch.atan2(a, b)],
  ["hypot", () => [A(), B()], (a, b) => torch.hypot(a, b)],
  ["maximum", () => [A(), B()], (a, b) => torch.maximum(a, b)],
  ["lerp Tensor", () => [A(), B(), U()], (a, b, w) => torch.lerp(a, b, w)],
  ["addcmul", () => [A(), B(), P()], (a, b, c) => torch.addcmul(a, b, c, { value: 0.5 })],
  ["addcdiv", () => [A(), B(), P()], (a, b, c) => torch.addcdiv(a, b, c, { value: 0.5 })],
  ["where", () => [A(), B()], (a, b) => torch.where(torch.tensor([[true, false, true], [false, false, true]]), a, b)],
  // reductions
  ["sum dim", () => [A()], (a) => torch.sum(a, 1)],
  ["mean", () => [A()], (a) => torch.mean(a)],
  ["prod dim", () => [A()], (a) => torch.prod(a, 1)],
  ["amax", () => [A()], (a) => torch.amax(a, 1)],
  ["max dim", () => [A()], (a) => torch.max(a, 0)[0]],
  ["var", () => [A()], (a) => torch.var(a, 1)],
  ["std", () => [A()], (a) => torch.std(a)],
  ["logsumexp", () => [A()], (a) => torch.logsumexp(a, 1)],
  ["norm p=3", () => [A()], (a) => torch.norm(a, 3)],
  ["linalg.vector_norm", () => [A()], (a) => torch.linalg.vector_norm(a, 2, [1])],
  ["cumsum", () => [A()], (a) => torch.cumsum(a, 1)],
  ["cumprod", () => [A()], (a) => torch.cumprod(a, 1)],
  ["sort values", () => [A()], (a) => torch.sort(a, 1)[0]],
  // views, shape ops, joins
  ["transpose + reshape", () => [A()], (a) => a.t().reshape([3, 2])],
  ["expand", () => [f64([[1.5], [-0.5]])], (a) => a.expand([2, 3])],
  ["select + slice", () => [A()], (a) => a.select(1, 2).add(a.narrow(1, 0, 1).squeeze(1))],
  ["permute", () => [f64([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])], (a) => a.permute([2, 0, 1])],
  ["cat", () => [A(), B()], (a, b) => torch.cat([a, b], 1)],
  ["stack", () => [A(), B()], (a, b) => torch.stack([a, b], 0)],
  ["flip + roll", () => [A()], (a) => torch.roll(torch.flip(a, [0]), 1, 1)],
  ["unbind", () => [A()], (a) => torch.unbind(a, 1)],
  ["split", () => [A()], (a) => torch.split(a, 2, 1)],
  // matmul family
  ["mm", () => [A(), SQ()], (a, b) => torch.mm(a, b)],
  ["matmul vector matrix", () => [f64([1.5, -0.5, 2]), SQ()], (v, m) => torch.matmul(v, m)],
  ["bmm", () => [f64([[[1, 2], [3, 4]]]), f64([[[0.5, -1], [2, 0.25]]])], (a, b) => torch.bmm(a, b)],
  ["addmm", () => [f64([1, 2, 3]), A(), SQ()], (c, a, b) => torch.addmm(c, a, b, { beta: 0.5, alpha: 2 })],
  ["mv", () => [A(), f64([1, -2, 0.5])], (m, v) => torch.mv(m, v)],
  ["dot", () => [f64([1, 2, 3]), f64([0.5, -1, 2])], (a, b) => torch.dot(a, b)],
  ["linalg.inv", () => [SQ()], (a) => torch.linalg.inv(a)],
  ["linalg.det", () => [SQ()], (a) => torch.linalg.det(a)],
  ["linalg.slogdet", () => [SQ()], (a) => torch.linalg.slogdet(a)[1]],
  ["linalg.solve", () => [SQ(), f64([[1, 2], [0.5, -1], [2, 0.25]])], (a, b) => torch.linalg.solve(a, b)],
  ["linalg.solve vector", () => [SQ(), f64([1, -2, 0.5])], (a, b) => torch.linalg.solve(a, b)],
  ["linalg.cholesky", () => [f64([[4, 1, 0.5], [1, 3, 0.25], [0.5, 0.25, 2]])], (a) => torch.linalg.cholesky(a.add(a.t()).div(2))],
  // index
  ["gather", () => [A()], (a) => torch.gather(a, 1, torch.tensor([[0, 2], [1, 1]]))],
  ["index_select", () => [A()], (a) => torch.index_select(a, 1, torch.tensor([2, 0]))],
  ["masked_fill", () => [A()], (a) => a.masked_fill(torch.tensor([[true, false, false], [false, true, false]]), 0.5)],
  ["scatter_add", () => [A(), f64([[1, 2], [3, 4]])], (a, s) => torch.scatter_add(a, 1, torch.tensor([[0, 2], [1, 1]]), s)],
  ["index_add", () => [A(), f64([[1, 2], [3, 4]])], (a, s) => torch.index_add(a, 1, torch.tensor([2, 0]), s)],
  // in-place on a copy
  ["mul_ on a clone", () => [A(), B()], (a, b) => a.clone().mul_(b)],
  ["sin_ on a clone", () => [A()], (a) => a.clone().sin_()],
];

describe("gradcheck with check_forward_ad (float64)", () => {
  for (const [name, mk, fn] of CASES) {
    it(name, () => {
      expect(gradcheck(fn as any, mk(), { check_forward_ad: true })).toBe(true);
    });
  }
});

describe("gradcheck's forward-mode verdict and text", () => {
  // f = lambda a: fwAD.unpack_dual(a).primal * a: under gradcheck's dual level the primal has no tangent, so
  // forward mode gives a * t instead of 2 a * t; backward (outside any level) is right
  const f = (a: Tensor) => fwAD.unpack_dual(a).primal.mul(a);
  const x = () => f64([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]]);

  it("check_backward_ad=False, raise_exception=False: False (PyTorch: False)", () => {
    expect(gradcheck(f, [x()], { check_forward_ad: true, check_backward_ad: false, raise_exception: false })).toBe(false);
    expect(gradcheck(f, [x()])).toBe(true);
  });

  it("raises PyTorch's GradcheckError text", () => {
    const text =
      "Jacobian computed with forward mode mismatch for output 0 with respect to input 0,\n" +
      "numerical:tensor([[ 1.0000,  0.0000,  0.0000,  0.0000,  0.0000,  0.0000],\n        [ 0.0000, -2.5000,  0.0000,  0.0000,  0.0000,  0.0000],\n" +
      "        [ 0.0000,  0.0000,  4.0000,  0.0000,  0.0000,  0.0000],\n        [ 0.0000,  0.0000,  0.0000,  3.0000,  0.0000,  0.0000],\n" +
      "        [ 0.0000,  0.0000,  0.0000,  0.0000,  0.5000,  0.0000],\n        [ 0.0000,  0.0000,  0.0000,  0.0000,  0.0000, -1.5000]],\n       dtype=torch.float64)\n" +
      "analytical:tensor([[ 0.5000, -0.0000,  0.0000,  0.0000,  0.0000, -0.0000],\n        [ 0.0000, -1.2500,  0.0000,  0.0000,  0.0000, -0.0000],\n" +
      "        [ 0.0000, -0.0000,  2.0000,  0.0000,  0.0000, -0.0000],\n        [ 0.0000, -0.0000,  0.0000,  1.5000,  0.0000, -0.0000],\n" +
      "        [ 0.0000, -0.0000,  0.0000,  0.0000,  0.2500, -0.0000],\n        [ 0.0000, -0.0000,  0.0000,  0.0000,  0.0000, -0.7500]],\n       dtype=torch.float64)\n";
    expect(() => gradcheck(f, [x()], { check_forward_ad: true })).toThrow(expect.objectContaining({ name: "GradcheckError", message: text }));
  });
});
