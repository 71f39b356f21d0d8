// The small ops Python's t[...] / t[...] = v lowering and the index kernels dispatch, which no other
// family declares yet (see the end of index.yaml):
//   lift_fresh (a marker tensor constructors dispatch), empty.names (at::empty with a names argument),
//   item / _local_scalar_dense (Tensor::item() in C++), fill_meta_ (fill_.Tensor on meta); and the
//   unchecked Meta kernel of the family's in-place ops (inplace_meta_).

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { _local_scalar_dense_default } from "../../../generated/_local_scalar_dense.js";

/** lift_fresh (CompositeExplicitAutograd): returns self. */
export function lift_fresh(self: Tensor): Tensor {
  return self;
}

/** empty.names (TensorFactories.cpp, CompositeExplicitAutograd): without names it is at::empty. */
export function empty_names(
  size: readonly number[], names: readonly string[] | null, dtype: unknown, layout: unknown, device: unknown, pin_memory: unknown, memory_format: unknown,
): Tensor {
  if (names !== null && names !== undefined) throw new RuntimeError("empty.names: named tensors are not supported in Glasstorch (names must be None)");
  return empty_memory_format.call(size, dtype, layout, device, pin_memory, memory_format) as Tensor;
}

/** item (Scalar.cpp, CompositeImplicitAutograd): at::_local_scalar_dense(self). */
export function item(self: Tensor): number | boolean {
  return _local_scalar_dense_default.call(self) as number | boolean;
}

/** _local_scalar_dense_cpu (Scalar.cpp): the one element of self as a Scalar. */
export function _local_scalar_dense_cpu(self: Tensor): number | boolean {
  return self.item();
}

/** fill_meta_ (Fill.cpp): fill_.Tensor on meta checks the value's dim and writes nothing. */
export function fill_meta_(self: Tensor, value: Tensor | number | boolean): Tensor {
  if (typeof value === "object" && value.dim() !== 0) {
    throw new RuntimeError(`fill_ only supports 0-dimension value tensor but got tensor with ${value.dim()} dimensions.`);
  }
  return self;
}

/**
 * The Meta kernel PyTorch 1.13 has for the in-place _index_put_impl_, index_fill_, masked_fill_ and
 * embedding_renorm_ (RegisterMeta.cpp): self, as it is — none of the CPU kernel's checks run on meta.
 */
export function inplace_meta_(self: Tensor, ..._args: unknown[]): Tensor {
  return self;
}
