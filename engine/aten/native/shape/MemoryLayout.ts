// Layout questions about a strided window (c10/core/TensorImpl.cpp compute_non_overlapping_and_dense,
// aten/src/ATen/TensorUtils.cpp infer_dense_strides, aten/src/ATen/MemoryOverlap.cpp as of 1.13).
// clone, empty_like and _to_copy keep a dense tensor's strides; copy_ refuses writes whose memory
// overlaps in ways that would make the result depend on the loop order.

import { RuntimeError } from "../../../c10/Errors.js";
import type { TensorImpl } from "../../../c10/TensorImpl.js";

/** Every element has its own address and together they fill one block: a permutation of a contiguous layout. */
export function is_non_overlapping_and_dense(t: TensorImpl): boolean {
  if (t.is_contiguous()) return true;
  const sizes = t.sizes(), strides = t.strides();
  const dim = sizes.length;
  if (dim === 1) return sizes[0] < 2 || strides[0] === 1;
  // sort dims by stride, size-0/1 dims last; then each stride must be the product of the sizes before it
  const perm = [...Array(dim).keys()].sort((a, b) => {
    if (sizes[a] < 2) return sizes[b] < 2 ? 0 : 1;
    if (sizes[b] < 2) return -1;
    return strides[a] - strides[b];
  });
  let requireStride = 1;
  for (const d of perm) {
    if (sizes[d] < 2) return true;
    if (strides[d] !== requireStride) return false;
    requireStride *= sizes[d];
  }
  return true;
}

/**
 * infer_dense_strides: contiguous strides in the order of the input's strides (smallest stride
 * innermost), the way TensorIterator orders dims; 0-stride (expanded) dims keep their place.
 */
export function infer_dense_strides(sizes: readonly number[], strides: readonly number[]): number[] {
  const ndim = sizes.length;
  if (ndim === 0) return [];
  if (ndim === 1) return [1];
  const perm = [...Array(ndim).keys()].reverse(); // n-1, ..., 0: innermost first
  // 1: dim0 goes after dim1; -1: before; 0: ambiguous (keep the order)
  const shouldSwap = (d0: number, d1: number): number => {
    const s0 = strides[d0], s1 = strides[d1];
    if (s0 === 0 || s1 === 0) return 0;
    if (s0 < s1) return -1;
    if (s0 > s1) return 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  };
  // insertion sort that stops at the first dim that must stay before
  for (let i = 1; i < ndim; i++) {
    let dim1 = i;
    for (let j = 1; j <= i; j++) {
      const dim0 = i - j;
      const c = shouldSwap(perm[dim0], perm[dim1]);
      if (c > 0) {
        [perm[dim0], perm[dim1]] = [perm[dim1], perm[dim0]];
        dim1 = dim0;
      } else if (c < 0) break;
    }
  }
  const out = new Array<number>(ndim);
  let stride = 1;
  for (const d of perm) {
    out[d] = stride;
    if (sizes[d] > 1) stride *= sizes[d];
  }
  return out;
}

/** has_internal_overlap: "yes" when an expanded dim makes several elements share one address. */
export function has_internal_overlap(t: TensorImpl): "no" | "yes" | "too_hard" {
  if (is_non_overlapping_and_dense(t)) return "no";
  const sizes = t.sizes(), strides = t.strides();
  for (let i = 0; i < strides.length; i++) if (strides[i] === 0 && sizes[i] > 1) return "yes";
  return "too_hard";
}

/** get_overlap_status: two dense windows on one storage overlap fully (same bytes, same strides) or partly. */
export function get_overlap_status(a: TensorImpl, b: TensorImpl): "full" | "partial" | "no" | "too_hard" {
  if (a === b) return "full";
  if (a.numel() === 0 || b.numel() === 0) return "no";
  if (!is_non_overlapping_and_dense(a) || !is_non_overlapping_and_dense(b)) return "too_hard";
  if (a.storage !== b.storage) return "no";
  const aBegin = a.storage_offset() * a.itemsize(), aEnd = aBegin + a.numel() * a.itemsize();
  const bBegin = b.storage_offset() * b.itemsize(), bEnd = bBegin + b.numel() * b.itemsize();
  if (aBegin === bBegin && aEnd === bEnd) {
    const same = a.strides().length === b.strides().length && a.strides().every((s, i) => s === b.strides()[i]);
    return same ? "full" : "partial";
  }
  return aBegin < bEnd && bBegin < aEnd ? "partial" : "no";
}

export function assert_no_internal_overlap(t: TensorImpl): void {
  if (has_internal_overlap(t) === "yes") {
    throw new RuntimeError(
      "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.",
    );
  }
}

export function assert_no_partial_overlap(a: TensorImpl, b: TensorImpl): void {
  if (get_overlap_status(a, b) === "partial") {
    throw new RuntimeError(
      "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.",
    );
  }
}
