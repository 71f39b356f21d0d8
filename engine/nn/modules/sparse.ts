// torch/nn/modules/sparse.py: Embedding (normal_ init, padding_idx row zeroed, from_pretrained).

import type { Tensor } from "../../aten/core/Tensor.js";
import { AutoGradMode } from "../../c10/GradMode.js";
import * as F from "../functional/index.js";
import { AssertionError } from "../functional/sparse.js";
import * as init from "../init.js";
import { bindArgs } from "../_bind.js";
import { Parameter } from "../parameter.js";
import { Module } from "./module.js";
import { factoryEmpty, pyFloat } from "./_utils.js";

const PARAMS = [
  ["num_embeddings"], ["embedding_dim"], ["padding_idx", null], ["max_norm", null], ["norm_type", 2.0], ["scale_grad_by_freq", false],
  ["sparse", false], ["_weight", null], ["device", null], ["dtype", null],
] as const;

export class Embedding extends Module {
  declare num_embeddings: number;
  declare embedding_dim: number;
  declare padding_idx: number | null;
  declare max_norm: number | null;
  declare norm_type: number;
  declare scale_grad_by_freq: boolean;
  declare sparse: boolean;
  declare weight: Parameter;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Embedding.__init__", args, PARAMS);
    this.num_embeddings = a.num_embeddings;
    this.embedding_dim = a.embedding_dim;
    let padding_idx = a.padding_idx as number | null;
    if (padding_idx !== null) {
      if (padding_idx > 0) {
        if (!(padding_idx < this.num_embeddings)) throw new AssertionError("Padding_idx must be within num_embeddings");
      } else if (padding_idx < 0) {
        if (!(padding_idx >= -this.num_embeddings)) throw new AssertionError("Padding_idx must be within num_embeddings");
        padding_idx = this.num_embeddings + padding_idx;
      }
    }
    this.padding_idx = padding_idx;
    this.max_norm = a.max_norm;
    this.norm_type = a.norm_type;
    this.scale_grad_by_freq = a.scale_grad_by_freq;
    if (a._weight === null) {
      this.weight = new Parameter(factoryEmpty([a.num_embeddings, a.embedding_dim], a));
      this.reset_parameters();
    } else {
      const w = a._weight as Tensor;
      if (!(w.shape.length === 2 && w.shape[0] === a.num_embeddings && w.shape[1] === a.embedding_dim)) {
        throw new AssertionError("Shape of weight does not match num_embeddings and embedding_dim");
      }
      this.weight = new Parameter(w);
    }
    this.sparse = a.sparse;
  }

  reset_parameters(): void {
    init.normal_(this.weight);
    this._fill_padding_idx_with_zero();
  }

  _fill_padding_idx_with_zero(): void {
    if (this.padding_idx !== null) {
      using _g = new AutoGradMode(false);
      (this.weight as any).get(this.padding_idx).fill_(0);
    }
  }

  override forward(input: Tensor): Tensor {
    return F.embedding(input, this.weight, {
      padding_idx: this.padding_idx, max_norm: this.max_norm, norm_type: this.norm_type, scale_grad_by_freq: this.scale_grad_by_freq, sparse: this.sparse,
    });
  }

  override extra_repr(): string {
    let s = `${this.num_embeddings}, ${this.embedding_dim}`;
    if (this.padding_idx !== null) s += `, padding_idx=${this.padding_idx}`;
    if (this.max_norm !== null) s += `, max_norm=${pyFloat(this.max_norm)}`;
    if (this.norm_type !== 2) s += `, norm_type=${pyFloat(this.norm_type)}`;
    if (this.scale_grad_by_freq !== false) s += `, scale_grad_by_freq=True`;
    if (this.sparse !== false) s += ", sparse=True";
    return s;
  }

  /** Embedding.from_pretrained(embeddings, {freeze=True, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse}). */
  static from_pretrained(...args: unknown[]): Embedding {
    const a = bindArgs("from_pretrained", args, [
      ["embeddings"], ["freeze", true], ["padding_idx", null], ["max_norm", null], ["norm_type", 2.0], ["scale_grad_by_freq", false], ["sparse", false],
    ]);
    const embeddings = a.embeddings as Tensor;
    if (embeddings.dim() !== 2) throw new AssertionError("Embeddings parameter is expected to be 2-dimensional");
    const [rows, cols] = embeddings.shape;
    const embedding = new this({
      num_embeddings: rows, embedding_dim: cols, _weight: embeddings, padding_idx: a.padding_idx, max_norm: a.max_norm,
      norm_type: a.norm_type, scale_grad_by_freq: a.scale_grad_by_freq, sparse: a.sparse,
    });
    embedding.weight.requires_grad = !a.freeze;
    return embedding;
  }
}
