// The backward operators of the pointwise losses (aten/src/ATen/native/Loss.cpp) that derivatives.yaml calls:
// mse_loss_backward, smooth_l1_loss_backward, huber_loss_backward (a TensorIterator over (input, target,
// grad_output) into zeros_like(input), norm = 1 / numel for Mean) and binary_cross_entropy_backward (a loop
// over the squeezed operands, then weight and Mean applied in place). Meta tensors stop after the iterator.

import type { Tensor } from "../../core/Tensor.js";
import { build_unary, hasData, type StructuredMode } from "../unary/UnaryIterator.js";
import { below_ADInplaceOrView } from "../unary/Nested.js";
import { checkAllSameDtype } from "../activation/LogSigmoid.js";
import { zeros_like_default } from "../../../generated/zeros_like.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { squeeze_default } from "../../../generated/squeeze.js";
import { mul__Tensor } from "../../../generated/mul.js";
import { div__Scalar } from "../../../generated/div.js";
import { smooth_l1_loss_backward_grad_input } from "../../../generated/smooth_l1_loss_backward.js";
import { huber_loss_backward_out as huber_loss_backward_out_op } from "../../../generated/huber_loss_backward.js";
import * as K from "./LossKernel.js";
import { Reduction } from "./Reduction.js";

type Mode = StructuredMode;

/** at::zeros_like(input, LEGACY_CONTIGUOUS_MEMORY_FORMAT): the functional forms' grad_input. */
const zerosContiguous = (input: Tensor): Tensor =>
  below_ADInplaceOrView(() => zeros_like_default.call(input, null, null, null, null, "contiguous_format") as Tensor);

const normOf = (reduction: number, input: Tensor, value: number) => (reduction === Reduction.Mean ? value / input.numel() : value);

/** TensorIteratorConfig().add_output(grad_input).add_input(input).add_input(target).add_input(grad_output), promoting or not. */
function lossIter(grad_output: Tensor, input: Tensor, target: Tensor, grad_input: Tensor, promote: boolean) {
  if (!promote) checkAllSameDtype([input, target, grad_output, grad_input]);
  const mode: Mode = "out";
  return build_unary({ config: "promoting", inputs: [input, target, grad_output], out: grad_input, mode });
}

// ---- mse_loss_backward (CPU kernels for both forms) ----

export function mse_loss_backward_out(grad_output: Tensor, input: Tensor, target: Tensor, reduction: number, grad_input: Tensor): Tensor {
  const iter = lossIter(grad_output, input, target, grad_input, false);
  if (hasData(iter)) K.mse_backward_stub.call(iter.output.device.type, iter, normOf(reduction, input, 2));
  return grad_input;
}

export function mse_loss_backward(grad_output: Tensor, input: Tensor, target: Tensor, reduction: number): Tensor {
  return mse_loss_backward_out(grad_output, input, target, reduction, zerosContiguous(input));
}

// ---- smooth_l1_loss_backward (.grad_input: CPU; functional: CompositeExplicitAutograd) ----

export function smooth_l1_loss_backward_out(grad_output: Tensor, input: Tensor, target: Tensor, reduction: number, beta: number, grad_input: Tensor): Tensor {
  const iter = lossIter(grad_output, input, target, grad_input, true);
  if (hasData(iter)) K.smooth_l1_backward_stub.call(iter.output.device.type, iter, normOf(reduction, input, 1), beta);
  return grad_input;
}

/** smooth_l1_loss_backward: at::smooth_l1_loss_backward_out(zeros_like(input), ...) (beta 0 runs the kernel too: -norm * grad at x == 0). */
export function smooth_l1_loss_backward(grad_output: Tensor, input: Tensor, target: Tensor, reduction: number, beta: number): Tensor {
  const grad_input = zerosContiguous(input);
  return below_ADInplaceOrView(() => smooth_l1_loss_backward_grad_input.call(grad_output, input, target, reduction, beta, grad_input) as Tensor);
}

// ---- huber_loss_backward (.out: CPU; functional: CompositeExplicitAutograd) ----

export function huber_loss_backward_out(grad_output: Tensor, input: Tensor, target: Tensor, reduction: number, delta: number, grad_input: Tensor): Tensor {
  const iter = lossIter(grad_output, input, target, grad_input, false);
  if (hasData(iter)) K.huber_backward_stub.call(iter.output.device.type, iter, normOf(reduction, input, 1), delta);
  return grad_input;
}

/** huber_loss_backward: at::huber_loss_backward_out(zeros_like(input, contiguous), ...). */
export function huber_loss_backward(grad_output: Tensor, input: Tensor, target: Tensor, reduction: number, delta: number): Tensor {
  const grad_input = zerosContiguous(input);
  return below_ADInplaceOrView(() => huber_loss_backward_out_op.call(grad_output, input, target, reduction, delta, grad_input) as Tensor);
}

// ---- binary_cross_entropy_backward (CPU kernels for both forms) ----

/**
 * binary_cross_entropy_backward_out_cpu: the loop over squeeze(grad), squeeze(input), squeeze(target) into
 * grad_input.squeeze(), then grad_input.mul_(weight) and, for Mean, grad_input.div_(input.numel()).
 */
export function binary_cross_entropy_backward_out_cpu(grad: Tensor, input: Tensor, target: Tensor, weight: Tensor | null, reduction: number, grad_input: Tensor): Tensor {
  return below_ADInplaceOrView(() => {
    const gi = squeeze_default.call(grad_input) as Tensor;
    const inputs = [grad, input, target].map((t) => squeeze_default.call(t) as Tensor);
    checkAllSameDtype([...inputs, gi]);
    const iter = build_unary({ config: "promoting", inputs, out: gi, mode: "out" });
    if (hasData(iter)) K.binary_cross_entropy_backward_stub.call(iter.output.device.type, iter);
    if (weight !== null) mul__Tensor.call(grad_input, weight);
    if (reduction === Reduction.Mean) div__Scalar.call(grad_input, input.numel());
    return grad_input;
  });
}

/** binary_cross_entropy_backward_cpu: into at::empty_like(input, LEGACY_CONTIGUOUS_MEMORY_FORMAT). */
export function binary_cross_entropy_backward_cpu(grad: Tensor, input: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  const grad_input = below_ADInplaceOrView(() => empty_like_default.call(input, null, null, null, null, "contiguous_format") as Tensor);
  return binary_cross_entropy_backward_out_cpu(grad, input, target, weight, reduction, grad_input);
}
