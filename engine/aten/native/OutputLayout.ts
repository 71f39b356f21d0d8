// The memory layout TensorIterator gives an output it allocates (aten/src/ATen/TensorIterator.cpp:
// fast_set_up, compute_strides, reorder_dimensions, allocate_or_resize_outputs), and empty_like's
// MemoryFormat::Preserve (aten/src/ATen/native/TensorFactories.cpp). An elementwise result keeps its
// inputs' layout: exp(x.t()) is transposed like x.t(), so it can be walked in the same order.
//
// TensorIterator.build and the unary family's iterator (unary/UnaryIterator.ts) both allocate with it.

import { contiguousStrides } from "../../c10/Contiguity.js";
import type { Tensor } from "../core/Tensor.js";

/** TensorImpl::compute_non_overlapping_and_dense: the elements fill a block of storage exactly once. */
export function is_non_overlapping_and_dense(sizes: readonly number[], strides: readonly number[]): boolean {
  const n = sizes.length;
  if (n === 1) return sizes[0] < 2 || strides[0] === 1;
  // dims by increasing stride, size 0/1 dims last
  const perm = [...sizes.keys()].sort((a, b) => {
    if (sizes[a] < 2) return sizes[b] < 2 ? 0 : 1;
    if (sizes[b] < 2) return -1;
    return strides[a] - strides[b];
  });
  let required = 1;
  for (const d of perm) {
    if (sizes[d] < 2) return true;
    if (strides[d] !== required) return false;
    required *= sizes[d];
  }
  return true;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * The strides of a fresh output of `shape` computed from `inputs` (outputs that are given keep
 * their own layout). fast_set_up first: all contiguous -> contiguous; all of the output's shape,
 * non-overlapping and dense with equal strides -> those strides. Otherwise the general rule: sort the
 * dims by the inputs' strides (in bytes, broadcast dims ignored) and lay the output out densely in
 * that order.
 */
export function iterator_output_strides(shape: readonly number[], inputs: readonly Tensor[]): number[] {
  const impls = inputs.map((t) => t._impl);
  if (impls.every((t) => t.is_contiguous())) return contiguousStrides(shape);
  if (impls.every((t) => sameShape(t.sizes(), shape))) {
    const first = impls[impls.length - 1];
    const dense = impls.every((t) => is_non_overlapping_and_dense(t.sizes(), t.strides()));
    if (dense && impls.every((t) => sameShape(t.strides(), first.strides()))) return [...first.strides()];
  }
  return reordered_strides(shape, impls.map((t) => strideBytes(t.sizes(), t.strides(), t.dtype.itemsize, shape)));
}

/** compute_strides: an operand's strides in bytes over the broadcast shape, 0 where it is broadcast. */
function strideBytes(sizes: readonly number[], strides: readonly number[], itemsize: number, shape: readonly number[]): number[] {
  const offset = shape.length - sizes.length;
  const out = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < sizes.length; i++) {
    out[offset + i] = sizes[i] === 1 && shape[offset + i] !== 1 ? 0 : strides[i] * itemsize;
  }
  return out;
}

/** reorder_dimensions + allocate_or_resize_outputs: a dense output in the order of the inputs' strides. */
function reordered_strides(shape: readonly number[], operands: readonly number[][]): number[] {
  const ndim = shape.length;
  // perm[0] is the fastest-moving dim; start from C order (n-1, ..., 0)
  const perm = [...Array(ndim).keys()].reverse();
  // 1: dim0 should come after dim1, -1: before, 0: undecided (ask the next operand)
  const shouldSwap = (dim0: number, dim1: number): number => {
    for (const st of operands) {
      const s0 = st[dim0], s1 = st[dim1];
      if (s0 === 0 || s1 === 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[dim0] > shape[dim1]) return 1;
    }
    return 0;
  };
  // insertion sort that tolerates undecided comparisons, as PyTorch's does
  for (let i = 1; i < ndim; i++) {
    let dim1 = i;
    for (let dim0 = i - 1; dim0 >= 0; dim0--) {
      const c = shouldSwap(perm[dim0], perm[dim1]);
      if (c > 0) {
        [perm[dim0], perm[dim1]] = [perm[dim1], perm[dim0]];
        dim1 = dim0;
      } else if (c < 0) break;
    }
  }
  if (perm.every((p, i) => p === ndim - 1 - i)) return contiguousStrides(shape);
  const strides = new Array<number>(ndim);
  let next = 1;
  for (const d of perm) {
    strides[d] = next;
    next *= shape[d];
  }
  return strides;
}

/** empty_like(self, MemoryFormat::Preserve)'s strides: self's own if dense, else contiguous. */
export function preserve_format_strides(self: Tensor): number[] {
  const impl = self._impl;
  if (is_non_overlapping_and_dense(impl.sizes(), impl.strides())) return [...impl.strides()];
  return contiguousStrides(impl.sizes());
}
