// matmul and the products built on the BLAS ops (aten/src/ATen/native/LinearAlgebra.cpp, PyTorch 1.13):
// matmul picks dot / mv / mm by the inputs' dims, folds the batch of an N-D operand into mm or mv
// when the other is 1-D or 2-D (should_fold), and otherwise broadcasts the batch dims, flattens them
// and calls bmm. Every step is a dispatched call, so the trace shows the same aten ops as PyTorch's.
// Also outer / ger (reshape * vec), kron (_unsafe_view + mul) and tensordot (permute + reshape + mm).

import { end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { infer_size } from "../../ExpandUtils.js";
import type { Tensor } from "../../core/Tensor.js";
import { dot_default, dot_out } from "../../../generated/dot.js";
import { mv_default, mv_out } from "../../../generated/mv.js";
import { mm_default, mm_out } from "../../../generated/mm.js";
import { bmm_default, bmm_out } from "../../../generated/bmm.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { squeeze__dim } from "../../../generated/squeeze.js";
import { transpose_int } from "../../../generated/transpose.js";
import { t_default } from "../../../generated/t.js";
import { reshape_default } from "../../../generated/reshape.js";
import { _unsafe_view_default } from "../../../generated/_unsafe_view.js";
import { contiguous_default } from "../../../generated/contiguous.js";
import { expand_default } from "../../../generated/expand.js";
import { mul_Tensor, mul_out } from "../../../generated/mul.js";
import { permute_default } from "../../../generated/permute.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { copy__default } from "../../../generated/copy.js";
import { resize_output } from "../Resize.js";
import { scalarTypeName } from "../../../c10/ScalarType.js";
import { sizesOf } from "./common.js";

const prod = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);
const mT = (t: Tensor): Tensor => transpose_int.call(t, -2, -1) as Tensor;
const isAliasOf = (a: Tensor, b: Tensor): boolean => a._impl.storage === b._impl.storage;

/**
 * should_fold (1.13): an N-D (N >= 3) tensor times a 1-D or 2-D one can fold its batch into mm/mv,
 * unless it is 3-D times a matrix with its last two dims transposed over a contiguous batch (that
 * would need a copy; bmm handles the transposed operand instead).
 */
function should_fold(tensor1: Tensor, dimTensor2: number): boolean {
  const dim1 = tensor1.dim();
  if (dim1 >= 3 && (dimTensor2 === 1 || dimTensor2 === 2)) {
    const s = tensor1._impl.sizes(), st = tensor1._impl.strides();
    if (dim1 === 3 && dimTensor2 === 2 && st[2] !== 1 && st[0] === s[1] * s[2]) return false;
    return true;
  }
  return false;
}

function _matmul_impl(out: Tensor | null, tensor1: Tensor, tensor2: Tensor): Tensor {
  const dim1 = tensor1.dim(), dim2 = tensor2.dim();
  if (dim1 === 0 || dim2 === 0) throw new RuntimeError(`both arguments to matmul need to be at least 1D, but they are ${dim1}D and ${dim2}D`);
  const hasOut = out !== null;
  if (dim1 === 1 && dim2 === 1) return hasOut ? (dot_out.call(tensor1, tensor2, out) as Tensor) : (dot_default.call(tensor1, tensor2) as Tensor);
  if (dim1 === 2 && dim2 === 1) return hasOut ? (mv_out.call(tensor1, tensor2, out) as Tensor) : (mv_default.call(tensor1, tensor2) as Tensor);
  if (dim1 === 1 && dim2 === 2) {
    const r = hasOut ? mm_out.call(unsqueeze_default.call(tensor1, 0), tensor2, out) : mm_default.call(unsqueeze_default.call(tensor1, 0), tensor2);
    return squeeze__dim.call(r, 0) as Tensor;
  }
  if (dim1 === 2 && dim2 === 2) return hasOut ? (mm_out.call(tensor1, tensor2, out) as Tensor) : (mm_default.call(tensor1, tensor2) as Tensor);
  if (should_fold(tensor1, dim2) || should_fold(tensor2, dim1)) {
    // fold the batch of the larger tensor into its leading matrix dim; 2-D @ N-D goes through the transposes
    const transpose = dim2 > dim1;
    const t1 = transpose ? mT(tensor2) : tensor1;
    const t2 = !transpose ? tensor2 : dim1 === 2 ? (t_default.call(tensor1) as Tensor) : tensor1;
    const sizes1 = sizesOf(t1);
    const outputShape = sizes1.slice(0, -1);
    const foldedDim1 = prod(outputShape);
    const t2IsMatrix = t2.dim() === 2;
    if (t2IsMatrix) outputShape.push(t2.size(1));
    // not t1.view(-1, k): with k == 0 the -1 would be ambiguous ([3, 5, 0] @ [0, 0])
    const t1Folded = reshape_default.call(t1, [foldedDim1, sizes1[sizes1.length - 1]]) as Tensor;
    if (!hasOut) {
      if (t2IsMatrix) {
        const output = _unsafe_view_default.call(mm_default.call(t1Folded, t2), outputShape) as Tensor;
        return transpose ? (contiguous_default.call(mT(output), "contiguous_format") as Tensor) : output;
      }
      return _unsafe_view_default.call(mv_default.call(t1Folded, t2), outputShape) as Tensor;
    }
    resize_output(out, outputShape);
    const reshapedOut = reshape_default.call(out, t2IsMatrix ? [foldedDim1, t2.size(t2.dim() - 1)] : [foldedDim1]) as Tensor;
    if (t2IsMatrix) mm_out.call(t1Folded, t2, reshapedOut);
    else mv_out.call(t1Folded, t2, reshapedOut);
    if (!isAliasOf(reshapedOut, out)) copy__default.call(out, reshapedOut, false);
    return out;
  }
  // dim1 >= 3 || dim2 >= 3: broadcast the batch dims, flatten them, bmm
  const s1 = sizesOf(tensor1), s2 = sizesOf(tensor2);
  const n = dim1 > 1 ? s1[dim1 - 2] : 1;
  const m1 = s1[dim1 - 1];
  const batch1 = s1.slice(0, Math.max(dim1 - 2, 0));
  const m2 = dim2 > 1 ? s2[dim2 - 2] : s2[0];
  const p = dim2 > 1 ? s2[dim2 - 1] : 1;
  const batch2 = s2.slice(0, Math.max(dim2 - 2, 0));
  const outputShape = infer_size(batch1, batch2);
  const expandBatchProduct = prod(outputShape);
  const tensor1Expanded = reshape_default.call(expand_default.call(tensor1, [...outputShape, n, m1], false), [expandBatchProduct, n, m1]) as Tensor;
  const tensor2Expanded = reshape_default.call(expand_default.call(tensor2, [...outputShape, m2, p], false), [expandBatchProduct, m2, p]) as Tensor;
  if (dim1 > 1) outputShape.push(n);
  if (dim2 > 1) outputShape.push(p);
  if (!hasOut) return _unsafe_view_default.call(bmm_default.call(tensor1Expanded, tensor2Expanded), outputShape) as Tensor;
  resize_output(out, outputShape);
  const reshapedOut = reshape_default.call(out, [expandBatchProduct, n, p]) as Tensor;
  bmm_out.call(tensor1Expanded, tensor2Expanded, reshapedOut);
  if (!isAliasOf(reshapedOut, out)) copy__default.call(out, reshapedOut, false);
  return out;
}

export function matmul(tensor1: Tensor, tensor2: Tensor): Tensor {
  return _matmul_impl(null, tensor1, tensor2);
}

export function matmul_out(tensor1: Tensor, tensor2: Tensor, result: Tensor): Tensor {
  _matmul_impl(result, tensor1, tensor2);
  return result;
}

// ---- outer, ger ----

function check_1d(t: Tensor, arg: string, fn: string): void {
  if (t.dim() !== 1) throw new RuntimeError(`${fn}: Expected 1-D argument ${arg}, but got ${t.dim()}-D`);
}

export function outer(self: Tensor, vec2: Tensor): Tensor {
  check_1d(self, "self", "outer");
  check_1d(vec2, "vec2", "outer");
  const column = reshape_default.call(self, [self.size(0), 1]) as Tensor;
  const result = mul_Tensor.call(column, vec2) as Tensor;
  end_composite([column], [result], [self]);
  return result;
}

export function outer_out(self: Tensor, vec2: Tensor, result: Tensor): Tensor {
  check_1d(self, "self", "outer");
  check_1d(vec2, "vec2", "outer");
  const column = reshape_default.call(self, [self.size(0), 1]) as Tensor;
  mul_out.call(column, vec2, result);
  end_composite([column], [result], [self]);
  return result;
}

export const ger = (self: Tensor, vec2: Tensor): Tensor => (self as any).outer(vec2) as Tensor;
export const ger_out = (self: Tensor, vec2: Tensor, result: Tensor): Tensor => outer_out(self, vec2, result);

// ---- kron (KronImpl): a (.., a_i, 1, ..) * (.., 1, b_i, ..) product viewed as (.., a_i * b_i, ..) ----

function kronShapes(self: Tensor, other: Tensor) {
  const maxdim = Math.max(self.dim(), other.dim());
  const padSelf = maxdim - self.dim(), padOther = maxdim - other.dim();
  const aReshape: number[] = [], bReshape: number[] = [], resultReshape: number[] = [];
  for (let i = 0; i < maxdim; i++) {
    const a = i >= padSelf ? self.size(i - padSelf) : 1;
    const b = i >= padOther ? other.size(i - padOther) : 1;
    aReshape.push(a, 1);
    bReshape.push(1, b);
    resultReshape.push(a * b);
  }
  const mulShape = aReshape.map((a, i) => (i % 2 === 0 ? a : bReshape[i]));
  return {
    selfView: _unsafe_view_default.call(self, aReshape) as Tensor,
    otherView: _unsafe_view_default.call(other, bReshape) as Tensor,
    resultReshape, mulShape,
  };
}

export function kron(self: Tensor, other: Tensor): Tensor {
  const k = kronShapes(self, other);
  return _unsafe_view_default.call(mul_Tensor.call(k.selfView, k.otherView), k.resultReshape) as Tensor;
}

export function kron_out(self: Tensor, other: Tensor, result: Tensor): Tensor {
  const k = kronShapes(self, other);
  resize_output(result, k.resultReshape);
  mul_out.call(k.selfView, k.otherView, _unsafe_view_default.call(result, k.mulShape));
  return result;
}

// ---- tensordot ----

export function tensordot(input1: Tensor, input2: Tensor, dims1: readonly number[], dims2: readonly number[]): Tensor {
  if (dims1.length !== dims2.length) throw new RuntimeError("both dimension lists should have same length");
  let csize = 1; // total size of the contracted dims
  let t1 = input1, t2 = input2;
  const made: Tensor[] = []; // the temporaries, which die with the op (end_composite)
  const step = (t: Tensor): Tensor => (made.push(t), t);
  for (let i = 0; i < dims1.length; i++) {
    const s1 = input1.size(dims1[i]), s2 = input2.size(dims2[i]);
    if (s2 === 1) t1 = step(sum_dim_IntList.call(t1, [dims1[i]], true, null) as Tensor); // broadcast dims are summed right away
    else if (s1 === 1) t2 = step(sum_dim_IntList.call(t2, [dims2[i]], true, null) as Tensor);
    else {
      if (s1 !== s2) {
        throw new RuntimeError(`contracted dimensions need to match, but first has size ${s1} in dim ${dims1[i]} and second has size ${s2} in dim ${dims2[i]}`);
      }
      csize *= s1;
    }
  }
  const cdims1 = dimListToBitset(dims1, input1.dim()), cdims2 = dimListToBitset(dims2, input2.dim());
  const p1: number[] = [], p2: number[] = [], rsizes: number[] = [];
  let size1 = 1, size2 = 1;
  for (let i = 0; i < input1.dim(); i++) {
    if (!cdims1[i]) {
      p1.push(i);
      size1 *= t1.size(i);
      rsizes.push(t1.size(i));
    }
  }
  p1.push(...dims1);
  p2.push(...dims2);
  for (let i = 0; i < input2.dim(); i++) {
    if (!cdims2[i]) {
      p2.push(i);
      size2 *= t2.size(i);
      rsizes.push(t2.size(i));
    }
  }
  t1 = step(reshape_default.call(step(permute_default.call(t1, p1) as Tensor), [size1, csize]) as Tensor);
  t2 = step(reshape_default.call(step(permute_default.call(t2, p2) as Tensor), [csize, size2]) as Tensor);
  const result = reshape_default.call(step(mm_default.call(t1, t2) as Tensor), rsizes) as Tensor;
  end_composite(made, [result], [input1, input2]);
  return result;
}

/** dim_list_to_bitset (WrapDimUtilsMulti.h). */
function dimListToBitset(dims: readonly number[], ndims: number): boolean[] {
  const seen = new Array<boolean>(ndims).fill(false);
  for (const d of dims) {
    const w = maybe_wrap_dim(d, ndims);
    if (seen[w]) throw new RuntimeError(`dim ${w} appears multiple times in the list of dims`);
    seen[w] = true;
  }
  return seen;
}

export function tensordot_out(input1: Tensor, input2: Tensor, dims1: readonly number[], dims2: readonly number[], result: Tensor): Tensor {
  const tmp = tensordot(input1, input2, dims1, dims2);
  if (tmp.dtype !== result.dtype) {
    throw new RuntimeError(`tensordot: Expected the output tensor to have dtype ${scalarTypeName(tmp.dtype.scalarType)}, but got an output tensor with dtype ${scalarTypeName(result.dtype.scalarType)}`);
  }
  resize_output(result, sizesOf(tmp));
  copy__default.call(result, tmp, false);
  tmp.dispose();
  return result;
}
