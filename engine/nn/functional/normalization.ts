// torch.nn.functional's normalization (torch/nn/functional.py, PyTorch 1.13): argument defaults and the
// Python-side checks (_verify_batch_size when training batch norm, _verify_spatial_size for instance
// norm, group_norm's rank check), then the torch.* op with torch.backends.cudnn.enabled (true in
// PyTorch's default build; it does not change the CPU path).

import * as G from "../../generated/index.js";
import { ValueError } from "../../c10/Errors.js";
import { maybe_wrap_dim } from "../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../aten/core/Tensor.js";
import { bindArgs } from "../_bind.js";

const CUDNN_ENABLED = true;
const sizeStr = (s: readonly number[]) => `torch.Size([${s.join(", ")}])`;

/** _verify_batch_size: training needs more than one value per channel. */
function _verify_batch_size(size: readonly number[]): void {
  let prod = size[0];
  for (let i = 0; i < size.length - 2; i++) prod *= size[i + 2];
  if (prod === 1) throw new ValueError(`Expected more than 1 value per channel when training, got input size ${sizeStr(size)}`);
}

function _verify_spatial_size(size: readonly number[]): void {
  let prod = 1;
  for (let i = 2; i < size.length; i++) prod *= size[i];
  if (prod === 1) throw new ValueError(`Expected more than 1 spatial element when training, got input size ${sizeStr(size)}`);
}

export function batch_norm(...args: unknown[]): Tensor {
  const a = bindArgs("batch_norm", args, [["input"], ["running_mean"], ["running_var"], ["weight", null], ["bias", null], ["training", false], ["momentum", 0.1], ["eps", 1e-5]]);
  if (a.training) _verify_batch_size(a.input.shape);
  return G.batch_norm(a.input, a.weight, a.bias, a.running_mean, a.running_var, a.training, a.momentum, a.eps, CUDNN_ENABLED);
}

export function instance_norm(...args: unknown[]): Tensor {
  const a = bindArgs("instance_norm", args, [["input"], ["running_mean", null], ["running_var", null], ["weight", null], ["bias", null], ["use_input_stats", true], ["momentum", 0.1], ["eps", 1e-5]]);
  if (a.use_input_stats) _verify_spatial_size(a.input.shape);
  return G.instance_norm(a.input, a.weight, a.bias, a.running_mean, a.running_var, a.use_input_stats, a.momentum, a.eps, CUDNN_ENABLED);
}

export function layer_norm(...args: unknown[]): Tensor {
  const a = bindArgs("layer_norm", args, [["input"], ["normalized_shape"], ["weight", null], ["bias", null], ["eps", 1e-5]]);
  return G.layer_norm(a.input, a.normalized_shape, a.weight, a.bias, a.eps, CUDNN_ENABLED);
}

export function group_norm(...args: unknown[]): Tensor {
  const a = bindArgs("group_norm", args, [["input"], ["num_groups"], ["weight", null], ["bias", null], ["eps", 1e-5]]);
  const input = a.input as Tensor;
  const size = (d: number) => input.shape[maybe_wrap_dim(d, input.dim())]; // input.size(d): IndexError if absent
  _verify_batch_size([Math.floor((size(0) * size(1)) / a.num_groups), a.num_groups, ...input.shape.slice(2)]);
  return G.group_norm(input, a.num_groups, a.weight, a.bias, a.eps, CUDNN_ENABLED);
}
