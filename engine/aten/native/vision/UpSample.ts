// Upsampling (aten/src/ATen/native/UpSample.cpp, UpSampleNearest1d.cpp, UpSampleNearest2d.cpp,
// UpSampleBilinear2d.cpp). The .vec overloads (what F.interpolate calls) turn an output size or
// per-dim scale factors into the output size (compute_output_size: in * scale, truncated) and the
// scales the kernel uses, then call the structured op, whose meta part checks the sizes and allocates
// the output in the input's memory format.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { upsample_nearest1d_default } from "../../../generated/upsample_nearest1d.js";
import { upsample_nearest2d_default } from "../../../generated/upsample_nearest2d.js";
import { upsample_bilinear2d_default } from "../../../generated/upsample_bilinear2d.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { hasData, sizesStr } from "../conv/Dense.js";
import { structuredOutput, type StructuredMode } from "../pooling/PoolUtils.js";
import type { Tensor as T } from "../../core/Tensor.js";

/** is_contiguous(MemoryFormat::ChannelsLast) for a 4-d tensor: NHWC strides, size-1 dims ignored. */
function channelsLastContiguous(t: T): boolean {
  if (t.dim() !== 4) return false;
  let expected = 1;
  for (const d of [1, 3, 2, 0]) {
    const size = t.shape[d];
    if (size !== 1 && t.stride()[d] !== expected) return false;
    expected *= size;
  }
  return true;
}

/** The AT_DISPATCH name of the kernel the input goes to: the channels-last one or the generic Nd one. */
const kernelName = (input: T, cl: string, generic: string): string => (channelsLastContiguous(input) ? cl : generic);
import { upsample_bilinear2d_kernel, upsample_nearest_kernel } from "./UpSampleKernels.js";

const { Double, Float, BFloat16 } = ScalarType;

export function compute_output_size(inputSize: readonly number[], outputSize: number[] | null, scaleFactors: number[] | null): number[] {
  const spatial = inputSize.length - 2;
  if (outputSize !== null) {
    if (scaleFactors !== null) throw new RuntimeError("Must specify exactly one of output_size and scale_factors");
    if (outputSize.length !== spatial) throw new RuntimeError("Expected static_cast<int64_t>(output_size->size()) == spatial_dimensions to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
    return [...outputSize];
  }
  if (scaleFactors !== null) {
    if (scaleFactors.length !== spatial) throw new RuntimeError("Expected static_cast<int64_t>(scale_factors->size()) == spatial_dimensions to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
    return scaleFactors.map((s, i) => Math.trunc(inputSize[i + 2] * s));
  }
  throw new RuntimeError("Must specify exactly one of output_size and scale_factors");
}

const scaleAt = (scales: number[] | null, i: number): number | null => (scales === null ? null : scales[i]);

export function upsample_nearest1d(input: Tensor, outputSize: number[] | null, scaleFactors: number[] | null): Tensor {
  const osize = compute_output_size(input.shape, outputSize, scaleFactors);
  return upsample_nearest1d_default.call(input, osize, scaleAt(scaleFactors, 0)) as Tensor;
}

export function upsample_nearest2d(input: Tensor, outputSize: number[] | null, scaleFactors: number[] | null): Tensor {
  const osize = compute_output_size(input.shape, outputSize, scaleFactors);
  return upsample_nearest2d_default.call(input, osize, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1)) as Tensor;
}

export function upsample_bilinear2d(input: Tensor, outputSize: number[] | null, alignCorners: boolean, scaleFactors: number[] | null): Tensor {
  const osize = compute_output_size(input.shape, outputSize, scaleFactors);
  return upsample_bilinear2d_default.call(input, osize, alignCorners, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1)) as Tensor;
}

export function upsample_1d_common_check(input: readonly number[], output: number[]): number[] {
  if (output.length !== 1) throw new RuntimeError(`It is expected output_size equals to 1, but got size ${output.length}`);
  if (input.length !== 3) throw new RuntimeError(`It is expected input_size equals to 3, but got size ${input.length}`);
  const [nbatch, channels, iw] = input;
  const ow = output[0];
  if (!(iw > 0 && ow > 0)) throw new RuntimeError(`Input and output sizes should be greater than 0, but got input (W: ${iw}) and output (W: ${ow})`);
  return [nbatch, channels, ow];
}

export function upsample_2d_common_check(input: readonly number[], output: number[]): number[] {
  if (output.length !== 2) throw new RuntimeError(`It is expected output_size equals to 2, but got size ${output.length}`);
  if (input.length !== 4) throw new RuntimeError(`It is expected input_size equals to 4, but got size ${input.length}`);
  const [nbatch, channels, ih, iw] = input;
  const [oh, ow] = output;
  if (!(ih > 0 && iw > 0 && oh > 0 && ow > 0)) {
    throw new RuntimeError(`Input and output sizes should be greater than 0, but got input (H: ${ih}, W: ${iw}) output (H: ${oh}, W: ${ow})`);
  }
  return [nbatch, channels, oh, ow];
}

/** Empty batches are allowed, other empty dims are not. */
function checkNonEmpty(input: Tensor, nd: number): void {
  if (!(input.numel() !== 0 || input.shape.slice(1).reduce((a, b) => a * b, 1) !== 0)) {
    throw new RuntimeError(`Non-empty ${nd}D data tensor expected but got a tensor with sizes ${sizesStr(input.shape)}`);
  }
}

export function upsample_nearest1d_out_cpu(input: Tensor, outputSize: number[], scales: number | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const full = upsample_1d_common_check(input.shape, outputSize);
  checkNonEmpty(input, 3);
  const output = structuredOutput(input, full, input.dtype, out, mode, true); // (the kernels write every element)
  if (!hasData(output)) return output;
  AT_DISPATCH("compute_indices_weights_nearest", input.dtype.scalarType, [Double, Float, BFloat16]);
  if (output.numel() > 0) upsample_nearest_kernel.call("cpu", output, input, [scales]);
  return output;
}

export function upsample_nearest2d_out_cpu(input: Tensor, outputSize: number[], scalesH: number | null, scalesW: number | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const full = upsample_2d_common_check(input.shape, outputSize);
  checkNonEmpty(input, 4);
  const output = structuredOutput(input, full, input.dtype, out, mode, true); // (the kernels write every element)
  if (!hasData(output)) return output;
  AT_DISPATCH(kernelName(input, "upsample_nearest2d_channels_last", "compute_indices_weights_nearest"), input.dtype.scalarType, [Double, Float, BFloat16]);
  if (output.numel() > 0) upsample_nearest_kernel.call("cpu", output, input, [scalesH, scalesW]);
  return output;
}

export function upsample_bilinear2d_out_cpu(input: Tensor, outputSize: number[], alignCorners: boolean, scalesH: number | null, scalesW: number | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const full = upsample_2d_common_check(input.shape, outputSize);
  checkNonEmpty(input, 4);
  const output = structuredOutput(input, full, input.dtype, out, mode, true); // (the kernels write every element)
  if (!hasData(output)) return output;
  AT_DISPATCH(kernelName(input, "upsample_bilinear2d_channels_last", "compute_indices_weights_linear"), input.dtype.scalarType, [Double, Float, BFloat16]);
  if (output.numel() > 0) upsample_bilinear2d_kernel.call("cpu", output, input, alignCorners, [scalesH, scalesW]);
  return output;
}
