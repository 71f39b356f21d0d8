// slice, narrow, select, unfold, diagonal (aten/src/ATen/native/TensorShape.cpp): views of part of
// a tensor. Each moves storage_offset to the first element and scales or drops strides.

import { IndexError, RuntimeError } from "../../../c10/Errors.js";
import { isIntegralType } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { Tensor } from "../../core/Tensor.js";
import { as_strided_default } from "../../../generated/as_strided.js";
import { narrow_default } from "../../../generated/narrow.js";
import { slice_Tensor } from "../../../generated/slice.js";

const list = (xs: readonly number[]) => `[${xs.join(", ")}]`;
const INT64_MAX = Number.MAX_SAFE_INTEGER; // "no end": any value past the dim's size

/** slice(dim, start, end, step): Python's x[start:end:step] along dim, clamped to the dim's size. */
export function slice(self: Tensor, dim: number, start: number | null, end: number | null, step: number): Tensor {
  const ndim = self.dim();
  if (ndim === 0) throw new IndexError("slice() cannot be applied to a 0-dim tensor.");
  const d = maybe_wrap_dim(dim, ndim);
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  let startVal = start ?? 0;
  let endVal = end ?? INT64_MAX;
  if (step <= 0) throw new RuntimeError("slice step must be positive");
  if (startVal < 0) startVal += sizes[d];
  if (endVal < 0) endVal += sizes[d];
  if (startVal < 0) startVal = 0;
  else if (startVal >= sizes[d]) startVal = sizes[d];
  if (endVal < startVal) endVal = startVal;
  else if (endVal >= sizes[d]) endVal = sizes[d];
  const storageOffset = self._impl.storage_offset() + startVal * strides[d];
  sizes[d] = Math.floor((endVal - startVal + step - 1) / step); // round up
  strides[d] *= step;
  return as_strided_default.call(self, sizes, strides, storageOffset) as Tensor;
}

/**
 * narrow(dim, start, length): slice(dim, start, start + length). The Tensor overload reads start
 * from a 0-d integer tensor and calls the int overload.
 */
export function narrow(self: Tensor, dim: number, start: number | Tensor, length: number): Tensor {
  if (start instanceof Tensor) {
    if (!(start.dim() === 0 && isIntegralType(start.dtype.scalarType, false))) throw new RuntimeError("start must be an 0-dim integral Tensor.");
    return narrow_default.call(self, dim, start.item() as number, length) as Tensor;
  }
  if (self.dim() === 0) throw new RuntimeError("narrow() cannot be applied to a 0-dim tensor.");
  const curSize = self.size(dim);
  // start == size is a valid (empty) window but not a valid index, so it is not wrapped
  if (start !== curSize) start = maybe_wrap_dim(start, curSize);
  if (!(length >= 0 && start <= curSize - length)) {
    throw new RuntimeError(`start (${start}) + length (${length}) exceeds dimension size (${curSize}).`);
  }
  return slice_Tensor.call(self, dim, start, start + length, 1) as Tensor;
}

/** select(dim, index): x[..., index, ...]; the dim disappears. */
export function select(self: Tensor, dim: number, index: number): Tensor {
  const ndim = self.dim();
  if (ndim === 0) throw new IndexError("select() cannot be applied to a 0-dim tensor.");
  const d = maybe_wrap_dim(dim, ndim);
  const size = self._impl.sizes()[d];
  if (index < -size || index >= size) {
    throw new IndexError(`select(): index ${index} out of range for tensor of size ${list(self._impl.sizes())} at dimension ${d}`);
  }
  if (index < 0) index += size;
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  const storageOffset = self._impl.storage_offset() + index * strides[d];
  sizes.splice(d, 1);
  strides.splice(d, 1);
  return as_strided_default.call(self, sizes, strides, storageOffset) as Tensor;
}

/** unfold(dimension, size, step): every window of `size` along the dim, as a new last dim. */
export function unfold(self: Tensor, dimension: number, size: number, step: number): Tensor {
  const ndim = self.dim();
  const d = maybe_wrap_dim(dimension, ndim, true); // a 0-d tensor unfolds along "dim 0"
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  const maxSize = ndim === 0 ? 1 : sizes[d];
  if (size > maxSize) throw new RuntimeError(`maximum size for tensor at dimension ${d} is ${maxSize} but size is ${size}`);
  if (step <= 0) throw new RuntimeError(`step is ${step} but must be > 0`);
  sizes.push(size);
  strides.push(ndim === 0 ? 1 : strides[d]);
  if (d < ndim) {
    sizes[d] = Math.trunc((sizes[d] - size) / step) + 1; // C++ integer division truncates
    strides[d] *= step;
  }
  return as_strided_default.call(self, sizes, strides, null) as Tensor;
}

/**
 * diagonal(offset, dim1, dim2): the elements where index(dim2) - index(dim1) = offset, as a new last
 * dim whose stride is stride(dim1) + stride(dim2).
 */
export function diagonal(self: Tensor, offset: number, dim1_: number, dim2_: number): Tensor {
  const nDims = self.dim();
  const dim1 = maybe_wrap_dim(dim1_, nDims);
  const dim2 = maybe_wrap_dim(dim2_, nDims);
  if (dim1 === dim2) throw new RuntimeError(`diagonal dimensions cannot be identical ${dim1_}, ${dim2_}`);
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  let storageOffset = self._impl.storage_offset();
  // a positive offset drops the leftmost columns (dim2), a negative one the topmost rows (dim1)
  const diagSize = offset >= 0
    ? Math.max(Math.min(sizes[dim1], sizes[dim2] - offset), 0)
    : Math.max(Math.min(sizes[dim1] + offset, sizes[dim2]), 0);
  // an offset past the end gives an empty diagonal; leave storage_offset alone then
  if (diagSize > 0) storageOffset += offset >= 0 ? offset * strides[dim2] : -offset * strides[dim1];
  const diagStride = strides[dim1] + strides[dim2];
  for (const d of [Math.max(dim1, dim2), Math.min(dim1, dim2)]) {
    sizes.splice(d, 1);
    strides.splice(d, 1);
  }
  sizes.push(diagSize);
  strides.push(diagStride);
  return as_strided_default.call(self, sizes, strides, storageOffset) as Tensor;
}
