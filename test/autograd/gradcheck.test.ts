// torch.autograd.gradcheck against PyTorch 1.13: its verdicts and error texts (read from PyTorch running the
// same programs, written in each test), then gradcheck over every differentiable op of derivatives.yaml in
// float64 (the slow mode's finite differences: eps 1e-6, atol 1e-5, rtol 1e-3).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const f64 = (v: any, requires_grad = true) => torch.tensor(v, { dtype: torch.float64, requires_grad });
const { gradcheck, GradcheckError } = torch.autograd;

describe("gradcheck's verdicts and texts", () => {
  it("a wrong backward (a hook triples the gradient of a * 2) raises PyTorch's Jacobian mismatch text", () => {
    // y = a.mul(2); y.register_hook(lambda g: g.mul(3)); gradcheck(f, (x,))
    const x = f64([[1.5, -2, 0.5], [0.3, 0.2, -0.1]]);
    const f = (a: Tensor) => {
      const y = a.mul(2);
      y.register_hook((g: Tensor) => g.mul(3));
      return y;
    };
    const diag = (v: string, w: string) =>
      Array.from({ length: 6 }, (_, i) => "[" + Array.from({ length: 6 }, (_, j) => (i === j ? v : w)).join(", ") + "]").join(",\n        ");
    const text =
      "Jacobian mismatch for output 0 with respect to input 0,\n" +
      `numerical:tensor([${diag("2.0000", "0.0000")}], dtype=torch.float64)\n` +
      `analytical:tensor([${diag("6.", "0.")}], dtype=torch.float64)\n`;
    let err: any = null;
    try {
      gradcheck(f, [x]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GradcheckError);
    expect(err.name).toBe("GradcheckError");
    expect(err.message).toBe(text);
  });
  it("a 1% error: mismatch text; raise_exception=false gives false; atol=rtol=0.1 accepts it", () => {
    // r = a.exp(); r.register_hook(lambda g: g * 1.01); gradcheck(g, (y,), check_undefined_grad=False)
    const y = f64([0.5, 1.2]);
    const g = (a: Tensor) => {
      const r = a.exp();
      r.register_hook((gr: Tensor) => gr.mul(1.01));
      return r;
    };
    expect(() => gradcheck(g, [y])).toThrow(
      "Jacobian mismatch for output 0 with respect to input 0,\nnumerical:tensor([[1.6487, 0.0000],\n        [0.0000, 3.3201]], dtype=torch.float64)\n" +
        "analytical:tensor([[1.6652, 0.0000],\n        [0.0000, 3.3533]], dtype=torch.float64)\n",
    );
    // (PyTorch needs check_undefined_grad=False here: its hooks also see the undefined gradients, as None)
    expect(gradcheck(g, [y], { raise_exception: false, check_undefined_grad: false })).toBe(false);
    expect(gradcheck(g, [y], { atol: 1e-1, rtol: 1e-1, check_undefined_grad: false })).toBe(true);
  });
  it("check_undefined_grad: backward through UndefinedGradBackward gives no gradient, so multi-output ops pass", () => {
    // gradcheck(lambda a: torch.var_mean(a, 1), (x,)) is True in PyTorch (all and one-at-a-time undefined)
    const x = f64([[0.5, -1.5, 2], [1, 0.25, -0.75]]);
    expect(gradcheck((a: Tensor) => torch.var_mean(a, 1) as any, [x])).toBe(true);
    expect(gradcheck((a: Tensor) => torch.var_mean(a, 1) as any, [x], { check_undefined_grad: false })).toBe(true);
  });
  it("an output that needs no grad must have a zero numerical gradient", () => {
    const x = f64([1, 2]);
    expect(() => gradcheck((a: Tensor) => torch.no_grad(() => a.mul(2)), [x])).toThrow("Numerical gradient for function expected to be zero");
  });
  it("input errors: nothing requires grad (ValueError), a stride-0 input", () => {
    expect(() => gradcheck((a: Tensor) => a.mul(2), [torch.ones(2, { dtype: torch.float64 })])).toThrow(
      expect.objectContaining({ name: "ValueError", message: "gradcheck expects at least one input tensor to require gradient, but none of the them have requires_grad=True." }),
    );
    const e = torch.ones(1, { dtype: torch.float64 }).expand(3).requires_grad_(true);
    expect(() => gradcheck((a: Tensor) => a.mul(2), [e])).toThrow(
      "The 0th input has a dimension with stride 0. gradcheck only supports inputs that are non-overlapping to be able to compute the numerical gradients correctly. You should call .contiguous on the input before passing it to gradcheck.",
    );
  });
  it("a non-tensor input passes through; a perturbed input keeps its version counter", () => {
    const x = f64([0.5, -1.5, 2]);
    const v = x._version;
    expect(gradcheck((a: Tensor, k: number) => a.mul(k).sin(), [x, 3])).toBe(true);
    expect(x._version).toBe(v);
    expect(x.tolist()).toEqual([0.5, -1.5, 2]);
  });
});

// Every differentiable entry of derivatives.yaml, on float64 inputs away from kinks and domain edges.
const u = (n: number, lo: number, hi: number, seed: number) => Array.from({ length: n }, (_, i) => lo + ((((i + 1) * 7919 * seed) % 997) / 997) * (hi - lo));
const fresh = (vals: number[], shape: number[]) => torch.tensor(vals, { dtype: torch.float64 }).reshape(shape).requires_grad_(true);
const X = (shape: number[], lo = -2, hi = 2, seed = 1) => fresh(u(shape.reduce((a, b) => a * b, 1), lo, hi, seed), shape);
const leaf = (v: number[] | number[][]) => torch.tensor(v, { dtype: torch.float64, requires_grad: true });
const distinct = (shape: number[], seed = 3, scale = 1) => fresh(u(shape.reduce((a, b) => a * b, 1), -2 * scale, 2 * scale, seed), shape);

type Case = [string, (...a: any[]) => Tensor | Tensor[], () => any[]];
const unary = (name: string, lo = -2, hi = 2): Case => [name, (a: Tensor) => (a as any)[name](), () => [X([2, 3], lo, hi)]];
const CASES: Case[] = [
  ...["neg", "exp", "exp2", "expm1", "sin", "cos", "atan", "sinh", "cosh", "tanh", "sigmoid", "erf", "erfc", "frac"].map((n) => unary(n)),
  unary("abs", 0.1, 2), unary("tan", -1.2, 1.2),
  ...["log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal"].map((n) => unary(n, 0.2, 3)),
  ...["asin", "acos", "erfinv"].map((n) => unary(n, -0.9, 0.9)),
  unary("logit", 0.05, 0.95),
  ...["sign", "sgn", "floor", "ceil", "round", "trunc"].map((n) => unary(n, 0.1, 0.4)),
  ["round.decimals", (a) => a.round({ decimals: 1 }), () => [X([2, 3], 0.11, 0.14)]],
  ["logit eps", (a) => a.logit(0.1), () => [X([2, 3], 0.2, 0.8)]],
  ["nan_to_num", (a) => a.nan_to_num(), () => [X([2, 3])]],
  ["clamp", (a) => a.clamp(-0.5, 0.7), () => [distinct([2, 4])]],
  ["clamp.Tensor", (a, lo, hi) => torch.clamp(a, lo, hi), () => [distinct([2, 4]), distinct([4], 5, 0.3), leaf([[1.1], [0.9]])]],
  ["clamp_min", (a) => a.clamp_min(0.3), () => [distinct([2, 4])]],
  ["clamp_min.Tensor", (a, b) => a.clamp_min(b), () => [distinct([2, 4]), distinct([4], 5)]],
  ["clamp_max", (a) => a.clamp_max(0.3), () => [distinct([2, 4])]],
  ["clamp_max.Tensor", (a, b) => a.clamp_max(b), () => [distinct([2, 4]), distinct([4], 5)]],
  ["sub", (a, b) => torch.sub(a, b, { alpha: 1.5 }), () => [X([2, 3]), X([3], -2, 2, 2)]],
  ["sub.Scalar", (a) => a.sub(2), () => [X([2, 3])]],
  ["rsub", (a, b) => torch.rsub(a, b, { alpha: 0.5 }), () => [X([2, 3]), X([3], -2, 2, 2)]],
  ["rsub.Scalar", (a) => torch.rsub(a, 2), () => [X([2, 3])]],
  ["div", (a, b) => a.div(b), () => [X([2, 3]), X([3], 0.5, 2, 2)]],
  ["div.Scalar", (a) => a.div(1.5), () => [X([2, 3])]],
  ["div.Tensor_mode", (a, b) => a.div(b, { rounding_mode: "floor" }), () => [X([2, 3], 0.1, 0.4), X([3], 1.5, 1.9, 2)]],
  ["remainder", (a, b) => a.remainder(b), () => [X([2, 3], 0.1, 0.9), X([3], 1.5, 1.9, 2)]],
  ["remainder.Scalar", (a) => a.remainder(1.5), () => [X([2, 3], 0.1, 0.9)]],
  ["fmod", (a, b) => a.fmod(b), () => [X([2, 3], 0.1, 0.9), X([3], 1.5, 1.9, 2)]],
  ["fmod.Scalar", (a) => a.fmod(1.5), () => [X([2, 3], 0.1, 0.9)]],
  ["pow.Tensor_Scalar", (a) => a.pow(3), () => [X([2, 3])]],
  ["pow.Tensor_Tensor", (a, b) => a.pow(b), () => [X([2, 3], 0.5, 2), X([3], -1, 2, 2)]],
  ["pow.Scalar", (b) => torch.pow(1.7, b), () => [X([2, 3])]],
  ["atan2", (a, b) => torch.atan2(a, b), () => [X([2, 3]), X([3], 0.5, 2, 2)]],
  ["hypot", (a, b) => torch.hypot(a, b), () => [X([2, 3]), X([3], 0.5, 2, 2)]],
  ["copysign", (a, b) => torch.copysign(a, b), () => [X([2, 3]), X([3], -2, 2, 2)]],
  ["copysign.Scalar", (a) => torch.copysign(a, -1), () => [X([2, 3])]],
  ["maximum", (a, b) => torch.maximum(a, b), () => [distinct([2, 3]), distinct([3], 5)]],
  ["minimum", (a, b) => torch.minimum(a, b), () => [distinct([2, 3]), distinct([3], 5)]],
  ["fmax", (a, b) => torch.fmax(a, b), () => [distinct([2, 3]), distinct([3], 5)]],
  ["fmin", (a, b) => torch.fmin(a, b), () => [distinct([2, 3]), distinct([3], 5)]],
  ["lerp.Scalar", (a, b) => torch.lerp(a, b, 0.3), () => [X([2, 3]), X([3], -2, 2, 2)]],
  ["lerp.Tensor", (a, b, w) => torch.lerp(a, b, w), () => [X([2, 3]), X([3], -2, 2, 2), X([2, 1], 0, 1, 3)]],
  ["addcmul", (a, b, c) => torch.addcmul(a, b, c, { value: 0.5 }), () => [X([2, 3]), X([3], -2, 2, 2), X([2, 1], -1, 1, 3)]],
  ["addcdiv", (a, b, c) => torch.addcdiv(a, b, c, { value: -2 }), () => [X([2, 3]), X([3], -2, 2, 2), X([2, 1], 0.5, 2, 3)]],
  ["eq_.Tensor", (a, b) => a.mul(1).eq_(b), () => [X([2, 3]), X([3], -2, 2, 2)]],
  ["lt_.Scalar", (a) => a.mul(1).lt_(0.5), () => [X([2, 3])]],
  ["mean", (a) => a.mean(), () => [X([2, 3])]],
  ["mean.dim", (a) => a.mean([0, 2], { keepdim: true }), () => [X([2, 3, 2])]],
  ["prod", (a) => a.prod(), () => [X([2, 3], 0.5, 1.5)]],
  ["prod one zero", (a) => a.prod(), () => [leaf([1.5, 0, -0.5, 2])]],
  ["prod.dim_int", (a) => a.prod(1), () => [X([2, 3], 0.5, 1.5)]],
  ["prod.dim_int zeros", (a) => a.prod(1), () => [leaf([[1.5, 0, -0.5], [2, 1.2, 0]])]],
  ["amax", (a) => a.amax(1), () => [distinct([2, 3])]],
  ["amin", (a) => a.amin([0, 1]), () => [distinct([2, 3])]],
  ["max.dim", (a) => a.max(1)[0], () => [distinct([2, 3])]],
  ["min.dim", (a) => a.min(0, { keepdim: true })[0], () => [distinct([2, 3])]],
  ["max", (a) => a.max(), () => [distinct([2, 3])]],
  ["min", (a) => a.min(), () => [distinct([2, 3])]],
  ["var", (a) => a.var(1), () => [X([2, 3])]],
  ["var all", (a) => a.var(), () => [X([2, 3])]],
  ["std", (a) => a.std(0, { correction: 0, keepdim: true }), () => [X([2, 3])]],
  ["var_mean", (a) => torch.var_mean(a, 1) as any, () => [X([2, 3])]],
  ["std_mean", (a) => torch.std_mean(a) as any, () => [X([2, 3])]],
  ["where", (a, b) => torch.where(torch.tensor([[true, false, true], [false, false, true]]), a, b), () => [X([2, 3]), X([3], -2, 2, 2)]],
  ["clone", (a) => a.clone(), () => [X([2, 3])]],
  ["expand", (a) => a.expand(2, 3, 4), () => [X([3, 1])]],
  ["permute", (a) => a.permute([2, 0, 1]), () => [X([2, 3, 2])]],
  ["transpose", (a) => a.transpose(0, 1), () => [X([2, 3])]],
  ["t", (a) => a.t(), () => [X([2, 3])]],
  ["squeeze", (a) => a.squeeze(), () => [X([2, 1, 3])]],
  ["squeeze.dim", (a) => a.squeeze(1), () => [X([2, 1, 3])]],
  ["unsqueeze", (a) => a.unsqueeze(1), () => [X([2, 3])]],
  ["_reshape_alias", (a) => a.reshape([3, 2]), () => [X([2, 3])]],
  ["_unsafe_view", (a) => a.t().reshape([6]), () => [X([2, 3])]],
  ["alias", (a) => a.alias(), () => [X([2, 3])]],
  ["select", (a) => a.select(1, -2), () => [X([2, 3])]],
  ["slice", (a) => a.slice(1, 1, null, 2), () => [X([2, 6])]],
  ["narrow (slice)", (a) => a.narrow(0, 1, 2), () => [X([4, 2])]],
  ["flip", (a) => a.flip([1]), () => [X([2, 3])]],
  ["roll", (a) => a.roll(1, 1), () => [X([2, 3])]],
  ["tril", (a) => a.tril(), () => [X([3, 3])]],
  ["triu", (a) => a.triu(-1), () => [X([3, 3])]],
  ["cat", (a, b) => torch.cat([a, b], 1), () => [X([2, 3]), X([2, 2], -2, 2, 2)]],
  ["stack", (a, b) => torch.stack([a, b], -1), () => [X([2, 3]), X([2, 3], -2, 2, 2)]],
  ["repeat", (a) => a.repeat(2, 1, 2), () => [X([2, 3])]],
  ["as_strided", (a) => a.as_strided([2, 2], [1, 2], 1), () => [X([3, 3])]],
  ["as_strided overlapping", (a) => a.as_strided([3, 3], [1, 1]), () => [X([5])]],
  ["split", (a) => a.split(2, 1), () => [X([2, 5])]],
  ["split_with_sizes", (a) => a.split_with_sizes([1, 2], 0), () => [X([3, 2])]],
  ["unbind", (a) => a.unbind(1), () => [X([2, 3])]],
  ["diagonal", (a) => a.diagonal(1, 2, 0), () => [X([3, 2, 4])]],
  ["unfold", (a) => a.unfold(1, 3, 1), () => [X([2, 5])]],
  ["sort", (a) => a.sort(1, true)[0], () => [distinct([2, 4])]],
  ["sort.stable", (a) => torch.sort(a, { stable: true, dim: 0 })[0], () => [distinct([3, 2])]],
  ["pow_ (in place on a clone)", (a, b) => a.mul(1).pow_(b), () => [X([2, 3], 0.5, 2), X([3], -1, 2, 2)]],
];

describe("gradcheck over the differentiable ops (float64)", () => {
  for (const [name, fn, make] of CASES) it(name, () => expect(gradcheck(fn as any, make())).toBe(true));
});

describe("gradgradcheck: second derivatives by finite differences", () => {
  it("passes for smooth ops with written double-backward formulas", () => {
    torch.manual_seed(0);
    const x = f64([0.3, -0.7, 1.1]);
    const y = f64([0.5, 0.2, -0.4]);
    expect(torch.autograd.gradgradcheck((a: Tensor, b: Tensor) => a.mul(b).exp(), [x, y])).toBe(true);
    expect(torch.autograd.gradgradcheck((a: Tensor) => torch.tanh(a).sum(), [x])).toBe(true);
  });
  it("catches a backward that is right to first order but cut from the graph (detach)", () => {
    torch.manual_seed(0);
    class Square extends torch.autograd.Function {
      static forward(ctx: any, a: Tensor) {
        ctx.save_for_backward(a);
        return a.mul(a);
      }
      static backward(ctx: any, g: Tensor) {
        const [a] = ctx.saved_tensors;
        return g.mul(a.detach()).mul(2); // d/da of this is 0 here, not 2g
      }
    }
    const x = f64([0.3, -0.7]);
    expect(torch.autograd.gradcheck((a: Tensor) => Square.apply(a), [x])).toBe(true);
    expect(torch.autograd.gradgradcheck((a: Tensor) => Square.apply(a), [x], { raise_exception: false })).toBe(false);
  });
});
