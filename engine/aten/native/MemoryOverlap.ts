// Memory overlap checks (aten/src/ATen/MemoryOverlap.cpp): writing through a tensor whose elements
// share memory, or into memory an input only partly shares, would give order-dependent results, so
// PyTorch refuses it.

import { RuntimeError } from "../../c10/Errors.js";
import type { Tensor } from "../core/Tensor.js";

export type MemOverlap = "no" | "yes" | "too_hard";
export type MemOverlapStatus = "full" | "partial" | "no" | "too_hard";

/** is_non_overlapping_and_dense, for the layouts that occur here: contiguous means dense. */
function isDense(t: Tensor): boolean {
  return t._impl.is_contiguous();
}

/** has_internal_overlap: an expanded dim (stride 0, size > 1) makes elements share memory. */
export function has_internal_overlap(t: Tensor): MemOverlap {
  if (isDense(t)) return "no";
  const sizes = t._impl.sizes(), strides = t._impl.strides();
  for (let i = 0; i < sizes.length; i++) if (sizes[i] > 1 && strides[i] === 0) return "yes";
  return "too_hard";
}

export function assert_no_internal_overlap(t: Tensor): void {
  if (has_internal_overlap(t) === "yes") {
    throw new RuntimeError(
      "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.",
    );
  }
}

/** get_overlap_status: do a and b share memory, and exactly or partly? */
export function get_overlap_status(a: Tensor, b: Tensor): MemOverlapStatus {
  if (a._impl === b._impl) return "full";
  if (a.numel() === 0 || b.numel() === 0) return "no";
  if (a._impl.storage !== b._impl.storage) return "no";
  if (!isDense(a) || !isDense(b)) return "too_hard";
  const aStart = a.data_ptr(), aEnd = aStart + a.numel() * a.element_size();
  const bStart = b.data_ptr(), bEnd = bStart + b.numel() * b.element_size();
  if (aStart === bStart && aEnd === bEnd) return "full";
  return aStart < bEnd && bStart < aEnd ? "partial" : "no";
}

export function assert_no_partial_overlap(a: Tensor, b: Tensor): void {
  if (get_overlap_status(a, b) === "partial") {
    throw new RuntimeError(
      "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.",
    );
  }
}
