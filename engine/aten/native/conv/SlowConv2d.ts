// The CPU convolution backends _convolution calls without MKLDNN: thnn_conv2d -> _slow_conv2d_forward
// (ConvolutionMM2d.cpp), slow_conv_dilated2d (NaiveDilatedConvolution.cpp) and slow_conv_transpose2d
// (NaiveConvolutionTranspose2d.cpp, structured: its meta part sizes the output). Each checks its
// arguments with PyTorch's texts, sizes the output and runs its DispatchStub.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import { Tensor } from "../../core/Tensor.js";
import { TensorImpl } from "../../../c10/TensorImpl.js";
import { contig } from "./Convolution.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { _slow_conv2d_forward_default, _slow_conv2d_forward_output } from "../../../generated/_slow_conv2d_forward.js";
import { AT_DISPATCH, ALL_TYPES_AND_BFLOAT16, FLOATING_TYPES_AND_BFLOAT16 } from "../unary/Dispatch.js";
import { sum_IntList_out } from "../../../generated/sum.js";
import { slow_conv2d_backward_stub } from "./ConvBackwardKernels.js";
import { slow_conv2d_stub, slow_conv_dilated2d_stub, slow_conv_transpose2d_stub } from "./ConvKernels.js";
import { hasData, sizesStr } from "./Dense.js";
import type { StructuredMode } from "../BinaryOps.js";
import { typeMetaName } from "../binary/TypeMeta.js";

const { Double, Float, Long } = ScalarType;

/** data_ptr<scalar_t>() on an operand of another dtype. */
function sameDtype(input: Tensor, ...others: (Tensor | null)[]): void {
  for (const o of others) {
    if (o !== null && o.dtype !== input.dtype) {
      throw new RuntimeError(`expected scalar type ${scalarTypeName(input.dtype.scalarType)} but found ${scalarTypeName(o.dtype.scalarType)}`);
    }
  }
}

function checkDimSize(t: Tensor, dim: number, dimSize: number, size: number): void {
  if (!(t.dim() === dim && t.shape[dimSize] === size)) {
    throw new RuntimeError(`Expected a tensor of dimension ${dim} and tensor.size[${dimSize}] == ${size} but got: dimension ${t.dim()} and tensor.size[${dimSize}] = ${t.shape[dimSize]}`);
  }
}

/** The same elements seen with other sizes (t contiguous) or with a leading dim of 1, no dispatch: the
 * kernels' raw-pointer views. */
function reshaped(t: Tensor, sizes: readonly number[]): Tensor {
  const impl = t._impl;
  const strides = sizes.length === impl.dim() + 1 ? [impl.numel(), ...impl.strides()] : null;
  return new Tensor(new TensorImpl(impl.storage, impl.dtype, sizes, strides, impl.storage_offset(), impl.version_counter));
}

const newTensor = (like: Tensor, sizes: number[], dt: dtype = like.dtype): Tensor => wrap(empty_impl(sizes, dt, like.device));

// ---- thnn_conv2d -> _slow_conv2d_forward ----

export function thnn_conv2d(self: Tensor, weight: Tensor, kernel: number[], bias: Tensor | null, stride: number[], padding: number[]): Tensor {
  return _slow_conv2d_forward_default.call(self, weight, kernel, bias, stride, padding) as Tensor;
}

export function thnn_conv2d_out(self: Tensor, weight: Tensor, kernel: number[], bias: Tensor | null, stride: number[], padding: number[], out: Tensor): Tensor {
  return _slow_conv2d_forward_output.call(self, weight, kernel, bias, stride, padding, out) as Tensor;
}

/** slow_conv2d_shape_check (ConvolutionMM2d.cpp) for the forward pass; returns the output's [H, W]. */
function slow_conv2d_shape_check(input: Tensor, weight: Tensor, bias: Tensor | null, k: number[], s: number[], p: number[]): [number, number] {
  const [kh, kw] = k;
  if (!(kw > 0 && kh > 0)) throw new RuntimeError(`kernel size should be greater than zero, but got kernel_height: ${kh} kernel_width: ${kw}`);
  if (!(s[1] > 0 && s[0] > 0)) throw new RuntimeError(`stride should be greater than zero, but got stride_height: ${s[0]} stride_width: ${s[1]}`);
  if (!(weight.numel() > 0 && (weight.dim() === 2 || weight.dim() === 4))) {
    throw new RuntimeError(`non-empty 2D or 4D weight tensor expected, but got: ${sizesStr(weight.shape)}`);
  }
  if (bias !== null) checkDimSize(bias, 1, 0, weight.shape[0]);
  const ndim = input.dim();
  if (ndim !== 4) throw new RuntimeError(`Expected 4D input tensor, but got: ${sizesStr(input.shape)}`);
  for (let d = 2; d < ndim; d++) {
    if (input.shape[d] === 0) {
      throw new RuntimeError(`Expected non-zero size for input dimension ${d}, but got input shape: ${sizesStr(input.shape)}. Only the batch and channel dimensions support size 0.`);
    }
  }
  const [H, W] = input.shape.slice(2);
  const eh = H + 2 * p[0];
  const ew = W + 2 * p[1];
  if (!(eh >= kh && ew >= kw)) {
    throw new RuntimeError(`Calculated padded input size per channel: (${eh} x ${ew}). Kernel size: (${kh} x ${kw}). Kernel size can't be greater than actual input size`);
  }
  const oh = Math.floor((eh - kh) / s[0]) + 1;
  const ow = Math.floor((ew - kw) / s[1]) + 1;
  if (!(ow >= 1 && oh >= 1)) {
    throw new RuntimeError(`Given input size per channel: (${H} x ${W}). Calculated output size per channel: (${oh} x ${ow}). Output size is too small`);
  }
  let nInputPlane = weight.shape[1];
  if (weight.dim() === 2) nInputPlane /= kh * kw;
  if (input.shape[1] !== 0) checkDimSize(input, ndim, 1, nInputPlane);
  return [oh, ow];
}

export function slow_conv2d_forward_out_cpu(self: Tensor, weight: Tensor, kernel: number[], bias: Tensor | null, stride: number[], padding: number[], output: Tensor): Tensor {
  if (kernel.length !== 2) throw new RuntimeError("2D kernel_size expected");
  if (stride.length !== 2) throw new RuntimeError("2D stride expected");
  if (padding.length !== 2) throw new RuntimeError("2D padding expected");
  const [oh, ow] = slow_conv2d_shape_check(self, weight, bias, kernel, stride, padding);
  const nOutputPlane = weight.shape[0];
  resize_output(output, [self.shape[0], nOutputPlane, oh, ow]);
  AT_DISPATCH("slow_conv2d_cpu", self.dtype.scalarType, ALL_TYPES_AND_BFLOAT16);
  sameDtype(self, weight, bias);
  if (hasData(output) && output.numel() > 0) {
    // a 2-D weight is the already-flattened [out, in * kh * kw] matrix
    const w4 = weight.dim() === 2 ? reshaped(contig(weight), [nOutputPlane, weight.shape[1] / (kernel[0] * kernel[1]), kernel[0], kernel[1]]) : weight;
    slow_conv2d_stub.call("cpu", output, self, w4, bias, { stride, padding, dilation: [1, 1] });
  }
  return output;
}

export function slow_conv2d_forward_cpu(self: Tensor, weight: Tensor, kernel: number[], bias: Tensor | null, stride: number[], padding: number[]): Tensor {
  return slow_conv2d_forward_out_cpu(self, weight, kernel, bias, stride, padding, newTensor(self, [0]));
}

// ---- slow_conv_dilated2d ----

/** slow_conv_dilated_shape_check (NaiveDilatedConvolution.cpp, DilatedConvolutionUtils.h) for the forward pass. */
function dilated_shape_check(input: Tensor, weight: Tensor, bias: Tensor | null, k: number[], s: number[], p: number[], d: number[]): number[] {
  if (k.length !== 2) throw new RuntimeError(`kernel sizes length should be 2, but got ${k.length}`);
  if (s.length !== 2) throw new RuntimeError(`strides length should be 2, but got ${s.length}`);
  if (d.length !== 2) throw new RuntimeError(`dilations length should be 2, but got ${d.length}`);
  if (p.length !== 2) throw new RuntimeError(`pads length should be 2, but got ${p.length}`);
  if (!k.every((x) => x > 0)) throw new RuntimeError(`kernel size should be greater than zero, but got ${sizesStr(k)}`);
  if (!s.every((x) => x > 0)) throw new RuntimeError(`stride should be greater than zero, but got ${sizesStr(s)}`);
  if (!d.every((x) => x > 0)) throw new RuntimeError(`dilation should be greater than zero, but got ${sizesStr(d)}`);
  if (!(weight.dim() === 4)) throw new RuntimeError(`weight must be 4D tensor, but got ${weight.dim()}D tensor dim=4`);
  if (!(weight.shape[2] === k[0] && weight.shape[3] === k[1])) {
    throw new RuntimeError(`weight[2:] shape ${sizesStr(weight.shape.slice(2))} must be equal to kernel_size ${sizesStr(k)}`);
  }
  if (bias !== null) checkDimSize(bias, 1, 0, weight.shape[0]);
  if (!(input.dim() === 4 || input.dim() === 3)) throw new RuntimeError(`input must be 4D or 3D tensor but got ${input.dim()}D tensor`);
  const out: number[] = [];
  for (let i = 0; i < 2; i++) {
    const size = input.shape[i + 2];
    const o = Math.floor((size + 2 * p[i] - (d[i] * (k[i] - 1) + 1)) / s[i]) + 1;
    if (o <= 0) throw new RuntimeError(`Given input size per channel: ${sizesStr(input.shape.slice(2))}. Calculated output size per channel: ${sizesStr([o])}. Output size is too small`);
    out.push(o);
  }
  if (input.shape[1] !== weight.shape[1]) {
    throw new RuntimeError(`expected input.size(1) == weight.size(1), but got ${input.shape[1]} != ${weight.shape[1]}`);
  }
  return out;
}

export function slow_conv_dilated2d_cpu(self: Tensor, weight: Tensor, kernel: number[], bias: Tensor | null, stride: number[], padding: number[], dilation: number[]): Tensor {
  const [oh, ow] = dilated_shape_check(self, weight, bias, kernel, stride, padding, dilation);
  const batched = self.dim() === 4;
  const output = newTensor(self, batched ? [self.shape[0], weight.shape[0], oh, ow] : [weight.shape[0], oh, ow]);
  AT_DISPATCH("slow_conv_dilated<>", self.dtype.scalarType, ALL_TYPES_AND_BFLOAT16);
  sameDtype(self, weight, bias);
  if (hasData(output) && output.numel() > 0) {
    const x = batched ? self : reshaped(self, [1, ...self.shape]);
    const y = batched ? output : reshaped(output, [1, ...output.shape]);
    slow_conv_dilated2d_stub.call("cpu", y, x, weight, bias, { stride, padding, dilation });
  }
  return output;
}

// ---- slow_conv_transpose2d (structured) ----

/** slow_conv_transpose2d_shape_check (NaiveConvolutionTranspose2d.cpp); returns the output's [H, W]. */
function transpose_shape_check(input: Tensor, weight: Tensor, bias: Tensor | null, k: number[], s: number[], p: number[], op: number[], d: number[]): [number, number] {
  if (!(k[1] > 0 && k[0] > 0)) throw new RuntimeError(`kernel size should be greater than zero, but got kernel_height: ${k[0]} kernel_width: ${k[1]}`);
  if (!(s[1] > 0 && s[0] > 0)) throw new RuntimeError(`stride should be greater than zero, but got stride_height: ${s[0]} stride_width: ${s[1]}`);
  if (!(d[1] > 0 && d[0] > 0)) throw new RuntimeError(`dilation should be greater than zero, but got dilation_height: ${d[0]}, dilation_width: ${d[1]}`);
  if (!((op[1] < s[1] || op[1] < d[1]) && (op[0] < s[0] || op[0] < d[0]))) {
    throw new RuntimeError(`output padding must be smaller than either stride or dilation, but got output_padding_height: ${op[0]} output_padding_width: ${op[1]} stride_height: ${s[0]} stride_width: ${s[1]} dilation_height: ${d[0]} dilation_width: ${d[1]}`);
  }
  if (!(weight.numel() !== 0 && (weight.dim() === 2 || weight.dim() === 4))) {
    throw new RuntimeError(`non-empty 2D or 4D weight tensor expected, but got: ${sizesStr(weight.shape)}`);
  }
  if (bias !== null) checkDimSize(bias, 1, 0, weight.shape[1]);
  const ndim = input.dim();
  if (!(input.numel() !== 0 && (ndim === 3 || ndim === 4))) {
    throw new RuntimeError(`non-empty 3D or 4D input tensor expected but got a tensor with size ${sizesStr(input.shape)}`);
  }
  const off = ndim === 4 ? 1 : 0;
  const [H, W] = [input.shape[off + 1], input.shape[off + 2]];
  const oh = (H - 1) * s[0] - 2 * p[0] + (d[0] * (k[0] - 1) + 1) + op[0];
  const ow = (W - 1) * s[1] - 2 * p[1] + (d[1] * (k[1] - 1) + 1) + op[1];
  if (ow < 1 || oh < 1) {
    throw new RuntimeError(`Given input size per channel: (${H} x ${W}). Calculated output size per channel: (${oh} x ${ow}). Output size is too small`);
  }
  checkDimSize(input, ndim, off, weight.shape[0]);
  return [oh, ow];
}

export function slow_conv_transpose2d_structured_cpu(self: Tensor, weight: Tensor, kernel: number[], bias: Tensor | null, stride: number[], padding: number[], outputPadding: number[], dilation: number[], out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const [oh, ow] = transpose_shape_check(self, weight, bias, kernel, stride, padding, outputPadding, dilation);
  const batched = self.dim() === 4;
  const nOut = weight.shape[1];
  // the meta function sizes a 3-d input's output as a batch of one
  const sizes = [batched ? self.shape[0] : 1, nOut, oh, ow];
  let output: Tensor;
  if (mode === "functional" || out === null) output = newTensor(self, sizes);
  else {
    output = out;
    if (output.dtype !== self.dtype) throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(self.dtype.scalarType)}, but got ${typeMetaName(output.dtype.scalarType)} instead`);
    resize_output(output, sizes);
  }
  if (!hasData(output)) return output; // the meta function stops here
  AT_DISPATCH("slow_conv_transpose2d_out_cpu", self.dtype.scalarType, [Double, Float, Long]);
  sameDtype(self, weight, bias);
  const x = batched ? self : reshaped(self, [1, ...self.shape]);
  slow_conv_transpose2d_stub.call("cpu", output, x, weight, bias, { stride, padding, dilation, output_padding: outputPadding });
  return output;
}

// ---- _slow_conv2d_backward (ConvolutionMM2d.cpp) ----

/** slow_conv2d_shape_check with grad_output: the forward's checks, then grad_output's size per dim. */
function backward_shape_check(input: Tensor, gradOutput: Tensor, weight: Tensor, k: number[], s: number[], p: number[]): void {
  const [oh, ow] = slow_conv2d_shape_check(input, weight, null, k, s, p);
  const ndim = input.dim();
  const nOutputPlane = weight.shape[0];
  checkDimSize(gradOutput, ndim, 1, nOutputPlane);
  checkDimSize(gradOutput, ndim, 2, oh);
  checkDimSize(gradOutput, ndim, 3, ow);
}

/** slow_conv2d_backward_out_cpu: grad_input (gemm + col2im), grad_bias (sum_out over N, H, W), grad_weight
 * (resized to weight's sizes, zeroed, then accumulated). An undefined (null) output is skipped. */
export function slow_conv2d_backward_out_cpu(
  gradOutput: Tensor, self: Tensor, weight: Tensor, kernel: number[], stride: number[], padding: number[],
  gradInput: Tensor | null, gradWeight: Tensor | null, gradBias: Tensor | null,
): [Tensor | null, Tensor | null, Tensor | null] {
  const w4 = (): Tensor => (weight.dim() === 2 ? reshaped(contig(weight), [weight.shape[0], weight.shape[1] / (kernel[0] * kernel[1]), kernel[0], kernel[1]]) : weight);
  const args = { stride, padding, dilation: [1, 1] };
  if (gradInput !== null) {
    backward_shape_check(self, gradOutput, weight, kernel, stride, padding);
    resize_output(gradInput, [...self.shape]);
    AT_DISPATCH("slow_conv2d_cpu_grad_input", self.dtype.scalarType, FLOATING_TYPES_AND_BFLOAT16);
    sameDtype(self, gradOutput, weight);
    if (hasData(gradInput) && gradInput.numel() > 0) slow_conv2d_backward_stub.call("cpu", { grad_input: gradInput, grad_weight: null, grad_bias: null }, contig(gradOutput), self, w4(), args);
  }
  if (gradBias !== null) sum_IntList_out.call(gradOutput, [0, 2, 3], false, null, gradBias);
  if (gradWeight !== null) {
    resize_output(gradWeight, [...weight.shape]);
    backward_shape_check(self, gradOutput, weight, kernel, stride, padding);
    AT_DISPATCH("slow_conv2d_cpu", self.dtype.scalarType, ALL_TYPES_AND_BFLOAT16);
    AT_DISPATCH("slow_conv2d_cpu_grad_weight", self.dtype.scalarType, FLOATING_TYPES_AND_BFLOAT16);
    sameDtype(self, gradOutput, gradWeight);
    if (hasData(gradWeight) && gradWeight.numel() > 0) {
      const gw4 = gradWeight.dim() === 2 ? reshaped(gradWeight, [weight.shape[0], weight.shape[1] / (kernel[0] * kernel[1]), kernel[0], kernel[1]]) : gradWeight;
      slow_conv2d_backward_stub.call("cpu", { grad_input: null, grad_weight: gw4, grad_bias: null }, contig(gradOutput), self, w4(), args);
    }
  }
  return [gradInput, gradWeight, gradBias];
}

/** _slow_conv2d_backward.output_mask: the out= kernel on empty outputs where the mask asks for them. */
export function slow_conv2d_backward_cpu(gradOutput: Tensor, self: Tensor, weight: Tensor, kernel: number[], stride: number[], padding: number[], outputMask: boolean[]): [Tensor | null, Tensor | null, Tensor | null] {
  const e = (): Tensor | null => newTensor(gradOutput, [0]);
  return slow_conv2d_backward_out_cpu(gradOutput, self, weight, kernel, stride, padding, outputMask[0] ? e() : null, outputMask[1] ? e() : null, outputMask[2] ? e() : null);
}
