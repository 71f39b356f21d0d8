// log_sigmoid (aten/src/ATen/native/Activation.cpp, cpu/Activation.cpp log_sigmoid_cpu_kernel):
// log_sigmoid_forward computes, over input.contiguous(), buffer = exp(-|x|) and
// output = min(x, 0) - log1p(buffer) (the buffer is what the backward reuses); log_sigmoid and
// log_sigmoid.out are its first output.

import { RuntimeError } from "../../../c10/Errors.js";
import { end_composite } from "../../../c10/Dispose.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import { build_unary, hasData } from "../unary/UnaryIterator.js";
import { below_ADInplaceOrView } from "../unary/Nested.js";
import { log_sigmoid_backward_stub } from "./ActivationKernel.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { contiguousStrides } from "../../../c10/Contiguity.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_strided_impl, wrap } from "../../core/empty.js";
import { DispatchStub } from "../DispatchStub.js";
import { writeAll } from "../reduce/ReduceUtils.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_BFLOAT16 } from "../unary/Dispatch.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { log_sigmoid_forward_default, log_sigmoid_forward_output } from "../../../generated/log_sigmoid_forward.js";

type Pair = [Tensor, Tensor] & { output: Tensor; buffer: Tensor };
const pair = (a: Tensor, b: Tensor): Pair => Object.assign([a, b] as [Tensor, Tensor], { output: a, buffer: b });

/** (input, result, buffer): result = min(x, 0) - log1p(buffer) and buffer = exp(-|x|), each written through its own strides. */
type Kernel = (input: Tensor, result: Tensor, buffer: Tensor) => void;

/** Vectorized<float> for float32 and bfloat16 (computed in float, stored rounded), double for float64. */
export const log_sigmoid_cpu_stub = new DispatchStub<Kernel>("log_sigmoid_cpu_stub", "aten/src/ATen/native/cpu/Activation.cpp");
log_sigmoid_cpu_stub.register("ts", (input, result, buffer) => {
  const t = input.dtype.scalarType;
  AT_DISPATCH("log_sigmoid_cpu", t, FLOATING_TYPES_AND_BFLOAT16);
  const r = t === ScalarType.Double ? (v: number) => v : Math.fround;
  const output: number[] = [], buf: number[] = [];
  for (const v of input._flatNumbers()) {
    const min = Number.isNaN(v) || v < 0 ? v : 0; // vec::minimum propagates NaN
    const b = r(Math.exp(-Math.abs(v)));
    buf.push(b);
    output.push(r(min - r(Math.log1p(b))));
  }
  writeAll(result, output);
  writeAll(buffer, buf);
});

function run(input: Tensor, result: Tensor, buffer: Tensor): void {
  if (!result._impl.storage.hasData()) return; // meta: sizes and strides only
  log_sigmoid_cpu_stub.call(input.device.type, input, result, buffer);
}

/** log_sigmoid_forward_cpu: result and buffer contiguous, like the input's sizes. */
export function log_sigmoid_forward_cpu(self: Tensor): Pair {
  const sizes = [...self._impl.sizes()];
  const make = () => wrap(empty_strided_impl(sizes, contiguousStrides(sizes), self.dtype, self.device));
  const result = make(), buffer = make();
  run(self, result, buffer);
  return pair(result, buffer);
}

/** Tensor.resize_as_: same storage (grown if needed), contiguous strides when the sizes change; no warning. */
function resize_as_(t: Tensor, sizes: number[]): void {
  const impl = t._impl;
  const cur = impl.sizes();
  if (cur.length === sizes.length && cur.every((v, i) => v === sizes[i])) return;
  const needed = (impl.storage_offset() + sizes.reduce((a, b) => a * b, 1)) * t.element_size();
  if (impl.storage.nbytes() < needed) impl.storage.resize(needed);
  impl.set_sizes_and_strides(sizes, contiguousStrides(sizes));
}

/** log_sigmoid_forward.output: result.resize_as_(input), a contiguous buffer required. */
export function log_sigmoid_forward_out_cpu(self: Tensor, output: Tensor, buffer: Tensor): Pair {
  const sizes = [...self._impl.sizes()];
  resize_as_(output, sizes);
  resize_as_(buffer, sizes);
  if (!buffer.is_contiguous()) throw new RuntimeError("Contiguous buffer required for log_sigmoid with out parameter");
  run(self, output, buffer); // writeAll follows output's own strides, as result.copy_(result_tmp) would
  return pair(output, buffer);
}

/**
 * log_sigmoid (CompositeImplicitAutograd): std::get<0>(at::log_sigmoid_forward(self)). The buffer dies
 * with the op, as PyTorch's tuple element does when the function returns (autograd's saved copy keeps its
 * own share): left to the collector, a fresh block per call made log_sigmoid of 2^20 floats ~2.5x slower.
 */
export function log_sigmoid(self: Tensor): Tensor {
  const [output, buffer] = log_sigmoid_forward_default.call(self) as Pair;
  end_composite([buffer], [output], [self]);
  return output;
}

/** log_sigmoid.out: at::log_sigmoid_forward_out(output, at::empty({0}), self), its first output. */
export function log_sigmoid_out(self: Tensor, out: Tensor): Tensor {
  const buffer = empty_memory_format.call([0], self.dtype, null, self.device, null, null) as Tensor;
  return (log_sigmoid_forward_output.call(self, out, buffer) as Pair)[0];
}


// ---- log_sigmoid_backward (not structured): a TensorIterator over (input, buffer, grad_output) ----

/** TensorIteratorConfig's check_all_same_dtype over the inputs, in order: "Found dtype X but expected Y". */
export function checkAllSameDtype(tensors: readonly Tensor[]): void {
  const common = tensors[0].dtype;
  for (const t of tensors) {
    if (t.dtype !== common) throw new RuntimeError(`Found dtype ${scalarTypeName(t.dtype.scalarType)} but expected ${scalarTypeName(common.scalarType)}`);
  }
}

function logSigmoidBackward(grad_output: Tensor, self: Tensor, buffer: Tensor, grad_input: Tensor): Tensor {
  checkAllSameDtype([self, buffer, grad_output, grad_input]);
  const iter = build_unary({ config: "promoting", inputs: [self, buffer, grad_output], out: grad_input, mode: "out" });
  if (hasData(iter)) log_sigmoid_backward_stub.call(iter.output.device.type, iter);
  return iter.output;
}

/** log_sigmoid_backward_cpu: into at::empty_like(grad_output). */
export function log_sigmoid_backward_cpu(grad_output: Tensor, self: Tensor, buffer: Tensor): Tensor {
  const grad_input = below_ADInplaceOrView(() => empty_like_default.call(grad_output, null, null, null, null, null) as Tensor);
  return logSigmoidBackward(grad_output, self, buffer, grad_input);
}

/** log_sigmoid_backward.grad_input. */
export const log_sigmoid_backward_cpu_out = (grad_output: Tensor, self: Tensor, buffer: Tensor, grad_input: Tensor): Tensor =>
  logSigmoidBackward(grad_output, self, buffer, grad_input);
