// The native kernels of the forward AD ops (aten/src/ATen/native/AutogradComposite.cpp and
// VariableMethodStubs.cpp in PyTorch). _make_dual and _fw_primal are aliases of their input: their
// hand-written Autograd/ADInplaceOrView kernels (engine/autograd/forward_ad_ops.ts) attach or hide the
// tangent; these kernels are what runs below them (and in inference mode).

import type { Tensor } from "../../core/Tensor.js";
import { zeros_default } from "../../../generated/zeros.js";
import { as_strided_default } from "../../../generated/as_strided.js";
import { _fw_primal_default } from "../../../generated/_fw_primal.js";
import { alias } from "../shape/AsStrided.js";

/** _fw_primal: the same data, as a new tensor (without the tangent, which lives on autograd's side). */
export function _fw_primal(self: Tensor, _level: number): Tensor {
  return alias(self);
}

/** _make_dual: an alias of the primal; the Autograd kernel sets the tangent on it. */
export function _make_dual(primal: Tensor, _tangent: Tensor, _level: number): Tensor {
  return alias(primal);
}

/** _unpack_dual (CompositeImplicitAutograd): (tensor._fw_primal(level), tensor._fw_grad(level)). */
export function _unpack_dual(tensor: Tensor, level: number): [Tensor, Tensor | null] {
  const primal = _fw_primal_default.call(tensor, level) as Tensor;
  const tangent = (tensor._impl.autograd_meta?.fw_grad?.(level, tensor) ?? null) as Tensor | null;
  return [primal, tangent];
}

/**
 * _new_zeros_with_same_feature_meta(self, other): zeros with other's options over a storage as large as
 * other's, viewed with other's sizes, strides and storage offset, so a tangent can match its primal's
 * layout exactly (and as_strided views of a base's tangent line up with views of the base).
 * self_num_batch_dims > 0 (functorch's batched tangents) is not supported here.
 */
export function _new_zeros_with_same_feature_meta(self: Tensor, other: Tensor, self_num_batch_dims: number): Tensor {
  void self;
  if (self_num_batch_dims !== 0) throw new Error("_new_zeros_with_same_feature_meta: self_num_batch_dims > 0 is not supported by Glasstorch");
  const o = other._impl;
  const storageNumel = Math.floor(o.storage.nbytes() / o.itemsize());
  const z = zeros_default.call([storageNumel], other.dtype, null, other.device, null) as Tensor;
  return as_strided_default.call(z, [...o.sizes()], [...o.strides()], o.storage_offset()) as Tensor;
}
