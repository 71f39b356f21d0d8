// The activation family's DispatchStubs and their TypeScript kernels (aten/src/ATen/native/Activation.h
// declares the stubs, aten/src/ATen/native/cpu/Activation.cpp implements them).
//
// Numerics. Each kernel is written as PyTorch's scalar lambda, every operation rounding to the
// compute dtype (float32 arithmetic for float32, via Math.fround; double for float64). bfloat16 is
// computed in float32 and rounded once on store, as the 1.13 kernels convert BFloat16 to float.
// Transcendental calls (exp, erf, tanh, log1p) are correctly rounded here; PyTorch's AVX2 build runs
// SLEEF's u10 vector versions on full vectors, so those ops agree within an ulp or two (the tests say
// how many). Piecewise-linear ops (relu, leaky_relu, hardtanh, hardsigmoid, hardswish, threshold)
// are exact.

import { ScalarType } from "../../../c10/ScalarType.js";
import type { Scalar } from "../../core/Tensor.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { cpu_kernel_unary } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import type { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_nary } from "../unary/NaryLoop.js";
import { scalar_to } from "../unary/ScalarConvert.js";
import { erf } from "../unary/UnaryMath.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_BFLOAT16, ALL_TYPES_AND_BFLOAT16 } from "../unary/Dispatch.js";

const REF = "aten/src/ATen/native/cpu/Activation.cpp";
const { Double, Float } = ScalarType;
const FLOATING_TYPES = [Double, Float] as const;
type Fn = (x: number) => number;

/** The arithmetic each step rounds to: double for float64, float32 for float32 and bfloat16 (opmath). */
export const stepOf = (t: ScalarType): Fn => (t === Double ? (x) => x : Math.fround);

/** A Scalar argument as the kernel reads it: `s.to<scalar_t>()` (float for bfloat16's float path). */
export const coef = (s: Scalar, t: ScalarType): number => Number(scalar_to(s, t === Double ? Double : Float));

function stub<F extends (iter: TensorIterator, ...a: any[]) => void>(name: string, fn: F): DispatchStub<F> {
  const s = new DispatchStub<F>(name, REF);
  s.register("ts", fn);
  return s;
}

/** AT_DISPATCH over `types` named `name`, then `make(step, t)` elementwise. */
function floatKernel(name: string, types: readonly ScalarType[], iter: TensorIterator, make: (r: Fn, t: ScalarType) => Fn): void {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH(name, t, types);
  cpu_kernel_unary(iter, { number: make(stepOf(t), t) });
}

/** leaky_relu: a > 0 ? a : a * negval. */
export const leaky_relu_stub = stub("leaky_relu_stub", (iter: TensorIterator, slope: Scalar) =>
  floatKernel("leaky_relu_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r, t) => {
    const neg = coef(slope, t);
    return (a) => (a > 0 ? a : r(a * neg));
  }));

/** elu: a <= 0 ? (exp(a * input_scale) - 1) * (alpha * scale) : a * scale. */
export const elu_stub = stub("elu_stub", (iter: TensorIterator, alpha: Scalar, scale: Scalar, inputScale: Scalar) =>
  floatKernel("elu_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r, t) => {
    const negcoef = r(coef(alpha, t) * coef(scale, t)), poscoef = coef(scale, t), negiptcoef = coef(inputScale, t);
    return (a) => (a <= 0 ? r(r(r(Math.exp(r(a * negiptcoef))) - 1) * negcoef) : r(a * poscoef));
  }));

/**
 * GeluKernelImpl: x * 0.5 * (1 + erf(x / sqrt(2))), or the tanh approximation. For erf, 1.13's vector
 * path (taken when every operand is contiguous) computes float32 and bfloat16 in float with
 * Vectorized<float>::erf, a polynomial; the scalar path (strided operands) calls std::erf and, for
 * bfloat16, rounds every operation to bfloat16. The tanh form rounds every bfloat16 operation on
 * both paths. (Observed against PyTorch 1.13's AVX2 build; see activation.json's gelu cases.)
 */
export const GeluKernel = stub("GeluKernel", (iter: TensorIterator, approximate: "none" | "tanh") => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("GeluKernelImpl", t, FLOATING_TYPES_AND_BFLOAT16);
  const vectorized = iter.output.is_contiguous() && iter.inputs.every((u) => u.is_contiguous());
  const bf16Ops = t === ScalarType.BFloat16 && (approximate === "tanh" || !vectorized);
  const r: Fn = bf16Ops ? (x) => roundToScalarType(t, x) : stepOf(t);
  let f: Fn;
  if (approximate === "tanh") {
    const kBeta = r(Math.SQRT2 * 1.1283791670955126 * 0.5) /* M_SQRT2 * M_2_SQRTPI * 0.5 */, kKappa = r(0.044715);
    f = (x) => {
      const cube = r(r(x * x) * x);
      const inner = r(kBeta * r(x + r(kKappa * cube)));
      return r(r(0.5 * x) * r(1 + r(Math.tanh(inner))));
    };
  } else {
    const kAlpha = r(Math.SQRT1_2);
    const erfOf = t !== ScalarType.Double && vectorized ? vecErfFloat : erf;
    f = (x) => r(r(x * 0.5) * r(1 + r(erfOf(r(x * kAlpha)))));
  }
  cpu_kernel_unary(iter, { number: f });
});

/** _mm256_fmadd_ps: a * b + c rounded once to float32 (the product of two floats is exact in double). */
const fmaf = (a: number, b: number, c: number) => Math.fround(a * b + c);

/**
 * Vectorized<float>::erf (aten/src/ATen/cpu/vec/vec256/vec256_float.h), which GELU runs on every
 * float32 element: Abramowitz & Stegun 7.1.26, 1 - (a1 t + ... + a5 t^5) exp(-x^2) with
 * t = 1 / (1 + p |x|), in fused multiply-adds (absolute error up to about 1.5e-7, not std::erf's).
 */
function vecErfFloat(x: number): number {
  const f = Math.fround;
  const ax = Math.abs(x);
  const t = f(1 / fmaf(f(0.3275911), ax, 1));
  const r = fmaf(fmaf(fmaf(fmaf(f(1.061405429), t, f(-1.453152027)), t, f(1.421413741)), t, f(-0.284496736)), t, f(0.254829592));
  const e = f(Math.exp(-f(x * x)));
  const y = fmaf(f(-e * t), r, 1);
  return x < 0 || Object.is(x, -0) ? -y : y;
}

/** silu: x / (1 + exp(-x)). */
export const silu_stub = stub("silu_stub", (iter: TensorIterator) =>
  floatKernel("silu_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r) => (x) => r(x / r(1 + r(Math.exp(-x))))));

/** mish: x * tanh(log1p(exp(x))); float and double only. */
export const mish_stub = stub("mish_stub", (iter: TensorIterator) =>
  floatKernel("mish_cpu", FLOATING_TYPES, iter, (r) => (x) => r(x * r(Math.tanh(r(Math.log1p(r(Math.exp(x)))))))));

/** softplus: (a * beta) > threshold ? a : log1p(exp(a * beta)) / beta. */
export const softplus_stub = stub("softplus_stub", (iter: TensorIterator, beta: Scalar, threshold: Scalar) =>
  floatKernel("softplus_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r, t) => {
    const b = coef(beta, t), th = coef(threshold, t);
    return (a) => (r(a * b) > th ? a : r(r(Math.log1p(r(Math.exp(r(a * b))))) / b));
  }));

/** hardsigmoid: min(max(x + 3, 0), 6) / 6. */
export const hardsigmoid_stub = stub("hardsigmoid_stub", (iter: TensorIterator) =>
  floatKernel("hardsigmoid_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r) => (x) => r(Math.min(Math.max(r(x + 3), 0), 6) / 6)));

/** hardswish: x * min(max(x + 3, 0), 6) / 6. */
export const hardswish_stub = stub("hardswish_stub", (iter: TensorIterator) =>
  floatKernel("hardswish_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r) => (x) => r(r(x * Math.min(Math.max(r(x + 3), 0), 6)) / 6)));

/** threshold: x <= threshold ? value : other (other is self again); every real dtype and bfloat16. */
export const threshold_stub = stub("threshold_stub", (iter: TensorIterator, threshold: Scalar, value: Scalar) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("threshold_cpu", t, ALL_TYPES_AND_BFLOAT16);
  const th = scalar_to(threshold, t), v = scalar_to(value, t);
  cpu_kernel_nary(iter, t, { number: (x, other) => (x <= (th as number) ? (v as number) : other), bigint: (x, other) => (x <= (th as bigint) ? (v as bigint) : other) });
});

// ---- the backward kernels derivatives.yaml calls (two inputs, elementwise) ----

/** A two-input floating kernel: AT_DISPATCH over `types`, then `make(step, t)` on (input0, input1). */
function floatKernel2(name: string, types: readonly ScalarType[], iter: TensorIterator, make: (r: Fn, t: ScalarType) => (a: number, b: number) => number): void {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH(name, t, types);
  const f = make(stepOf(t), t);
  // AT_DISPATCH above admits floating types only, so the loop never computes in int64
  const noInt = (): bigint => {
    throw new Error(`${name}: no int64 path`);
  };
  cpu_kernel_nary(iter, t, { number: (a, b) => f(a, b), bigint: noInt });
}

/** leaky_relu_backward over (self_or_result, grad_output): self > 0 ? grad : grad * negval. */
export const leaky_relu_backward_stub = stub("leaky_relu_backward_stub", (iter: TensorIterator, slope: Scalar) =>
  floatKernel2("leaky_relu_backward_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r, t) => {
    const neg = coef(slope, t);
    return (self, grad) => (self > 0 ? grad : r(grad * neg));
  }));

/** hardtanh_backward over (grad_output, self): self <= min || self >= max ? 0 : grad (float and double only; the name is PyTorch's). */
export const hardtanh_backward_stub = stub("hardtanh_backward_stub", (iter: TensorIterator, min: Scalar, max: Scalar) =>
  floatKernel2("hardshrink_backward_cpu", FLOATING_TYPES, iter, (_r, t) => {
    const lo = coef(min, t), hi = coef(max, t);
    return (grad, self) => (self <= lo || self >= hi ? 0 : grad);
  }));

/**
 * hardsigmoid_backward over (grad_output, self): -3 < self < 3 ? grad * one_sixth : 0, where one_sixth
 * is scalar_t(1.0f / 6.0f): the float quotient, so float64 multiplies by float32's 1/6 too.
 */
export const hardsigmoid_backward_stub = stub("hardsigmoid_backward_stub", (iter: TensorIterator) =>
  floatKernel2("hardsigmoid_backward", FLOATING_TYPES_AND_BFLOAT16, iter, (r) => {
    const oneSixth = Math.fround(1 / 6);
    return (grad, self) => (self > -3 && self < 3 ? r(grad * oneSixth) : 0);
  }));

/**
 * elu_backward over (grad_output, self_or_result): is_result ? (b <= 0 ? a * negiptcoef * (b + negcoef) : a * poscoef)
 * : (b <= 0 ? a * negiptcoef * negcoef * exp(b * negiptcoef) : a * poscoef).
 */
export const elu_backward_stub = stub("elu_backward_stub", (iter: TensorIterator, alpha: Scalar, scale: Scalar, inputScale: Scalar, isResult: boolean) =>
  floatKernel2("elu_backward_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r, t) => {
    const negcoef = r(coef(alpha, t) * coef(scale, t)), poscoef = coef(scale, t), negiptcoef = coef(inputScale, t);
    return isResult
      ? (a, b) => (b <= 0 ? r(r(a * negiptcoef) * r(b + negcoef)) : r(a * poscoef))
      : (a, b) => (b <= 0 ? r(r(r(a * negiptcoef) * negcoef) * r(Math.exp(r(b * negiptcoef)))) : r(a * poscoef));
  }));

/**
 * GeluBackwardKernelImpl over (grad_output, self), written as its Vectorized lambda (float32 in float,
 * erf through Vectorized<float>::erf when every operand is contiguous; bfloat16 computed in float):
 * 'none': dy * (cdf + x * pdf), cdf = 0.5 (1 + erf(x / sqrt 2)), pdf = exp(-x^2 / 2) / sqrt(2 pi);
 * 'tanh': dy * (0.5 (1 + tanh(inner)) + 0.5 x (1 - tanh(inner)^2) kBeta (1 + 3 kKappa x^2)).
 */
export const GeluBackwardKernel = stub("GeluBackwardKernel", (iter: TensorIterator, approximate: "none" | "tanh") => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("GeluBackwardKernelImpl", t, FLOATING_TYPES_AND_BFLOAT16);
  const vectorized = iter.output.is_contiguous() && iter.inputs.every((u) => u.is_contiguous());
  // as in the forward kernel: bfloat16 rounds every operation to bfloat16 for tanh, and for erf off the vector path
  const bf16Ops = t === ScalarType.BFloat16 && (approximate === "tanh" || !vectorized);
  const r: Fn = bf16Ops ? (x) => roundToScalarType(t, x) : stepOf(t);
  let f: (dy: number, x: number) => number;
  if (approximate === "tanh") {
    const kBeta = r(Math.SQRT2 * M_2_SQRTPI * 0.5), kKappa = r(0.044715);
    f = (dy, x) => {
      const x_sq = r(x * x), x_cube = r(x * x_sq);
      const inner = r(kBeta * r(x + r(kKappa * x_cube)));
      const tanh_inner = r(Math.tanh(inner));
      const left = r(0.5 * x), right = r(1 + tanh_inner);
      const left_derivative = r(0.5 * right);
      const tanh_derivative = r(1 - r(tanh_inner * tanh_inner));
      const inner_derivative = r(kBeta * r(1 + r(r(3 * kKappa) * x_sq)));
      const right_derivative = r(r(left * tanh_derivative) * inner_derivative);
      return r(dy * r(left_derivative + right_derivative));
    };
  } else {
    const kBeta = r(M_2_SQRTPI * Math.SQRT1_2 * 0.5), kAlpha = r(Math.SQRT1_2);
    const erfOf = t !== Double && vectorized ? vecErfFloat : erf;
    f = (dy, x) => {
      const cdf = r(0.5 * r(1 + r(erfOf(r(x * kAlpha)))));
      const pdf = r(kBeta * r(Math.exp(r(r(x * x) * -0.5))));
      return r(dy * r(cdf + r(x * pdf)));
    };
  }
  cpu_kernel_nary(iter, t, { number: f, bigint: () => { throw new Error("GeluBackwardKernelImpl: no int64 path"); } });
});
const M_2_SQRTPI = 2 / Math.sqrt(Math.PI);

/** softplus_backward over (grad_output, self): z = exp(b * beta); (b * beta) > threshold ? a : a * z / (z + 1). */
export const softplus_backward_stub = stub("softplus_backward_stub", (iter: TensorIterator, beta: Scalar, threshold: Scalar) =>
  floatKernel2("softplus_backward_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r, t) => {
    const b = coef(beta, t), th = coef(threshold, t);
    return (a, x) => {
      const xb = r(x * b), z = r(Math.exp(xb));
      return xb > th ? a : r(r(a * z) / r(z + 1));
    };
  }));

/** hardswish_backward over (grad_output, self): self < -3 ? 0 : self <= 3 ? grad * (self / 3 + 0.5) : grad. */
export const hardswish_backward_stub = stub("hardswish_backward_stub", (iter: TensorIterator) =>
  floatKernel2("hardswish_backward_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r) => (g, x) => (x < -3 ? 0 : x <= 3 ? r(g * r(r(x / 3) + 0.5)) : g)));

/** silu_backward over (grad_output, self): sigmoid = 1 / (1 + exp(-x)); dy * sigmoid * (1 + x * (1 - sigmoid)). */
export const silu_backward_stub = stub("silu_backward_stub", (iter: TensorIterator) => {
  const t = iter.commonDtype.scalarType;
  // 1.13 runs bfloat16 through Vectorized<BFloat16>: every operation rounds to bfloat16
  const r: Fn = t === ScalarType.BFloat16 ? (x) => roundToScalarType(t, x) : stepOf(t);
  floatKernel2("silu_backward_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, () => (dy, x) => {
    const sigmoid = r(1 / r(1 + r(Math.exp(r(-x)))));
    return r(r(dy * sigmoid) * r(1 + r(x * r(1 - sigmoid))));
  });
});

/** mish_backward over (grad_output, self), float and double only: dy * (tanh_sp + x * sigmoid * (1 - tanh_sp^2)). */
export const mish_backward_stub = stub("mish_backward_stub", (iter: TensorIterator) =>
  floatKernel2("mish_backward_cpu", FLOATING_TYPES, iter, (r) => (dy, x) => {
    const sigmoid = r(1 / r(1 + r(Math.exp(-x))));
    const tanh_softplus = r(Math.tanh(r(Math.log1p(r(Math.exp(x))))));
    return r(dy * r(tanh_softplus + r(r(x * sigmoid) * r(1 - r(tanh_softplus * tanh_softplus)))));
  }));

/**
 * log_sigmoid_backward over (input, buffer, grad_output), buffer = exp(-|x|):
 * (max_deriv - sign * b / (1 + b)) * c, max_deriv = x < 0 ? 1 : 0, sign = x < 0 ? 1 : -1.
 */
export const log_sigmoid_backward_stub = stub("log_sigmoid_backward_stub", (iter: TensorIterator) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("log_sigmoid_backward_cpu", t, FLOATING_TYPES_AND_BFLOAT16);
  const r = stepOf(t);
  cpu_kernel_nary(iter, t, {
    number: (a, b, c) => {
      const neg = a < 0;
      return r(r((neg ? 1 : 0) - r((neg ? 1 : -1) * r(b / r(1 + b)))) * c);
    },
    bigint: () => { throw new Error("log_sigmoid_backward_cpu: no int64 path"); },
  });
});

// ---- glu (aten/src/ATen/native/cpu/Activation.cpp glu_kernel, glu_backward_kernel) ----

/** glu over (first half a, second half b): a * (1 / (1 + exp(-b))), each step in the opmath type. */
export const glu_stub = stub("glu_stub", (iter: TensorIterator) =>
  floatKernel2("glu_cpu", FLOATING_TYPES_AND_BFLOAT16, iter, (r) => (a, b) => r(a * r(1 / r(1 + r(Math.exp(-b)))))));

/** glu_backward over (sigmoid(b) a, first half b, grad_output c): (1 - a) * a * b * c, left to right. */
export const glu_backward_stub = stub("glu_backward_stub", (iter: TensorIterator) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("glu_backward_cpu", t, FLOATING_TYPES_AND_BFLOAT16);
  const r = stepOf(t);
  cpu_kernel_nary(iter, t, {
    number: (a, b, c) => r(r(r(r(1 - a) * a) * b) * c),
    bigint: () => {
      throw new Error("glu_backward_cpu: no int64 path");
    },
  });
});
