// torch/nn/modules/loss.py: _Loss (reduction, with the legacy size_average/reduce), _WeightedLoss (a `weight`
// buffer) and the loss modules over torch.nn.functional. Their repr is the bare class name: `MSELoss()`.

import type { Tensor } from "../../aten/core/Tensor.js";
import * as Fn from "../functional/index.js";
import { legacy_get_string } from "../functional/loss.js";
import { bindArgs, type Params } from "../_bind.js";
import { Module } from "./module.js";

const F = Fn as any;

abstract class _Loss extends Module {
  declare reduction: string;
  protected _bindLoss(name: string, args: unknown[], params: Params): Record<string, any> {
    const a = bindArgs(`${name}.__init__`, args, params);
    this.reduction = a.size_average != null || a.reduce != null ? legacy_get_string(a.size_average ?? null, a.reduce ?? null) : a.reduction;
    return a;
  }
}

abstract class _WeightedLoss extends _Loss {
  declare weight: Tensor | null;
  protected bindWeighted(name: string, args: unknown[], params: Params): Record<string, any> {
    const a = this._bindLoss(name, args, params);
    this.register_buffer("weight", a.weight);
    return a;
  }
}

const LEGACY: Params = [["size_average", null], ["reduce", null], ["reduction", "mean"]];

export class L1Loss extends _Loss {
  constructor(...args: unknown[]) {
    super();
    this._bindLoss("L1Loss", args, LEGACY);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.l1_loss(input, target, { reduction: this.reduction });
  }
}

export class MSELoss extends _Loss {
  constructor(...args: unknown[]) {
    super();
    this._bindLoss("MSELoss", args, LEGACY);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.mse_loss(input, target, { reduction: this.reduction });
  }
}

export class NLLLoss extends _WeightedLoss {
  declare ignore_index: number;
  constructor(...args: unknown[]) {
    super();
    const a = this.bindWeighted("NLLLoss", args, [["weight", null], ["size_average", null], ["ignore_index", -100], ["reduce", null], ["reduction", "mean"]]);
    this.ignore_index = a.ignore_index;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.nll_loss(input, target, { weight: this.weight, ignore_index: this.ignore_index, reduction: this.reduction });
  }
}

export class CrossEntropyLoss extends _WeightedLoss {
  declare ignore_index: number;
  declare label_smoothing: number;
  constructor(...args: unknown[]) {
    super();
    const a = this.bindWeighted("CrossEntropyLoss", args, [
      ["weight", null], ["size_average", null], ["ignore_index", -100], ["reduce", null], ["reduction", "mean"], ["label_smoothing", 0.0],
    ]);
    this.ignore_index = a.ignore_index;
    this.label_smoothing = a.label_smoothing;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.cross_entropy(input, target, { weight: this.weight, ignore_index: this.ignore_index, reduction: this.reduction, label_smoothing: this.label_smoothing });
  }
}

export class BCELoss extends _WeightedLoss {
  constructor(...args: unknown[]) {
    super();
    this.bindWeighted("BCELoss", args, [["weight", null], ...LEGACY]);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.binary_cross_entropy(input, target, { weight: this.weight, reduction: this.reduction });
  }
}

export class BCEWithLogitsLoss extends _Loss {
  declare weight: Tensor | null;
  declare pos_weight: Tensor | null;
  constructor(...args: unknown[]) {
    super();
    const a = this._bindLoss("BCEWithLogitsLoss", args, [["weight", null], ...LEGACY, ["pos_weight", null]]);
    this.register_buffer("weight", a.weight);
    this.register_buffer("pos_weight", a.pos_weight);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.binary_cross_entropy_with_logits(input, target, { weight: this.weight, pos_weight: this.pos_weight, reduction: this.reduction });
  }
}

export class HuberLoss extends _Loss {
  declare delta: number;
  constructor(...args: unknown[]) {
    super();
    this.delta = this._bindLoss("HuberLoss", args, [["reduction", "mean"], ["delta", 1.0]]).delta;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.huber_loss(input, target, { reduction: this.reduction, delta: this.delta });
  }
}

export class SmoothL1Loss extends _Loss {
  declare beta: number;
  constructor(...args: unknown[]) {
    super();
    this.beta = this._bindLoss("SmoothL1Loss", args, [...LEGACY, ["beta", 1.0]]).beta;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.smooth_l1_loss(input, target, { reduction: this.reduction, beta: this.beta });
  }
}

export class KLDivLoss extends _Loss {
  declare log_target: boolean;
  constructor(...args: unknown[]) {
    super();
    this.log_target = this._bindLoss("KLDivLoss", args, [...LEGACY, ["log_target", false]]).log_target;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.kl_div(input, target, { reduction: this.reduction, log_target: this.log_target });
  }
}

export class CosineEmbeddingLoss extends _Loss {
  declare margin: number;
  constructor(...args: unknown[]) {
    super();
    this.margin = this._bindLoss("CosineEmbeddingLoss", args, [["margin", 0.0], ...LEGACY]).margin;
  }
  override forward(input1: Tensor, input2: Tensor, target: Tensor): Tensor {
    return F.cosine_embedding_loss(input1, input2, target, { margin: this.margin, reduction: this.reduction });
  }
}

export class MarginRankingLoss extends _Loss {
  declare margin: number;
  constructor(...args: unknown[]) {
    super();
    this.margin = this._bindLoss("MarginRankingLoss", args, [["margin", 0.0], ...LEGACY]).margin;
  }
  override forward(input1: Tensor, input2: Tensor, target: Tensor): Tensor {
    return F.margin_ranking_loss(input1, input2, target, { margin: this.margin, reduction: this.reduction });
  }
}
