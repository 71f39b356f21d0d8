// torch/nn/modules/activation.py: the activation modules over torch.nn.functional, with 1.13's extra_repr texts.
// Float hyper-parameters print as Python floats (alpha=1.0); Softplus's beta/threshold are ints in PyTorch's
// signature and print as ints. (JavaScript has one number type: a value is printed by the parameter's declared type.)

import type { Tensor } from "../../aten/core/Tensor.js";
import * as Fn from "../functional/index.js";

const F = Fn as any;
import { bindArgs } from "../_bind.js";
import { Module } from "./module.js";
import { factoryEmpty, pyFloat, pyRepr } from "./_utils.js";
import { Parameter } from "../parameter.js";

const inplaceOnly = (inplace: boolean) => (inplace ? "inplace=True" : "");
const inplaceTail = (inplace: boolean) => (inplace ? ", inplace=True" : "");

/** A module whose constructor takes only `inplace`. */
function inplaceModule(name: string, fn: (x: Tensor, inplace: boolean) => Tensor, repr: boolean) {
  return class extends Module {
    declare inplace: boolean;
    constructor(...args: unknown[]) {
      super();
      this.inplace = bindArgs(`${name}.__init__`, args, [["inplace", false]]).inplace;
    }
    override forward(input: Tensor): Tensor {
      return fn(input, this.inplace);
    }
    override extra_repr(): string {
      return repr ? inplaceOnly(this.inplace) : "";
    }
  };
}

/** A module with no constructor arguments. */
function plainModule(name: string, fn: (x: Tensor) => Tensor) {
  return class extends Module {
    constructor(...args: unknown[]) {
      super();
      bindArgs(`${name}.__init__`, args, []);
    }
    override forward(input: Tensor): Tensor {
      return fn(input);
    }
  };
}

const named = <T extends abstract new (...a: any[]) => any>(cls: T, name: string): T => {
  Object.defineProperty(cls, "name", { value: name });
  return cls;
};

export const ReLU = named(inplaceModule("ReLU", (x, i) => F.relu(x, i), true), "ReLU");
export const SELU = named(inplaceModule("SELU", (x, i) => F.selu(x, i), true), "SELU");
export const SiLU = named(inplaceModule("SiLU", (x, i) => F.silu(x, i), true), "SiLU");
export const Mish = named(inplaceModule("Mish", (x, i) => F.mish(x, i), true), "Mish");
export const Hardswish = named(inplaceModule("Hardswish", (x, i) => F.hardswish(x, i), false), "Hardswish");
export const Hardsigmoid = named(inplaceModule("Hardsigmoid", (x, i) => F.hardsigmoid(x, i), false), "Hardsigmoid");
export const Sigmoid = named(plainModule("Sigmoid", (x) => (x as any).sigmoid()), "Sigmoid");
export const Tanh = named(plainModule("Tanh", (x) => (x as any).tanh()), "Tanh");
export const LogSigmoid = named(plainModule("LogSigmoid", (x) => F.logsigmoid(x)), "LogSigmoid");
export const Softsign = named(plainModule("Softsign", (x) => F.softsign(x)), "Softsign");
export const Tanhshrink = named(plainModule("Tanhshrink", (x) => F.tanhshrink(x)), "Tanhshrink");

export class Threshold extends Module {
  declare threshold: number;
  declare value: number;
  declare inplace: boolean;
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Threshold.__init__", args, [["threshold"], ["value"], ["inplace", false]]);
    this.threshold = a.threshold;
    this.value = a.value;
    this.inplace = a.inplace;
  }
  override forward(input: Tensor): Tensor {
    return F.threshold(input, this.threshold, this.value, this.inplace);
  }
  override extra_repr(): string {
    return `threshold=${pyFloat(this.threshold)}, value=${pyFloat(this.value)}${inplaceTail(this.inplace)}`;
  }
}

export class Hardtanh extends Module {
  declare min_val: number;
  declare max_val: number;
  declare inplace: boolean;
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Hardtanh.__init__", args, [["min_val", -1.0], ["max_val", 1.0], ["inplace", false], ["min_value", null], ["max_value", null]]);
    this.min_val = a.min_value ?? a.min_val;
    this.max_val = a.max_value ?? a.max_val;
    this.inplace = a.inplace;
    if (!(this.max_val > this.min_val)) throw new Error("AssertionError");
  }
  override forward(input: Tensor): Tensor {
    return F.hardtanh(input, this.min_val, this.max_val, this.inplace);
  }
  override extra_repr(): string {
    return `min_val=${pyFloat(this.min_val)}, max_val=${pyFloat(this.max_val)}${inplaceTail(this.inplace)}`;
  }
}

/** ReLU6 is Hardtanh(0., 6., inplace). */
export class ReLU6 extends Hardtanh {
  constructor(...args: unknown[]) {
    const a = bindArgs("ReLU6.__init__", args, [["inplace", false]]);
    super(0.0, 6.0, a.inplace);
  }
  override extra_repr(): string {
    return inplaceOnly(this.inplace);
  }
}

/** A module with one float hyper-parameter and inplace: LeakyReLU(negative_slope), ELU(alpha), CELU(alpha). */
function slopeModule(name: string, param: string, def: number, fn: (x: Tensor, v: number, inplace: boolean) => Tensor) {
  return class extends Module {
    declare inplace: boolean;
    constructor(...args: unknown[]) {
      super();
      const a = bindArgs(`${name}.__init__`, args, [[param, def], ["inplace", false]]);
      (this as any)[param] = a[param];
      this.inplace = a.inplace;
    }
    override forward(input: Tensor): Tensor {
      return fn(input, (this as any)[param], this.inplace);
    }
    override extra_repr(): string {
      return `${param}=${pyFloat((this as any)[param])}${inplaceTail(this.inplace)}`;
    }
  };
}
export const LeakyReLU = named(slopeModule("LeakyReLU", "negative_slope", 1e-2, (x, v, i) => F.leaky_relu(x, v, i)), "LeakyReLU");
export const ELU = named(slopeModule("ELU", "alpha", 1.0, (x, v, i) => F.elu(x, v, i)), "ELU");
export const CELU = named(slopeModule("CELU", "alpha", 1.0, (x, v, i) => F.celu(x, v, i)), "CELU");

export class GELU extends Module {
  declare approximate: string;
  constructor(...args: unknown[]) {
    super();
    this.approximate = bindArgs("GELU.__init__", args, [["approximate", "none"]]).approximate;
  }
  override forward(input: Tensor): Tensor {
    return F.gelu(input, { approximate: this.approximate });
  }
  override extra_repr(): string {
    return `approximate=${pyRepr(this.approximate)}`;
  }
}

export class Softplus extends Module {
  declare beta: number;
  declare threshold: number;
  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Softplus.__init__", args, [["beta", 1], ["threshold", 20]]);
    this.beta = a.beta;
    this.threshold = a.threshold;
  }
  override forward(input: Tensor): Tensor {
    return F.softplus(input, this.beta, this.threshold);
  }
  override extra_repr(): string {
    return `beta=${this.beta}, threshold=${this.threshold}`;
  }
}

/** Softmax/LogSoftmax/Softmin(dim=None). */
function softmaxModule(name: string, fn: (x: Tensor, dim: number | null) => Tensor) {
  return class extends Module {
    declare dim: number | null;
    constructor(...args: unknown[]) {
      super();
      this.dim = bindArgs(`${name}.__init__`, args, [["dim", null]]).dim;
    }
    override forward(input: Tensor): Tensor {
      return fn(input, this.dim);
    }
    override extra_repr(): string {
      return `dim=${pyRepr(this.dim)}`;
    }
  };
}
export const Softmax = named(softmaxModule("Softmax", (x, d) => F.softmax(x, d, { _stacklevel: 5 } as any)), "Softmax");
export const LogSoftmax = named(softmaxModule("LogSoftmax", (x, d) => F.log_softmax(x, d, { _stacklevel: 5 } as any)), "LogSoftmax");
export const Softmin = named(softmaxModule("Softmin", (x, d) => F.softmin(x, d, { _stacklevel: 5 } as any)), "Softmin");

/** PReLU(num_parameters=1, init=0.25): a learnable slope per channel (or one shared), filled with `init`. */
export class PReLU extends Module {
  declare num_parameters: number;
  declare weight: Tensor;
  constructor(...args: unknown[]) {
    const a = bindArgs("PReLU.__init__", args, [["num_parameters", 1], ["init", 0.25], ["device", null], ["dtype", null]]);
    super();
    this.num_parameters = a.num_parameters;
    this.weight = new Parameter((factoryEmpty([a.num_parameters], a) as any).fill_(a.init));
  }
  override forward(input: Tensor): Tensor {
    return F.prelu(input, this.weight);
  }
  override extra_repr(): string {
    return `num_parameters=${this.num_parameters}`;
  }
}
