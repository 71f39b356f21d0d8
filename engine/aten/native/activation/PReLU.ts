// prelu / prelu_backward (aten/src/ATen/native/Activation.cpp prelu_cpu, prelu_backward_cpu, PyTorch 1.13):
// the weight is either shared (one element) or one per channel (dim 1; a 1-D input has a single channel, so
// it only takes a shared weight), viewed as an nd tensor that broadcasts along dim 1, and a TensorIterator
// runs y = x > 0 ? x : w * x (its dtype check: the weight must have the input's dtype, except that a
// bfloat16 input gets a bfloat16 copy of the weight). The backward's iterator gives grad_input =
// x > 0 ? grad : w * grad and a collector x > 0 ? 0 : x * grad; the shared weight's gradient is
// collector.sum() (fill_), per-channel weights' collector.sum over every dim but 1. Results are contiguous.
// No Meta kernel: PyTorch 1.13 has none (its meta tensors go through a Python decomposition instead).
// Float, double, bfloat16.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import { contiguousStrides } from "../../../c10/Contiguity.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_strided_impl, wrap } from "../../core/empty.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { DispatchStub } from "../DispatchStub.js";
import { writeAll } from "../reduce/ReduceUtils.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_BFLOAT16 } from "../unary/Dispatch.js";
import { sum_default, sum_dim_IntList } from "../../../generated/sum.js";
import { fill__Tensor } from "../../../generated/fill.js";

/** The layout both kernels walk: `channels` weights, each covering `inner` consecutive elements per outer index. */
interface Layout {
  outer: number;
  channels: number;
  inner: number;
}

/** (self, weight, the weight's values as the iterator reads them, layout, result) */
type ForwardKernel = (self: Tensor, weight: Tensor, w: Float64Array, l: Layout, result: Tensor) => void;
/** (self, grad_output, weight, w, layout, grad_input, collector) */
type BackwardKernel = (self: Tensor, grad_output: Tensor, weight: Tensor, w: Float64Array, l: Layout, input_grad: Tensor, collector: Tensor) => void;

/** Calls f(input index, weight) for every element of the contiguous input, in order. */
function each(l: Layout, w: Float64Array, f: (pos: number, wj: number) => void): void {
  let pos = 0;
  for (let i = 0; i < l.outer; i++) for (let j = 0; j < l.channels; j++) for (let k = 0; k < l.inner; k++) f(pos++, w[j]);
}

export const prelu_cpu_stub = new DispatchStub<ForwardKernel>("prelu_cpu_stub", "aten/src/ATen/native/cpu/Activation.cpp");
prelu_cpu_stub.register("ts", (self, _weight, w, l, result) => {
  const t = self.dtype.scalarType;
  AT_DISPATCH("prelu_cpu", t, FLOATING_TYPES_AND_BFLOAT16);
  const x = self._flatNumbers(), out: number[] = [];
  each(l, w, (pos, wj) => {
    const v = x[pos];
    out.push(v > 0 ? v : roundToScalarType(t, wj * v));
  });
  writeAll(result, out);
});

export const prelu_backward_cpu_stub = new DispatchStub<BackwardKernel>("prelu_backward_cpu_stub", "aten/src/ATen/native/cpu/Activation.cpp");
prelu_backward_cpu_stub.register("ts", (self, grad_output, _weight, w, l, input_grad, weight_grad_collector) => {
  const t = self.dtype.scalarType;
  AT_DISPATCH("prelu_backward_cpu", t, FLOATING_TYPES_AND_BFLOAT16);
  const x = self._flatNumbers(), g = grad_output._flatNumbers();
  const gin: number[] = [], collector: number[] = [];
  each(l, w, (pos, wj) => {
    const v = x[pos];
    const gv = g[pos];
    const mask = v > 0;
    gin.push(mask ? gv : roundToScalarType(t, wj * gv));
    collector.push(mask ? 0 : roundToScalarType(t, v * gv));
  });
  writeAll(input_grad, gin);
  writeAll(weight_grad_collector, collector);
});

/** A contiguous result of `sizes`, uninitialised (at::empty): both kernels write every element, so zeroing it first was a second pass over memory. */
const contiguousLike = (self: Tensor, sizes: readonly number[]) =>
  wrap(empty_strided_impl([...sizes], contiguousStrides([...sizes]), self.dtype, self.device, true));

/** prelu_cpu's checks of a per-channel weight, and the layout its broadcast walks. */
function layoutOf(input: Tensor, weight_num: number): Layout {
  if (weight_num === 1) return { outer: 1, channels: 1, inner: input.numel() };
  const ndim = input.dim();
  if (!(ndim > 0)) throw new RuntimeError("Not allow zero-dim input tensor.");
  const channel_size = ndim > 1 ? input.size(1) : 1;
  if (channel_size !== weight_num) {
    throw new RuntimeError(`Mismatch of parameter numbers and input channel size. Found parameter numbers = ${weight_num} and channel size = ${channel_size}.`);
  }
  let inner = 1; // the product of the sizes past dim 1
  for (let d = 2; d < ndim; d++) inner *= input.size(d);
  return { outer: input.size(0), channels: channel_size, inner };
}

/** The weight as the iterator reads it: a bfloat16 copy for a bfloat16 input; otherwise it must have the input's dtype. */
function weightValues(input: Tensor, weight: Tensor): Float64Array {
  const t = input.dtype.scalarType;
  const wt = weight.dtype.scalarType;
  if (t === ScalarType.BFloat16) return Float64Array.from(weight._flatNumbers(), (v) => roundToScalarType(t, v));
  if (wt !== t) throw new RuntimeError(`Found dtype ${scalarTypeName(wt)} but expected ${scalarTypeName(t)}`);
  return weight._flatNumbers();
}

/** prelu_cpu: a contiguous result like the input. */
export function prelu_cpu(self: Tensor, weight: Tensor): Tensor {
  const l = layoutOf(self, weight.numel());
  const result = contiguousLike(self, self._impl.sizes());
  const w = weightValues(self, weight);
  prelu_cpu_stub.call(self.device.type, self, weight, w, l, result);
  return result;
}

/** prelu_backward_cpu: (grad_input, grad_weight); grad_weight has the weight's sizes. */
export function prelu_backward_cpu(grad_output: Tensor, self: Tensor, weight: Tensor): [Tensor, Tensor] {
  const weight_num = weight.numel();
  const sizes = self._impl.sizes();
  const l = layoutOf(self, weight_num);
  const input_grad = contiguousLike(self, sizes);
  const weight_grad_collector = contiguousLike(self, sizes);
  const w = weightValues(self, weight);
  if (grad_output.dtype.scalarType !== self.dtype.scalarType) {
    throw new RuntimeError(`Found dtype ${scalarTypeName(grad_output.dtype.scalarType)} but expected ${scalarTypeName(self.dtype.scalarType)}`);
  }
  prelu_backward_cpu_stub.call(self.device.type, self, grad_output, weight, w, l, input_grad, weight_grad_collector);
  let weight_grad: Tensor;
  if (weight_num === 1) {
    weight_grad = contiguousLike(weight, weight._impl.sizes());
    fill__Tensor.call(weight_grad, sum_default.call(weight_grad_collector, null) as Tensor);
  } else {
    const reduce_dims = [0];
    for (let i = 2; i < self.dim(); i++) reduce_dims.push(i);
    weight_grad = sum_dim_IntList.call(weight_grad_collector, reduce_dims, false, null) as Tensor;
  }
  return [input_grad, weight_grad];
}
