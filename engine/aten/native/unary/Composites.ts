// The CompositeExplicitAutograd kernels of the family (UnaryOps.cpp): functional and in-place forms
// written as calls to their out= operator through the dispatcher, so a trace shows abs calling
// abs.out, as at::abs does in PyTorch.

import { bool } from "../../../c10/ScalarType.js";
import { empty_impl, empty_strided_impl, wrap } from "../../core/empty.js";
import type { Tensor } from "../../core/Tensor.js";
import { abs_out } from "../../../generated/abs.js";
import { logical_not_out } from "../../../generated/logical_not.js";
import { nan_to_num_out } from "../../../generated/nan_to_num.js";
import { polygamma_out } from "../../../generated/polygamma.js";
import { below_ADInplaceOrView } from "./Nested.js";
import { preserve_format_strides } from "../OutputLayout.js";

/** at::empty({0}, self.options()): an out= tensor the out kernel resizes (and lays out like self). */
const emptyOf = (self: Tensor, dt = self.dtype) => wrap(empty_impl([0], dt, self.device));

/** abs: unary_op_impl_with_complex_to_float(self, at::abs_out). */
export function abs(self: Tensor): Tensor {
  return below_ADInplaceOrView(() => abs_out.call(self, emptyOf(self)) as Tensor);
}

export function abs_(self: Tensor): Tensor {
  return below_ADInplaceOrView(() => abs_out.call(self, self) as Tensor);
}

/** logical_not: a bool result; logical_not_ keeps self's dtype (0 and 1 in a float tensor). */
export function logical_not(self: Tensor): Tensor {
  return below_ADInplaceOrView(() => logical_not_out.call(self, emptyOf(self, bool)) as Tensor);
}

export function logical_not_(self: Tensor): Tensor {
  return below_ADInplaceOrView(() => logical_not_out.call(self, self) as Tensor);
}

/** nan_to_num: at::empty_like(self) (same layout), then nan_to_num.out. */
export function nan_to_num(self: Tensor, nan: number | null, posinf: number | null, neginf: number | null): Tensor {
  const result = wrap(empty_strided_impl(self._impl.sizes(), preserve_format_strides(self), self.dtype, self.device));
  return below_ADInplaceOrView(() => nan_to_num_out.call(self, nan, posinf, neginf, result) as Tensor);
}

export function nan_to_num_(self: Tensor, nan: number | null, posinf: number | null, neginf: number | null): Tensor {
  return below_ADInplaceOrView(() => nan_to_num_out.call(self, nan, posinf, neginf, self) as Tensor);
}

/** polygamma_: at::polygamma_out(self, n, self). */
export function polygamma_(self: Tensor, n: number): Tensor {
  return below_ADInplaceOrView(() => polygamma_out.call(n, self, self) as Tensor);
}
