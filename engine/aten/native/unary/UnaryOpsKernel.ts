// The unary family's DispatchStubs and their TypeScript kernels (aten/src/ATen/native/UnaryOps.h
// declares the stubs, aten/src/ATen/native/cpu/UnaryOpsKernel.cpp implements them).
//
// Numerics. A float kernel computes in double and rounds once to float32: the correctly rounded
// result. PyTorch's AVX2 build runs SLEEF's vectorized u10 functions (error < 1 ulp), so the two
// agree exactly or differ by one ulp (the tests allow that, 2 for erfc and erfinv) and are bit-equal
// where the math is exact (neg, abs, sign, rounding, reciprocal, sqrt, rsqrt, clamp...).
// Where PyTorch spells a function as several float operations (sigmoid = 1 / (1 + exp(-x)),
// rsqrt = 1 / sqrt(x)), each step rounds to float32 here too. float16 and bfloat16 compute in
// float32 and round once at the end, as Vectorized<BFloat16> does, except where PyTorch's kernel is
// written in scalar_t arithmetic that rounds after every step (logit, round(decimals=)). int64 ops
// that stay integral (neg, abs, sign, square, bitwise_not) use BigInt so they wrap as C++ does.

import { ScalarType, isIntegralType } from "../../../c10/ScalarType.js";
import type { Scalar } from "../../core/Tensor.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { cpu_kernel_unary, type UnaryScalarOp } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import type { TensorIterator } from "../TensorIterator.js";
import { AT_DISPATCH, ALL_TYPES_AND_BOOL, ALL_TYPES_AND_HALF, FLOATING_TYPES_AND_BFLOAT16, FLOATING_TYPES_AND_HALF, INTEGRAL_TYPES } from "./Dispatch.js";
import { calc_erfinv, erf, erfc, nearbyint } from "./UnaryMath.js";
import { calc_digamma, calc_polygamma, calc_trigamma, lgamma } from "./GammaMath.js";

const REF = "aten/src/ATen/native/cpu/UnaryOpsKernel.cpp";
type Fn = (x: number) => number;
type UnaryFn = (iter: TensorIterator) => void;

const fround = Math.fround;
const identity: Fn = (x) => x;

/** The arithmetic of the compute dtype: each operation rounds to it (float32 math for float32). */
function roundingOf(t: ScalarType): Fn {
  if (t === ScalarType.Double) return identity;
  if (t === ScalarType.Float) return fround;
  return (v) => roundToScalarType(t, v);
}

function stub(name: string, fn: UnaryFn): DispatchStub<UnaryFn> {
  const s = new DispatchStub<UnaryFn>(name, REF);
  s.register("ts", fn);
  return s;
}

/**
 * A floating-point kernel: AT_DISPATCH over `types` (named `name`), then `f` in double, rounded once
 * to float32 for every narrower dtype. `f32` replaces that for kernels PyTorch writes as several
 * float32 steps.
 */
function floatStub(stubName: string, name: string, types: readonly ScalarType[], f: Fn, f32?: Fn): DispatchStub<UnaryFn> {
  return stub(stubName, (iter) => {
    const t = iter.commonDtype.scalarType;
    AT_DISPATCH(name, t, types);
    cpu_kernel_unary(iter, { number: t === ScalarType.Double ? f : f32 ?? ((x) => fround(f(x))) });
  });
}

/** IMPLEMENT_FLOAT_KERNEL / IMPLEMENT_COMPLEX_KERNEL: the vml kernels, float, double and bfloat16 only. */
const vmlStub = (op: string, f: Fn, f32?: Fn) => floatStub(`${op}_stub`, `${op}_vml_cpu`, FLOATING_TYPES_AND_BFLOAT16, f, f32);

// ---- sign and magnitude ----

export const neg_stub = stub("neg_stub", (iter) => {
  AT_DISPATCH("neg_cpu", iter.commonDtype.scalarType, ALL_TYPES_AND_HALF);
  cpu_kernel_unary(iter, { number: (a) => -a, bigint: (a) => -a });
});

export const abs_stub = stub("abs_stub", (iter) => {
  AT_DISPATCH("abs_cpu", iter.commonDtype.scalarType, ALL_TYPES_AND_HALF);
  cpu_kernel_unary(iter, { number: Math.abs, bigint: (a) => (a < 0n ? -a : a) });
});

/** (0 < a) - (a < 0): nan and -0.0 give +0. bool is its own sign. */
export const sign_stub = stub("sign_stub", (iter) => {
  const t = iter.commonDtype.scalarType;
  if (t === ScalarType.Bool) return cpu_kernel_unary(iter, { number: identity });
  AT_DISPATCH("sign_cpu", t, ALL_TYPES_AND_HALF);
  cpu_kernel_unary(iter, { number: (a) => (a > 0 ? 1 : 0) - (a < 0 ? 1 : 0), bigint: (a) => (a > 0n ? 1n : a < 0n ? -1n : 0n) });
});

// ---- exponentials, logarithms, roots ----

export const exp_stub = vmlStub("exp", Math.exp);
export const expm1_stub = vmlStub("expm1", Math.expm1);
export const log_stub = vmlStub("log", Math.log);
export const log2_stub = vmlStub("log2", Math.log2);
export const log10_stub = vmlStub("log10", Math.log10);
export const log1p_stub = vmlStub("log1p", Math.log1p);
export const sqrt_stub = vmlStub("sqrt", Math.sqrt);
export const exp2_stub = floatStub("exp2_stub", "exp2", FLOATING_TYPES_AND_HALF, (x) => 2 ** x);
/** 1 / sqrt(x): two float roundings (_mm256_div_ps(1, _mm256_sqrt_ps(x))). */
export const rsqrt_stub = floatStub("rsqrt_stub", "rsqrt_cpu", FLOATING_TYPES_AND_BFLOAT16, (x) => 1 / Math.sqrt(x), (x) => fround(1 / fround(Math.sqrt(x))));
export const reciprocal_stub = floatStub("reciprocal_stub", "reciprocal_cpu", FLOATING_TYPES_AND_HALF, (x) => 1 / x);

// ---- trigonometric and hyperbolic ----

export const sin_stub = vmlStub("sin", Math.sin);
export const cos_stub = vmlStub("cos", Math.cos);
export const tan_stub = vmlStub("tan", Math.tan);
export const asin_stub = vmlStub("asin", Math.asin);
export const acos_stub = vmlStub("acos", Math.acos);
export const atan_stub = vmlStub("atan", Math.atan);
export const tanh_stub = vmlStub("tanh", Math.tanh);
export const sinh_stub = floatStub("sinh_stub", "sinh_cpu", FLOATING_TYPES_AND_BFLOAT16, Math.sinh);
export const cosh_stub = floatStub("cosh_stub", "cosh_cpu", FLOATING_TYPES_AND_BFLOAT16, Math.cosh);

/** The inverse hyperbolic functions: std::asinh etc. of scalar_t (float32 and bfloat16 through float). */
export const asinh_stub = floatStub("asinh_stub", "asinh_cpu", FLOATING_TYPES_AND_BFLOAT16, Math.asinh);
export const acosh_stub = floatStub("acosh_stub", "acosh_cpu", FLOATING_TYPES_AND_BFLOAT16, Math.acosh);
export const atanh_stub = floatStub("atanh_stub", "atanh_cpu", FLOATING_TYPES_AND_BFLOAT16, Math.atanh);

// ---- the gamma family (GammaMath.ts) ----

/** lgamma (PyTorch's AVX2 build: SLEEF's lgamma u10, within an ulp); float32 is the double result rounded once. */
export const lgamma_stub = vmlStub("lgamma", lgamma);
/** calc_digamma: float32 and bfloat16 run Math.h's float overload, step for step. */
export const digamma_stub = floatStub("digamma_stub", "digamma", FLOATING_TYPES_AND_BFLOAT16, (x) => calc_digamma(x), (x) => calc_digamma(x, fround));
export const trigamma_stub = floatStub("trigamma_stub", "trigamma", FLOATING_TYPES_AND_BFLOAT16, (x) => calc_trigamma(x), (x) => calc_trigamma(x, fround));
/** polygamma_kernel: n = 0 is digamma, n = 1 trigamma, larger n calc_polygamma. */
export const polygamma_stub = new DispatchStub<(iter: TensorIterator, n: number) => void>("polygamma_stub", REF);
polygamma_stub.register("ts", (iter, n) => {
  if (n === 0) return digamma_stub.call(iter.output.device.type, iter);
  if (n === 1) return trigamma_stub.call(iter.output.device.type, iter);
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("polygamma", t, FLOATING_TYPES_AND_BFLOAT16);
  // zeta accumulates in at::acc_type: double for float32, float for bfloat16
  const acc = t === ScalarType.BFloat16 ? fround : identity;
  cpu_kernel_unary(iter, { number: t === ScalarType.Double ? (x) => calc_polygamma(n, x) : (x) => calc_polygamma(n, x, fround, acc) });
});

// ---- sigmoid, logit ----

/** 1 / (1 + exp(-x)), each step a float operation (bfloat16 goes through float, as PyTorch's special case). */
export const sigmoid_stub = floatStub(
  "sigmoid_stub", "sigmoid_cpu", FLOATING_TYPES_AND_BFLOAT16,
  (x) => 1 / (1 + Math.exp(-x)),
  (x) => fround(1 / fround(1 + fround(Math.exp(-x)))),
);

/**
 * log(x / (1 - x)), with x clamped to [eps, 1 - eps] when eps >= 0 (eps = -1 stands for None). The
 * clamp is vec::clamp's, min(hi, max(lo, x)): for eps > 0.5 (lo > hi) every x becomes hi, as on
 * PyTorch's vectorized path; its scalar path (tails of contiguous data, strided inputs) gives lo below lo.
 */
export const logit_stub = new DispatchStub<(iter: TensorIterator, eps: Scalar) => void>("logit_stub", REF);
logit_stub.register("ts", (iter, epsScalar) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("logit_cpu", t, FLOATING_TYPES_AND_BFLOAT16);
  const r = roundingOf(t); // scalar_t arithmetic: bfloat16 rounds after every step
  const eps = r(Number(epsScalar));
  const logit = (x: number) => (x === 1 ? Infinity : r(Math.log(r(x / r(1 - x)))));
  if (Number.isNaN(eps) || eps < 0) return cpu_kernel_unary(iter, { number: logit });
  const lo = eps, hi = r(1 - eps);
  cpu_kernel_unary(iter, {
    number: (x) => {
      const atLeastLo = x < lo ? lo : x; // NaN passes through both steps
      return logit(atLeastLo > hi ? hi : atLeastLo);
    },
  });
});

// ---- error functions ----

export const erf_stub = vmlStub("erf", erf);
export const erfc_stub = vmlStub("erfc", erfc);
/** calc_erfinv in the compute dtype's own arithmetic (Math.h), float steps for float32. */
export const erfinv_stub = vmlStub("erfinv", (x) => calc_erfinv(x), (x) => calc_erfinv(x, fround));

// ---- rounding (integer inputs never get here: the structured kernels copy them) ----

export const floor_stub = vmlStub("floor", Math.floor);
export const ceil_stub = vmlStub("ceil", Math.ceil);
export const round_stub = vmlStub("round", nearbyint);
export const trunc_stub = vmlStub("trunc", Math.trunc);
/** a - trunc(a): exact in every float dtype. */
export const frac_stub = floatStub("frac_stub", "frac_cpu", FLOATING_TYPES_AND_HALF, (x) => x - Math.trunc(x));

/** nearbyint(a * 10^d) / 10^d, or nearbyint(a / 10^-d) * 10^-d for negative d, in scalar_t arithmetic. */
export const round_decimals_stub = new DispatchStub<(iter: TensorIterator, decimals: number) => void>("round_decimals_stub", REF);
round_decimals_stub.register("ts", (iter, decimals) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("round_cpu", t, FLOATING_TYPES_AND_BFLOAT16);
  const r = roundingOf(t);
  const tenPow = r(10 ** Math.abs(decimals));
  const op = decimals < 0 ? (a: number) => r(nearbyint(r(a / tenPow)) * tenPow) : (a: number) => r(nearbyint(r(a * tenPow)) / tenPow);
  cpu_kernel_unary(iter, { number: op });
});

// ---- nan_to_num ----

/** std::numeric_limits<scalar_t>::max() of the float dtypes. */
const FLOAT_MAX: Partial<Record<ScalarType, number>> = {
  [ScalarType.Double]: Number.MAX_VALUE,
  [ScalarType.Float]: 3.4028234663852886e38,
  [ScalarType.Half]: 65504,
  [ScalarType.BFloat16]: 3.3895313892515355e38,
};

export const nan_to_num_stub = new DispatchStub<(iter: TensorIterator, nan: number | null, posinf: number | null, neginf: number | null) => void>("nan_to_num_stub", REF);
/**
 * nan_to_num's replacements for NaN, +inf and -inf in dtype t: static_cast<scalar_t> of the given ones
 * (a value too large for the dtype becomes inf), the dtype's largest finite values by default.
 */
export function nanToNumReplacements(t: ScalarType, nan: number | null, posinf: number | null, neginf: number | null): [number, number, number] {
  const r = (v: number) => roundToScalarType(t, v);
  return [r(nan ?? 0), posinf === null ? FLOAT_MAX[t]! : r(posinf), neginf === null ? -FLOAT_MAX[t]! : r(neginf)];
}

nan_to_num_stub.register("ts", (iter, nan, posinf, neginf) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("nan_to_num", t, FLOATING_TYPES_AND_HALF);
  const [nanR, posR, negR] = nanToNumReplacements(t, nan, posinf, neginf);
  cpu_kernel_unary(iter, { number: (a) => (Number.isNaN(a) ? nanR : a === Infinity ? posR : a === -Infinity ? negR : a) });
});

// ---- logical_not, bitwise_not ----

/** !a for any input dtype, stored as the output's dtype (bool, or whatever out= holds). */
export const logical_not_stub = stub("logical_not_stub", (iter) => {
  AT_DISPATCH("logical_not_cpu", iter.commonDtype.scalarType, ALL_TYPES_AND_BOOL);
  cpu_kernel_unary(iter, { number: (a) => (a === 0 ? 1 : 0), bigint: (a) => (a === 0n ? 1n : 0n) });
});

export const bitwise_not_stub = stub("bitwise_not_stub", (iter) => {
  const t = iter.commonDtype.scalarType;
  if (t === ScalarType.Bool) return cpu_kernel_unary(iter, { number: (a) => (a ? 0 : 1) });
  AT_DISPATCH("bitwise_not_cpu", t, INTEGRAL_TYPES);
  cpu_kernel_unary(iter, { number: (a) => ~a, bigint: (a) => ~a });
});

// ---- helpers the structured kernels use ----

/** result.copy_(self): floor/ceil/round/trunc/nan_to_num leave integers as they are. */
export function copy_kernel(iter: TensorIterator): void {
  cpu_kernel_unary(iter, { number: identity, bigint: (a) => a });
}
