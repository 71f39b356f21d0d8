// nonzero / nonzero.out / nonzero_numpy / argwhere (TensorAdvancedIndexing.cpp: nonzero_out_cpu,
// nonzero_cpu, nonzero_numpy; TensorCompare.cpp: argwhere). nonzero gives one row of coordinates per
// non-zero element, in row-major order: an int64 [count, ndim] tensor. CPU only in PyTorch 1.13 (the
// count depends on the data), so meta tensors are refused by the dispatcher, as there.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, int64 } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { assert_no_internal_overlap } from "../MemoryOverlap.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { nonzero_default } from "../../../generated/nonzero.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { unbind_int } from "../../../generated/unbind.js";
import { assert_no_overlap, elements, forEachIndex, offsetAt, scalarTypeName } from "./common.js";

const REF = "aten/src/ATen/native/TensorAdvancedIndexing.cpp";

/** The coordinates of self's non-zero elements (NaN counts as non-zero), row-major. */
function nonzeroCoords(self: Tensor): number[][] {
  const e = elements(self);
  const coords: number[][] = [];
  forEachIndex(self._impl.sizes(), (idx) => {
    const v = e.get(offsetAt(self, idx));
    if (v !== 0 && v !== 0n) coords.push([...idx]);
  });
  return coords;
}

/**
 * Sizes result for n rows of nd coordinates: written as (nd, n) and returned transposed, sizes
 * [n, nd], strides [1, n] (nonzero_out_cpu's layout).
 */
export function size_nonzero_result(result: Tensor, n: number, nd: number): void {
  resize_output(result, [nd, n]);
  result._impl.set_sizes_and_strides([n, nd], [1, n]);
}

/** nonzero_out_cpu's work: count self's non-zero elements, size result, write their coordinates. */
export const nonzero_stub = new DispatchStub<(self: Tensor, result: Tensor) => void>("nonzero_out_cpu", REF);
nonzero_stub.register("ts", (self, result) => {
  const coords = nonzeroCoords(self);
  size_nonzero_result(result, coords.length, self.dim());
  if (coords.length === 0 || self.dim() === 0) return;
  const r = elements(result);
  coords.forEach((c, i) => c.forEach((v, j) => r.set(offsetAt(result, [i, j]), BigInt(v))));
});

export function nonzero_out_cpu(self: Tensor, result: Tensor): Tensor {
  if (result.dtype.scalarType !== ScalarType.Long) {
    throw new RuntimeError(`nonzero: Expected out tensor to have scalar type Long but got scalar type${scalarTypeName(result.dtype.scalarType)}`);
  }
  assert_no_internal_overlap(result);
  assert_no_overlap(result, self);
  nonzero_stub.call(self.device.type, self, result);
  return result;
}

/** nonzero_cpu: at::empty({0}, self.options().dtype(kLong)) then the out= kernel. */
export function nonzero_cpu(self: Tensor): Tensor {
  const result = empty_memory_format.call([0], int64, null, self.device, null, null) as Tensor;
  return nonzero_out_cpu(self, result);
}

/** nonzero_numpy (CompositeImplicitAutograd): nonzero().unbind(1); a 0-dim self is unsqueezed first. */
export function nonzero_numpy(self: Tensor): Tensor[] {
  const base = self.dim() === 0 ? (unsqueeze_default.call(self, 0) as Tensor) : self;
  return unbind_int.call(nonzero_default.call(base), 1) as Tensor[];
}

/** argwhere (CompositeImplicitAutograd): self.nonzero(). */
export function argwhere(self: Tensor): Tensor {
  return nonzero_default.call(self) as Tensor;
}
