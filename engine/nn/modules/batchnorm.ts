// torch/nn/modules/batchnorm.py: _NormBase (parameters, running-stat buffers, _version 2 state_dict upgrade)
// and BatchNorm1d/2d (momentum None = cumulative moving average, eval uses the running stats).

import type { Tensor } from "../../aten/core/Tensor.js";
import { ValueError } from "../../c10/Errors.js";
import { int64 } from "../../c10/ScalarType.js";
import { tensor as torchTensor } from "../../aten/tensor_new.js";
import { ones, zeros } from "../../generated/torch_functions.js";
import * as F from "../functional/index.js";
import * as init from "../init.js";
import { bindArgs } from "../_bind.js";
import { Parameter } from "../parameter.js";
import { Module } from "./module.js";
import { factoryEmpty, pyFloat, pyRepr } from "./_utils.js";

const factoryOpts = (kw: { device?: unknown; dtype?: unknown }, withDtype = true) => {
  const o: Record<string, unknown> = {};
  if (kw.device !== null && kw.device !== undefined) o.device = kw.device;
  if (withDtype && kw.dtype !== null && kw.dtype !== undefined) o.dtype = kw.dtype;
  return o;
};

export abstract class _NormBase extends Module {
  static override _version = 2;
  declare num_features: number;
  declare eps: number;
  declare momentum: number | null;
  declare affine: boolean;
  declare track_running_stats: boolean;
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  declare running_mean: Tensor | null;
  declare running_var: Tensor | null;
  declare num_batches_tracked: Tensor | null;

  constructor(name: string, args: unknown[], affineDefault = true, trackDefault = true) {
    super();
    const a = bindArgs(`${name}.__init__`, args, [
      ["num_features"], ["eps", 1e-5], ["momentum", 0.1], ["affine", affineDefault], ["track_running_stats", trackDefault], ["device", null], ["dtype", null],
    ]);
    this.num_features = a.num_features;
    this.eps = a.eps;
    this.momentum = a.momentum;
    this.affine = a.affine;
    this.track_running_stats = a.track_running_stats;
    if (this.affine) {
      this.weight = new Parameter(factoryEmpty([a.num_features], a));
      this.bias = new Parameter(factoryEmpty([a.num_features], a));
    } else {
      this.register_parameter("weight", null);
      this.register_parameter("bias", null);
    }
    if (this.track_running_stats) {
      this.register_buffer("running_mean", zeros([a.num_features], factoryOpts(a)) as Tensor);
      this.register_buffer("running_var", ones([a.num_features], factoryOpts(a)) as Tensor);
      this.register_buffer("num_batches_tracked", torchTensor(0, { dtype: int64, ...factoryOpts(a, false) }));
    } else {
      this.register_buffer("running_mean", null);
      this.register_buffer("running_var", null);
      this.register_buffer("num_batches_tracked", null);
    }
    this.reset_parameters();
  }

  reset_running_stats(): void {
    if (this.track_running_stats) {
      (this.running_mean as any).zero_();
      (this.running_var as any).fill_(1);
      (this.num_batches_tracked as any).zero_();
    }
  }

  reset_parameters(): void {
    this.reset_running_stats();
    if (this.affine) {
      init.ones_(this.weight!);
      init.zeros_(this.bias!);
    }
  }

  abstract _check_input_dim(input: Tensor): void;

  override extra_repr(): string {
    return `${this.num_features}, eps=${pyFloat(this.eps)}, momentum=${this.momentum === null ? "None" : pyFloat(this.momentum)}, affine=${pyRepr(this.affine)}, track_running_stats=${pyRepr(this.track_running_stats)}`;
  }

  /** A version-1 checkpoint has no num_batches_tracked: it loads as 0. */
  override _load_from_state_dict(
    state_dict: Map<string, any>, prefix: string, local_metadata: { version?: number }, strict: boolean,
    missing_keys: string[], unexpected_keys: string[], error_msgs: string[],
  ): void {
    const version = local_metadata.version;
    if ((version === undefined || version < 2) && this.track_running_stats) {
      const key = prefix + "num_batches_tracked";
      if (!state_dict.has(key)) state_dict.set(key, torchTensor(0, { dtype: int64 }));
    }
    super._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs);
  }
}

export abstract class _BatchNorm extends _NormBase {
  override forward(input: Tensor): Tensor {
    this._check_input_dim(input);
    let exponential_average_factor = this.momentum === null ? 0.0 : this.momentum;
    if (this.training && this.track_running_stats && this.num_batches_tracked !== null) {
      (this.num_batches_tracked as any).add_(1);
      exponential_average_factor = this.momentum === null ? 1.0 / Number(this.num_batches_tracked.item()) : this.momentum;
    }
    const bn_training = this.training ? true : this.running_mean === null && this.running_var === null;
    const useStats = !this.training || this.track_running_stats;
    return F.batch_norm(input, useStats ? this.running_mean : null, useStats ? this.running_var : null, this.weight, this.bias, bn_training, exponential_average_factor, this.eps);
  }
}

export class BatchNorm1d extends _BatchNorm {
  constructor(...args: unknown[]) {
    super("BatchNorm1d", args);
  }
  override _check_input_dim(input: Tensor): void {
    if (input.dim() !== 2 && input.dim() !== 3) throw new ValueError(`expected 2D or 3D input (got ${input.dim()}D input)`);
  }
}

export class BatchNorm2d extends _BatchNorm {
  constructor(...args: unknown[]) {
    super("BatchNorm2d", args);
  }
  override _check_input_dim(input: Tensor): void {
    if (input.dim() !== 4) throw new ValueError(`expected 4D input (got ${input.dim()}D input)`);
  }
}
