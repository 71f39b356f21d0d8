// Helpers of the join family (engine/ops/native_functions/join.yaml) that are not shared elsewhere.

import { RuntimeError } from "../../../c10/Errors.js";
import { TensorImpl } from "../../../c10/TensorImpl.js";
import { Tensor } from "../../core/Tensor.js";
import { get_overlap_status } from "../shape/MemoryLayout.js";
import type { StructuredMode } from "../BinaryOps.js";

export type { StructuredMode };

export const list = (xs: readonly number[]): string => `[${xs.join(", ")}]`;
export const sameList = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/** Meta tensors hold no data: a kernel stops once the output's shape and dtype are known. */
export const hasData = (t: Tensor): boolean => t._impl.storage.hasData();

/**
 * A window onto t's storage built directly (no dispatcher call), for the places where PyTorch's
 * kernel works on raw pointers or restrided TensorIterator operands rather than calling view ops.
 */
export function rawWindow(t: Tensor, sizes: readonly number[], strides: readonly number[], offset: number): Tensor {
  const impl = t._impl;
  return new Tensor(new TensorImpl(impl.storage, impl.dtype, [...sizes], [...strides], offset, impl.version_counter));
}

/** assert_no_overlap (MemoryOverlap.cpp): the output may share no element with an input, fully or partly. */
export function assert_no_overlap(a: TensorImpl, b: TensorImpl): void {
  const s = get_overlap_status(a, b);
  if (s === "partial" || s === "full") {
    throw new RuntimeError(
      "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.",
    );
  }
}
