// The unary structured kernels (aten/src/ATen/native/UnaryOps.cpp): each serves an op's functional,
// in-place and out= forms (`mode`), builds the TensorIterator its meta function asks for, and runs
// its DispatchStub. Meta tensors stop after the iterator, which has computed shape, dtype and strides.
// Also the non-structured CPU kernels abs.out, logical_not.out, nan_to_num.out and logit.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isIntegralType, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import type { DispatchStub } from "../DispatchStub.js";
import type { TensorIterator } from "../TensorIterator.js";
import { resize_output } from "../Resize.js";
import { build_unary, hasData, type StructuredMode, type UnaryConfig } from "./UnaryIterator.js";
import * as K from "./UnaryOpsKernel.js";

type Stub = DispatchStub<(iter: TensorIterator) => void>;

function run(config: UnaryConfig, stub: Stub, self: Tensor, out: Tensor | null, mode: StructuredMode): Tensor {
  const iter = build_unary({ config, inputs: [self], out, mode });
  if (hasData(iter)) stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** CREATE_UNARY_FLOAT_META_FUNC + the impl that runs the stub: integers compute in the default float dtype. */
const floatOp = (stub: Stub) => (self: Tensor, out: Tensor | null, mode: StructuredMode = "out") => run("unary_float_op", stub, self, out, mode);

export const exp_out = floatOp(K.exp_stub);
export const exp2_out = floatOp(K.exp2_stub);
export const expm1_out = floatOp(K.expm1_stub);
export const log_out = floatOp(K.log_stub);
export const log2_out = floatOp(K.log2_stub);
export const log10_out = floatOp(K.log10_stub);
export const log1p_out = floatOp(K.log1p_stub);
export const sqrt_out = floatOp(K.sqrt_stub);
export const rsqrt_out = floatOp(K.rsqrt_stub);
export const reciprocal_out = floatOp(K.reciprocal_stub);
export const sin_out = floatOp(K.sin_stub);
export const cos_out = floatOp(K.cos_stub);
export const tan_out = floatOp(K.tan_stub);
export const asin_out = floatOp(K.asin_stub);
export const acos_out = floatOp(K.acos_stub);
export const atan_out = floatOp(K.atan_stub);
export const sinh_out = floatOp(K.sinh_stub);
export const cosh_out = floatOp(K.cosh_stub);
export const tanh_out = floatOp(K.tanh_stub);
export const sigmoid_out = floatOp(K.sigmoid_stub);
export const erf_out = floatOp(K.erf_stub);
export const erfc_out = floatOp(K.erfc_stub);
export const erfinv_out = floatOp(K.erfinv_stub);
export const asinh_out = floatOp(K.asinh_stub);
export const acosh_out = floatOp(K.acosh_stub);
export const atanh_out = floatOp(K.atanh_stub);
export const lgamma_out = floatOp(K.lgamma_stub);
export const digamma_out = floatOp(K.digamma_stub);

/** polygamma.out: TORCH_META_FUNC(polygamma) checks n, then the float unary iterator. */
export function polygamma_out(n: number, self: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (n < 0) throw new RuntimeError("polygamma(n, x) does not support negative n.");
  const iter = build_unary({ config: "unary_float_op", inputs: [self], out, mode });
  if (hasData(iter)) K.polygamma_stub.call(iter.output.device.type, iter, n);
  return iter.output;
}

/** CREATE_UNARY_META_FUNC: the result keeps self's dtype. */
const sameDtypeOp = (stub: Stub) => (self: Tensor, out: Tensor | null, mode: StructuredMode = "out") => run("unary_op", stub, self, out, mode);

export const frac_out = sameDtypeOp(K.frac_stub);
export const bitwise_not_out = sameDtypeOp(K.bitwise_not_stub);
export const sign_out = sameDtypeOp(K.sign_stub);
/** sgn of a real tensor is sign (sgn_out runs sgn_stub only for complex tensors). */
export const sgn_out = sameDtypeOp(K.sign_stub);

export function neg_out(self: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (self.dtype.scalarType === ScalarType.Bool) {
    throw new RuntimeError(
      "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
    );
  }
  return run("unary_op", K.neg_stub, self, out, mode);
}

/** floor/ceil/round/trunc: integer tensors are already integral, so they are copied (consistent with NumPy). */
const roundingOp = (stub: Stub) => (self: Tensor, out: Tensor | null, mode: StructuredMode = "out") => {
  const iter = build_unary({ config: "unary_op", inputs: [self], out, mode });
  if (!hasData(iter)) return iter.output;
  if (isIntegralType(self.dtype.scalarType, false)) K.copy_kernel(iter);
  else stub.call(iter.output.device.type, iter);
  return iter.output;
};

export const floor_out = roundingOp(K.floor_stub);
export const ceil_out = roundingOp(K.ceil_stub);
export const round_out = roundingOp(K.round_stub);
export const trunc_out = roundingOp(K.trunc_stub);

/** round(decimals=d); d = 0 is plain round (without round's integer copy). */
export function round_decimals_out(self: Tensor, decimals: number, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "unary_op", inputs: [self], out, mode });
  if (!hasData(iter)) return iter.output;
  const device = iter.output.device.type;
  if (decimals !== 0) K.round_decimals_stub.call(device, iter, decimals);
  else K.round_stub.call(device, iter);
  return iter.output;
}

// ---- non-structured CPU kernels (one function per yaml overload) ----

/** abs.out: TensorIterator::unary_op(result, self) and abs_stub (unary_op_impl_with_complex_to_float_out). */
export function abs_out(self: Tensor, out: Tensor): Tensor {
  return run("unary_op", K.abs_stub, self, out, "out");
}

/** logical_not.out: any input dtype, the output keeps its own (check_all_same_dtype(false)). */
export function logical_not_out(self: Tensor, out: Tensor): Tensor {
  return run("out_dtype", K.logical_not_stub, self, out, "out");
}

/** nan_to_num.out: same dtype as self; integers have nothing to replace and are copied. */
export function nan_to_num_out(self: Tensor, nan: number | null, posinf: number | null, neginf: number | null, out: Tensor): Tensor {
  if (self.dtype !== out.dtype) {
    throw new RuntimeError(`nan_to_num: dtype of out: ${scalarTypeName(out.dtype.scalarType)} should be same as input: ${scalarTypeName(self.dtype.scalarType)}`);
  }
  // integers: at::native::resize_output(result, self.sizes()) (a plain, contiguous resize), then copy_
  if (isIntegralType(self.dtype.scalarType, true)) resize_output(out, self._impl.sizes());
  const iter = build_unary({ config: "unary_op", inputs: [self], out, mode: "out" });
  if (!hasData(iter)) return iter.output;
  if (isIntegralType(self.dtype.scalarType, true)) K.copy_kernel(iter);
  else K.nan_to_num_stub.call(iter.output.device.type, iter, nan, posinf, neginf);
  return iter.output;
}

/** logit's eps travels to the stub as a Scalar, -1 standing for None. */
function logit_impl(self: Tensor, eps: number | null, out: Tensor | null, mode: StructuredMode): Tensor {
  const iter = build_unary({ config: "unary_float_op", inputs: [self], out, mode });
  if (hasData(iter)) K.logit_stub.call(iter.output.device.type, iter, eps ?? -1);
  return iter.output;
}

export function logit(self: Tensor, eps: number | null): Tensor {
  return logit_impl(self, eps, null, "functional");
}

/** logit_: at::logit_out(self, self, eps). */
export function logit_(self: Tensor, eps: number | null): Tensor {
  return logit_impl(self, eps, self, "out");
}

export function logit_out(self: Tensor, eps: number | null, out: Tensor): Tensor {
  return logit_impl(self, eps, out, "out");
}
