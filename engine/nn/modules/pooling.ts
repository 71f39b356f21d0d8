// torch/nn/modules/pooling.py: MaxPool1d/2d, AvgPool1d/2d, AdaptiveAvgPool2d over torch.nn.functional.

import type { Tensor } from "../../aten/core/Tensor.js";
import * as Fn from "../functional/index.js";
import { bindArgs } from "../_bind.js";
import { Module } from "./module.js";
import { _single, pyRepr, pyTuple } from "./_utils.js";

const F = Fn as any;

function maxPool(n: 1 | 2) {
  return class extends Module {
    declare kernel_size: number | number[];
    declare stride: number | number[];
    declare padding: number | number[];
    declare dilation: number | number[];
    declare return_indices: boolean;
    declare ceil_mode: boolean;
    constructor(...args: unknown[]) {
      super();
      const a = bindArgs(`MaxPool${n}d.__init__`, args, [["kernel_size"], ["stride", null], ["padding", 0], ["dilation", 1], ["return_indices", false], ["ceil_mode", false]]);
      this.kernel_size = a.kernel_size;
      this.stride = a.stride ?? a.kernel_size;
      this.padding = a.padding;
      this.dilation = a.dilation;
      this.return_indices = a.return_indices;
      this.ceil_mode = a.ceil_mode;
    }
    override forward(input: Tensor): Tensor | [Tensor, Tensor] {
      return F[`max_pool${n}d`](input, this.kernel_size, this.stride, this.padding, this.dilation, { ceil_mode: this.ceil_mode, return_indices: this.return_indices });
    }
    override extra_repr(): string {
      return `kernel_size=${pyRepr(this.kernel_size)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}, dilation=${pyRepr(this.dilation)}, ceil_mode=${pyRepr(this.ceil_mode)}`;
    }
  };
}
export class MaxPool1d extends maxPool(1) {}
export class MaxPool2d extends maxPool(2) {}

export class AvgPool1d extends Module {
  declare kernel_size: number[];
  declare stride: number[];
  declare padding: number[];
  declare ceil_mode: boolean;
  declare count_include_pad: boolean;
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("AvgPool1d.__init__", args, [["kernel_size"], ["stride", null], ["padding", 0], ["ceil_mode", false], ["count_include_pad", true]]);
    this.kernel_size = _single(a.kernel_size);
    this.stride = _single(a.stride ?? a.kernel_size);
    this.padding = _single(a.padding);
    this.ceil_mode = a.ceil_mode;
    this.count_include_pad = a.count_include_pad;
  }
  override forward(input: Tensor): Tensor {
    return F.avg_pool1d(input, this.kernel_size, this.stride, this.padding, this.ceil_mode, this.count_include_pad);
  }
  override extra_repr(): string {
    return `kernel_size=${pyTuple(this.kernel_size)}, stride=${pyTuple(this.stride)}, padding=${pyTuple(this.padding)}`;
  }
}

export class AvgPool2d extends Module {
  declare kernel_size: number | number[];
  declare stride: number | number[];
  declare padding: number | number[];
  declare ceil_mode: boolean;
  declare count_include_pad: boolean;
  declare divisor_override: number | null;
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("AvgPool2d.__init__", args, [
      ["kernel_size"], ["stride", null], ["padding", 0], ["ceil_mode", false], ["count_include_pad", true], ["divisor_override", null],
    ]);
    this.kernel_size = a.kernel_size;
    this.stride = a.stride ?? a.kernel_size;
    this.padding = a.padding;
    this.ceil_mode = a.ceil_mode;
    this.count_include_pad = a.count_include_pad;
    this.divisor_override = a.divisor_override;
  }
  override forward(input: Tensor): Tensor {
    return F.avg_pool2d(input, this.kernel_size, this.stride, this.padding, this.ceil_mode, this.count_include_pad, this.divisor_override);
  }
  override extra_repr(): string {
    return `kernel_size=${pyRepr(this.kernel_size)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}`;
  }
}

export class AdaptiveAvgPool2d extends Module {
  declare output_size: number | (number | null)[];
  constructor(...args: unknown[]) {
    super();
    this.output_size = bindArgs("AdaptiveAvgPool2d.__init__", args, [["output_size"]]).output_size;
  }
  override forward(input: Tensor): Tensor {
    return F.adaptive_avg_pool2d(input, this.output_size);
  }
  override extra_repr(): string {
    return `output_size=${pyRepr(this.output_size)}`;
  }
}
