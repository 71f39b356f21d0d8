// torch/nn/modules/instancenorm.py: InstanceNorm1d/2d (affine and track_running_stats off by default).

import type { Tensor } from "../../aten/core/Tensor.js";
import { ValueError } from "../../c10/Errors.js";
import * as F from "../functional/index.js";
import { _NormBase } from "./batchnorm.js";

abstract class _InstanceNorm extends _NormBase {
  constructor(name: string, args: unknown[]) {
    super(name, args, false, false);
  }
  abstract _get_no_batch_dim(): number;

  _apply_instance_norm(input: Tensor): Tensor {
    return F.instance_norm(input, this.running_mean, this.running_var, this.weight, this.bias, this.training || !this.track_running_stats, this.momentum, this.eps);
  }

  override forward(input: Tensor): Tensor {
    this._check_input_dim(input);
    const feature_dim = input.dim() - this._get_no_batch_dim();
    if (input.size(feature_dim) !== this.num_features) {
      if (this.affine) {
        throw new ValueError(`expected input's size at dim=${feature_dim} to match num_features (${this.num_features}), but got: ${input.size(feature_dim)}.`);
      }
      process.emitWarning(
        `input's size at dim=${feature_dim} does not match num_features. You can silence this warning by not passing in num_features, which is not used because affine=False`,
        "UserWarning",
      );
    }
    if (input.dim() === this._get_no_batch_dim()) return (this._apply_instance_norm((input as any).unsqueeze(0)) as any).squeeze(0);
    return this._apply_instance_norm(input);
  }
}

export class InstanceNorm1d extends _InstanceNorm {
  constructor(...args: unknown[]) {
    super("InstanceNorm1d", args);
  }
  _get_no_batch_dim(): number {
    return 2;
  }
  override _check_input_dim(input: Tensor): void {
    if (input.dim() !== 2 && input.dim() !== 3) throw new ValueError(`expected 2D or 3D input (got ${input.dim()}D input)`);
  }
}

export class InstanceNorm2d extends _InstanceNorm {
  constructor(...args: unknown[]) {
    super("InstanceNorm2d", args);
  }
  _get_no_batch_dim(): number {
    return 3;
  }
  override _check_input_dim(input: Tensor): void {
    if (input.dim() !== 3 && input.dim() !== 4) throw new ValueError(`expected 3D or 4D input (got ${input.dim()}D input)`);
  }
}
