// torch/nn/modules/flatten.py: Flatten and Unflatten.

import type { Tensor } from "../../aten/core/Tensor.js";
import { bindArgs } from "../_bind.js";
import { Module } from "./module.js";
import { pyRepr } from "./_utils.js";

export class Flatten extends Module {
  declare start_dim: number;
  declare end_dim: number;
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Flatten.__init__", args, [["start_dim", 1], ["end_dim", -1]]);
    this.start_dim = a.start_dim;
    this.end_dim = a.end_dim;
  }
  override forward(input: Tensor): Tensor {
    return (input as any).flatten(this.start_dim, this.end_dim);
  }
  override extra_repr(): string {
    return `start_dim=${this.start_dim}, end_dim=${this.end_dim}`;
  }
}

export class Unflatten extends Module {
  declare dim: number | string;
  declare unflattened_size: number[];
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Unflatten.__init__", args, [["dim"], ["unflattened_size"]]);
    this.dim = a.dim;
    this.unflattened_size = a.unflattened_size;
  }
  override forward(input: Tensor): Tensor {
    return (input as any).unflatten(this.dim, this.unflattened_size);
  }
  override extra_repr(): string {
    return `dim=${this.dim}, unflattened_size=${pyRepr(this.unflattened_size)}`;
  }
}
