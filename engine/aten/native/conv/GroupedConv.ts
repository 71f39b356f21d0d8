// Grouped convolution (groups > 1) as one kernel call. PyTorch 1.13's CPU path without MKLDNN runs the
// slow backends group by group (Convolution.cpp's _convolution and convolution_backward: a narrow +
// contiguous slice of each operand per group, one thnn_conv2d / _slow_conv2d_backward call per group,
// then cat); with 64 groups of a depthwise layer that is hundreds of small op calls. These stubs take
// the whole grouped convolution at once: the TypeScript implementation is PyTorch's loop (registered
// by Convolution.ts and ConvolutionBackward.ts, op calls and all, so a trace under
// GLASSTORCH_CPU_CAPABILITY=ts shows 1.13's calls), the native one (cpu_native/NativeConv.ts) runs every
// group in one call of the addon, with a direct stencil kernel for depthwise layers (groups == in_channels).

import { DispatchStub } from "../DispatchStub.js";
import type { Tensor } from "../../core/Tensor.js";
import type { Conv2dArgs } from "./ConvKernels.js";
import type { ConvGrads } from "./ConvBackwardKernels.js";

/** output (allocated, [N, O, OH, OW]) = the grouped convolution of input with weight [O, C / groups, kh, kw]. */
export type GroupedConvFn = (output: Tensor, input: Tensor, weight: Tensor, bias: Tensor | null, a: Conv2dArgs, groups: number) => void;
/** grads.grad_input / grad_weight (allocated where wanted) of the grouped convolution; grad_bias is left to the caller's sum. */
export type GroupedConvBackwardFn = (grads: ConvGrads, gradOutput: Tensor, input: Tensor, weight: Tensor, a: Conv2dArgs, groups: number) => void;

const REF = "aten/src/ATen/native/Convolution.cpp";
export const conv2d_grouped_stub = new DispatchStub<GroupedConvFn>("conv2d_grouped_stub", REF);
export const conv2d_grouped_backward_stub = new DispatchStub<GroupedConvBackwardFn>("conv2d_grouped_backward_stub", REF);
