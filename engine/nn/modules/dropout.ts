// torch/nn/modules/dropout.py: Dropout (and its 1d/2d/3d and alpha variants) over F.dropout*, active in training mode.

import type { Tensor } from "../../aten/core/Tensor.js";
import { ValueError } from "../../c10/Errors.js";
import * as Fn from "../functional/index.js";
import { bindArgs } from "../_bind.js";
import { Module } from "./module.js";
import { pyFloat, pyRepr } from "./_utils.js";

const F = Fn as any;

/** _DropoutNd: p in [0, 1], inplace; extra_repr 'p=0.5, inplace=False'. */
abstract class _DropoutNd extends Module {
  declare p: number;
  declare inplace: boolean;
  constructor(args: unknown[], name: string) {
    super();
    const a = bindArgs(`${name}.__init__`, args, [["p", 0.5], ["inplace", false]]);
    if (a.p < 0 || a.p > 1) throw new ValueError(`dropout probability has to be between 0 and 1, but got ${a.p}`);
    this.p = a.p;
    this.inplace = a.inplace;
  }
  override extra_repr(): string {
    return `p=${pyFloat(this.p)}, inplace=${pyRepr(this.inplace)}`;
  }
}

function dropoutModule(name: string, fn: string) {
  const cls = class extends _DropoutNd {
    constructor(...args: unknown[]) {
      super(args, name);
    }
    override forward(input: Tensor): Tensor {
      return F[fn](input, this.p, this.training, this.inplace);
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  return cls;
}

export const Dropout = dropoutModule("Dropout", "dropout");
export const Dropout1d = dropoutModule("Dropout1d", "dropout1d");
export const Dropout2d = dropoutModule("Dropout2d", "dropout2d");
export const Dropout3d = dropoutModule("Dropout3d", "dropout3d");
export const AlphaDropout = dropoutModule("AlphaDropout", "alpha_dropout");
export const FeatureAlphaDropout = dropoutModule("FeatureAlphaDropout", "feature_alpha_dropout");
