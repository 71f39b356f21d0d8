// Norms and logsumexp (aten/src/ATen/native/ReduceOps.cpp, LinearAlgebra.cpp, Distance.cpp,
// cpu/ReduceOpsKernel.cpp): norm.out / norm.dtype_out and linalg_vector_norm.out are structured kernels
// over one norm_stub; norm.Scalar and norm.ScalarOpt_dtype call norm.ScalarOpt_dim(_dtype) over no dims,
// frobenius_norm calls norm or sqrt(sum(x*x)), pairwise_distance calls norm(x1 - x2 + eps), and
// cosine_similarity divides each input by its clamped norm (pow, sum, clamp_min_, sqrt_) before the sum.
//
// Numerics: PyTorch's norm_stub accumulates in the element type (acc_t = scalar_t for real types) in
// TensorIterator's order, and for p=2 over a contiguous last dim with 8 (float) or 4 (double) vector
// lanes of partial sums; here each group accumulates in the element type in row-major order, so sums
// can differ in the last bits (the tests allow relative 1e-6 for float32, 1e-3 for float16, 1e-2 for
// bfloat16, 1e-12 for float64). ord 0 and +-inf are exact.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, float64, isFloatingType, isComplexType, isIntegralType, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import { promoteTypes } from "../../../c10/PromoteTypes.js";
import { get_default_dtype } from "../../../c10/DefaultDtype.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { Tensor } from "../../core/Tensor.js";
import { empty_impl } from "../../core/empty.js";
import { fill_kernel } from "../../cpu/FillKernel.js";
import { toDevice } from "../../../c10/Device.js";
import { result_type } from "../../TypeProperties.js";
import { DispatchStub } from "../DispatchStub.js";
import { dimMask, reducedShape, structuredOutput, gather, writeAll, roundTo, type StructuredMode } from "../reduce/ReduceUtils.js";
import { norm_ScalarOpt_dim, norm_ScalarOpt_dim_dtype } from "../../../generated/norm.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { sqrt_default, sqrt__default } from "../../../generated/sqrt.js";
import { pow_Tensor_Scalar } from "../../../generated/pow.js";
import { sub_Tensor } from "../../../generated/sub.js";
import { add_Tensor } from "../../../generated/add.js";
import { div_Tensor } from "../../../generated/div.js";
import { clamp_min__default } from "../../../generated/clamp_min.js";
import { expand_default } from "../../../generated/expand.js";
import { to_dtype } from "../../../generated/to.js";
import { infer_size } from "../../ExpandUtils.js";
import { resize_output } from "../Resize.js";
import { copy__default } from "../../../generated/copy.js";
import { hasData, asDouble, checkOutDtype, notImplementedFor, type Value } from "./common.js";

const REF = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp";

// ---- linalg_vector_norm ----

const roundTo64 = (v: number): number => v;

/** The norm of one group (NormOps / NormZeroOps / NormOneOps / NormTwoOps / AbsMaxOps / AbsMinOps), each step rounded by `acc`. */
function vectorNorm(g: readonly number[], ord: number, acc: (v: number) => number, powRound?: (v: number) => number): number {
  const a = g.map((v) => Math.abs(v));
  if (ord === Infinity || ord === -Infinity) {
    // max/min_propagate_nan over |x|, from 0 (max) or +inf (min)
    let m = ord > 0 ? 0 : Infinity;
    for (const x of a) m = Number.isNaN(x) || Number.isNaN(m) ? NaN : ord > 0 ? Math.max(m, x) : Math.min(m, x);
    return m;
  }
  if (ord === 0) return a.reduce((s, x) => acc(s + (x === 0 ? 0 : 1)), 0);
  if (ord === 1) return a.reduce((s, x) => acc(s + x), 0);
  if (ord === 2) return Math.sqrt(a.reduce((s, x) => acc(s + acc(x * x)), 0));
  // std::pow: in double for double, in float for float and half (the sum alone is rounded to half),
  // in bfloat16 for bfloat16 (c10/util/BFloat16-math.h)
  const pw = (x: number) => (powRound === undefined ? Math.pow(x, ord) : powRound(Math.pow(x, ord)));
  return Math.pow(a.reduce((s, x) => acc(s + pw(x)), 0), 1 / ord);
}

type NormKernel = (result: Tensor, self: Tensor, mask: readonly boolean[], ord: number) => void;
export const norm_stub = new DispatchStub<NormKernel>("norm_stub", REF);
norm_stub.register("ts", (result, self, mask, ord) => {
  const rdt = result.dtype;
  // make_reduction casts the input to the result dtype first; the reduction accumulates in that dtype
  // (acc_t = scalar_t), except bfloat16's p=2, whose vectorized path accumulates in float
  const r = rdt.scalarType === ScalarType.Double ? roundTo64 : (v: number) => roundTo(rdt, v);
  const acc = ord === 2 && rdt.scalarType === ScalarType.BFloat16 ? Math.fround : r;
  const powRound = rdt.scalarType === ScalarType.Double ? undefined : rdt.scalarType === ScalarType.BFloat16 ? r : Math.fround;
  writeAll(result, gather(self, mask).map((g) => r(vectorNorm(g.map((v) => r(asDouble(v))), ord, acc, powRound))));
});

/** Python's str() of the ord Scalar in the error texts (2 -> "2", 2.5 -> "2.5", inf -> "inf"). */
const scalarStr = (v: number): string => (Number.isFinite(v) ? String(v) : v > 0 ? "inf" : "-inf");

/** check_linalg_norm_dtype (LinearAlgebraUtils.h). */
function checkNormDtype(dt: dtype | null, selfType: ScalarType, fn: string): void {
  if (dt === null) return;
  const st = dt.scalarType;
  if (!isFloatingType(st) && !isComplexType(st)) throw new RuntimeError(`${fn}: dtype should be floating point or complex, but got ${scalarTypeName(st)}`);
  if (isComplexType(selfType) !== isComplexType(st)) throw new RuntimeError(`${fn}: dtype should be real for real inputs, but got ${scalarTypeName(st)}`);
  if (promoteTypes(selfType, st) !== st) {
    throw new RuntimeError(`${fn}: the dtype of the input (${scalarTypeName(selfType)}) should be convertible without narrowing to the specified dtype (${scalarTypeName(st)})`);
  }
}

/** TORCH_META_FUNC(linalg_vector_norm) + TORCH_IMPL_FUNC(linalg_vector_norm_out). */
export function linalg_vector_norm_out(self: Tensor, ordArg: number | boolean, dim: readonly number[] | null, keepdim: boolean,
  dt: dtype | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const st = self.dtype.scalarType;
  if (!isFloatingType(st) && !isComplexType(st)) {
    throw new RuntimeError(`linalg.vector_norm: Expected a floating point or complex tensor as input. Got ${scalarTypeName(st)}`);
  }
  const ord = Number(ordArg);
  const sizes = self._impl.sizes();
  if (self.numel() === 0 && (ord < 0 || ord === Infinity)) {
    if (dim === null || dim.length === 0) {
      throw new RuntimeError(`linalg.vector_norm cannot compute the ${scalarStr(ord)} norm on an empty tensor because the operation does not have an identity`);
    }
    for (const d of dim) {
      if (sizes[maybe_wrap_dim(d, sizes.length)] === 0) {
        throw new RuntimeError(`linalg.vector_norm cannot compute the ${scalarStr(ord)} norm on the dimension ${d}because this dimension is empty and the operation does not have an identity`);
      }
    }
  }
  checkNormDtype(dt, st, "linalg.vector_norm");
  const mask = dimMask(dim, sizes.length);
  const rdt = dt ?? self.dtype;
  if (mode === "out" && out !== null) checkOutDtype(out, rdt);
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), rdt, out, mode);
  if (hasData(result)) norm_stub.call(self.device.type, result, self, mask, ord);
  return result;
}

// ---- norm (structured over linalg_vector_norm) ----

/**
 * TORCH_META_FUNC2(norm, ScalarOpt_dim) + impl_func_norm (1.13): floating input, result in out's dtype or
 * self's; p=None means 2. The reduction is norm_stub over make_reduction, as linalg_vector_norm's.
 */
export function norm_out(self: Tensor, p: number | boolean | null, dim: readonly number[], keepdim: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const st = self.dtype.scalarType;
  if (!isFloatingType(st) && !isComplexType(st)) {
    throw new RuntimeError(`norm(): input dtype should be either floating point or complex. Got ${scalarTypeName(st)} instead.`);
  }
  const sizes = self._impl.sizes();
  const mask = dimMask(dim, sizes.length);
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), mode === "out" && out !== null ? out.dtype : self.dtype, out, mode);
  if (hasData(result)) norm_stub.call(self.device.type, result, self, mask, Number(p ?? 2));
  return result;
}

/** TORCH_META_FUNC2(norm, ScalarOpt_dim_dtype): a floating dtype; make_reduction first converts self to it (self.to(dtype)). */
export function norm_dtype_out(self: Tensor, p: number | boolean | null, dim: readonly number[], keepdim: boolean, dt: dtype, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (!isFloatingType(dt.scalarType) && !isComplexType(dt.scalarType)) {
    throw new RuntimeError(`norm(): the desired output dtype should be either floating point or complex. Got ${scalarTypeName(dt.scalarType)} instead.`);
  }
  const sizes = self._impl.sizes();
  const mask = dimMask(dim, sizes.length);
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), dt, out, mode);
  if (!hasData(result)) return result;
  const input = self.dtype === dt ? self : (to_dtype.call(self, dt, false, false, null) as Tensor);
  norm_stub.call(self.device.type, result, input, mask, Number(p ?? 2));
  return result;
}

/** norm.Scalar (CompositeExplicitAutograd): at::norm(self, p, IntArrayRef{}, false). */
export const norm_Scalar = (self: Tensor, p: number | boolean): Tensor => norm_ScalarOpt_dim.call(self, p, [], false) as Tensor;
/** norm.ScalarOpt_dtype: at::norm(self, p, IntArrayRef{}, false, dtype). */
export const norm_ScalarOpt_dtype = (self: Tensor, p: number | boolean | null, dt: dtype): Tensor =>
  norm_ScalarOpt_dim_dtype.call(self, p, [], false, dt) as Tensor;

// ---- frobenius_norm (CompositeImplicitAutograd, deprecated in 1.12) ----

function frobenius(self: Tensor, dim: readonly number[], keepdim: boolean): Tensor {
  if (dim.length > 2) throw new RuntimeError(`Expected at most 2 dimensions, but got ${dim.length} dimensions instead.`);
  if (dim.length <= 1) return norm_ScalarOpt_dim.call(self, 2, dim, keepdim) as Tensor;
  const wrapped = dim.map((d) => maybe_wrap_dim(d, self.dim()));
  if (wrapped[0] === wrapped[1]) throw new RuntimeError(`Expected dims to be different, got [${dim.join(", ")}] instead`);
  return sqrt_default.call(sum_dim_IntList.call(mul_Tensor.call(self, self), wrapped, keepdim, null)) as Tensor;
}
/** frobenius_norm(self): at::norm(self). */
export const frobenius_norm = (self: Tensor): Tensor => norm_Scalar(self, 2);
export const frobenius_norm_dim = (self: Tensor, dim: readonly number[], keepdim: boolean): Tensor => frobenius(self, dim, keepdim);
/** frobenius_norm.out: computes frobenius_norm, then resizes out and copies into it. */
export function frobenius_norm_out(self: Tensor, dim: readonly number[], keepdim: boolean, out: Tensor): Tensor {
  const r = frobenius(self, dim, keepdim);
  resize_output(out, r._impl.sizes());
  copy__default.call(out, r, false);
  return out;
}

// ---- logsumexp ----

/**
 * logsumexp_out_impl: m = amax over dims (keepdim; |m| = inf replaced by 0), then log(sum(exp(x - m))) + m;
 * an empty input gives log(sum(exp(x))). Integral inputs are first converted to the default dtype.
 * float16 has no exp kernel on CPU in 1.13. With dims=[] the kept-dim maxes ([1, ..., 1]) cannot be
 * added in place to the 0-d sum: PyTorch 1.13 raises the broadcast error, so this does too.
 */
type LseKernel = (result: Tensor, self: Tensor, mask: readonly boolean[]) => void;
export const logsumexp_stub = new DispatchStub<LseKernel>("logsumexp", "aten/src/ATen/native/ReduceOps.cpp");
logsumexp_stub.register("ts", (result, self, mask) => {
  const cdt = isIntegralType(self.dtype.scalarType, true) ? get_default_dtype() : self.dtype;
  const r = (v: number) => roundTo(cdt, v);
  writeAll(result, gather(self, mask).map((g0) => {
    const g = g0.map((v) => r(asDouble(v)));
    let m = g.length ? g.reduce((a, x) => (Number.isNaN(a) || Number.isNaN(x) ? NaN : Math.max(a, x)), -Infinity) : 0;
    if (Math.abs(m) === Infinity) m = 0;
    const s = g.reduce((a, x) => a + r(Math.exp(r(x - m))), 0);
    return r(r(Math.log(r(s))) + m);
  }));
});

export function logsumexp_out(self: Tensor, dims: readonly number[], keepdim: boolean, out: Tensor): Tensor {
  if (!isFloatingType(out.dtype.scalarType)) {
    throw new RuntimeError(`logsumexp(): Expected floating point type for result tensor, but got: ${scalarTypeName(out.dtype.scalarType)}`);
  }
  const sizes = self._impl.sizes();
  const mask = dimMask(dims, sizes.length);
  const cdt = isIntegralType(self.dtype.scalarType, true) ? get_default_dtype() : self.dtype;
  if (cdt.scalarType === ScalarType.Half && hasData(out)) throw notImplementedFor("exp_vml_cpu", ScalarType.Half);
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), out.dtype, out, "out");
  if (self.numel() !== 0 && dims.length === 0 && !keepdim && sizes.length > 0) {
    throw new RuntimeError(`output with shape [] doesn't match the broadcast shape [${sizes.map(() => 1).join(", ")}]`);
  }
  if (hasData(result)) logsumexp_stub.call(self.device.type, result, self, mask);
  return result;
}

/** logsumexp (CompositeExplicitAutograd): integral inputs give the default dtype. */
export function logsumexp(self: Tensor, dims: readonly number[], keepdim: boolean): Tensor {
  const dt = isIntegralType(self.dtype.scalarType, true) ? get_default_dtype() : self.dtype;
  return logsumexp_out(self, dims, keepdim, structuredOutput(self, [0], dt, null, "functional"));
}

// ---- pairwise_distance, cosine_similarity (Distance.cpp) ----

/** A double Scalar as PyTorch wraps it for Tensor + Scalar (a 0-d float64 wrapped number). */
function doubleScalar(v: number): Tensor {
  const impl = empty_impl([], float64, toDevice("cpu"));
  fill_kernel(impl, v);
  impl.is_wrapped_number = true;
  return new Tensor(impl);
}

/** pairwise_distance: at::norm(x1 - x2 + eps, p, innermost dim, keepdim). */
export function pairwise_distance(x1: Tensor, x2: Tensor, p: number, eps: number, keepdim: boolean): Tensor {
  const innermost = Math.max(x1.dim(), x2.dim()) - 1;
  const diff = add_Tensor.call(sub_Tensor.call(x1, x2, 1), doubleScalar(eps), 1) as Tensor;
  return norm_ScalarOpt_dim.call(diff, p, [innermost], keepdim) as Tensor;
}

/**
 * cosine_similarity (PyTorch 1.13): both inputs converted to their common (floating) dtype and expanded to
 * one shape; each squared norm (sum of x^2 over dim, kept) clamped below by eps^2 and square-rooted in
 * place; then the sum over dim of (x1 / ||x1||) * (x2 / ||x2||).
 */
export function cosine_similarity(x1_: Tensor, x2_: Tensor, dim: number, eps: number): Tensor {
  const common = result_type(x1_, x2_);
  if (!isFloatingType(common.scalarType)) {
    throw new RuntimeError(`expected common dtype to be floating point, yet common dtype is ${scalarTypeName(common.scalarType)}`);
  }
  const shape = infer_size(x1_._impl.sizes(), x2_._impl.sizes());
  const x1 = expand_default.call(to_dtype.call(x1_, common, false, false, null), shape, false) as Tensor;
  const x2 = expand_default.call(to_dtype.call(x2_, common, false, false, null), shape, false) as Tensor;
  const squaredNorm = (x: Tensor) => sum_dim_IntList.call(pow_Tensor_Scalar.call(x, 2), [dim], true, null) as Tensor;
  const n1 = squaredNorm(x1);
  const n2 = squaredNorm(x2);
  clamp_min__default.call(n1, eps * eps);
  clamp_min__default.call(n2, eps * eps);
  sqrt__default.call(n1);
  sqrt__default.call(n2);
  const prod = mul_Tensor.call(div_Tensor.call(x1, n1), div_Tensor.call(x2, n2)) as Tensor;
  return sum_dim_IntList.call(prod, [dim], false, null) as Tensor;
}
