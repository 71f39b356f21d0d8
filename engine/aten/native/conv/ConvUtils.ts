// Shape logic shared by the convolution ops (aten/src/ATen/native/ConvUtils.h and the checks at the
// top of Convolution.cpp): batchify, expand_param_if_needed, check_shape_forward and the output sizes.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { sizesStr } from "./Dense.js";

export interface ConvParams {
  stride: number[];
  padding: number[];
  dilation: number[];
  transposed: boolean;
  output_padding: number[];
  groups: number;
}

/** An unbatched input (C, *spatial) gets a batch dim of 1; anything else of the wrong rank is an error. */
export function batchify(input: Tensor, numSpatialDims: number, funcName: string): [Tensor, boolean] {
  const noBatch = numSpatialDims + 1;
  const batch = noBatch + 1;
  const isBatched = input.dim() === batch;
  if (!(input.dim() === noBatch || isBatched)) {
    throw new RuntimeError(`Expected ${noBatch}D (unbatched) or ${batch}D (batched) input to ${funcName}, but got input of size: ${sizesStr(input.shape)}`);
  }
  return [isBatched ? input : (unsqueeze_default.call(input, 0) as Tensor), isBatched];
}

/** A one-element list stands for every spatial dim (ConvUtils.h expand_param_if_needed). */
export function expand_param_if_needed(list: readonly number[], name: string, expected: number): number[] {
  if (list.length === 1) return new Array<number>(expected).fill(list[0]);
  if (list.length !== expected) {
    throw new RuntimeError(`expected ${name} to be a single integer value or a list of ${expected} values to match the convolution dimensions, but got ${name}=${sizesStr(list)}`);
  }
  return [...list];
}

export function check_shape_forward(input: Tensor, weightSizes: readonly number[], bias: Tensor | null, p: ConvParams): void {
  const k = input.dim();
  const weightDim = weightSizes.length;
  const groups = p.groups;
  if (p.padding.some((x) => x < 0)) throw new RuntimeError("negative padding is not supported");
  if (p.output_padding.some((x) => x < 0)) throw new RuntimeError("negative output_padding is not supported");
  if (p.stride.some((x) => x <= 0)) throw new RuntimeError("non-positive stride is not supported");
  const ws = sizesStr(weightSizes);
  if (weightDim !== k) {
    throw new RuntimeError(`Expected ${weightDim}-dimensional input for ${weightDim}-dimensional weight ${ws}, but got ${k}-dimensional input of size ${sizesStr(input.shape)} instead`);
  }
  if (weightSizes[0] < groups) {
    throw new RuntimeError(`Given groups=${groups}, expected weight to be at least ${groups} at dimension 0, but got weight of size ${ws} instead`);
  }
  if (weightSizes[0] % groups !== 0) {
    throw new RuntimeError(`Given groups=${groups}, expected weight to be divisible by ${groups} at dimension 0, but got weight of size [${ws}] instead`);
  }
  const is = sizesStr(input.shape);
  if (!p.transposed) {
    if (input.shape[1] !== weightSizes[1] * groups) {
      throw new RuntimeError(`Given groups=${groups}, weight of size ${ws}, expected input${is} to have ${weightSizes[1] * groups} channels, but got ${input.shape[1]} channels instead`);
    }
    if (bias !== null && !(bias.dim() === 1 && bias.shape[0] === weightSizes[0])) {
      throw new RuntimeError(`Given weight of size ${ws}, expected bias to be 1-dimensional with ${weightSizes[0]} elements, but got bias of size ${sizesStr(bias.shape)} instead`);
    }
    const inputShape: number[] = [];
    const kernelShape: number[] = [];
    let ok = true;
    for (let i = 2; i < k; i++) {
      inputShape.push(input.shape[i] + 2 * p.padding[i - 2]);
      kernelShape.push(p.dilation[i - 2] * (weightSizes[i] - 1) + 1);
      if (inputShape[inputShape.length - 1] < kernelShape[kernelShape.length - 1]) ok = false;
    }
    if (!ok) {
      throw new RuntimeError(`Calculated padded input size per channel: (${inputShape.join(" x ")}). Kernel size: (${kernelShape.join(" x ")}). Kernel size can't be greater than actual input size`);
    }
  } else {
    if (input.shape[1] !== weightSizes[0]) {
      throw new RuntimeError(`Given transposed=1, weight of size ${ws}, expected input${is} to have ${weightSizes[0]} channels, but got ${input.shape[1]} channels instead`);
    }
    if (bias !== null && !(bias.dim() === 1 && bias.shape[0] === weightSizes[1] * groups)) {
      throw new RuntimeError(`Given transposed=1, weight of size ${ws}, expected bias to be 1-dimensional with ${weightSizes[1] * groups} elements, but got bias of size ${sizesStr(bias.shape)} instead`);
    }
  }
}

/** conv_output_size (ConvUtils.h): (in + 2p - d(k-1) - 1) / s + 1 per spatial dim. */
export function conv_output_size(input: readonly number[], weight: readonly number[], padding: readonly number[], stride: readonly number[], dilation: readonly number[]): number[] {
  const out = [input[0], weight[0]];
  for (let d = 2; d < input.length; d++) {
    const kernel = dilation[d - 2] * (weight[d] - 1) + 1;
    out.push(Math.floor((input[d] + 2 * padding[d - 2] - kernel) / stride[d - 2]) + 1);
  }
  return out;
}

/** conv_input_size (ConvUtils.h): the output size of a transposed convolution. */
export function conv_input_size(output: readonly number[], weight: readonly number[], padding: readonly number[], outputPadding: readonly number[], stride: readonly number[], dilation: readonly number[], groups: number): number[] {
  const out = [output[0], weight[1] * groups];
  for (let d = 2; d < output.length; d++) {
    const kernel = dilation[d - 2] * (weight[d] - 1) + 1;
    out.push((output[d] - 1) * stride[d - 2] - 2 * padding[d - 2] + kernel + outputPadding[d - 2]);
  }
  return out;
}

/**
 * pooling_same_mode_padding_lr (Pool.h) for stride 1 (the only stride 'same' allows): the total
 * padding d(k-1), split with the odd one on the right.
 */
export function same_padding_lr(kernel: number, dilation: number): [number, number] {
  const total = dilation * (kernel - 1);
  const left = Math.floor(total / 2);
  return [left, total - left];
}
