// torch/nn/modules/conv.py: _ConvNd's checks, weight layout and default init, Conv1d, Conv2d, ConvTranspose1d/2d.

import type { Tensor } from "../../aten/core/Tensor.js";
import { ValueError } from "../../c10/Errors.js";
import * as Fn from "../functional/index.js";
import * as init from "../init.js";
import { bindArgs } from "../_bind.js";
import { Parameter } from "../parameter.js";
import { Module } from "./module.js";
import { _pair, _single, factoryEmpty, pyTuple } from "./_utils.js";

const F = Fn as any;
const pySet = (xs: string[]) => `{${xs.map((x) => `'${x}'`).join(", ")}}`;

abstract class _ConvNd extends Module {
  declare in_channels: number;
  declare out_channels: number;
  declare kernel_size: number[];
  declare stride: number[];
  declare padding: number[] | string;
  declare dilation: number[];
  declare transposed: boolean;
  declare output_padding: number[];
  declare groups: number;
  declare padding_mode: string;
  declare _reversed_padding_repeated_twice: number[];
  declare weight: Parameter;
  declare bias: Parameter | null;

  constructor(
    in_channels: number, out_channels: number, kernel_size: number[], stride: number[], padding: number[] | string, dilation: number[],
    transposed: boolean, output_padding: number[], groups: number, bias: boolean, padding_mode: string, kw: { device?: unknown; dtype?: unknown },
  ) {
    super();
    if (groups <= 0) throw new ValueError("groups must be a positive integer");
    if (in_channels % groups !== 0) throw new ValueError("in_channels must be divisible by groups");
    if (out_channels % groups !== 0) throw new ValueError("out_channels must be divisible by groups");
    // Python prints these sets in hash order; 1.13's texts show {'valid', 'same'} and {'zeros', 'reflect', 'replicate', 'circular'} orders vary by run
    if (typeof padding === "string") {
      if (padding !== "same" && padding !== "valid") throw new ValueError(`Invalid padding string '${padding}', should be one of ${pySet(["valid", "same"])}`);
      if (padding === "same" && stride.some((s) => s !== 1)) throw new ValueError("padding='same' is not supported for strided convolutions");
    }
    if (!["zeros", "reflect", "replicate", "circular"].includes(padding_mode)) {
      throw new ValueError(`padding_mode must be one of ${pySet(["zeros", "reflect", "replicate", "circular"])}, but got padding_mode='${padding_mode}'`);
    }
    this.in_channels = in_channels;
    this.out_channels = out_channels;
    this.kernel_size = kernel_size;
    this.stride = stride;
    this.padding = padding;
    this.dilation = dilation;
    this.transposed = transposed;
    this.output_padding = output_padding;
    this.groups = groups;
    this.padding_mode = padding_mode;
    if (typeof padding === "string") {
      const r = new Array(2 * kernel_size.length).fill(0);
      if (padding === "same") {
        kernel_size.forEach((k, j) => {
          const i = kernel_size.length - 1 - j;
          const total_padding = dilation[j] * (k - 1);
          const left_pad = Math.floor(total_padding / 2);
          r[2 * i] = left_pad;
          r[2 * i + 1] = total_padding - left_pad;
        });
      }
      this._reversed_padding_repeated_twice = r;
    } else {
      this._reversed_padding_repeated_twice = [...padding].reverse().flatMap((p) => [p, p]);
    }
    const shape = transposed ? [in_channels, out_channels / groups, ...kernel_size] : [out_channels, in_channels / groups, ...kernel_size];
    this.weight = new Parameter(factoryEmpty(shape, kw));
    if (bias) this.bias = new Parameter(factoryEmpty([out_channels], kw));
    else this.register_parameter("bias", null);
    this.reset_parameters();
  }

  reset_parameters(): void {
    init.kaiming_uniform_(this.weight, { a: Math.sqrt(5) });
    if (this.bias !== null) {
      const [fan_in] = init._calculate_fan_in_and_fan_out(this.weight);
      if (fan_in !== 0) {
        const bound = 1 / Math.sqrt(fan_in);
        init.uniform_(this.bias, -bound, bound);
      }
    }
  }

  override extra_repr(): string {
    let s = `${this.in_channels}, ${this.out_channels}, kernel_size=${pyTuple(this.kernel_size)}, stride=${pyTuple(this.stride)}`;
    const p = this.padding;
    if (typeof p === "string" || p.some((v) => v !== 0)) s += `, padding=${typeof p === "string" ? p : pyTuple(p)}`;
    if (this.dilation.some((v) => v !== 1)) s += `, dilation=${pyTuple(this.dilation)}`;
    if (this.output_padding.some((v) => v !== 0)) s += `, output_padding=${pyTuple(this.output_padding)}`;
    if (this.groups !== 1) s += `, groups=${this.groups}`;
    if (this.bias === null) s += ", bias=False";
    if (this.padding_mode !== "zeros") s += `, padding_mode=${this.padding_mode}`;
    return s;
  }
}

const CONV_PARAMS = [
  ["in_channels"], ["out_channels"], ["kernel_size"], ["stride", 1], ["padding", 0], ["dilation", 1], ["groups", 1], ["bias", true],
  ["padding_mode", "zeros"], ["device", null], ["dtype", null],
] as const;

function convNd(n: 1 | 2) {
  const tup = n === 1 ? _single : _pair;
  const fn = n === 1 ? "conv1d" : "conv2d";
  return class extends _ConvNd {
    constructor(...args: unknown[]) {
      const a = bindArgs(`Conv${n}d.__init__`, args, CONV_PARAMS);
      const padding = typeof a.padding === "string" ? a.padding : tup(a.padding);
      super(a.in_channels, a.out_channels, tup(a.kernel_size), tup(a.stride), padding, tup(a.dilation), false, tup(0), a.groups, a.bias, a.padding_mode, a);
    }
    _conv_forward(input: Tensor, weight: Tensor, bias: Tensor | null): Tensor {
      if (this.padding_mode !== "zeros") {
        return F[fn](F.pad(input, this._reversed_padding_repeated_twice, { mode: this.padding_mode }), weight, bias, this.stride, tup(0), this.dilation, this.groups);
      }
      return F[fn](input, weight, bias, this.stride, this.padding, this.dilation, this.groups);
    }
    override forward(input: Tensor): Tensor {
      return this._conv_forward(input, this.weight, this.bias);
    }
  };
}

export class Conv1d extends convNd(1) {}
export class Conv2d extends convNd(2) {}

const CONVT_PARAMS = [
  ["in_channels"], ["out_channels"], ["kernel_size"], ["stride", 1], ["padding", 0], ["output_padding", 0], ["groups", 1], ["bias", true],
  ["dilation", 1], ["padding_mode", "zeros"], ["device", null], ["dtype", null],
] as const;

function convTransposeNd(n: 1 | 2) {
  const tup = n === 1 ? _single : _pair;
  const fn = n === 1 ? "conv_transpose1d" : "conv_transpose2d";
  return class extends _ConvNd {
    constructor(...args: unknown[]) {
      const a = bindArgs(`ConvTranspose${n}d.__init__`, args, CONVT_PARAMS);
      if (a.padding_mode !== "zeros") throw new ValueError(`Only "zeros" padding mode is supported for ConvTranspose${n}d`);
      super(a.in_channels, a.out_channels, tup(a.kernel_size), tup(a.stride), tup(a.padding), tup(a.dilation), true, tup(a.output_padding), a.groups, a.bias, a.padding_mode, a);
    }

    /** _ConvTransposeNd._output_padding: the output_padding that gives output_size. */
    _output_padding(input: Tensor, output_size: number[] | null): number[] {
      if (output_size === null || output_size === undefined) return this.output_padding;
      const has_batch_dim = input.dim() === n + 2;
      const num_non_spatial_dims = has_batch_dim ? 2 : 1;
      if (output_size.length === num_non_spatial_dims + n) output_size = output_size.slice(num_non_spatial_dims);
      if (output_size.length !== n) {
        throw new ValueError(`ConvTranspose${n}D: for ${input.dim()}D input, output_size must have ${n} or ${num_non_spatial_dims + n} elements (got ${output_size.length})`);
      }
      const padding = this.padding as number[];
      const min_sizes: number[] = [];
      const max_sizes: number[] = [];
      for (let d = 0; d < n; d++) {
        const dim_size = (input.size(d + num_non_spatial_dims) - 1) * this.stride[d] - 2 * padding[d] + this.dilation[d] * (this.kernel_size[d] - 1) + 1;
        min_sizes.push(dim_size);
        max_sizes.push(dim_size + this.stride[d] - 1);
      }
      output_size.forEach((size, i) => {
        if (size < min_sizes[i] || size > max_sizes[i]) {
          throw new ValueError(
            `requested an output size of ${pyList(output_size!)}, but valid sizes range from ${pyList(min_sizes)} to ${pyList(max_sizes)} (for an input of torch.Size([${input.shape.slice(2).join(", ")}]))`,
          );
        }
      });
      return output_size.map((s, d) => s - min_sizes[d]);
    }

    override forward(input: Tensor, output_size: number[] | null = null): Tensor {
      const output_padding = this._output_padding(input, output_size);
      return F[fn](input, this.weight, this.bias, this.stride, this.padding, output_padding, this.groups, this.dilation);
    }
  };
}
const pyList = (xs: number[]) => `[${xs.join(", ")}]`;

export class ConvTranspose1d extends convTransposeNd(1) {}
export class ConvTranspose2d extends convTransposeNd(2) {}
