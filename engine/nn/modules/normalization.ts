// torch/nn/modules/normalization.py: LayerNorm and GroupNorm (weight ones, bias zeros).

import type { Tensor } from "../../aten/core/Tensor.js";
import { ValueError } from "../../c10/Errors.js";
import * as F from "../functional/index.js";
import * as init from "../init.js";
import { bindArgs } from "../_bind.js";
import { Parameter } from "../parameter.js";
import { Module } from "./module.js";
import { factoryEmpty, pyFloat, pyRepr, pyTuple } from "./_utils.js";

export class LayerNorm extends Module {
  declare normalized_shape: number[];
  declare eps: number;
  declare elementwise_affine: boolean;
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("LayerNorm.__init__", args, [["normalized_shape"], ["eps", 1e-5], ["elementwise_affine", true], ["device", null], ["dtype", null]]);
    this.normalized_shape = typeof a.normalized_shape === "number" ? [a.normalized_shape] : [...a.normalized_shape];
    this.eps = a.eps;
    this.elementwise_affine = a.elementwise_affine;
    if (this.elementwise_affine) {
      this.weight = new Parameter(factoryEmpty(this.normalized_shape, a));
      this.bias = new Parameter(factoryEmpty(this.normalized_shape, a));
    } else {
      this.register_parameter("weight", null);
      this.register_parameter("bias", null);
    }
    this.reset_parameters();
  }
  reset_parameters(): void {
    if (this.elementwise_affine) {
      init.ones_(this.weight!);
      init.zeros_(this.bias!);
    }
  }
  override forward(input: Tensor): Tensor {
    return F.layer_norm(input, this.normalized_shape, this.weight, this.bias, this.eps);
  }
  override extra_repr(): string {
    return `${pyTuple(this.normalized_shape)}, eps=${pyFloat(this.eps)}, elementwise_affine=${pyRepr(this.elementwise_affine)}`;
  }
}

export class GroupNorm extends Module {
  declare num_groups: number;
  declare num_channels: number;
  declare eps: number;
  declare affine: boolean;
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("GroupNorm.__init__", args, [["num_groups"], ["num_channels"], ["eps", 1e-5], ["affine", true], ["device", null], ["dtype", null]]);
    if (a.num_channels % a.num_groups !== 0) throw new ValueError("num_channels must be divisible by num_groups");
    this.num_groups = a.num_groups;
    this.num_channels = a.num_channels;
    this.eps = a.eps;
    this.affine = a.affine;
    if (this.affine) {
      this.weight = new Parameter(factoryEmpty([a.num_channels], a));
      this.bias = new Parameter(factoryEmpty([a.num_channels], a));
    } else {
      this.register_parameter("weight", null);
      this.register_parameter("bias", null);
    }
    this.reset_parameters();
  }
  reset_parameters(): void {
    if (this.affine) {
      init.ones_(this.weight!);
      init.zeros_(this.bias!);
    }
  }
  override forward(input: Tensor): Tensor {
    return F.group_norm(input, this.num_groups, this.weight, this.bias, this.eps);
  }
  override extra_repr(): string {
    return `${this.num_groups}, ${this.num_channels}, eps=${pyFloat(this.eps)}, affine=${pyRepr(this.affine)}`;
  }
}
