// Max pooling (aten/src/ATen/native/DilatedMaxPool2d.cpp, Pooling.cpp, MaxPooling.cpp).
// max_pool2d_with_indices is structured: its meta part checks the arguments and sizes both outputs
// (values and int64 indices); the impl runs max_pool2d_kernel. max_pool2d calls it and keeps the values.
// max_pool1d_with_indices unsqueezes to 2-d; max_pool1d runs its own indexless kernel on CPU when no
// gradient is needed, otherwise (or on another device, meta included) goes through the indexed op.

import { borrow, end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { int64, ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { max_pool2d_with_indices_default } from "../../../generated/max_pool2d_with_indices.js";
import { max_pool1d_with_indices_default } from "../../../generated/max_pool1d_with_indices.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { squeeze_dim } from "../../../generated/squeeze.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { hasData, sizesStr } from "../conv/Dense.js";
import { check1d, checkDimRange, isChannelsLast, pair, pool2d_shape_check, pooling_output_shape, structuredOutput, type StructuredMode } from "./PoolUtils.js";
import { max_pool1d_stub, max_pool2d_kernel } from "./PoolKernels.js";

const { Double, Float, BFloat16 } = ScalarType;

export function max_pool2d_with_indices_out_cpu(input: Tensor, kernelSize: number[], stride: number[], padding: number[], dilation: number[], ceilMode: boolean, out: Tensor | null, indices: Tensor | null, mode: StructuredMode = "out"): [Tensor, Tensor] {
  if (!(kernelSize.length === 1 || kernelSize.length === 2)) throw new RuntimeError("max_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  const [kH, kW] = pair(kernelSize);
  if (!(stride.length === 0 || stride.length === 1 || stride.length === 2)) {
    throw new RuntimeError("max_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
  }
  const [dH, dW] = stride.length === 0 ? [kH, kW] : pair(stride);
  if (!(padding.length === 1 || padding.length === 2)) throw new RuntimeError("max_pool2d: padding must be either be a single int, or a tuple of two ints");
  const [padH, padW] = pair(padding);
  if (!(dilation.length === 1 || dilation.length === 2)) throw new RuntimeError("max_pool2d: dilation must be either a single int, or a tuple of two ints");
  const [dilationH, dilationW] = pair(dilation);
  if (isChannelsLast(input)) {
    if (input.dim() !== 4) throw new RuntimeError("non-empty 4D (batch mode) tensor expected for input with channels_last layout");
  } else if (!(input.dim() === 3 || input.dim() === 4)) throw new RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input");
  const s = input.shape;
  const nbatch = input.dim() === 4 ? s[0] : 1;
  const [nPlane, H, W] = s.slice(-3);
  const OH = pooling_output_shape(H, kH, padH, dH, dilationH, ceilMode);
  const OW = pooling_output_shape(W, kW, padW, dW, dilationW, ceilMode);
  pool2d_shape_check(input, kH, kW, dH, dW, padH, padW, dilationH, dilationW, nPlane, H, W, OH, OW);
  const sizes = input.dim() === 3 ? [nPlane, OH, OW] : [nbatch, nPlane, OH, OW];
  const output = structuredOutput(input, sizes, input.dtype, out, mode, true); // (the kernels write every element)
  const idx = structuredOutput(input, sizes, int64, indices, mode, true);
  if (!hasData(output)) return [output, idx];
  AT_DISPATCH("max_pool2d", input.dtype.scalarType, [Double, Float, BFloat16]);
  if (output.numel() > 0) max_pool2d_kernel.call("cpu", output, idx, input, { kH, kW, dH, dW, padH, padW, dilationH, dilationW });
  return [output, idx];
}

export function max_pool2d(self: Tensor, kernelSize: number[], stride: number[], padding: number[], dilation: number[], ceilMode: boolean): Tensor {
  const [out, indices] = max_pool2d_with_indices_default.call(self, kernelSize, stride, padding, dilation, ceilMode) as Tensor[];
  indices.dispose(); // backward keeps its own share of them, if it saved them
  return out;
}

export function max_pool1d_with_indices(self: Tensor, kernelSize: number[], stride: number[], padding: number[], dilation: number[], ceilMode: boolean): [Tensor, Tensor] {
  if (stride.length === 0) stride = kernelSize;
  checkDimRange("max_pool1d", self, "self", 1, 2, 4);
  check1d("max_pool1d", "kernel_size", kernelSize);
  check1d("max_pool1d", "stride", stride);
  check1d("max_pool1d", "padding", padding);
  check1d("max_pool1d", "dilation", dilation);
  const input = unsqueeze_default.call(self, -2) as Tensor;
  const [out, idx] = max_pool2d_with_indices_default.call(input, [1, kernelSize[0]], [1, stride[0]], [0, padding[0]], [1, dilation[0]], ceilMode) as Tensor[];
  const result: [Tensor, Tensor] = [squeeze_dim.call(out, -2) as Tensor, squeeze_dim.call(idx, -2) as Tensor];
  // the temporaries give up their shares (c10/Dispose.ts): the results alone own their blocks
  borrow(input._impl);
  end_composite([out, idx], result);
  return result;
}

export function max_pool1d(self: Tensor, kernelSize: number[], stride: number[], padding: number[], dilation: number[], ceilMode: boolean): Tensor {
  const ndim = self.dim();
  const s = self.shape;
  if (!((ndim === 2 && s[0] !== 0 && s[1] !== 0) || (ndim === 3 && s[1] !== 0 && s[2] !== 0))) {
    throw new RuntimeError(`max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:${sizesStr(s)}`);
  }
  if (self.requires_grad || self.device.type !== "cpu") {
    // needs indices for grad, and with_indices defines the other devices' dispatch
    const [out, indices] = max_pool1d_with_indices_default.call(self, kernelSize, stride, padding, dilation, ceilMode) as Tensor[];
    indices.dispose(); // backward keeps its own share of them, if it saved them
    return out;
  }
  if (!(self.dim() === 2 || self.dim() === 3)) throw new RuntimeError(`max_pool1d() Expected 2D or 3D input tensor, but got ${sizesStr(self.shape)}`);
  if (kernelSize.length !== 1) throw new RuntimeError(`max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got size ${kernelSize.length}`);
  if (!(stride.length === 0 || stride.length === 1)) throw new RuntimeError(`max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size ${stride.length}`);
  if (padding.length !== 1) throw new RuntimeError(`max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got size ${padding.length}`);
  if (dilation.length !== 1) throw new RuntimeError(`max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got size ${dilation.length}`);
  if (stride.length === 0) stride = kernelSize;
  const NB = self.dim() === 3 ? self.shape[0] : 1;
  const NC = self.shape[self.dim() - 2];
  const IW = self.shape[self.dim() - 1];
  const [KW, SJ, PJ, DJ] = [kernelSize[0], stride[0], padding[0], dilation[0]];
  if (!(KW > 0)) throw new RuntimeError(`max_pool1d() kernel_size must be greater than zero, but got ${KW}`);
  if (!(SJ > 0)) throw new RuntimeError(`max_pool1d() stride must be greater than zero, but got ${SJ}`);
  if (!(PJ >= 0)) throw new RuntimeError(`max_pool1d() padding must be non-negative, but got ${PJ}`);
  if (!(PJ <= Math.floor(KW / 2))) throw new RuntimeError(`max_pool1d() padding should be at most half of kernel size, but got padding=${PJ} and kernel_size=${KW}`);
  if (!(DJ > 0)) throw new RuntimeError(`max_pool1d() dilation must be greater than zero, but got ${DJ}`);
  const OW = pooling_output_shape(IW, KW, PJ, SJ, DJ, ceilMode);
  if (!(OW >= 0)) throw new RuntimeError(`max_pool1d() Invalid computed output size: ${OW}`);
  // at::empty through the dispatcher, as the profiler shows (aten::empty under aten::max_pool1d)
  const output = empty_memory_format.call(self.dim() === 3 ? [NB, NC, OW] : [NC, OW], self.dtype, null, self.device, null, null) as Tensor;
  AT_DISPATCH("max_pool1d_impl", self.dtype.scalarType, [Double, Float, BFloat16]);
  if (output.numel() > 0) max_pool1d_stub.call("cpu", output, self, { kH: 1, kW: KW, dH: 1, dW: SJ, padH: 0, padW: PJ, dilationH: 1, dilationW: DJ });
  return output;
}
