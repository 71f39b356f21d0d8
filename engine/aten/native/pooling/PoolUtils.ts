// Shape checks shared by the pooling kernels (aten/src/ATen/native/Pool.h, Pooling.cpp's check1d, and
// TensorUtils' checkDimRange), with PyTorch's texts; and the structured ops' output allocation.

import { RuntimeError } from "../../../c10/Errors.js";
import type { dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, empty_strided_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import { sizesStr } from "../conv/Dense.js";
import type { StructuredMode } from "../BinaryOps.js";

export type { StructuredMode };

/** div_rtn: division rounding toward negative infinity. */
const divRtn = (a: number, b: number): number => Math.floor(a / b);

/** pooling_output_shape_pad_lr: the last window must start inside the (left-padded) input in ceil mode. */
export function pooling_output_shape(inputSize: number, kernel: number, pad: number, stride: number, dilation: number, ceilMode: boolean): number {
  if (stride === 0) throw new RuntimeError("stride should not be zero");
  if (!(pad >= 0)) throw new RuntimeError(`pad must be non-negative, but got pad: ${pad}`);
  if (!(pad <= Math.floor(kernel / 2))) throw new RuntimeError(`pad should be at most half of kernel size, but got pad=${pad} and kernel_size=${kernel}`);
  let out = divRtn(inputSize + 2 * pad - dilation * (kernel - 1) - 1 + (ceilMode ? stride - 1 : 0), stride) + 1;
  if (ceilMode && (out - 1) * stride >= inputSize + pad) out--;
  return out;
}

/**
 * suggest_memory_format() == ChannelsLast for a 4-d tensor: is_channels_last_strides_2d (c10's
 * MemoryFormat.h), strides decreasing in the order C, W, H, N, with its tie-breaks toward NCHW.
 */
export function isChannelsLast(t: Tensor): boolean {
  if (t.dim() !== 4) return false;
  const sizes = t.shape;
  const strides = t.stride();
  if (strides[1] === 0) return false;
  let min = 0;
  for (const d of [1, 3, 2, 0]) {
    if (sizes[d] === 0) return false;
    if (strides[d] < min) return false;
    if (d === 0 && min === strides[1]) return false;
    min = strides[d];
    if (sizes[d] > 1) min *= sizes[d];
  }
  return true;
}

/** Contiguous strides of an NCHW size in channels-last order (N, H, W, C). */
export function channelsLastStrides(s: readonly number[]): number[] {
  const [, C, H, W] = s.map((x) => Math.max(x, 1));
  return [H * W * C, 1, W * C, C];
}

export function pool2d_shape_check(input: Tensor, kH: number, kW: number, dH: number, dW: number, padH: number, padW: number, dilationH: number, dilationW: number, nInputPlane: number, inputHeight: number, inputWidth: number, outputHeight: number, outputWidth: number): void {
  const ndim = input.dim();
  if (!(kW > 0 && kH > 0)) throw new RuntimeError(`kernel size should be greater than zero, but got kH: ${kH} kW: ${kW}`);
  if (!(dW > 0 && dH > 0)) throw new RuntimeError(`stride should be greater than zero, but got dH: ${dH} dW: ${dW}`);
  if (!(dilationH > 0 && dilationW > 0)) throw new RuntimeError(`dilation should be greater than zero, but got dilationH: ${dilationH} dilationW: ${dilationW}`);
  const s = input.shape;
  const validDims = s[1] !== 0 && s[2] !== 0;
  if (isChannelsLast(input)) {
    if (!(ndim === 4 && validDims && s[3] !== 0)) {
      throw new RuntimeError(`Expected 4D (batch mode) tensor expected for input with channels_last layout with optional 0 dim batch size for input, but got: ${sizesStr(s)}`);
    }
  } else if (!((ndim === 3 && s[0] !== 0 && validDims) || (ndim === 4 && validDims && s[3] !== 0))) {
    throw new RuntimeError(`Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:${sizesStr(s)}`);
  }
  if (!(Math.floor(kW / 2) >= padW && Math.floor(kH / 2) >= padH)) {
    throw new RuntimeError(`pad should be smaller than or equal to half of kernel size, but got padW = ${padW}, padH = ${padH}, kW = ${kW}, kH = ${kH}`);
  }
  if (!(outputWidth >= 1 && outputHeight >= 1)) {
    throw new RuntimeError(`Given input size: (${nInputPlane}x${inputHeight}x${inputWidth}). Calculated output size: (${nInputPlane}x${outputHeight}x${outputWidth}). Output size is too small`);
  }
}

export function check1d(fn: string, arg: string, x: readonly number[]): void {
  if (x.length !== 1) throw new RuntimeError(`${fn}() argument '${arg}' should contain one int (got ${x.length})`);
}

/** checkDimRange (TensorUtils.cpp): dims in [lo, hi). */
export function checkDimRange(fn: string, t: Tensor, name: string, pos: number, lo: number, hi: number): void {
  if (t.dim() < lo || t.dim() >= hi) {
    throw new RuntimeError(`Expected ${lo} to ${hi - 1} dimensions, but got ${t.dim()}-dimensional tensor for argument #${pos} '${name}' (while checking arguments for ${fn})`);
  }
}

/**
 * set_output_raw_strided for a structured kernel: a new tensor (in the input's suggested memory format,
 * as the pooling meta functions ask), or the out= tensor checked and resized. `uninitialized`: the new
 * tensor's memory is not zeroed, for kernels that write every element (at::empty never zeroes; here
 * the default does, for the backward kernels that accumulate into their result).
 */
export function structuredOutput(like: Tensor, sizes: readonly number[], dt: dtype, out: Tensor | null, mode: StructuredMode, uninitialized = false): Tensor {
  if (mode !== "out" || out === null) {
    if (sizes.length === 4 && isChannelsLast(like)) return wrap(empty_strided_impl(sizes, channelsLastStrides(sizes), dt, like.device, uninitialized));
    return wrap(empty_impl(sizes, dt, like.device, uninitialized));
  }
  if (out.dtype !== dt) {
    throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(dt.scalarType)}, but got ${typeMetaName(out.dtype.scalarType)} instead`);
  }
  resize_output(out, sizes);
  return out;
}

/** The [kH, kW] / [dH, dW] / ... pairs a pooling op reads from its one- or two-element arguments. */
export const pair = (x: readonly number[]): [number, number] => [x[0], x.length === 1 ? x[0] : x[1]];
