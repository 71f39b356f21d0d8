// torch/nn/modules/linear.py: Identity, Linear, Bilinear.

import type { Tensor } from "../../aten/core/Tensor.js";
import * as F from "../functional/index.js";
import * as init from "../init.js";
import { bindArgs } from "../_bind.js";
import { Parameter } from "../parameter.js";
import { Module } from "./module.js";
import { factoryEmpty, pyRepr } from "./_utils.js";

/** Identity(*args, **kwargs): returns its input; the arguments are ignored. */
export class Identity extends Module {
  constructor(..._args: unknown[]) {
    super();
  }
  override forward(input: Tensor): Tensor {
    return input;
  }
}

export class Linear extends Module {
  declare in_features: number;
  declare out_features: number;
  declare weight: Parameter;
  declare bias: Parameter | null;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Linear.__init__", args, [["in_features"], ["out_features"], ["bias", true], ["device", null], ["dtype", null]]);
    this.in_features = a.in_features;
    this.out_features = a.out_features;
    this.weight = new Parameter(factoryEmpty([a.out_features, a.in_features], a));
    if (a.bias) this.bias = new Parameter(factoryEmpty([a.out_features], a));
    else this.register_parameter("bias", null);
    this.reset_parameters();
  }

  reset_parameters(): void {
    // kaiming_uniform_(a=sqrt(5)) is uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)) (https://github.com/pytorch/pytorch/issues/57109)
    init.kaiming_uniform_(this.weight, { a: Math.sqrt(5) });
    if (this.bias !== null) {
      const [fan_in] = init._calculate_fan_in_and_fan_out(this.weight);
      const bound = fan_in > 0 ? 1 / Math.sqrt(fan_in) : 0;
      init.uniform_(this.bias, -bound, bound);
    }
  }

  override forward(input: Tensor): Tensor {
    return F.linear(input, this.weight, this.bias) as Tensor;
  }

  override extra_repr(): string {
    return `in_features=${this.in_features}, out_features=${this.out_features}, bias=${pyRepr(this.bias !== null)}`;
  }
}

export class Bilinear extends Module {
  declare in1_features: number;
  declare in2_features: number;
  declare out_features: number;
  declare weight: Parameter;
  declare bias: Parameter | null;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Bilinear.__init__", args, [["in1_features"], ["in2_features"], ["out_features"], ["bias", true], ["device", null], ["dtype", null]]);
    this.in1_features = a.in1_features;
    this.in2_features = a.in2_features;
    this.out_features = a.out_features;
    this.weight = new Parameter(factoryEmpty([a.out_features, a.in1_features, a.in2_features], a));
    if (a.bias) this.bias = new Parameter(factoryEmpty([a.out_features], a));
    else this.register_parameter("bias", null);
    this.reset_parameters();
  }

  reset_parameters(): void {
    const bound = 1 / Math.sqrt(this.weight.size(1));
    init.uniform_(this.weight, -bound, bound);
    if (this.bias !== null) init.uniform_(this.bias, -bound, bound);
  }

  override forward(input1: Tensor, input2: Tensor): Tensor {
    return F.bilinear(input1, input2, this.weight, this.bias) as Tensor;
  }

  override extra_repr(): string {
    return `in1_features=${this.in1_features}, in2_features=${this.in2_features}, out_features=${this.out_features}, bias=${pyRepr(this.bias !== null)}`;
  }
}
