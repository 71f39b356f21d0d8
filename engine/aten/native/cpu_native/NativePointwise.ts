// The native pointwise kernels (issue #8 item 4; native/cpu/Pointwise.cc, pointwise_kernels.inc),
// registered into the DispatchStubs they cover. Each hands the addon the operands' typed arrays with
// sizes, element strides and storage offsets (the TensorIterator's view), plus the op's Scalars
// converted as the TypeScript kernel converts them (scalar_to, fround), and the addon works in place.
//
// Covered (every layout: contiguous, strided, broadcast; any operand not in the op's dtype, other
// than a 0-d input, declines to the TypeScript kernel):
//   add (alpha), mul, maximum/minimum (both stubs), eq/ne/lt/le/gt/ge (bool out), threshold
//     (relu backward), neg, abs, clamp/clamp_min/clamp_max with Scalar bounds (relu):
//     uint8, int8, int16, int32, int64, float32, float64 (bool for add/mul/maximum/minimum/compare)
//   div, sqrt, rsqrt, reciprocal, exp, log, tanh, sigmoid, silu, sin, cos, erf, pow(Tensor, Scalar)
//     for exponents 2, 3, 0.5, -0.5, -1, -2, addcmul, addcdiv, lerp, gelu (both approximations),
//     gelu_backward, silu_backward, floor, ceil, trunc, round, frac (exact), log1p, expm1, log2, log10,
//     exp2, sinh, cosh (double polynomials, vectorized), tan (glibc), asin, acos, atan (FDLIBM, as V8's
//     Math functions, vectorized; float32 in float, within 1 ulp), erf/erfc (float32: FDLIBM, vectorized; float64: glibc), erfinv
//     (calc_erfinv; float32 branch-free, vectorized), logit (eps; float32: log in float, within 1 ulp), asinh/acosh/atanh
//     (float32: double formulas on log_d, vectorized; float64: glibc), lgamma (glibc's lgamma_r), digamma, trigamma
//     (Math.h's), glu (a * sigmoid(b) over the halves): float32, float64
//     (and bfloat16/float16 in float where the TS kernel takes them); sign: every dtype; mse_loss's
//     (a - b)^2: float32, float64
//   remainder, fmod, div 'trunc' / 'floor', pow(Tensor, Tensor): the integer dtypes (a zero divisor
//     raises ZeroDivisionError), float32, float64; atan2 (FDLIBM, vectorized; float32 on the FMA units in float, 1 ulp), hypot, copysign, fmax, fmin, xlogy and
//     pow(Tensor, Scalar) for the other exponents (hypot and float64 pow: glibc's; float32 pow: e^(y log|x|)
//     in double, vectorized, C's special cases selected, within 1 ulp): float32, float64
//   copy_ (contiguous(), .to()): every pair of those dtypes, bool, float16 and bfloat16, when source
//     and destination do not share a storage (an overlapping copy's order is the TS kernel's business)
//   flip_stub (flip): the same copy with self read backwards along the flipped dims
//   nan_to_num: float32, float64
//   logical_and/or/xor/not (bool out, every dtype above; and/or/xor of mixed dtypes, float16 and bfloat16
//     included, each operand read in its own dtype), bitwise_and/or/xor/not (the integer types, bool)
//   the activations leaky_relu, elu (selu, celu), softplus, hardsigmoid, hardswish (float32, float64,
//     bfloat16 in float) and mish (float32, float64), and the backward kernels of those and of hardtanh
//     (pointwise_activation.inc): float32 and bfloat16 the TS kernels' bits, float64 within the last bits
//   float16 and bfloat16, computed in float a block at a time and rounded once (where the TS kernel
//     takes the dtype: its AT_DISPATCH list): add, mul, div, maximum/minimum, the comparisons, neg,
//     abs, reciprocal; bfloat16 also sqrt, rsqrt, threshold, clamp with Scalar bounds and exp, log,
//     tanh, sigmoid, silu (the float loops are within 1 ulp of the TS kernels' float, so an element
//     can differ by one bfloat16 ulp where that float ulp crosses a rounding boundary), sin, cos,
//     erf, addcmul, addcdiv, lerp, and gelu, gelu_backward, silu_backward and pow, whose strided and
//     tanh forms (silu_backward: all) round every step to bfloat16 as PyTorch's scalar_t arithmetic does

import { ScalarType, isFloatingType, isIntegralType } from "../../../c10/ScalarType.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { typedView, readNumber, type TypedView } from "../../../c10/ElementAccess.js";
import type { TensorImpl } from "../../../c10/TensorImpl.js";
import type { Scalar, Tensor } from "../../core/Tensor.js";
import type { TensorIterator } from "../TensorIterator.js";
import { toCommon } from "../Loops.js";
import { add_stub, mul_stub } from "../BinaryOps.js";
import { maximum_stub, minimum_stub } from "../binary/MaxMin.js";
import { eq_stub, ne_stub, lt_stub, le_stub, gt_stub, ge_stub } from "../binary/Compare.js";
import { logical_and_stub, logical_or_stub, logical_xor_stub } from "../binary/Logical.js";
import { bitwise_and_stub, bitwise_or_stub, bitwise_xor_stub } from "../binary/Bitwise.js";
import { addcmul_stub, addcdiv_stub } from "../binary/PointwiseOps.js";
import { lerp_kernel_scalar_weight, lerp_kernel_tensor_weight } from "../binary/Lerp.js";
import { pow_tensor_scalar_stub, pow_tensor_tensor_stub } from "../binary/Pow.js";
import { remainder_stub, fmod_stub } from "../binary/Remainder.js";
import { div_true_stub, div_floor_stub, div_trunc_stub } from "../binary/Div.js";
import { atan2_stub, hypot_stub, copysign_stub } from "../binary/FloatBinaryOps.js";
import { fmax_stub, fmin_stub } from "../binary/MaxMin.js";
import { xlogy_stub } from "../binary/Xlogy.js";
import { index_add_stub } from "../index/IndexAdd.js";
import {
  neg_stub, abs_stub, sqrt_stub, rsqrt_stub, reciprocal_stub, exp_stub, log_stub, tanh_stub, sigmoid_stub, sin_stub, cos_stub, erf_stub,
  floor_stub, ceil_stub, trunc_stub, round_stub, frac_stub, sign_stub, log1p_stub, expm1_stub, log2_stub, log10_stub, exp2_stub,
  sinh_stub, cosh_stub, tan_stub, asin_stub, acos_stub, atan_stub, logical_not_stub, bitwise_not_stub, nan_to_num_stub,
  nanToNumReplacements, erfc_stub, erfinv_stub, logit_stub,
  asinh_stub, acosh_stub, atanh_stub, lgamma_stub, digamma_stub, trigamma_stub,
} from "../unary/UnaryOpsKernel.js";
import {
  clamp_scalar_stub, clamp_min_scalar_stub, clamp_max_scalar_stub, maximum_stub as clamp_maximum_stub, minimum_stub as clamp_minimum_stub,
} from "../unary/Clamp.js";
import { scalar_to } from "../unary/ScalarConvert.js";
import {
  silu_stub, GeluKernel, threshold_stub, GeluBackwardKernel, silu_backward_stub, leaky_relu_stub, elu_stub, softplus_stub, mish_stub,
  hardsigmoid_stub, hardswish_stub, glu_stub, leaky_relu_backward_stub, hardtanh_backward_stub, hardsigmoid_backward_stub, elu_backward_stub,
  softplus_backward_stub, hardswish_backward_stub, mish_backward_stub, coef, stepOf,
} from "../activation/ActivationKernel.js";
import { copy_stub } from "../shape/CopyKernel.js";
import { shapeCopy } from "./NativeShape.js";
import { flip_stub } from "../join/Reorder.js";
import { mse_stub } from "../loss/LossKernel.js";
import { ALL_TYPES_AND_BFLOAT16, ALL_TYPES_AND_BOOL, FLOATING_TYPES_AND_BFLOAT16, FLOATING_TYPES_AND_HALF } from "../unary/Dispatch.js";
import { bfloat16BitsFromNumber, halfBitsFromNumber } from "../../../c10/util/Half.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";
import { metaArray, broadcastStrides, walkMeta } from "./NativeMeta.js";
import { registerReductionKernels } from "./NativeReductions.js";

/** The op codes of native/cpu/pointwise_kernels.h. */
export const PwOp = {
  add: 0, mul: 1, div: 2, maximum: 3, minimum: 4, maximumTie2: 5, minimumTie2: 6,
  eq: 7, ne: 8, lt: 9, le: 10, gt: 11, ge: 12, threshold: 13,
  neg: 14, abs: 15, sqrt: 16, rsqrt: 17, reciprocal: 18, exp: 19, log: 20, tanh: 21, sigmoid: 22, silu: 23, sin: 24, cos: 25, erf: 26,
  geluErfVec: 27, geluErf: 28, geluTanh: 29, clamp: 30, clampMin: 31, clampMax: 32, powScalar: 33,
  lerpScalar: 34, addcmul: 35, addcdiv: 36, lerpTensor: 37,
  geluBackwardErfVec: 38, geluBackwardErf: 39, geluBackwardTanh: 40, siluBackward: 41,
  floor: 42, ceil: 43, trunc: 44, round: 45, frac: 46, sign: 47, log1p: 48, expm1: 49, log2: 50, log10: 51, exp2: 52,
  sinh: 53, cosh: 54, tan: 55, asin: 56, acos: 57, atan: 58, mse: 59,
  remainder: 60, fmod: 61, divTrunc: 62, divFloor: 63, atan2: 64, hypot: 65, copysign: 66, fmax: 67, fmin: 68, xlogy: 69, powTensor: 70,
  powScalarAny: 71,
  leakyRelu: 72, elu: 73, softplus: 74, mish: 75, hardsigmoid: 76, hardswish: 77,
  leakyReluBackward: 78, hardtanhBackward: 79, hardsigmoidBackward: 80, eluBackward: 81, softplusBackward: 82, hardswishBackward: 83, mishBackward: 84,
  logicalAnd: 85, logicalOr: 86, logicalXor: 87, bitwiseAnd: 88, bitwiseOr: 89, bitwiseXor: 90, logicalNot: 91, bitwiseNot: 92,
  nanToNum: 93, erfc: 94, erfinv: 95, logit: 96, logicalAndMixed: 97, logicalOrMixed: 98, logicalXorMixed: 99,
  asinh: 100, acosh: 101, atanh: 102, lgamma: 103, digamma: 104, trigamma: 105, glu: 106,
} as const;

const { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16 } = ScalarType;
/** The dtypes the pointwise table has loops for (float16/bfloat16: some ops, the rest return false). */
const NATIVE_DTYPES = new Set<ScalarType>([Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16]);
/** threshold's and clamp(Scalar)'s TS kernels refuse float16 (AT_DISPATCH over these). */
const REAL_AND_BFLOAT16: readonly ScalarType[] = ALL_TYPES_AND_BFLOAT16;
const FLOAT_AND_BFLOAT16: readonly ScalarType[] = FLOATING_TYPES_AND_BFLOAT16;

/** One element of dtype t holding a 0-d input of another dtype, converted as the TS loops convert it. */
function scalarOperand(impl: TensorImpl, t: ScalarType): TypedView {
  const view = typedView(impl.storage, impl.dtype);
  const off = impl.storage_offset();
  if (t === Long) {
    const v = impl.dtype.scalarType === Long ? (view[off] as bigint) : BigInt(Math.trunc(readNumber(view, impl.dtype.scalarType, off)));
    return new BigInt64Array([v]);
  }
  const v = toCommon(t, readNumber(view, impl.dtype.scalarType, off));
  switch (t) {
    case Float: return new Float32Array([v]);
    case Double: return new Float64Array([v]);
    case Int: return new Int32Array([v]);
    case Short: return new Int16Array([v]);
    case Char: return new Int8Array([v]);
    case Half: return new Uint16Array([halfBitsFromNumber(v)]);
    case BFloat16: return new Uint16Array([bfloat16BitsFromNumber(v)]);
    default: return new Uint8Array([v]); // uint8, bool
  }
}

/**
 * meta = [ndim, shape..., then per operand: offset, strides...] and the typed arrays, for operands
 * [out, ...inputs] each in its expected dtype (inType, or inType[k] for input k); null when one is
 * not (a 0-d input is converted).
 */
function marshal(shape: readonly number[], out: TensorImpl, inputs: readonly TensorImpl[], outType: ScalarType, inType: ScalarType | readonly ScalarType[]): { meta: Float64Array; arrays: TypedView[] } | null {
  if (out.dtype.scalarType !== outType) return null;
  const nd = shape.length;
  const meta = metaArray(1 + nd + (1 + inputs.length) * (1 + nd));
  meta[0] = nd;
  for (let d = 0; d < nd; d++) meta[1 + d] = shape[d];
  const arrays: TypedView[] = [typedView(out.storage, out.dtype)];
  let at = 1 + nd;
  meta[at] = out.storage_offset();
  broadcastStrides(out, shape, meta, at + 1);
  at += 1 + nd;
  for (const [k, t] of inputs.entries()) {
    const want = typeof inType === "number" ? inType : inType[k];
    if (t.dtype.scalarType === want) {
      arrays.push(typedView(t.storage, t.dtype));
      meta[at] = t.storage_offset();
      broadcastStrides(t, shape, meta, at + 1);
    } else if (t.dim() === 0) {
      arrays.push(scalarOperand(t, want));
      meta[at] = 0;
      meta.fill(0, at + 1, at + 1 + nd);
    } else {
      return null;
    }
    at += 1 + nd;
  }
  return { meta, arrays };
}

const scalarsCache = [new Float64Array(4)];
function scalars(a = 0, b = 0, c = 0, d = 0): Float64Array {
  const s = scalarsCache[0];
  s[0] = a;
  s[1] = b;
  s[2] = c;
  s[3] = d;
  return s;
}

/** scalar_to(s, t) as a double the addon can take exactly; null for an int64 beyond 2^53. */
function scalarAs(s: Scalar, t: ScalarType): number | null {
  const v = scalar_to(s, t);
  if (typeof v === "bigint") return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : null;
  return v;
}

/** How many inputs each op reads (Pointwise.cc's arity, less the output). */
function arityOf(op: number): number {
  if (op >= PwOp.remainder && op <= PwOp.powTensor) return 2;
  if (op === PwOp.powScalarAny) return 1;
  if (op <= PwOp.threshold || op === PwOp.lerpScalar || (op >= PwOp.geluBackwardErfVec && op <= PwOp.siluBackward) || op === PwOp.mse) return 2;
  if (op >= PwOp.addcmul && op <= PwOp.lerpTensor) return 3;
  if (op >= PwOp.leakyReluBackward && op <= PwOp.mishBackward) return 2;
  if (op >= PwOp.logicalAnd && op <= PwOp.bitwiseXor) return 2;
  if (op >= PwOp.logicalAndMixed && op <= PwOp.logicalXorMixed) return 2;
  if (op === PwOp.glu) return 2;
  return 1;
}

export function registerPointwiseKernels(addon: NativeAddon): void {
  registerReductionKernels(addon);
  /** op over the iterator's output and its first `arity` inputs; out in outType (default: the common dtype). */
  const run = (op: number, iter: TensorIterator, sc: Float64Array, outType?: ScalarType, inType?: ScalarType): boolean => {
    const t = inType ?? iter.commonDtype.scalarType;
    if (!NATIVE_DTYPES.has(t) || iter.numel() < nativeSizePolicy.minNumel) return false;
    const arity = arityOf(op);
    if (iter.inputs.length < arity) return false;
    const inputs = iter.inputs.slice(0, arity).map((u) => u._impl);
    const m = marshal(iter.shape, iter.output._impl, inputs, outType ?? t, t);
    if (m === null) return false;
    const a = m.arrays;
    const ran = addon.pw_op(op, t, m.meta, sc, a[0], a[1], a[2], a[3]);
    if (ran === "ZeroDivisionError") throw new RuntimeError("ZeroDivisionError"); // (the TS kernels' and PyTorch's text)
    return ran;
  };
  const simple = (op: number) => (iter: TensorIterator) => run(op, iter, scalars());
  /** An op whose TS kernel takes only `types` (its AT_DISPATCH list): other dtypes get its error there. */
  const within = (types: readonly ScalarType[], op: number) => (iter: TensorIterator) => types.includes(iter.commonDtype.scalarType) && run(op, iter, scalars());

  // ---- binary ----
  add_stub.register("native", (iter, alpha) => {
    const a = typeof alpha === "boolean" ? Number(alpha) : typeof alpha === "number" ? alpha : null;
    if (a === null || (iter.commonDtype.scalarType === Long && !Number.isSafeInteger(a))) return false;
    return run(PwOp.add, iter, scalars(a));
  });
  mul_stub.register("native", simple(PwOp.mul));
  // index_add_: add's loop on each (result slice index[i], source slice i) pair, in index order; the
  // addon checks every index first (false: the TS kernel raises the error)
  index_add_stub.register("native", (result, dim, index, source, alpha) => {
    const t = result.dtype.scalarType;
    const al = typeof alpha === "boolean" ? Number(alpha) : typeof alpha === "number" ? alpha : null;
    if (al === null || (t === Long && !Number.isSafeInteger(al)) || !NATIVE_DTYPES.has(t) || source.numel() < nativeSizePolicy.minNumel) return false;
    const r = result._impl, src = source._impl, ix = index._impl;
    // slices of equal shapes only (a 0-d result, or a source slice that would broadcast, runs the TS kernel)
    const rs = r.sizes(), ss = src.sizes();
    if (r.dim() === 0 || src.dim() !== r.dim() || rs.some((n, d) => d !== dim && n !== ss[d])) return false;
    const shape = rs.filter((_, d) => d !== dim), nd = shape.length;
    const meta = metaArray(1 + nd + 3 * (1 + nd));
    meta[0] = nd;
    shape.forEach((n, d) => (meta[1 + d] = n));
    const rStrides = r.strides().filter((_, d) => d !== dim), sStrides = src.strides().filter((_, d) => d !== dim);
    [[r, rStrides], [r, rStrides], [src, sStrides]].forEach(([impl, strides], k) => {
      const at = 1 + nd + k * (1 + nd);
      meta[at] = (impl as TensorImpl).storage_offset();
      (strides as number[]).forEach((st, d) => (meta[at + 1 + d] = st));
    });
    const out = typedView(r.storage, r.dtype);
    const indexStride = ix.dim() === 0 ? 0 : ix.strides()[0];
    return addon.pw_index_add(t, meta, scalars(al), typedView(ix.storage, ix.dtype), ix.storage_offset(), indexStride, ix.numel(), rs[dim],
      r.strides()[dim], src.strides()[dim], out, out, typedView(src.storage, src.dtype));
  });
  div_true_stub.register("native", within([Float, Double, Half, BFloat16], PwOp.div));
  maximum_stub.register("native", simple(PwOp.maximum));
  minimum_stub.register("native", simple(PwOp.minimum));
  clamp_maximum_stub.register("native", simple(PwOp.maximumTie2));
  clamp_minimum_stub.register("native", simple(PwOp.minimumTie2));
  const compare = (op: number) => (iter: TensorIterator) => run(op, iter, scalars(), Bool);
  eq_stub.register("native", compare(PwOp.eq));
  ne_stub.register("native", compare(PwOp.ne));
  lt_stub.register("native", compare(PwOp.lt));
  le_stub.register("native", compare(PwOp.le));
  gt_stub.register("native", compare(PwOp.gt));
  ge_stub.register("native", compare(PwOp.ge));
  // logical ops (bool out; comparison_op's inputs in their common dtype) and bitwise ops (the integer
  // types and bool; floats get the TS kernels' error). logical_not reads its input in its own dtype
  // Inputs of different dtypes (x.logical_and(mask)) are read each in its own dtype (the mixed ops):
  // promotion to the common dtype keeps nonzero nonzero; a 0-d input is converted to the common dtype
  // as the TS loop converts it (1e-50 in float64 against a float32 tensor is false)
  const logicalMixed = (op: number) => (iter: TensorIterator): boolean => {
    const common = iter.commonDtype.scalarType;
    if (!NATIVE_DTYPES.has(common) || iter.numel() < nativeSizePolicy.minNumel || iter.inputs.length < 2) return false;
    const inputs = iter.inputs.slice(0, 2).map((u) => u._impl);
    const types = inputs.map((u) => (u.dim() === 0 ? common : u.dtype.scalarType));
    if (!types.every((t) => NATIVE_DTYPES.has(t))) return false;
    const m = marshal(iter.shape, iter.output._impl, inputs, Bool, types);
    if (m === null) return false;
    const a = m.arrays;
    return addon.pw_op(op, Bool, m.meta, scalars(types[0], types[1]), a[0], a[1], a[2]) === true;
  };
  const logical = (op: number, mixedOp: number) => {
    const same = compare(op), mixed = logicalMixed(mixedOp);
    return (iter: TensorIterator) => iter.inputs.every((u) => u.dtype.scalarType === iter.commonDtype.scalarType || u.dim() === 0) ? same(iter) : mixed(iter);
  };
  logical_and_stub.register("native", logical(PwOp.logicalAnd, PwOp.logicalAndMixed));
  logical_or_stub.register("native", logical(PwOp.logicalOr, PwOp.logicalOrMixed));
  logical_xor_stub.register("native", logical(PwOp.logicalXor, PwOp.logicalXorMixed));
  logical_not_stub.register("native", (iter) => iter.inputs.length === 1 && run(PwOp.logicalNot, iter, scalars(), Bool, iter.inputs[0].dtype.scalarType));
  const bitwise = (op: number) => (iter: TensorIterator) => isIntegralType(iter.commonDtype.scalarType, true) && run(op, iter, scalars());
  bitwise_and_stub.register("native", bitwise(PwOp.bitwiseAnd));
  bitwise_or_stub.register("native", bitwise(PwOp.bitwiseOr));
  bitwise_xor_stub.register("native", bitwise(PwOp.bitwiseXor));
  bitwise_not_stub.register("native", bitwise(PwOp.bitwiseNot));
  threshold_stub.register("native", (iter, threshold, value) => {
    const t = iter.commonDtype.scalarType;
    if (!REAL_AND_BFLOAT16.includes(t)) return false;
    const th = scalarAs(threshold, t), v = scalarAs(value, t);
    return th !== null && v !== null && run(PwOp.threshold, iter, scalars(th, v));
  });

  // ---- unary ----
  neg_stub.register("native", (iter) => iter.commonDtype.scalarType !== Bool && run(PwOp.neg, iter, scalars()));
  abs_stub.register("native", (iter) => iter.commonDtype.scalarType !== Bool && run(PwOp.abs, iter, scalars()));
  sqrt_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.sqrt));
  rsqrt_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.rsqrt));
  reciprocal_stub.register("native", within(FLOATING_TYPES_AND_HALF, PwOp.reciprocal));
  // the vml kernels take bfloat16 too (computed in float, rounded once, as Vectorized<BFloat16>)
  exp_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.exp));
  log_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.log));
  tanh_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.tanh));
  sigmoid_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.sigmoid));
  silu_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.silu));
  sin_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.sin));
  cos_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.cos));
  erf_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.erf));
  // rounding (exact), sign (exact; bool is its own sign), and the other vml ops (FLOATING_TYPES_AND_BFLOAT16)
  floor_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.floor));
  ceil_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.ceil));
  trunc_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.trunc));
  round_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.round));
  frac_stub.register("native", within(FLOATING_TYPES_AND_HALF, PwOp.frac));
  sign_stub.register("native", within(ALL_TYPES_AND_BOOL, PwOp.sign));
  log1p_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.log1p));
  expm1_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.expm1));
  log2_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.log2));
  log10_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.log10));
  exp2_stub.register("native", within(FLOATING_TYPES_AND_HALF, PwOp.exp2));
  sinh_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.sinh));
  cosh_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.cosh));
  tan_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.tan));
  asin_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.asin));
  acos_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.acos));
  atan_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.atan));
  erfc_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.erfc));
  erfinv_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.erfinv));
  // pointwise_gamma.inc: the inverse hyperbolic functions, lgamma (glibc's), digamma and trigamma (Math.h's)
  asinh_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.asinh));
  acosh_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.acosh));
  atanh_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.atanh));
  lgamma_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.lgamma));
  digamma_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.digamma));
  trigamma_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.trigamma));
  // logit: eps as the TS kernel reads it (a NaN or negative eps, and None as -1, clamp nothing)
  logit_stub.register("native", (iter, eps) => {
    const e = Number(eps);
    return FLOAT_AND_BFLOAT16.includes(iter.commonDtype.scalarType) && run(PwOp.logit, iter, scalars(Number.isNaN(e) ? -1 : e));
  });
  // nan_to_num: float32 and float64 (float16 stays in TypeScript), the replacements as the TS kernel makes them
  nan_to_num_stub.register("native", (iter, nan, posinf, neginf) => {
    const t = iter.commonDtype.scalarType;
    return (t === Float || t === Double) && run(PwOp.nanToNum, iter, scalars(...nanToNumReplacements(t, nan, posinf, neginf)));
  });
  // mse_loss's (a - b)^2: float32/float64 (float16, in float16 steps with a warning, stays in TypeScript)
  mse_stub.register("native", within([Float, Double], PwOp.mse));
  /** gelu and its backward: the tanh form, or erf (the vectorized one when every operand is contiguous: the TS kernel's and PyTorch's choice) */
  const gelu = (tanhOp: number, erfVecOp: number, erfOp: number) => (iter: TensorIterator, approximate: "none" | "tanh") => {
    if (!FLOAT_AND_BFLOAT16.includes(iter.commonDtype.scalarType)) return false;
    if (approximate === "tanh") return run(tanhOp, iter, scalars());
    const vectorized = iter.output.is_contiguous() && iter.inputs.every((u) => u.is_contiguous());
    return run(vectorized ? erfVecOp : erfOp, iter, scalars());
  };
  GeluKernel.register("native", gelu(PwOp.geluTanh, PwOp.geluErfVec, PwOp.geluErf));
  GeluBackwardKernel.register("native", gelu(PwOp.geluBackwardTanh, PwOp.geluBackwardErfVec, PwOp.geluBackwardErf));
  silu_backward_stub.register("native", within(FLOATING_TYPES_AND_BFLOAT16, PwOp.siluBackward));
  /** clamp with Scalar bounds computes in the output's dtype. */
  const clampScalar = (op: number) => (iter: TensorIterator, lo: Scalar, hi?: Scalar): boolean => {
    const t = iter.output.dtype.scalarType;
    if (!REAL_AND_BFLOAT16.includes(t) || iter.commonDtype.scalarType !== t) return false;
    const a = scalarAs(lo, t), b = hi === undefined ? a : scalarAs(hi, t);
    return a !== null && b !== null && run(op, iter, scalars(a, b));
  };
  clamp_scalar_stub.register("native", clampScalar(PwOp.clamp));
  clamp_min_scalar_stub.register("native", clampScalar(PwOp.clampMin));
  clamp_max_scalar_stub.register("native", clampScalar(PwOp.clampMax));
  pow_tensor_scalar_stub.register("native", (iter, exp) => {
    // (float16 takes std::pow of a float16 exponent in the TS kernel: not these loops)
    if (!FLOAT_AND_BFLOAT16.includes(iter.commonDtype.scalarType) || typeof exp !== "number") return false;
    // (both read the base only: the iterator's second input is the wrapped exponent)
    if (exp === 2 || exp === 3 || exp === 0.5 || exp === -0.5 || exp === -1 || exp === -2) return run(PwOp.powScalar, iter, scalars(exp));
    return iter.commonDtype.scalarType !== BFloat16 && run(PwOp.powScalarAny, iter, scalars(exp)); // std::pow (bfloat16 rounds its exponent: the TS kernel)
  });

  // ---- activations and their backward kernels (pointwise_activation.inc): float32, float64, and
  // bfloat16 (in float) where the TS kernel takes it; the Scalars as the TS kernel reads them ----
  const ACT: readonly ScalarType[] = FLOAT_AND_BFLOAT16, MISH: readonly ScalarType[] = [Float, Double];
  /** elu's coefficients: negcoef = alpha * scale (rounded to the step's type), poscoef, negiptcoef. */
  const eluCoefs = (t: ScalarType, alpha: Scalar, scale: Scalar, inputScale: Scalar) =>
    [stepOf(t)(coef(alpha, t) * coef(scale, t)), coef(scale, t), coef(inputScale, t)] as const;
  const activation = <A extends unknown[]>(types: readonly ScalarType[], op: number, sc: (t: ScalarType, ...args: A) => Float64Array) =>
    (iter: TensorIterator, ...args: A): boolean => {
      const t = iter.commonDtype.scalarType;
      return types.includes(t) && run(op, iter, sc(t, ...args));
    };
  leaky_relu_stub.register("native", activation(ACT, PwOp.leakyRelu, (t, slope: Scalar) => scalars(coef(slope, t))));
  elu_stub.register("native", activation(ACT, PwOp.elu, (t, alpha: Scalar, scale: Scalar, inputScale: Scalar) => scalars(...eluCoefs(t, alpha, scale, inputScale))));
  softplus_stub.register("native", activation(ACT, PwOp.softplus, (t, beta: Scalar, threshold: Scalar) => scalars(coef(beta, t), coef(threshold, t))));
  mish_stub.register("native", within(MISH, PwOp.mish));
  hardsigmoid_stub.register("native", within(ACT, PwOp.hardsigmoid));
  hardswish_stub.register("native", within(ACT, PwOp.hardswish));
  glu_stub.register("native", within(ACT, PwOp.glu));
  leaky_relu_backward_stub.register("native", activation(ACT, PwOp.leakyReluBackward, (t, slope: Scalar) => scalars(coef(slope, t))));
  hardtanh_backward_stub.register("native", activation(MISH, PwOp.hardtanhBackward, (t, min: Scalar, max: Scalar) => scalars(coef(min, t), coef(max, t))));
  hardsigmoid_backward_stub.register("native", within(ACT, PwOp.hardsigmoidBackward));
  elu_backward_stub.register("native", activation(ACT, PwOp.eluBackward, (t, alpha: Scalar, scale: Scalar, inputScale: Scalar, isResult: boolean) =>
    scalars(...eluCoefs(t, alpha, scale, inputScale), isResult ? 1 : 0)));
  softplus_backward_stub.register("native", activation(ACT, PwOp.softplusBackward, (t, beta: Scalar, threshold: Scalar) => scalars(coef(beta, t), coef(threshold, t))));
  hardswish_backward_stub.register("native", within(ACT, PwOp.hardswishBackward));
  mish_backward_stub.register("native", within(MISH, PwOp.mishBackward));

  // ---- the binary math ops (pointwise_binary_math.inc): every integer dtype, float and double where
  // the TS kernel takes them; the addon has no loop for the other dtypes (bool, float16, bfloat16), whose
  // TS kernels compute or refuse them ----
  remainder_stub.register("native", simple(PwOp.remainder));
  fmod_stub.register("native", simple(PwOp.fmod));
  div_trunc_stub.register("native", simple(PwOp.divTrunc));
  div_floor_stub.register("native", simple(PwOp.divFloor));
  pow_tensor_tensor_stub.register("native", simple(PwOp.powTensor));
  atan2_stub.register("native", simple(PwOp.atan2));
  hypot_stub.register("native", simple(PwOp.hypot));
  copysign_stub.register("native", simple(PwOp.copysign));
  xlogy_stub.register("native", simple(PwOp.xlogy));
  // fmax/fmin on integers and bool are maximum/minimum, as fmax_kernel calls maximum_kernel
  fmax_stub.register("native", (iter) => run(isFloatingType(iter.commonDtype.scalarType) ? PwOp.fmax : PwOp.maximum, iter, scalars()));
  fmin_stub.register("native", (iter) => run(isFloatingType(iter.commonDtype.scalarType) ? PwOp.fmin : PwOp.minimum, iter, scalars()));

  // ---- optimizers: addcmul_, addcdiv_, lerp_ ----
  // float32, float64 and bfloat16 (computed in float); float16 gets the TS kernels' error
  const OPTIM = [Float, Double, BFloat16];
  /** value.to<opmath_t>(): float32 and bfloat16 (opmath float) round the Scalar to float. */
  const opmath = (s: Scalar, t: ScalarType) => (t === Double ? Number(s) : Math.fround(Number(s)));
  const withValue = (op: number) => (iter: TensorIterator, value: Scalar) => {
    const t = iter.commonDtype.scalarType;
    return OPTIM.includes(t) && run(op, iter, scalars(opmath(value, t)));
  };
  addcmul_stub.register("native", withValue(PwOp.addcmul));
  addcdiv_stub.register("native", withValue(PwOp.addcdiv));
  lerp_kernel_scalar_weight.register("native", withValue(PwOp.lerpScalar));
  lerp_kernel_tensor_weight.register("native", within(OPTIM, PwOp.lerpTensor));

  // ---- copy_: dst[i] = static_cast<dst_t>(src[i]); a same-dtype copy first tries Shape.cc's row /
  // tile copy (NativeShape.ts), which declines the layouts pw_cast walks ----
  copy_stub.register("native", (dst, src) => shapeCopy(addon, dst, src) || castInto(addon, dst, src, null));

  // ---- flip: the same copy, reading self backwards along the flipped dims (negative strides from
  // the last element of each, as flip_kernel restrides its TensorIterator's input) ----
  flip_stub.register("native", (out, self, flipped) => {
    const impl = self._impl, sizes = impl.sizes();
    let offset = impl.storage_offset();
    const strides = impl.strides().map((s, d) => {
      if (!flipped[d]) return s;
      offset += (sizes[d] - 1) * s;
      return -s;
    });
    return castInto(addon, out._impl, impl, { offset, strides });
  });
}

/**
 * dst[i] = static_cast<dst_t>(src[i]) through pw_cast, when both dtypes are native ones and the two do
 * not share a storage (an overlapping copy's order is the TS kernel's business). src is read through
 * its own strides broadcast to dst's shape, or through `at` (an offset and strides of dst's rank, any
 * sign) instead.
 */
function castInto(addon: NativeAddon, dst: TensorImpl, src: TensorImpl, at: { offset: number; strides: readonly number[] } | null): boolean {
  const from = src.dtype.scalarType, to = dst.dtype.scalarType;
  if (!NATIVE_DTYPES.has(from) || !NATIVE_DTYPES.has(to) || dst.storage === src.storage || dst.numel() < nativeSizePolicy.minNumel) return false;
  const shape = dst.sizes();
  const nd = shape.length;
  const meta = walkMeta(shape, [dst, src]);
  if (at !== null) {
    meta[2 + 2 * nd] = at.offset;
    for (let d = 0; d < nd; d++) meta[3 + 2 * nd + d] = at.strides[d];
  }
  return addon.pw_cast(from, to, meta, typedView(dst.storage, dst.dtype), typedView(src.storage, src.dtype));
}
