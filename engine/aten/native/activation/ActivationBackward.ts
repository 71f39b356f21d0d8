// The backward ops of the activation family that derivatives.yaml calls (aten/src/ATen/native/Activation.cpp):
// each builds PyTorch's two-input TensorIterator (a binary op: the inputs promote to their common dtype,
// cast safely to grad_input) and runs its stub; meta tensors stop after the iterator.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Scalar, Tensor } from "../../core/Tensor.js";
import { build_unary, hasData, type StructuredMode } from "../unary/UnaryIterator.js";
import * as K from "./ActivationKernel.js";
import { geluType } from "./Activation.js";

/** threshold_backward: threshold_stub over (self, grad) with value 0: self <= threshold ? 0 : grad. */
export function threshold_backward_out(grad_output: Tensor, self: Tensor, threshold: Scalar, grad_input: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [self, grad_output], out: grad_input, mode });
  if (hasData(iter)) K.threshold_stub.call(iter.output.device.type, iter, threshold, 0);
  return iter.output;
}

/** leaky_relu_backward: the iterator runs over (self_or_result, grad_output). */
export function leaky_relu_backward_out(
  grad_output: Tensor, self_or_result: Tensor, negative_slope: Scalar, is_result: boolean, grad_input: Tensor | null, mode: StructuredMode = "out",
): Tensor {
  if (is_result && !(Number(negative_slope) >= 0)) {
    throw new RuntimeError(
      "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. " +
        "This is caused by calling in-place forward function with a negative slope, please call out-of-place " +
        "version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting " +
        "in-place leakRelu backward calculation with negative slope",
    );
  }
  const iter = build_unary({ config: "promoting", inputs: [self_or_result, grad_output], out: grad_input, mode });
  if (hasData(iter)) K.leaky_relu_backward_stub.call(iter.output.device.type, iter, negative_slope);
  return iter.output;
}

/** hardtanh_backward (not structured): TensorIterator::borrowing_binary_op(grad_input, grad_output, self). */
function hardtanhBackward(grad_output: Tensor, self: Tensor, min_val: Scalar, max_val: Scalar, out: Tensor | null, mode: StructuredMode): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [grad_output, self], out, mode });
  if (hasData(iter)) K.hardtanh_backward_stub.call(iter.output.device.type, iter, min_val, max_val);
  return iter.output;
}
export const hardtanh_backward = (grad_output: Tensor, self: Tensor, min_val: Scalar, max_val: Scalar): Tensor =>
  hardtanhBackward(grad_output, self, min_val, max_val, null, "functional");
export const hardtanh_backward_out = (grad_output: Tensor, self: Tensor, min_val: Scalar, max_val: Scalar, grad_input: Tensor): Tensor =>
  hardtanhBackward(grad_output, self, min_val, max_val, grad_input, "out");

/** hardsigmoid_backward: build_borrowing_binary_op(grad_input, grad_output, self). */
export function hardsigmoid_backward_out(grad_output: Tensor, self: Tensor, grad_input: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [grad_output, self], out: grad_input, mode });
  if (hasData(iter)) K.hardsigmoid_backward_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** elu_backward (structured): build_borrowing_binary_op(grad_input, grad_output, self_or_result), after the in-place check. */
export function elu_backward_out(
  grad_output: Tensor, alpha: Scalar, scale: Scalar, input_scale: Scalar, is_result: boolean, self_or_result: Tensor, grad_input: Tensor | null,
  mode: StructuredMode = "out",
): Tensor {
  if (is_result && !(Number(alpha) >= 0)) {
    throw new RuntimeError(
      "In-place elu backward calculation is triggered with a negative slope which is not supported. " +
        "This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead.",
    );
  }
  const iter = build_unary({ config: "promoting", inputs: [grad_output, self_or_result], out: grad_input, mode });
  if (hasData(iter)) K.elu_backward_stub.call(iter.output.device.type, iter, alpha, scale, input_scale, is_result);
  return iter.output;
}

/** gelu_backward (structured): build_borrowing_binary_op(grad_input, grad_output, self); the impl reads `approximate`. */
export function gelu_backward_out_cpu(grad_output: Tensor, self: Tensor, approximate: string, grad_input: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [grad_output, self], out: grad_input, mode });
  if (hasData(iter)) K.GeluBackwardKernel.call(iter.output.device.type, iter, geluType(approximate));
  return iter.output;
}

/** softplus_backward (structured): build_borrowing_binary_op(grad_input, grad_output, self). */
export function softplus_backward_out(grad_output: Tensor, self: Tensor, beta: Scalar, threshold: Scalar, grad_input: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [grad_output, self], out: grad_input, mode });
  if (hasData(iter)) K.softplus_backward_stub.call(iter.output.device.type, iter, beta, threshold);
  return iter.output;
}

/** silu_backward (structured): build_borrowing_binary_op(grad_input, grad_output, input). */
export function silu_backward_out(grad_output: Tensor, self: Tensor, grad_input: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [grad_output, self], out: grad_input, mode });
  if (hasData(iter)) K.silu_backward_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** hardswish_backward (not structured): TensorIterator::borrowing_binary_op(grad_input, grad_output, self) into a new tensor. */
export function hardswish_backward(grad_output: Tensor, self: Tensor): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [grad_output, self], out: null, mode: "functional" });
  if (hasData(iter)) K.hardswish_backward_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** mish_backward (not structured): TensorIterator::binary_op(grad_input, grad_output, input) into a new tensor. */
export function mish_backward(grad_output: Tensor, self: Tensor): Tensor {
  const iter = build_unary({ config: "promoting", inputs: [grad_output, self], out: null, mode: "functional" });
  if (hasData(iter)) K.mish_backward_stub.call(iter.output.device.type, iter);
  return iter.output;
}
