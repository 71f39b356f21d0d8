// Norms (aten/src/ATen/native/ReduceOps.cpp, LinearAlgebra.cpp, cpu/ReduceOpsKernel.cpp): norm.out /
// norm.dtype_out and linalg_vector_norm.out are structured kernels over one norm_stub; norm.Scalar and
// norm.ScalarOpt_dtype call norm.ScalarOpt_dim(_dtype) over no dims; frobenius_norm calls norm, or
// sqrt(sum(x*x)) over two dims.
//
// Numerics: PyTorch's norm_stub accumulates in the element type (acc_t = scalar_t for real types) in
// TensorIterator's order, and for p=2 over a contiguous last dim with 8 (float) or 4 (double) vector
// lanes of partial sums; here each group accumulates in the element type too, float32 and float64 in
// laneReduce's order (64 lanes per block of 32768 elements, the native kernel's order), float16 and
// bfloat16 in row-major order, so sums can differ from PyTorch's in the last bits (the tests allow relative 1e-6 for float32, 1e-3 for float16, 1e-2 for
// bfloat16, 1e-12 for float64). ord 0 and +-inf are exact.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isFloatingType, isComplexType, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import { promoteTypes } from "../../../c10/PromoteTypes.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { resize_output } from "../Resize.js";
import { dimMask, reducedShape, structuredOutput, gather, writeAll, roundTo, laneReduce, type StructuredMode } from "../reduce/ReduceUtils.js";
import { norm_Scalar as norm_Scalar_op, norm_ScalarOpt_dim, norm_ScalarOpt_dim_dtype } from "../../../generated/norm.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { sqrt_default } from "../../../generated/sqrt.js";
import { to_dtype } from "../../../generated/to.js";
import { copy__default } from "../../../generated/copy.js";
import { hasData, asDouble, checkOutDtype } from "./common.js";

const REF = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp";

// ---- linalg_vector_norm ----

const roundTo64 = (v: number): number => v;

type Reducer = (values: readonly number[], identity: number, step: (acc: number, v: number) => number, combine: (a: number, b: number) => number) => number;
/** In order, one chain (PyTorch's scalar loop over a group that one thread reduces). */
const inOrder: Reducer = (values, identity, step) => values.reduce(step, identity);

/**
 * The norm of one group (NormOps / NormZeroOps / NormOneOps / NormTwoOps / AbsMaxOps / AbsMinOps), each
 * step rounded by `acc`, in the order `reduce` takes the elements.
 */
function vectorNorm(g: readonly number[], ord: number, reduce: Reducer, acc: (v: number) => number, powRound?: (v: number) => number): number {
  const add = (s: number, x: number) => acc(s + x);
  if (ord === Infinity || ord === -Infinity) {
    // max/min_propagate_nan over |x|, from 0 (max) or +inf (min)
    const pick = (m: number, x: number) => (Number.isNaN(x) || Number.isNaN(m) ? NaN : ord > 0 ? Math.max(m, x) : Math.min(m, x));
    return reduce(g, ord > 0 ? 0 : Infinity, (m, x) => pick(m, Math.abs(x)), pick);
  }
  if (ord === 0) return reduce(g, 0, (s, x) => acc(s + (x === 0 ? 0 : 1)), add);
  if (ord === 1) return reduce(g, 0, (s, x) => acc(s + Math.abs(x)), add);
  if (ord === 2) return Math.sqrt(reduce(g, 0, (s, x) => acc(s + acc(x * x)), add));
  // std::pow: in double for double, in float for float and half (the sum alone is rounded to half),
  // in bfloat16 for bfloat16 (c10/util/BFloat16-math.h)
  const pw = (x: number) => (powRound === undefined ? Math.pow(x, ord) : powRound(Math.pow(x, ord)));
  return Math.pow(reduce(g, 0, (s, x) => acc(s + pw(Math.abs(x))), add), 1 / ord);
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
  // float32/float64 in laneReduce's order (the native kernel's); float16/bfloat16 sums, whose 16-bit
  // roundings depend much on the order, in order as PyTorch's scalar loop (its bits on one thread)
  const wide = rdt.scalarType === ScalarType.Float || rdt.scalarType === ScalarType.Double;
  writeAll(result, gather(self, mask).map((g) => r(vectorNorm(g.map((v) => r(asDouble(v))), ord, wide ? laneReduce : inOrder, acc, powRound))));
});

/** Python's str() of the ord Scalar in the error texts (2 -> "2", 2.5 -> "2.5", inf -> "inf"). */
const scalarStr = (v: number): string => (Number.isFinite(v) ? String(v) : v > 0 ? "inf" : "-inf");

/** check_linalg_norm_dtype (LinearAlgebraUtils.h). */
export function checkNormDtype(dt: dtype | null, selfType: ScalarType, fn: string): void {
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

// ---- norm ----

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
export const frobenius_norm = (self: Tensor): Tensor => norm_Scalar_op.call(self, 2) as Tensor;
export const frobenius_norm_dim = (self: Tensor, dim: readonly number[], keepdim: boolean): Tensor => frobenius(self, dim, keepdim);
/** frobenius_norm.out: computes frobenius_norm, then resizes out and copies into it. */
export function frobenius_norm_out(self: Tensor, dim: readonly number[], keepdim: boolean, out: Tensor): Tensor {
  const r = frobenius(self, dim, keepdim);
  resize_output(out, r._impl.sizes());
  copy__default.call(out, r, false);
  return out;
}
