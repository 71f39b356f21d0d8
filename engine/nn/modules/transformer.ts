// torch/nn/modules/transformer.py (PyTorch 1.13): Transformer, TransformerEncoder, TransformerDecoder,
// TransformerEncoderLayer, TransformerDecoderLayer.
// Their forward is 1.13's regular path. 1.13 also has inference-only fast paths (the encoder layer's
// torch._transformer_encoder_layer_fwd and the encoder's nested-tensor conversion, taken in eval mode
// with no grad); they are optimisations and are not implemented: Glasstorch always runs the regular path.
// _get_clones uses copy.deepcopy (../copy.ts, Module.prototype.__deepcopy__).

import type { Tensor } from "../../aten/core/Tensor.js";
import { AssertionError, RuntimeError } from "../../c10/Errors.js";
import * as T from "../../generated/torch_functions.js";
import * as F from "../functional/index.js";
import * as init from "../init.js";
import { bindArgs } from "../_bind.js";
import { Module } from "./module.js";
import { deepcopy } from "../copy.js";
import { ModuleList } from "./container.js";
import { Dropout } from "./dropout.js";
import { Linear } from "./linear.js";
import { LayerNorm } from "./normalization.js";
import { MultiheadAttention } from "./multihead_attention.js";

type Activation = string | ((x: Tensor) => Tensor);

function _get_clones(module: Module, N: number): ModuleList {
  return new ModuleList(Array.from({ length: N }, () => deepcopy(module)));
}

function _get_activation_fn(activation: string): (x: Tensor) => Tensor {
  if (activation === "relu") return F.relu as (x: Tensor) => Tensor;
  if (activation === "gelu") return F.gelu as (x: Tensor) => Tensor;
  throw new RuntimeError(`activation should be relu/gelu, not ${activation}`);
}

function checkKeyPaddingMask(m: Tensor | null): void {
  if (m !== null && m.dtype.name !== "bool" && !(m as any).is_floating_point()) {
    throw new AssertionError("only bool and floating types of key_padding_mask are supported");
  }
}

const LAYER_PARAMS = [
  ["d_model"], ["nhead"], ["dim_feedforward", 2048], ["dropout", 0.1], ["activation", "relu"], ["layer_norm_eps", 1e-5], ["batch_first", false],
  ["norm_first", false], ["device", null], ["dtype", null],
] as const;

export class TransformerEncoderLayer extends Module {
  declare self_attn: MultiheadAttention;
  declare linear1: Linear;
  declare dropout: Module;
  declare linear2: Linear;
  declare norm_first: boolean;
  declare norm1: Module;
  declare norm2: Module;
  declare dropout1: Module;
  declare dropout2: Module;
  declare activation_relu_or_gelu: number;
  declare activation: (x: Tensor) => Tensor;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("TransformerEncoderLayer.__init__", args, LAYER_PARAMS);
    const fk = { device: a.device, dtype: a.dtype };
    this.self_attn = new MultiheadAttention(a.d_model, a.nhead, { dropout: a.dropout, batch_first: a.batch_first, ...fk });
    this.linear1 = new Linear(a.d_model, a.dim_feedforward, fk);
    this.dropout = new Dropout(a.dropout);
    this.linear2 = new Linear(a.dim_feedforward, a.d_model, fk);
    this.norm_first = a.norm_first;
    this.norm1 = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, ...fk });
    this.norm2 = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, ...fk });
    this.dropout1 = new Dropout(a.dropout);
    this.dropout2 = new Dropout(a.dropout);
    let activation: Activation = a.activation;
    if (typeof activation === "string") activation = _get_activation_fn(activation);
    // which fused activation the (unimplemented) fast path would use: 1 relu, 2 gelu, 0 other
    this.activation_relu_or_gelu = activation === F.relu ? 1 : activation === F.gelu ? 2 : 0;
    this.activation = activation;
  }

  /** forward(src, {src_mask, src_key_padding_mask}). */
  override forward(...args: unknown[]): Tensor {
    const { src, src_mask, src_key_padding_mask } = bindArgs("forward", args, [["src"], ["src_mask", null], ["src_key_padding_mask", null]]);
    checkKeyPaddingMask(src_key_padding_mask);
    let x: any = src;
    if (this.norm_first) {
      x = x.add(this._sa_block(this.norm1(x), src_mask, src_key_padding_mask));
      x = x.add(this._ff_block(this.norm2(x)));
    } else {
      x = this.norm1(x.add(this._sa_block(x, src_mask, src_key_padding_mask)));
      x = this.norm2(x.add(this._ff_block(x)));
    }
    return x;
  }

  _sa_block(x: Tensor, attn_mask: Tensor | null, key_padding_mask: Tensor | null): Tensor {
    const y = this.self_attn(x, x, x, { attn_mask, key_padding_mask, need_weights: false })[0];
    return this.dropout1(y);
  }

  _ff_block(x: Tensor): Tensor {
    const y = this.linear2(this.dropout(this.activation(this.linear1(x))));
    return this.dropout2(y);
  }
}

export class TransformerDecoderLayer extends Module {
  declare self_attn: MultiheadAttention;
  declare multihead_attn: MultiheadAttention;
  declare linear1: Linear;
  declare dropout: Module;
  declare linear2: Linear;
  declare norm_first: boolean;
  declare norm1: Module;
  declare norm2: Module;
  declare norm3: Module;
  declare dropout1: Module;
  declare dropout2: Module;
  declare dropout3: Module;
  declare activation: (x: Tensor) => Tensor;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("TransformerDecoderLayer.__init__", args, LAYER_PARAMS);
    const fk = { device: a.device, dtype: a.dtype };
    this.self_attn = new MultiheadAttention(a.d_model, a.nhead, { dropout: a.dropout, batch_first: a.batch_first, ...fk });
    this.multihead_attn = new MultiheadAttention(a.d_model, a.nhead, { dropout: a.dropout, batch_first: a.batch_first, ...fk });
    this.linear1 = new Linear(a.d_model, a.dim_feedforward, fk);
    this.dropout = new Dropout(a.dropout);
    this.linear2 = new Linear(a.dim_feedforward, a.d_model, fk);
    this.norm_first = a.norm_first;
    this.norm1 = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, ...fk });
    this.norm2 = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, ...fk });
    this.norm3 = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, ...fk });
    this.dropout1 = new Dropout(a.dropout);
    this.dropout2 = new Dropout(a.dropout);
    this.dropout3 = new Dropout(a.dropout);
    this.activation = typeof a.activation === "string" ? _get_activation_fn(a.activation) : a.activation;
  }

  /** forward(tgt, memory, {tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask}). */
  override forward(...args: unknown[]): Tensor {
    const { tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask } = bindArgs("forward", args, [
      ["tgt"], ["memory"], ["tgt_mask", null], ["memory_mask", null], ["tgt_key_padding_mask", null], ["memory_key_padding_mask", null],
    ]);
    let x: any = tgt;
    if (this.norm_first) {
      x = x.add(this._sa_block(this.norm1(x), tgt_mask, tgt_key_padding_mask));
      x = x.add(this._mha_block(this.norm2(x), memory, memory_mask, memory_key_padding_mask));
      x = x.add(this._ff_block(this.norm3(x)));
    } else {
      x = this.norm1(x.add(this._sa_block(x, tgt_mask, tgt_key_padding_mask)));
      x = this.norm2(x.add(this._mha_block(x, memory, memory_mask, memory_key_padding_mask)));
      x = this.norm3(x.add(this._ff_block(x)));
    }
    return x;
  }

  _sa_block(x: Tensor, attn_mask: Tensor | null, key_padding_mask: Tensor | null): Tensor {
    return this.dropout1(this.self_attn(x, x, x, { attn_mask, key_padding_mask, need_weights: false })[0]);
  }

  _mha_block(x: Tensor, mem: Tensor, attn_mask: Tensor | null, key_padding_mask: Tensor | null): Tensor {
    return this.dropout2(this.multihead_attn(x, mem, mem, { attn_mask, key_padding_mask, need_weights: false })[0]);
  }

  _ff_block(x: Tensor): Tensor {
    return this.dropout3(this.linear2(this.dropout(this.activation(this.linear1(x)))));
  }
}

export class TransformerEncoder extends Module {
  declare layers: ModuleList;
  declare num_layers: number;
  declare norm: Module | null;
  declare enable_nested_tensor: boolean;
  declare mask_check: boolean;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("TransformerEncoder.__init__", args, [["encoder_layer"], ["num_layers"], ["norm", null], ["enable_nested_tensor", true], ["mask_check", true]]);
    this.layers = _get_clones(a.encoder_layer, a.num_layers);
    this.num_layers = a.num_layers;
    this.norm = a.norm;
    this.enable_nested_tensor = a.enable_nested_tensor;
    this.mask_check = a.mask_check;
  }

  /** forward(src, {mask, src_key_padding_mask}). */
  override forward(...args: unknown[]): Tensor {
    const { src, mask, src_key_padding_mask } = bindArgs("forward", args, [["src"], ["mask", null], ["src_key_padding_mask", null]]);
    checkKeyPaddingMask(src_key_padding_mask);
    let output: Tensor = src;
    for (const mod of this.layers as any) output = mod(output, { src_mask: mask, src_key_padding_mask });
    if (this.norm !== null) output = this.norm(output);
    return output;
  }
}

export class TransformerDecoder extends Module {
  declare layers: ModuleList;
  declare num_layers: number;
  declare norm: Module | null;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("TransformerDecoder.__init__", args, [["decoder_layer"], ["num_layers"], ["norm", null]]);
    this.layers = _get_clones(a.decoder_layer, a.num_layers);
    this.num_layers = a.num_layers;
    this.norm = a.norm;
  }

  /** forward(tgt, memory, {tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask}). */
  override forward(...args: unknown[]): Tensor {
    const { tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask } = bindArgs("forward", args, [
      ["tgt"], ["memory"], ["tgt_mask", null], ["memory_mask", null], ["tgt_key_padding_mask", null], ["memory_key_padding_mask", null],
    ]);
    let output: Tensor = tgt;
    for (const mod of this.layers as any) output = mod(output, memory, { tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask });
    if (this.norm !== null) output = this.norm(output);
    return output;
  }
}

export class Transformer extends Module {
  declare encoder: Module;
  declare decoder: Module;
  declare d_model: number;
  declare nhead: number;
  declare batch_first: boolean;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("Transformer.__init__", args, [
      ["d_model", 512], ["nhead", 8], ["num_encoder_layers", 6], ["num_decoder_layers", 6], ["dim_feedforward", 2048], ["dropout", 0.1],
      ["activation", "relu"], ["custom_encoder", null], ["custom_decoder", null], ["layer_norm_eps", 1e-5], ["batch_first", false], ["norm_first", false],
      ["device", null], ["dtype", null],
    ]);
    const fk = { device: a.device, dtype: a.dtype };
    const layerArgs = [a.d_model, a.nhead, a.dim_feedforward, a.dropout, a.activation, a.layer_norm_eps, a.batch_first, a.norm_first, fk];
    if (a.custom_encoder !== null) this.encoder = a.custom_encoder;
    else {
      const encoder_layer = new TransformerEncoderLayer(...layerArgs);
      const encoder_norm = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, ...fk });
      this.encoder = new TransformerEncoder(encoder_layer, a.num_encoder_layers, encoder_norm);
    }
    if (a.custom_decoder !== null) this.decoder = a.custom_decoder;
    else {
      const decoder_layer = new TransformerDecoderLayer(...layerArgs);
      const decoder_norm = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, ...fk });
      this.decoder = new TransformerDecoder(decoder_layer, a.num_decoder_layers, decoder_norm);
    }
    this._reset_parameters();
    this.d_model = a.d_model;
    this.nhead = a.nhead;
    this.batch_first = a.batch_first;
  }

  /** forward(src, tgt, {src_mask, tgt_mask, memory_mask, src_key_padding_mask, tgt_key_padding_mask, memory_key_padding_mask}). */
  override forward(...args: unknown[]): Tensor {
    const a = bindArgs("forward", args, [
      ["src"], ["tgt"], ["src_mask", null], ["tgt_mask", null], ["memory_mask", null], ["src_key_padding_mask", null], ["tgt_key_padding_mask", null],
      ["memory_key_padding_mask", null],
    ]);
    const { src, tgt } = a;
    const is_batched = src.dim() === 3;
    if (!this.batch_first && src.size(1) !== tgt.size(1) && is_batched) throw new RuntimeError("the batch number of src and tgt must be equal");
    else if (this.batch_first && src.size(0) !== tgt.size(0) && is_batched) throw new RuntimeError("the batch number of src and tgt must be equal");
    if (src.size(-1) !== this.d_model || tgt.size(-1) !== this.d_model) throw new RuntimeError("the feature number of src and tgt must be equal to d_model");
    const memory = this.encoder(src, { mask: a.src_mask, src_key_padding_mask: a.src_key_padding_mask });
    return this.decoder(tgt, memory, {
      tgt_mask: a.tgt_mask, memory_mask: a.memory_mask, tgt_key_padding_mask: a.tgt_key_padding_mask, memory_key_padding_mask: a.memory_key_padding_mask,
    });
  }

  /** generate_square_subsequent_mask(sz): float -inf above the diagonal, 0.0 on and below it. */
  static generate_square_subsequent_mask(sz: number, device: string = "cpu"): Tensor {
    return T.triu(T.full([sz, sz], -Infinity, { device }) as Tensor, 1) as Tensor;
  }

  /** xavier_uniform_ on every parameter with more than one dimension, in parameters() order. */
  _reset_parameters(): void {
    for (const p of this.parameters()) if (p.dim() > 1) init.xavier_uniform_(p);
  }
}
