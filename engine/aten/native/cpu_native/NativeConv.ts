// The native 2-d convolution (native/cpu/Conv.cc: im2col/col2im + the own GEMM) under the slow
// convolution stubs: slow_conv2d_stub and slow_conv_dilated2d_stub (forward), slow_conv2d_backward_stub
// and slow_conv_dilated2d_backward_stub (grad_input, grad_weight, grad_bias). float32 and float64,
// any stride, padding and dilation, operands of any strides. Grouped convolutions come whole through
// conv2d_grouped_stub / conv2d_grouped_backward_stub (conv/GroupedConv.ts): every group in one call,
// depthwise layers (groups == in_channels) by Conv.cc's direct stencil kernels.
// Declined (the TypeScript kernel runs): other dtypes, mixed dtypes, the transposed convolution.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { slow_conv2d_stub, slow_conv_dilated2d_stub, type Conv2dArgs } from "../conv/ConvKernels.js";
import { slow_conv2d_backward_stub, slow_conv_dilated2d_backward_stub, type ConvGrads } from "../conv/ConvBackwardKernels.js";
import { conv2d_grouped_stub, conv2d_grouped_backward_stub } from "../conv/GroupedConv.js";
import type { NativeAddon } from "./NativeBackend.js";

const GEO = 16;
const fwdMeta = new Float64Array(GEO + 17);
const bwdMeta = new Float64Array(GEO + 27);

function floatDtype(...ts: (Tensor | null)[]): ScalarType | null {
  const first = ts.find((t) => t !== null)!;
  const st = first.dtype.scalarType;
  if (st !== ScalarType.Float && st !== ScalarType.Double) return null;
  for (const t of ts) if (t !== null && t.dtype.scalarType !== st) return null;
  return st;
}

/** offset and the 4 strides of a 4-d tensor (or offset and stride of a 1-d one) at meta[at]. */
export function putView(meta: Float64Array, at: number, t: Tensor): void {
  meta[at] = t._impl.storage_offset();
  const s = t._impl.strides();
  for (let d = 0; d < s.length; d++) meta[at + 1 + d] = s[d];
}

function putGeometry(meta: Float64Array, input: Tensor, weight: Tensor, low: Tensor, a: Conv2dArgs, groups: number): boolean {
  if (input.dim() !== 4 || weight.dim() !== 4 || low.dim() !== 4) return false;
  const [N, C, H, W] = input.shape;
  const [O, WC, KH, KW] = weight.shape;
  if (WC * groups !== C || O % groups !== 0 || low.shape[0] !== N || low.shape[1] !== O) return false;
  const g = [N, C, H, W, O, KH, KW, low.shape[2], low.shape[3], a.stride[0], a.stride[1], a.padding[0], a.padding[1], a.dilation[0], a.dilation[1], groups];
  for (let i = 0; i < GEO; i++) meta[i] = g[i];
  return true;
}

const arr = (t: Tensor) => typedView(t._impl.storage, t.dtype) as unknown as ArrayBufferView;

function forward(addon: NativeAddon, output: Tensor, input: Tensor, weight: Tensor, bias: Tensor | null, a: Conv2dArgs, groups = 1): boolean {
  const st = floatDtype(output, input, weight, bias);
  if (st === null || !putGeometry(fwdMeta, input, weight, output, a, groups)) return false;
  if (bias !== null && (bias.dim() !== 1 || bias.shape[0] !== weight.shape[0])) return false;
  putView(fwdMeta, GEO, input);
  putView(fwdMeta, GEO + 5, weight);
  putView(fwdMeta, GEO + 10, output);
  if (bias !== null) putView(fwdMeta, GEO + 15, bias);
  return addon.conv2d(st, fwdMeta, arr(output), arr(input), arr(weight), bias === null ? null : arr(bias));
}

function backward(addon: NativeAddon, grads: ConvGrads, gradOut: Tensor, input: Tensor, weight: Tensor, a: Conv2dArgs, groups = 1): boolean {
  const { grad_input: gi, grad_weight: gw, grad_bias: gb } = grads;
  const st = floatDtype(gradOut, input, weight, gi, gw, gb);
  if (st === null || !putGeometry(bwdMeta, input, weight, gradOut, a, groups)) return false;
  if (gi !== null && (gi.dim() !== 4 || gi.shape.some((s, i) => s !== input.shape[i]))) return false;
  if (gw !== null && (gw.dim() !== 4 || gw.shape.some((s, i) => s !== weight.shape[i]))) return false;
  if (gb !== null && (gb.dim() !== 1 || gb.shape[0] !== weight.shape[0])) return false;
  putView(bwdMeta, GEO, input);
  putView(bwdMeta, GEO + 5, weight);
  putView(bwdMeta, GEO + 10, gradOut);
  if (gi !== null) putView(bwdMeta, GEO + 15, gi);
  if (gw !== null) putView(bwdMeta, GEO + 20, gw);
  if (gb !== null) putView(bwdMeta, GEO + 25, gb);
  return addon.conv2d_backward(st, bwdMeta, gi && arr(gi), gw && arr(gw), gb && arr(gb), arr(gradOut), arr(input), arr(weight));
}

export function registerConvKernels(addon: NativeAddon): void {
  const fwd = (output: Tensor, input: Tensor, weight: Tensor, bias: Tensor | null, a: Conv2dArgs) => forward(addon, output, input, weight, bias, a);
  slow_conv2d_stub.register("native", fwd);
  slow_conv_dilated2d_stub.register("native", fwd);
  const bwd = (grads: ConvGrads, gradOut: Tensor, input: Tensor, weight: Tensor, a: Conv2dArgs) => backward(addon, grads, gradOut, input, weight, a);
  slow_conv2d_backward_stub.register("native", bwd);
  slow_conv_dilated2d_backward_stub.register("native", bwd);
  conv2d_grouped_stub.register("native", (output, input, weight, bias, a, groups) => forward(addon, output, input, weight, bias, a, groups));
  conv2d_grouped_backward_stub.register("native", (grads, gradOut, input, weight, a, groups) => backward(addon, grads, gradOut, input, weight, a, groups));
}
