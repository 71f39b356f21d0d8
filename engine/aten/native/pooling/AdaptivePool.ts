// Adaptive pooling (aten/src/ATen/native/AdaptiveAveragePooling.cpp, AdaptiveMaxPooling2d.cpp): output
// cell i of n over an input of size s covers [floor(i*s/n), ceil((i+1)*s/n)). adaptive_avg_pool2d is
// composite: a 1x1 output is a mean over the last two dims, anything else _adaptive_avg_pool2d.
// adaptive_max_pool2d is structured (values and int64 indices).

import { RuntimeError } from "../../../c10/Errors.js";
import { int64, ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { _adaptive_avg_pool2d_default } from "../../../generated/_adaptive_avg_pool2d.js";
import { mean_dim } from "../../../generated/mean.js";
import { resize_output } from "../Resize.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { hasData, sizesStr } from "../conv/Dense.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import { channelsLastStrides, isChannelsLast, structuredOutput, type StructuredMode } from "./PoolUtils.js";
import { adaptive_avg_pool2d_kernel, adaptive_max_pool2d_kernel } from "./PoolKernels.js";

const { Double, Float, BFloat16 } = ScalarType;

export function adaptive_avg_pool2d_symint(input: Tensor, outputSize: number[]): Tensor {
  if (outputSize.length !== 2) throw new RuntimeError("adaptive_avg_pool2d: output_size must be 2");
  if (!(outputSize[0] >= 0 && outputSize[1] >= 0)) {
    throw new RuntimeError(`adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {${outputSize[0]}, ${outputSize[1]}}`);
  }
  // a 1x1 output is the mean over the spatial dims, computed more efficiently that way
  if (outputSize[0] === 1 && outputSize[1] === 1) return mean_dim.call(input, [-1, -2], true, null) as Tensor;
  return _adaptive_avg_pool2d_default.call(input, outputSize) as Tensor;
}

export function adaptive_avg_pool2d_out_cpu(input: Tensor, outputSize: number[], output: Tensor): Tensor {
  if (outputSize.length !== 2) throw new RuntimeError("adaptive_avg_pool2d: output_size must be 2");
  const ndim = input.dim();
  if (!(ndim === 3 || ndim === 4)) throw new RuntimeError(`adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ${sizesStr(input.shape)}`);
  for (const i of [-2, -1]) {
    if (!(input.shape[ndim + i] > 0)) {
      throw new RuntimeError(`adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ${sizesStr(input.shape)} with dimension ${i + ndim} being empty`);
    }
  }
  if (input.dtype !== output.dtype) {
    throw new RuntimeError(`expected dtype ${typeMetaName(input.dtype.scalarType)} for \`output\` but got dtype ${typeMetaName(output.dtype.scalarType)}`);
  }
  const channels = input.shape[ndim - 3];
  const sizes = ndim === 3 ? [channels, ...outputSize] : [input.shape[0], channels, ...outputSize];
  resize_output(output, sizes);
  // resize_(sizes, input.suggest_memory_format())
  if (ndim === 4 && isChannelsLast(input)) output._impl.set_sizes_and_strides(sizes, channelsLastStrides(sizes));
  if (output.numel() === 0) return output;
  AT_DISPATCH("adaptive_avg_pool2d", input.dtype.scalarType, [Double, Float, BFloat16]);
  adaptive_avg_pool2d_kernel.call("cpu", output, input);
  return output;
}

export function adaptive_avg_pool2d_cpu(input: Tensor, outputSize: number[]): Tensor {
  return adaptive_avg_pool2d_out_cpu(input, outputSize, wrap(empty_impl([0], input.dtype, input.device)));
}

/** torch/_meta_registrations.py's meta_adaptive_avg_pool2d (1.13). */
export function adaptive_avg_pool2d_meta(input: Tensor, outputSize: number[]): Tensor {
  if (!(input.dim() === 3 || input.dim() === 4)) throw new RuntimeError(`Expected 3D or 4D tensor, but got torch.Size(${sizesStr(input.shape)})`);
  return wrap(empty_impl([...input.shape.slice(0, -2), ...outputSize], input.dtype, input.device));
}

export function adaptive_max_pool2d_out_cpu(input: Tensor, outputSize: number[], out: Tensor | null, indices: Tensor | null, mode: StructuredMode = "out"): [Tensor, Tensor] {
  const ndim = input.dim();
  if (!(ndim === 3 || ndim === 4)) throw new RuntimeError(`adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: ${sizesStr(input.shape)}`);
  for (let i = 1; i < ndim; i++) {
    if (!(input.shape[i] > 0)) {
      throw new RuntimeError(`adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ${sizesStr(input.shape)} with dimension ${i} being empty`);
    }
  }
  if (outputSize.length !== 2) throw new RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2");
  const sizes = ndim === 3 ? [input.shape[0], ...outputSize] : [input.shape[0], input.shape[1], ...outputSize];
  const output = structuredOutput(input, sizes, input.dtype, out, mode, true); // (the kernels write every element)
  const idx = structuredOutput(input, sizes, int64, indices, mode, true);
  if (!hasData(output)) return [output, idx];
  AT_DISPATCH("adaptive_max_pool2d", input.dtype.scalarType, [Double, Float, BFloat16]);
  if (output.numel() > 0) adaptive_max_pool2d_kernel.call("cpu", output, idx, input);
  return [output, idx];
}
