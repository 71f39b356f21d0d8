// as_strided, alias and _reshape_alias (aten/src/ATen/native/TensorShape.cpp): a view is a new
// TensorImpl on the same Storage, with the base's dtype, key set and version counter, and its own
// sizes, strides and storage_offset. Every view op in this family ends in one of these.

import { RuntimeError } from "../../../c10/Errors.js";
import { TensorImpl } from "../../../c10/TensorImpl.js";
import { Tensor } from "../../core/Tensor.js";
import { computeStorageNbytes, computeStorageNbytesSymbolic, checkNumel } from "./StorageSize.js";

const list = (xs: readonly number[]) => `[${xs.join(", ")}]`;

/**
 * make_tensor<TensorImpl>(VIEW, self.storage(), self.key_set(), self.dtype()) with the given geometry.
 * The version counter is the base's: an in-place write through either is seen by both (the
 * ADInplaceOrView kernel's as_view does this in PyTorch).
 */
export function make_view(self: Tensor, sizes: readonly number[], strides: readonly number[], storageOffset: number): Tensor {
  const impl = self._impl;
  return new Tensor(new TensorImpl(impl.storage, impl.dtype, sizes, strides, storageOffset, impl.version_counter, impl.key_set));
}

/** alias_with_sizes_and_strides (TensorShape.h): no checks; the caller knows the geometry fits. */
export function alias_with_sizes_and_strides(self: Tensor, sizes: readonly number[], strides: readonly number[]): Tensor {
  return make_view(self, sizes, strides, self._impl.storage_offset());
}

/**
 * setStrided + checkInBoundsForStorage (aten/src/ATen/native/Resize.h): the new window must lie
 * inside the storage. `symbolic` is the Meta kernel's SymInt arithmetic, which has no overflow check.
 */
function checkStrided(self: Tensor, size: readonly number[], stride: readonly number[], storageOffset: number, symbolic: boolean): void {
  if (size.length !== stride.length) throw new RuntimeError("mismatch in length of strides and shape");
  if (stride.some((s) => s < 0)) {
    throw new RuntimeError(`as_strided: Negative strides are not supported at the moment, got strides: ${list(stride)}`);
  }
  const itemsize = self._impl.itemsize();
  const sizeBytes = symbolic ? computeStorageNbytesSymbolic(size, stride, itemsize) : computeStorageNbytes(size, stride, itemsize);
  // a window with a zero-size dim needs no storage at all
  if (sizeBytes !== 0) {
    const needed = sizeBytes + storageOffset * itemsize;
    const available = self._impl.storage.nbytes();
    if (needed > available) {
      throw new RuntimeError(
        `setStorage: sizes ${list(size)}, strides ${list(stride)}, storage offset ${storageOffset}, and itemsize ${itemsize} ` +
          `requiring a storage size of ${needed} are out of bounds for storage of size ${available}`,
      );
    }
  }
  if (storageOffset < 0) throw new RuntimeError(`Tensor: invalid storage offset ${storageOffset}`);
  checkNumel(size); // set_sizes_and_strides recomputes numel, with an overflow check
}

function as_strided_impl(self: Tensor, size: readonly number[], stride: readonly number[], storageOffset: number | null, symbolic: boolean): Tensor {
  const offset = storageOffset ?? self._impl.storage_offset();
  checkStrided(self, size, stride, offset, symbolic);
  return make_view(self, size, stride, offset);
}

/** as_strided on CPU: storage_offset defaults to self's. */
export function as_strided_tensorimpl(self: Tensor, size: readonly number[], stride: readonly number[], storage_offset: number | null): Tensor {
  return as_strided_impl(self, size, stride, storage_offset, false);
}

/** as_strided on Meta: the same view, with the storage size computed in (unchecked) SymInt arithmetic. */
export function as_strided_tensorimpl_meta_symint(self: Tensor, size: readonly number[], stride: readonly number[], storage_offset: number | null): Tensor {
  return as_strided_impl(self, size, stride, storage_offset, true);
}

/** alias: the same window, as a new view (transpose(d, d) and movedim on a 0-d tensor return one). */
export function alias(self: Tensor): Tensor {
  return alias_with_sizes_and_strides(self, self._impl.sizes(), self._impl.strides());
}

/**
 * detach: a new tensor over the same data and version counter (so the graph still sees in-place
 * changes to it); the Autograd kernel keeps it out of the graph.
 */
export function detach(self: Tensor): Tensor {
  return alias(self);
}

/** detach_: the kernel has nothing to do; the Autograd kernel clears self's history. */
export function detach_(self: Tensor): Tensor {
  return self;
}

/** _reshape_alias: reshape's view when computeStride found strides; no checks, reshape did them. */
export function _reshape_alias(self: Tensor, size: readonly number[], stride: readonly number[]): Tensor {
  return alias_with_sizes_and_strides(self, size, stride);
}
