// isnan, isinf, isfinite (aten/src/ATen/native/TensorCompare.cpp): a bool tensor laid out like self.
//
// PyTorch composes them from other ops, and so do these: isnan is `self != self` (only NaN is unequal
// to itself), isinf `self.abs() == inf`, isfinite `(self == self) * (self.abs() != inf)`; integer and
// bool tensors are never NaN or infinite and short-cut to zeros_like / ones_like. Each step is an
// op call of its own (a trace shows isnan dispatching ne), so each runs the comparison kernels. The
// temporaries are disposed as soon as they are used (PyTorch frees them when their refcount drops).

import { bool, isIntegralType } from "../../../c10/ScalarType.js";
import { empty_strided_impl, wrap } from "../../core/empty.js";
import type { Tensor } from "../../core/Tensor.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { ne_Tensor, ne_Scalar } from "../../../generated/ne.js";
import { eq_Tensor, eq_Scalar } from "../../../generated/eq.js";
import { abs_default } from "../../../generated/abs.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { below_ADInplaceOrView } from "./Nested.js";
import { preserve_format_strides } from "../OutputLayout.js";

/** zeros_like / ones_like(self, kBool, MemoryFormat::Preserve). */
function boolLike(self: Tensor, value: boolean): Tensor {
  const result = wrap(empty_strided_impl(self._impl.sizes(), preserve_format_strides(self), bool, self.device));
  return below_ADInplaceOrView(() => fill__Scalar.call(result, value) as Tensor);
}

export function isnan(self: Tensor): Tensor {
  return ne_Tensor.call(self, self) as Tensor;
}

export function isinf(self: Tensor): Tensor {
  if (isIntegralType(self.dtype.scalarType, true)) return boolLike(self, false);
  const magnitude = abs_default.call(self) as Tensor;
  const result = eq_Scalar.call(magnitude, Infinity) as Tensor;
  magnitude.dispose();
  return result;
}

export function isfinite(self: Tensor): Tensor {
  if (isIntegralType(self.dtype.scalarType, true)) return boolLike(self, true);
  const notNan = eq_Tensor.call(self, self) as Tensor;
  const magnitude = abs_default.call(self) as Tensor;
  const notInf = ne_Scalar.call(magnitude, Infinity) as Tensor;
  const result = mul_Tensor.call(notNan, notInf) as Tensor;
  for (const t of [notNan, magnitude, notInf]) t.dispose();
  return result;
}
