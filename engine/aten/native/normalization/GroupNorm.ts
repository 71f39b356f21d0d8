// Group normalization (aten/src/ATen/native/group_norm.cpp): the C channels split into `num_groups`
// groups; each (sample, group) block of C/G channels x HxW elements is normalized, then each channel is
// scaled and shifted by weight[c], bias[c]. group_norm is native_group_norm's first output; the saved
// mean and rstd are (N, group).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { native_group_norm_default } from "../../../generated/native_group_norm.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { sizesStr, writeDense } from "../conv/Dense.js";
import { contig } from "../conv/Convolution.js";
import { GroupNormKernel } from "./NormKernels.js";
import { meta_stats_dtype } from "./BatchNorm.js";

const { Double, Float, BFloat16 } = ScalarType;

export function check_group_norm_inputs(input: Tensor, weight: Tensor | null, bias: Tensor | null, C: number, numGroups: number): void {
  if (!(numGroups > 0)) throw new RuntimeError(`Expected num groups to be greater than 0, got ${numGroups}`);
  if (C % numGroups !== 0) {
    throw new RuntimeError(`Expected number of channels in input to be divisible by num_groups, but got input of shape ${sizesStr(input.shape)} and num_groups=${numGroups}`);
  }
  for (const [t, name] of [[weight, "weight"], [bias, "bias"]] as const) {
    if (t !== null && !(t.dim() === 1 && t.numel() === C)) {
      throw new RuntimeError(`Expected ${name} to be a vector of size equal to the number of channels in input, but got ${name} of shape ${sizesStr(t.shape)} and input of shape ${sizesStr(input.shape)}`);
    }
  }
}

export function group_norm(input: Tensor, numGroups: number, weight: Tensor | null, bias: Tensor | null, eps: number, _cudnnEnabled: boolean): Tensor {
  const N = input.shape[0];
  const C = input.shape[1];
  check_group_norm_inputs(input, weight, bias, C, numGroups);
  const HxW = input.shape.slice(2).reduce((a, b) => a * b, 1);
  const X = contig(input);
  const gamma = weight ? contig(weight) : null;
  const beta = bias ? contig(bias) : null;
  return (native_group_norm_default.call(X, gamma, beta, N, C, HxW, numGroups, eps) as Tensor[])[0];
}

export function native_group_norm(X: Tensor, gamma: Tensor | null, beta: Tensor | null, N: number, C: number, HxW: number, group: number, eps: number): [Tensor, Tensor, Tensor] {
  check_group_norm_inputs(X, gamma, beta, C, group);
  if (!X.is_contiguous()) throw new RuntimeError("Expected X.is_contiguous(memory_format) to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
  const Y = wrap(empty_impl(X.shape, X.dtype, X.device, true)); // (the kernels write every element)
  const mean = empty_memory_format.call([N, group], X.dtype, null, X.device, null, null) as Tensor;
  const rstd = empty_memory_format.call([N, group], X.dtype, null, X.device, null, null) as Tensor;
  AT_DISPATCH("GroupNormKernelImpl", X.dtype.scalarType, [Double, Float, BFloat16]);
  if (X.numel() > 0) {
    const m = new Float64Array(N * group), r = new Float64Array(N * group);
    GroupNormKernel.call("cpu", X, gamma, beta, N, C, HxW, group, eps, Y, m, r);
    writeDense(mean, m);
    writeDense(rstd, r);
  }
  return [Y, mean, rstd];
}

/** math_group_norm (the CompositeExplicitAutograd form, which device='meta' runs): shapes only here. */
export function math_group_norm(X: Tensor, _gamma: Tensor | null, _beta: Tensor | null, N: number, _C: number, _HxW: number, group: number, _eps: number): [Tensor, Tensor, Tensor] {
  if (X.device.type !== "meta") throw new RuntimeError("math_group_norm: only the meta (shape) form is implemented");
  const st = meta_stats_dtype(X);
  const mk = (s: number[], dt = X.dtype) => wrap(empty_impl(s, dt, X.device));
  return [mk([...X.shape]), mk([N, group], st), mk([N, group], st)];
}
