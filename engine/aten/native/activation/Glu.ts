// glu and glu_backward (aten/src/ATen/native/GatedLinearUnit.cpp): self split in two halves a, b
// along dim; glu = a * sigmoid(b). The forward is a structured binary TensorIterator over the two
// narrow views (so meta tensors get the shape and dtype); the backward writes sigmoid(b) * grad into
// the first half of grad_input and (1 - sigmoid(b)) sigmoid(b) a grad into the second, as PyTorch's.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { build_unary, hasData, type StructuredMode } from "../unary/UnaryIterator.js";
import { narrow_default } from "../../../generated/narrow.js";
import { sigmoid_out } from "../../../generated/sigmoid.js";
import { mul__Tensor } from "../../../generated/mul.js";
import * as K from "./ActivationKernel.js";

const narrow = (t: Tensor, dim: number, start: number, length: number): Tensor => narrow_default.call(t, dim, start, length) as Tensor;

/** The halving dim and half size, with PyTorch's checks. */
function halves(self: Tensor, dim: number, scalarText: string): [number, number] {
  if (self.dim() === 0) throw new RuntimeError(scalarText);
  const d = maybe_wrap_dim(dim, self.dim());
  const nIn = self.size(d);
  if (nIn % 2 !== 0) throw new RuntimeError(`Halving dimension must be even, but dimension ${d} is size ${nIn}`);
  return [d, nIn / 2];
}

/** TORCH_META_FUNC(glu) + glu_out: build_borrowing_binary_op over the two halves, then glu_stub. */
export function glu_out(self: Tensor, dim: number, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const [d, half] = halves(self, dim, "glu does not support scalars because halving size must be even");
  const iter = build_unary({ config: "promoting", inputs: [narrow(self, d, 0, half), narrow(self, d, half, half)], out, mode });
  if (hasData(iter)) K.glu_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** glu_backward_cpu_out: grad_input = [sigmoid(b) * grad, (1 - sigmoid(b)) sigmoid(b) a grad] along dim. */
export function glu_backward_cpu_out(grad_output: Tensor, input: Tensor, dim: number, grad_input: Tensor): Tensor {
  const [d, half] = halves(input, dim, "glu does not support 0-dimensional tensors");
  resize_output(grad_input, input._impl.sizes());
  const firstHalf = narrow(input, d, 0, half);
  const secondHalf = narrow(input, d, half, half);
  const gradFirst = narrow(grad_input, d, 0, half);
  const gradSecond = narrow(grad_input, d, half, half);
  sigmoid_out.call(secondHalf, gradFirst);
  // the second half fused in one pass (glu_backward_stub), before the first is multiplied by grad
  const iter = build_unary({ config: "promoting", inputs: [gradFirst, firstHalf, grad_output], out: gradSecond, mode: "out" });
  if (hasData(iter)) K.glu_backward_stub.call(iter.output.device.type, iter);
  mul__Tensor.call(gradFirst, grad_output);
  return grad_input;
}

export function glu_backward_cpu(grad_output: Tensor, input: Tensor, dim: number): Tensor {
  return glu_backward_cpu_out(grad_output, input, dim, wrap(empty_impl([0], input.dtype, input.device)));
}
