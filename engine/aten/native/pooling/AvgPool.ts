// Average pooling (aten/src/ATen/native/AveragePool2d.cpp, Pooling.cpp). avg_pool2d is structured:
// its meta part checks the arguments and sizes the output; the impl runs avg_pool2d_kernel.
// avg_pool1d unsqueezes to 2-d.

import { borrow, end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { avg_pool2d_default } from "../../../generated/avg_pool2d.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { squeeze_dim } from "../../../generated/squeeze.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { hasData } from "../conv/Dense.js";
import { check1d, checkDimRange, pair, pool2d_shape_check, pooling_output_shape, structuredOutput, type StructuredMode } from "./PoolUtils.js";
import { avg_pool2d_kernel } from "./PoolKernels.js";

const { Long, Double, Float, BFloat16 } = ScalarType;

export function avg_pool2d_out_cpu(input: Tensor, kernelSize: number[], stride: number[], padding: number[], ceilMode: boolean, countIncludePad: boolean, divisorOverride: number | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (!(kernelSize.length === 1 || kernelSize.length === 2)) throw new RuntimeError("avg_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  const [kH, kW] = pair(kernelSize);
  if (!(stride.length === 0 || stride.length === 1 || stride.length === 2)) {
    throw new RuntimeError("avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
  }
  const [dH, dW] = stride.length === 0 ? [kH, kW] : pair(stride);
  if (!(padding.length === 1 || padding.length === 2)) throw new RuntimeError("avg_pool2d: padding must either be a single int, or a tuple of two ints");
  const [padH, padW] = pair(padding);
  if (divisorOverride !== null && divisorOverride === 0) throw new RuntimeError("divisor must be not zero");
  const s = input.shape;
  const nbatch = input.dim() === 4 ? s[s.length - 4] : 1;
  const nPlane = s[maybe_wrap_dim(-3, s.length)]; // input.size(-3): an IndexError below 3 dims
  const [H, W] = s.slice(-2);
  const OH = pooling_output_shape(H, kH, padH, dH, 1, ceilMode);
  const OW = pooling_output_shape(W, kW, padW, dW, 1, ceilMode);
  pool2d_shape_check(input, kH, kW, dH, dW, padH, padW, 1, 1, nPlane, H, W, OH, OW);
  const sizes = input.dim() === 3 ? [nPlane, OH, OW] : [nbatch, nPlane, OH, OW];
  const output = structuredOutput(input, sizes, input.dtype, out, mode, true); // (the kernels write every element)
  if (!hasData(output)) return output;
  AT_DISPATCH("avg_pool2d", input.dtype.scalarType, [Long, Double, Float, BFloat16]);
  if (output.numel() > 0) avg_pool2d_kernel.call("cpu", output, input, { kH, kW, dH, dW, padH, padW, dilationH: 1, dilationW: 1 }, countIncludePad, divisorOverride);
  return output;
}

export function avg_pool1d(self: Tensor, kernelSize: number[], stride: number[], padding: number[], ceilMode: boolean, countIncludePad: boolean): Tensor {
  if (stride.length === 0) stride = kernelSize;
  checkDimRange("avg_pool1d", self, "self", 1, 2, 4);
  check1d("avg_pool1d", "kernel_size", kernelSize);
  check1d("avg_pool1d", "stride", stride);
  check1d("avg_pool1d", "padding", padding);
  const input = unsqueeze_default.call(self, -2) as Tensor;
  const out = avg_pool2d_default.call(input, [1, kernelSize[0]], [1, stride[0]], [0, padding[0]], ceilMode, countIncludePad, null) as Tensor;
  const result = squeeze_dim.call(out, -2) as Tensor;
  // the temporaries give up their shares (c10/Dispose.ts): result alone owns its block
  borrow(input._impl);
  end_composite([out], [result]);
  return result;
}
