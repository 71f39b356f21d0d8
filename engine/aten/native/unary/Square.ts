// square (UnaryOps.cpp): at::pow(self, 2), a CompositeImplicitAutograd op. pow's dtype rule applies:
// result_type(self, 2), so a bool tensor squares to int64. pow(Tensor, Scalar) runs
// pow_tensor_scalar_stub, whose kernel multiplies base * base for an exponent of 2
// (aten/src/ATen/native/cpu/PowKernel.cpp). Until pow itself exists here, square builds pow's
// iterator and runs that kernel directly, and bumps the version pow_out's ADInplaceOrView kernel
// would have bumped (a math kernel runs above ADInplaceOrView, so nothing else does).

import { dtypeOf } from "../../../c10/ScalarType.js";
import { resultTypeOf } from "../../TypeProperties.js";
import type { Scalar, Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import type { TensorIterator } from "../TensorIterator.js";
import { increment_version } from "../../core/OpRegistration.js";
import { build_unary, hasData, type StructuredMode } from "./UnaryIterator.js";
import { square_kernel } from "./UnaryOpsKernel.js";

export const pow_tensor_scalar_stub = new DispatchStub<(iter: TensorIterator, exp: Scalar) => void>("pow_tensor_scalar_stub", "aten/src/ATen/native/cpu/PowKernel.cpp");
pow_tensor_scalar_stub.register("ts", (iter, exp) => {
  if (exp !== 2) throw new Error(`pow_tensor_scalar_stub: only the exponent 2 (square) is implemented, got ${String(exp)}`);
  square_kernel(iter);
});

/** pow.Tensor_Scalar_out(self, 2): build_output_borrowing_argument_owning_unary_op on self.to(result_type). */
function pow2(self: Tensor, out: Tensor | null, mode: StructuredMode): Tensor {
  const dtype = dtypeOf(resultTypeOf([self, 2]));
  const iter = build_unary({ config: "unary_op", inputs: [self], out, mode, dtype });
  if (hasData(iter)) pow_tensor_scalar_stub.call(iter.output.device.type, iter, 2);
  return iter.output;
}

export function square(self: Tensor): Tensor {
  return pow2(self, null, "functional");
}

/** square_: at::pow_out(self, self, 2): self is the out= tensor, so a bool self is refused (int64 result). */
export function square_(self: Tensor): Tensor {
  pow2(self, self, "out");
  increment_version(self);
  return self;
}

export function square_out(self: Tensor, out: Tensor): Tensor {
  pow2(self, out, "out");
  increment_version(out);
  return out;
}
