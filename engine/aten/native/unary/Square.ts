// square (UnaryOps.cpp): a CompositeImplicitAutograd op that is at::pow(self, 2), so the trace shows
// pow.Tensor_Scalar and autograd differentiates pow (PowBackward0). pow's dtype rule applies:
// result_type(self, 2), so a bool tensor squares to int64. square_ is at::pow_out(self, self, 2):
// self is the out= tensor, so a bool self is refused (its int64 result cannot be cast back).

import type { Tensor } from "../../core/Tensor.js";
import { pow_Tensor_Scalar, pow_Tensor_Scalar_out } from "../../../generated/pow.js";

export function square(self: Tensor): Tensor {
  return pow_Tensor_Scalar.call(self, 2) as Tensor;
}

export function square_(self: Tensor): Tensor {
  return pow_Tensor_Scalar_out.call(self, 2, self) as Tensor;
}

export function square_out(self: Tensor, out: Tensor): Tensor {
  return pow_Tensor_Scalar_out.call(self, 2, out) as Tensor;
}
