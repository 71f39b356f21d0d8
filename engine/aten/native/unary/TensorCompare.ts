// isnan, isinf, isfinite (aten/src/ATen/native/TensorCompare.cpp): a bool tensor laid out like self.
//
// PyTorch composes them from other ops: isnan is `self != self`, isinf `self.abs() == inf`,
// isfinite `(self == self) * (self.abs() != inf)`, and integer tensors short-cut to zeros_like /
// ones_like. Until the comparison ops exist here, the float cases evaluate the same predicate in one
// pass over a bool-output iterator (so no DispatchStub of their own: PyTorch has none either).

import { bool, isIntegralType } from "../../../c10/ScalarType.js";
import { empty_strided_impl, wrap } from "../../core/empty.js";
import type { Tensor } from "../../core/Tensor.js";
import { cpu_kernel_unary } from "../Loops.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { build_unary, hasData } from "./UnaryIterator.js";
import { below_ADInplaceOrView } from "./Nested.js";
import { preserve_format_strides } from "../OutputLayout.js";

function predicate(self: Tensor, test: (x: number) => boolean): Tensor {
  const iter = build_unary({ config: "force_boolean", inputs: [self], out: null, mode: "functional" });
  if (hasData(iter)) cpu_kernel_unary(iter, { number: (x) => (test(x) ? 1 : 0) });
  return iter.output;
}

/** zeros_like / ones_like(self, kBool, MemoryFormat::Preserve). */
function boolLike(self: Tensor, value: boolean): Tensor {
  const result = wrap(empty_strided_impl(self._impl.sizes(), preserve_format_strides(self), bool, self.device));
  return below_ADInplaceOrView(() => fill__Scalar.call(result, value) as Tensor);
}

export function isnan(self: Tensor): Tensor {
  return predicate(self, Number.isNaN);
}

export function isinf(self: Tensor): Tensor {
  if (isIntegralType(self.dtype.scalarType, true)) return boolLike(self, false);
  return predicate(self, (x) => Math.abs(x) === Infinity);
}

export function isfinite(self: Tensor): Tensor {
  if (isIntegralType(self.dtype.scalarType, true)) return boolLike(self, true);
  return predicate(self, Number.isFinite);
}
