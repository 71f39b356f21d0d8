// The BLAS-like products (aten/src/ATen/native/LinearAlgebra.cpp, Blas.cpp): mm, addmm, bmm, baddbmm,
// addbmm, mv, addmv, dot, vdot. Each does PyTorch's checks in PyTorch's order (the structured meta
// part first), allocates its output, then hands the arithmetic to gemm_stub (Gemm.ts).
//
// PyTorch's rule for beta: when beta == 0 the values of self are ignored, so NaN or inf in self do
// not reach the result (BLAS never reads C). Otherwise self is copied into the result first.

import { RuntimeError } from "../../../c10/Errors.js";
import { scalarTypeName } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { addmv__default } from "../../../generated/addmv.js";
import { addmv_out } from "../../../generated/addmv.js";
import { addmm__default } from "../../../generated/addmm.js";
import { dot_default } from "../../../generated/dot.js";
import { select_int } from "../../../generated/select.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { resize_output } from "../Resize.js";
import { gemm_stub, type GemmOperand } from "./Gemm.js";
import { bmm_stub, type BatchedGemmOperand } from "./BatchedGemm.js";
import {
  checkAllTypesAndBFloat16, checkScalarType, columnOperand, copyInto, expand_size, hasData, list, operand, rowOperand,
  scalarValue, sizesOf, structuredOutput, type StructuredMode,
} from "./common.js";

function gemm(c: Tensor, m: number, n: number, k: number, a: GemmOperand, b: GemmOperand, cOp: GemmOperand, beta: number, alpha: number): void {
  gemm_stub.call(c.device.type, { dtype: c.dtype.scalarType, m, n, k, alpha, beta, a, b, c: cOp });
}

/**
 * addmm_impl_cpu_: result = beta * self + alpha * (m1 @ m2), self already expanded to the result's
 * sizes. An empty contraction (k == 0) gives beta * self (or zeros), before the dtype dispatch.
 */
function addmm_impl_cpu_(result: Tensor, self: Tensor, m1: Tensor, m2: Tensor, betaS: Scalar, alphaS: Scalar): void {
  const [m, k] = sizesOf(m1), n = m2.size(1);
  const selfSizes = sizesOf(self);
  if (selfSizes[0] !== m || selfSizes[1] !== n) {
    throw new RuntimeError(`input shape is incompatible with matrix multiplication (${m}x${k} @ ${m2.size(0)}x${n} != ${selfSizes[0]}x${selfSizes[1]})`);
  }
  resize_output(result, selfSizes);
  if (result.numel() === 0 || !hasData(result)) return;
  const beta = scalarValue(betaS), alpha = scalarValue(alphaS);
  if (beta !== 0 && self !== result) copyInto(result, self);
  if (k !== 0) {
    checkAllTypesAndBFloat16("addmm_impl_cpu_", result.dtype.scalarType);
    checkScalarType(result.dtype.scalarType, m2);
    checkScalarType(result.dtype.scalarType, m1);
  }
  // k == 0: result.zero_() or result.mul_(beta), which the GEMM with an empty sum does as well
  gemm(result, m, n, k, operand(m1), operand(m2), operand(result), beta, k === 0 ? 1 : alpha);
}

// ---- mm, addmm (structured; TORCH_META_FUNC(mm), ADDMM_META) ----

export function mm_out_cpu(self: Tensor, mat2: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (self.dim() !== 2) throw new RuntimeError("self must be a matrix");
  if (mat2.dim() !== 2) throw new RuntimeError("mat2 must be a matrix");
  const [a0, a1] = sizesOf(self), [b0, b1] = sizesOf(mat2);
  if (a1 !== b0) throw new RuntimeError(`mat1 and mat2 shapes cannot be multiplied (${a0}x${a1} and ${b0}x${b1})`);
  const result = structuredOutput(self, [a0, b1], self.dtype, out, mode);
  addmm_impl_cpu_(result, result, self, mat2, 0, 1);
  return result;
}

export function addmm_out_cpu(self: Tensor, mat1: Tensor, mat2: Tensor, beta: Scalar, alpha: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (self.dtype !== mat2.dtype) throw new RuntimeError("self and mat2 must have the same dtype");
  if (mat1.dtype !== mat2.dtype) throw new RuntimeError("mat1 and mat2 must have the same dtype");
  if (mat1.dim() !== 2) throw new RuntimeError(`mat1 must be a matrix, got ${mat1.dim()}-D tensor`);
  if (mat2.dim() !== 2) throw new RuntimeError(`mat2 must be a matrix, got ${mat2.dim()}-D tensor`);
  const [a0, a1] = sizesOf(mat1), [b0, b1] = sizesOf(mat2);
  if (a1 !== b0) throw new RuntimeError(`mat1 and mat2 shapes cannot be multiplied (${a0}x${a1} and ${b0}x${b1})`);
  const result = structuredOutput(mat1, [a0, b1], mat1.dtype, out, mode, self);
  if (!hasData(result)) return result; // the meta function ends here; self is expanded by the impl
  const bSelf = expand_size(self, [a0, b1]);
  addmm_impl_cpu_(result, mode === "inplace" ? result : bSelf, mat1, mat2, beta, alpha);
  return result;
}

// ---- bmm, baddbmm (structured; common_checks_baddbmm_bmm, bmm_out_or_baddbmm_) ----

function bmm_meta(batch1: Tensor, batch2: Tensor, out: Tensor | null, mode: StructuredMode, self?: Tensor): Tensor {
  if (batch1.dim() !== 3) throw new RuntimeError("batch1 must be a 3D tensor");
  if (batch2.dim() !== 3) throw new RuntimeError("batch2 must be a 3D tensor");
  const [bs, rows, contraction] = sizesOf(batch1), s2 = sizesOf(batch2);
  if (s2[0] !== bs || s2[1] !== contraction) {
    throw new RuntimeError(`Expected size for first two dimensions of batch2 tensor to be: [${bs}, ${contraction}] but got: [${s2[0]}, ${s2[1]}].`);
  }
  const outputSize = [bs, rows, s2[2]];
  const result = structuredOutput(batch2, outputSize, batch2.dtype, out, mode, self);
  if (!(result._impl.sizes().length === 3 && result._impl.sizes().every((v, i) => v === outputSize[i]))) {
    throw new RuntimeError(`Expected an output tensor with shape ${list(outputSize)} but got shape ${list(result._impl.sizes())}`);
  }
  return result;
}

function bmm_out_or_baddbmm_(result: Tensor, batch1: Tensor, batch2: Tensor, betaS: Scalar, alphaS: Scalar, isBmm: boolean): void {
  if (result.numel() === 0 || !hasData(result)) return;
  const [bs, m, k] = sizesOf(batch1), n = batch2.size(2);
  const beta = isBmm ? 0 : scalarValue(betaS), alpha = isBmm ? 1 : scalarValue(alphaS);
  const t = batch1.dtype.scalarType;
  if (k === 0) {
    // self_or_result.zero_() or .mul_(beta)
    batchedGemm(result, bs, m, n, 0, batch1, batch2, beta, 1);
    return;
  }
  if (k * m * n < 400) {
    // baddbmm_cpu_kernel, dispatched on batch1's dtype
    checkAllTypesAndBFloat16(isBmm ? "bmm" : "baddbmm", t);
    checkScalarType(t, result);
    checkScalarType(t, batch2);
  } else {
    // one addmm_impl_cpu_ per batch item
    checkAllTypesAndBFloat16("addmm_impl_cpu_", result.dtype.scalarType);
    checkScalarType(result.dtype.scalarType, batch2);
    checkScalarType(result.dtype.scalarType, batch1);
  }
  batchedGemm(result, bs, m, n, k, batch1, batch2, beta, alpha);
}

/** One gemm per batch item, as bmm_stub (BatchedGemm.ts) runs them. */
function batchedGemm(result: Tensor, bs: number, m: number, n: number, k: number, batch1: Tensor, batch2: Tensor, beta: number, alpha: number): void {
  bmm_stub.call(result.device.type, {
    deviceType: result.device.type, dtype: result.dtype.scalarType, batch: bs, m, n, k, alpha, beta,
    a: batchedOperand(batch1), b: batchedOperand(batch2), c: batchedOperand(result),
  });
}

/** A 3-D tensor as a batched GEMM operand (batch1[b] is at offset + b * bs, without a select call). */
function batchedOperand(t: Tensor): BatchedGemmOperand {
  const st = t._impl.strides();
  return { data: typedView(t._impl.storage, t.dtype), offset: t._impl.storage_offset(), bs: st[0], rs: st[1], cs: st[2] };
}

export function bmm_out_cpu(self: Tensor, mat2: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const result = bmm_meta(self, mat2, out, mode);
  bmm_out_or_baddbmm_(result, self, mat2, 0, 1, true);
  return result;
}

export function baddbmm_out_cpu(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Scalar, alpha: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const self_ = expand_size(self, [batch1.size(0), batch1.size(1), batch2.size(2)]);
  const result = bmm_meta(batch1, batch2, out, mode, self);
  if (scalarValue(beta) !== 0 && mode !== "inplace" && hasData(result)) copyInto(result, self_);
  if (self_.dim() !== 3) throw new RuntimeError("self must be a 3D tensor");
  if (!sizesOf(self_).every((v, i) => v === result._impl.sizes()[i])) {
    throw new RuntimeError(`Expected an input tensor shape with shape ${list(sizesOf(result))} but got shape: ${list(sizesOf(self_))}`);
  }
  bmm_out_or_baddbmm_(result, batch1, batch2, beta, alpha, false);
  return result;
}

// ---- addbmm (addbmm_impl_: one addmm_ per batch item, through the dispatcher) ----

function addbmm_impl_(result: Tensor, self: Tensor, batch1: Tensor, batch2: Tensor, beta: Scalar, alpha: Scalar): Tensor {
  if (batch1.dim() !== 3) throw new RuntimeError("batch1 must be a 3D tensor");
  if (batch2.dim() !== 3) throw new RuntimeError("batch2 must be a 3D tensor");
  if (batch1.size(0) !== batch2.size(0)) {
    throw new RuntimeError(`batch1 and batch2 must have same number of batches, got ${batch1.size(0)} and ${batch2.size(0)}`);
  }
  if (batch1.size(2) !== batch2.size(1)) {
    throw new RuntimeError(`Incompatible matrix sizes for bmm (${batch1.size(1)}x${batch1.size(2)} and ${batch2.size(1)}x${batch2.size(2)})`);
  }
  const dim1 = batch1.size(1), dim2 = batch2.size(2);
  if (self.size(0) !== dim1 || self.size(1) !== dim2) throw new RuntimeError("self tensor does not match matmul output shape");
  resize_output(result, sizesOf(self)); // result.resize_as_(self)
  const b = scalarValue(beta);
  if (b !== 0 && self !== result && hasData(result)) copyInto(result, self);
  const numBatches = batch1.size(0);
  if (numBatches === 0) {
    if (hasData(result)) gemm(result, dim1, dim2, 0, operand(result), operand(result), operand(result), b, 1);
    return result;
  }
  let adjustedBeta: Scalar = beta;
  for (let i = 0; i < numBatches; i++) {
    addmm__default.call(result, select_int.call(batch1, 0, i), select_int.call(batch2, 0, i), adjustedBeta, alpha);
    adjustedBeta = 1; // accumulate output once
  }
  return result;
}

export function addbmm_out(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Scalar, alpha: Scalar, result: Tensor): Tensor {
  const bSelf = expand_size(self, [batch1.size(1), batch2.size(2)]);
  return addbmm_impl_(result, bSelf, batch1, batch2, beta, alpha);
}

export function addbmm_(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Scalar, alpha: Scalar): Tensor {
  return addbmm_impl_(self, self, batch1, batch2, beta, alpha);
}

export function addbmm(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Scalar, alpha: Scalar): Tensor {
  const result = empty_memory_format.call([0], self.dtype, null, self.device, null, null) as Tensor;
  return addbmm_out(self, batch1, batch2, beta, alpha, result);
}

// ---- addmv (structured), mv (CompositeExplicitAutograd: at::addmv_ into a fresh vector) ----

export function addmv_out_cpu(self: Tensor, mat: Tensor, vec: Tensor, beta: Scalar, alpha: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (!(mat.dim() === 2 && vec.dim() === 1 && self.dim() <= 1)) {
    throw new RuntimeError(`vector + matrix @ vector expected, got ${self.dim()}, ${mat.dim()}, ${vec.dim()}`);
  }
  if (!(mat.size(1) === vec.size(0) && (mat.size(0) === self.numel() || self.numel() === 1))) {
    throw new RuntimeError(`size mismatch, got ${self.size(0)}, ${mat.size(0)}x${mat.size(1)},${vec.size(0)}`);
  }
  const result = structuredOutput(vec, [mat.size(0)], vec.dtype, out, mode, self);
  if (!hasData(result)) return result;
  const self_ = expand_size(self, [mat.size(0)]);
  const b = scalarValue(beta);
  const [m, k] = sizesOf(mat);
  if (mat.numel() === 0) {
    // result.zero_() or result = self * beta
    if (b !== 0 && result !== self_) copyInto(result, self_);
    gemm(result, m, 1, 0, operand(mat), columnOperand(vec), columnOperand(result), b, 1);
    return result;
  }
  if (result !== self_ && b !== 0) copyInto(result, self_);
  if (result.numel() !== 0) {
    const t = mat.dtype.scalarType;
    checkAllTypesAndBFloat16("addmv_impl_cpu", t);
    checkScalarType(t, vec);
    checkScalarType(t, result);
    gemm(result, m, 1, k, operand(mat), columnOperand(vec), columnOperand(result), b, scalarValue(alpha));
  }
  return result;
}

export function mv(self: Tensor, vec: Tensor): Tensor {
  const result = empty_memory_format.call([self.size(0)], vec.dtype, null, vec.device, null, null) as Tensor;
  return addmv__default.call(result, self, vec, 0, 1) as Tensor; // the in-place version is more efficient
}

export function mv_out(self: Tensor, vec: Tensor, result: Tensor): Tensor {
  // result is resized by addmv_out, so it cannot also be its `self`: give it a correctly sized one
  if (result.dim() > 1 || result.numel() !== self.size(0) || result.numel() !== 1) {
    const selfAddmv = empty_memory_format.call([self.size(0)], vec.dtype, null, vec.device, null, null) as Tensor;
    return addmv_out.call(selfAddmv, self, vec, 0, 1, result) as Tensor;
  }
  return addmv_out.call(result, self, vec, 0, 1, result) as Tensor;
}

// ---- dot, vdot ----

function dot_check(self: Tensor, other: Tensor): void {
  if (self.dim() !== 1 || other.dim() !== 1) throw new RuntimeError(`1D tensors expected, but got ${self.dim()}D and ${other.dim()}D tensors`);
  if (self.dtype !== other.dtype) {
    throw new RuntimeError(`dot : expected both vectors to have same dtype, but found ${scalarTypeName(self.dtype.scalarType)} and ${scalarTypeName(other.dtype.scalarType)}`);
  }
  const a = self.numel(), b = other.numel();
  if (a !== b) {
    throw new RuntimeError(`inconsistent tensor size, expected tensor [${a}] and src [${b}] to have the same number of elements, but got ${a} and ${b} elements respectively`);
  }
}

export function dot(self: Tensor, other: Tensor): Tensor {
  dot_check(self, other);
  checkAllTypesAndBFloat16("dot", self.dtype.scalarType);
  const result = structuredOutput(self, [], self.dtype, null, "functional");
  if (!hasData(result)) return result;
  // a 1 x n row times an n x 1 column
  gemm(result, 1, 1, self.numel(), rowOperand(self), columnOperand(other), { ...columnOperand(result), rs: 0 }, 0, 1);
  return result;
}

/**
 * dot and vdot on Meta: PyTorch 1.13 has no meta kernel for them; its Python meta registration
 * checks that both are 1-D and returns an empty 0-dim tensor of self's dtype (no dtype or size check).
 */
export function dot_meta(self: Tensor, other: Tensor): Tensor {
  if (self.dim() !== 1 || other.dim() !== 1) throw new RuntimeError(`1D tensors expected, but got ${self.dim()}D and ${other.dim()}D tensors`);
  return structuredOutput(self, [], self.dtype, null, "functional");
}

/** vdot of real tensors is dot (it conjugates self only for complex ones). */
export function vdot(self: Tensor, other: Tensor): Tensor {
  return dot_default.call(self, other) as Tensor;
}

function dotLikeOut(self: Tensor, other: Tensor, result: Tensor, op: (a: Tensor, b: Tensor) => Tensor): Tensor {
  resize_output(result, []);
  if (result.dtype !== self.dtype) {
    throw new RuntimeError(`result dtype ${scalarTypeName(result.dtype.scalarType)} does not match input dtype ${scalarTypeName(self.dtype.scalarType)}`);
  }
  const value = op(self, other);
  if (!hasData(result)) return result;
  return fill__Scalar.call(result, value.item()) as Tensor; // result.fill_(self.dot(other)): fill_.Scalar here, fill_.Tensor in PyTorch
}

export function dot_out(self: Tensor, other: Tensor, result: Tensor): Tensor {
  return dotLikeOut(self, other, result, (a, b) => dot_default.call(a, b) as Tensor);
}

export function vdot_out(self: Tensor, other: Tensor, result: Tensor): Tensor {
  return dotLikeOut(self, other, result, (a, b) => (a as any).vdot(b) as Tensor);
}
