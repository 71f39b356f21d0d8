// The activation kernels (aten/src/ATen/native/Activation.cpp): the structured ones build the
// TensorIterator their meta function asks for (build_unary_op: the result keeps self's dtype) and run
// their stub; meta tensors stop after the iterator. relu, hardtanh and the elu variants are written,
// as in PyTorch, as calls to other operators (clamp_min, clamp, elu).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isIntegralType } from "../../../c10/ScalarType.js";
import type { Scalar, Tensor } from "../../core/Tensor.js";
import type { DispatchStub } from "../DispatchStub.js";
import type { TensorIterator } from "../TensorIterator.js";
import { build_unary, hasData, type StructuredMode } from "../unary/UnaryIterator.js";
import { below_ADInplaceOrView } from "../unary/Nested.js";
import { clamp_min_default, clamp_min__default } from "../../../generated/clamp_min.js";
import { clamp_out } from "../../../generated/clamp.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { hardtanh_default, hardtanh__default, hardtanh_out as hardtanh_out_op } from "../../../generated/hardtanh.js";
import { elu_default, elu__default } from "../../../generated/elu.js";
import * as K from "./ActivationKernel.js";

type Stub<A extends unknown[]> = DispatchStub<(iter: TensorIterator, ...args: A) => void>;

/** A structured unary activation: build_unary_op(maybe_get_output(), self), then the stub with its Scalars. */
function unaryAct<A extends unknown[]>(stub: Stub<A>, self: Tensor, out: Tensor | null, mode: StructuredMode, ...args: A): Tensor {
  const iter = build_unary({ config: "unary_op", inputs: [self], out, mode });
  if (hasData(iter)) stub.call(iter.output.device.type, iter, ...args);
  return iter.output;
}

// ---- relu, relu6 ----

function boolCheckRelu(self: Tensor): void {
  if (self.dtype.scalarType === ScalarType.Bool) throw new RuntimeError("Boolean inputs not supported for relu");
}

/** relu: at::clamp_min(self, 0). */
export function relu(self: Tensor): Tensor {
  boolCheckRelu(self);
  return below_ADInplaceOrView(() => clamp_min_default.call(self, 0) as Tensor);
}

/** relu_: at::clamp_min_(self, 0). */
export function relu_(self: Tensor): Tensor {
  boolCheckRelu(self);
  return below_ADInplaceOrView(() => clamp_min__default.call(self, 0) as Tensor);
}

/** relu6 (CompositeImplicitAutograd): at::hardtanh(self, 0, 6). */
export const relu6 = (self: Tensor): Tensor => hardtanh_default.call(self, 0, 6) as Tensor;
export const relu6_ = (self: Tensor): Tensor => hardtanh__default.call(self, 0, 6) as Tensor;

// ---- leaky_relu, elu, selu, celu ----

export function leaky_relu_out(self: Tensor, negative_slope: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return unaryAct(K.leaky_relu_stub, self, out, mode, negative_slope);
}

export function elu_out(self: Tensor, alpha: Scalar, scale: Scalar, input_scale: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return unaryAct(K.elu_stub, self, out, mode, alpha, scale, input_scale);
}

// Activation.cpp's SELU_ALPHA and SELU_SCALE
const SELU_ALPHA = 1.6732632423543772848170429916717;
const SELU_SCALE = 1.0507009873554804934193349852946;

/** selu (CompositeImplicitAutograd): at::elu(self, SELU_ALPHA, SELU_SCALE). */
export const selu = (self: Tensor): Tensor => elu_default.call(self, SELU_ALPHA, SELU_SCALE, 1) as Tensor;
export const selu_ = (self: Tensor): Tensor => elu__default.call(self, SELU_ALPHA, SELU_SCALE, 1) as Tensor;

function celuInverse(alpha: Scalar): number {
  if (Number(alpha) === 0) throw new RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU");
  return 1 / Number(alpha);
}

/** celu (CompositeExplicitAutograd): at::elu(self, alpha, 1.0, 1 / alpha). */
export function celu(self: Tensor, alpha: Scalar): Tensor {
  const inv = celuInverse(alpha);
  return below_ADInplaceOrView(() => elu_default.call(self, alpha, 1.0, inv) as Tensor);
}

export function celu_(self: Tensor, alpha: Scalar): Tensor {
  const inv = celuInverse(alpha);
  return below_ADInplaceOrView(() => elu__default.call(self, alpha, 1.0, inv) as Tensor);
}

// ---- gelu, silu, mish, softplus ----

/** get_gelutype_enum: read by the impl only, so a meta call does not check it. */
export function geluType(approximate: string): "none" | "tanh" {
  if (approximate === "none" || approximate === "tanh") return approximate;
  throw new RuntimeError("approximate argument must be either none or tanh.");
}

export function gelu_out_cpu(self: Tensor, approximate: string, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "unary_op", inputs: [self], out, mode });
  if (hasData(iter)) K.GeluKernel.call(iter.output.device.type, iter, geluType(approximate));
  return iter.output;
}

export function silu_out(self: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return unaryAct(K.silu_stub, self, out, mode);
}

export function mish_out(self: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return unaryAct(K.mish_stub, self, out, mode);
}

export function softplus_out(self: Tensor, beta: Scalar, threshold: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return unaryAct(K.softplus_stub, self, out, mode, beta, threshold);
}

// ---- hardtanh, hardsigmoid, hardswish ----

/**
 * hardtanh_out: clamp with bounds that keep an integer tensor's dtype (min and max are truncated to
 * integers first, "to preserve legacy behavior of boundaries not causing type promotion").
 */
export function hardtanh_out(self: Tensor, min_val: Scalar, max_val: Scalar, out: Tensor): Tensor {
  const t = self.dtype.scalarType;
  if (t === ScalarType.Bool) throw new RuntimeError("Bool inputs not supported for hardtanh");
  let lo = min_val, hi = max_val;
  if (isIntegralType(t, false)) {
    lo = Math.trunc(Number(min_val));
    hi = Math.trunc(Number(max_val));
    if (t === ScalarType.Byte && !(lo >= 0 && hi >= 0)) throw new RuntimeError("cannot do hardtanh on an unsigned type with negative limits");
  }
  return below_ADInplaceOrView(() => clamp_out.call(self, lo, hi, out) as Tensor);
}

/** hardtanh: at::hardtanh_out(at::empty_like(self), self, min, max). */
export function hardtanh(self: Tensor, min_val: Scalar, max_val: Scalar): Tensor {
  return below_ADInplaceOrView(() => {
    const result = empty_like_default.call(self, null, null, null, null, null) as Tensor;
    return hardtanh_out_op.call(self, min_val, max_val, result) as Tensor;
  });
}

/** hardtanh_: at::hardtanh_out(self, self, min, max). */
export function hardtanh_(self: Tensor, min_val: Scalar, max_val: Scalar): Tensor {
  return below_ADInplaceOrView(() => hardtanh_out_op.call(self, min_val, max_val, self) as Tensor);
}

export function hardsigmoid_out(self: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return unaryAct(K.hardsigmoid_stub, self, out, mode);
}

/** hardswish is not structured: TensorIterator::unary_op(result, self) and hardswish_stub. */
export const hardswish = (self: Tensor): Tensor => unaryAct(K.hardswish_stub, self, null, "functional");
export const hardswish_ = (self: Tensor): Tensor => unaryAct(K.hardswish_stub, self, null, "inplace");
export const hardswish_out = (self: Tensor, out: Tensor): Tensor => unaryAct(K.hardswish_stub, self, out, "out");

// ---- threshold ----

/**
 * threshold's meta: a TensorIterator over (self, self) that promotes, casts to the output safely and
 * allows memory overlap (threshold is idempotent).
 */
export function threshold_out(self: Tensor, threshold: Scalar, value: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [self, self], out, mode });
  if (hasData(iter)) K.threshold_stub.call(iter.output.device.type, iter, threshold, value);
  return iter.output;
}
