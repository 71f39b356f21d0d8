// Norms and logsumexp (aten/src/ATen/native/ReduceOps.cpp, LinearAlgebra.cpp, Distance.cpp,
// cpu/ReduceOpsKernel.cpp): linalg_vector_norm is the structured kernel every norm reaches —
// norm.out / norm.dtype_out call it through the dispatcher (impl_func_norm), norm.Scalar and
// norm.ScalarOpt_dtype call norm.ScalarOpt_dim(_dtype) over no dims, frobenius_norm calls norm or
// sqrt(sum(x*x)), pairwise_distance calls norm(x1 - x2 + eps), cosine_similarity calls linalg_vector_norm.
//
// Numerics: PyTorch's norm_stub accumulates in opmath_type (float for float32/float16/bfloat16,
// double for float64), with vectorized partial sums for p=2; here each group accumulates in double
// and rounds once to the result dtype (the tests allow relative 1e-6 for float32, 1e-3 for float16,
// 1e-2 for bfloat16, 1e-12 for float64). ord 0, +-inf, 1 and 2 are exact where PyTorch's are.

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
import { linalg_vector_norm_default, linalg_vector_norm_out as linalg_vector_norm_out_op } from "../../../generated/linalg_vector_norm.js";
import { norm_ScalarOpt_dim, norm_ScalarOpt_dim_dtype } from "../../../generated/norm.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { sqrt_default } from "../../../generated/sqrt.js";
import { sub_Tensor } from "../../../generated/sub.js";
import { add_Tensor } from "../../../generated/add.js";
import { div_Tensor } from "../../../generated/div.js";
import { clone_default } from "../../../generated/clone.js";
import { clamp_min__default } from "../../../generated/clamp_min.js";
import { expand_default } from "../../../generated/expand.js";
import { to_dtype } from "../../../generated/to.js";
import { infer_size } from "../../ExpandUtils.js";
import { resize_output } from "../Resize.js";
import { copy__default } from "../../../generated/copy.js";
import { hasData, asDouble, checkOutDtype, type Value } from "./common.js";

const REF = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp";

// ---- linalg_vector_norm ----

/** The norm of one group of values (already in the compute dtype), as NormOps / NormZeroOps / AbsMaxOps / ... reduce. */
function vectorNorm(g: readonly Value[], ord: number): number {
  const a = g.map((v) => Math.abs(asDouble(v)));
  if (ord === Infinity || ord === -Infinity) {
    // max/min_propagate_nan over |x|, from 0 (max) or +inf (min)
    let acc = ord > 0 ? 0 : Infinity;
    for (const x of a) acc = Number.isNaN(x) || Number.isNaN(acc) ? NaN : ord > 0 ? Math.max(acc, x) : Math.min(acc, x);
    return acc;
  }
  if (ord === 0) return a.reduce((s, x) => s + (x === 0 ? 0 : 1), 0);
  if (ord === 1) return a.reduce((s, x) => s + x, 0);
  if (ord === 2) return Math.sqrt(a.reduce((s, x) => s + x * x, 0));
  return Math.pow(a.reduce((s, x) => s + Math.pow(x, ord), 0), 1 / ord);
}

type NormKernel = (result: Tensor, self: Tensor, mask: readonly boolean[], ord: number) => void;
export const norm_stub = new DispatchStub<NormKernel>("norm_stub", REF);
norm_stub.register("ts", (result, self, mask, ord) => {
  const rdt = result.dtype;
  // make_reduction casts the input to the result dtype first
  const cast = (v: Value): number => roundTo(rdt, asDouble(v));
  writeAll(result, gather(self, mask).map((g) => roundTo(rdt, vectorNorm(g.map(cast), ord))));
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

/** TORCH_META_FUNC2(norm, ScalarOpt_dim) and impl_func_norm: p=None means 2; the work is at::linalg_vector_norm_out. */
export function norm_out(self: Tensor, p: number | boolean | null, dim: readonly number[], keepdim: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const st = self.dtype.scalarType;
  if (!isFloatingType(st) && !isComplexType(st)) {
    throw new RuntimeError(`norm(): input dtype should be either floating point or complex. Got ${scalarTypeName(st)} instead.`);
  }
  const sizes = self._impl.sizes();
  const result = structuredOutput(self, reducedShape(sizes, dimMask(dim, sizes.length), keepdim), mode === "out" && out !== null ? out.dtype : self.dtype, out, mode);
  linalg_vector_norm_out_op.call(self, p ?? 2, dim, keepdim, null, result);
  return result;
}

/** TORCH_META_FUNC2(norm, ScalarOpt_dim_dtype): the dtype must be floating; impl_func_norm passes it on. */
export function norm_dtype_out(self: Tensor, p: number | boolean | null, dim: readonly number[], keepdim: boolean, dt: dtype, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (!isFloatingType(dt.scalarType) && !isComplexType(dt.scalarType)) {
    throw new RuntimeError(`norm(): the desired output dtype should be either floating point or complex. Got ${scalarTypeName(dt.scalarType)} instead.`);
  }
  const sizes = self._impl.sizes();
  const result = structuredOutput(self, reducedShape(sizes, dimMask(dim, sizes.length), keepdim), dt, out, mode);
  linalg_vector_norm_out_op.call(self, p ?? 2, dim, keepdim, dt, result);
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
 * logsumexp_out_impl: m = amax over dims (|m| = inf replaced by 0), log(sum(exp(x - m))) + m; an empty
 * input gives log(sum(exp(x))). Integral inputs are first converted to the default dtype.
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
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), out.dtype, out, "out");
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

/** cosine_similarity (1.13): each input over its norm (clamped below by eps), then the sum of the products. */
export function cosine_similarity(x1_: Tensor, x2_: Tensor, dim: number, eps: number): Tensor {
  const common = result_type(x1_, x2_);
  if (!isFloatingType(common.scalarType)) {
    throw new RuntimeError(`expected common dtype to be floating point, yet common dtype is ${scalarTypeName(common.scalarType)}`);
  }
  let x1 = isIntegralType(x1_.dtype.scalarType, true) ? (to_dtype.call(x1_, common, false, false, null) as Tensor) : x1_;
  let x2 = isIntegralType(x2_.dtype.scalarType, true) ? (to_dtype.call(x2_, common, false, false, null) as Tensor) : x2_;
  // expand_outplace: expand only the operands whose sizes differ from the broadcast shape
  const shape = infer_size(x1._impl.sizes(), x2._impl.sizes());
  const same = (t: Tensor) => t.dim() === shape.length && t.shape.every((s, i) => s === shape[i]);
  if (!same(x1) || !same(x2)) {
    x1 = expand_default.call(x1, shape, false) as Tensor;
    x2 = expand_default.call(x2, shape, false) as Tensor;
  }
  const n1 = clone_default.call(linalg_vector_norm_default.call(x1, 2, [dim], true, null), null) as Tensor;
  const n2 = clone_default.call(linalg_vector_norm_default.call(x2, 2, [dim], true, null), null) as Tensor;
  clamp_min__default.call(n1, eps);
  clamp_min__default.call(n2, eps);
  const prod = mul_Tensor.call(div_Tensor.call(x1, n1), div_Tensor.call(x2, n2)) as Tensor;
  return sum_dim_IntList.call(prod, [dim], false, null) as Tensor;
}

