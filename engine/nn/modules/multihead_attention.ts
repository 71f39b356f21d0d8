// torch.nn.MultiheadAttention (torch/nn/modules/activation.py, PyTorch 1.13) and the
// NonDynamicallyQuantizableLinear its out_proj is (torch/nn/modules/linear.py).
// forward is 1.13's slow path, F.multi_head_attention_forward. 1.13 also has an inference-only fast
// path (torch._native_multi_head_attention, taken for batched self-attention in eval mode with no grad
// and no bias_k/add_zero_attn); it is an optimisation with the same results up to float round-off and
// is not implemented: Glasstorch always runs the slow path.

import type { Tensor } from "../../aten/core/Tensor.js";
import { AssertionError } from "../../c10/Errors.js";
import * as F from "../functional/index.js";
import * as init from "../init.js";
import { bindArgs } from "../_bind.js";
import { Parameter } from "../parameter.js";
import { Module } from "./module.js";
import { Linear } from "./linear.js";
import { factoryEmpty } from "./_utils.js";

/** A Linear under another name (quantization tooling treats it differently in PyTorch; here it is Linear). */
export class NonDynamicallyQuantizableLinear extends Linear {}

export class MultiheadAttention extends Module {
  declare embed_dim: number;
  declare kdim: number;
  declare vdim: number;
  declare _qkv_same_embed_dim: boolean;
  declare num_heads: number;
  declare dropout: number;
  declare batch_first: boolean;
  declare head_dim: number;
  declare add_zero_attn: boolean;
  declare in_proj_weight: Parameter | null;
  declare q_proj_weight: Parameter | null;
  declare k_proj_weight: Parameter | null;
  declare v_proj_weight: Parameter | null;
  declare in_proj_bias: Parameter | null;
  declare out_proj: NonDynamicallyQuantizableLinear;
  declare bias_k: Parameter | null;
  declare bias_v: Parameter | null;

  constructor(...args: unknown[]) {
    super();
    const a = bindArgs("MultiheadAttention.__init__", args, [
      ["embed_dim"], ["num_heads"], ["dropout", 0.0], ["bias", true], ["add_bias_kv", false], ["add_zero_attn", false], ["kdim", null], ["vdim", null],
      ["batch_first", false], ["device", null], ["dtype", null],
    ]);
    const embed_dim: number = a.embed_dim;
    this.embed_dim = embed_dim;
    this.kdim = a.kdim ?? embed_dim;
    this.vdim = a.vdim ?? embed_dim;
    this._qkv_same_embed_dim = this.kdim === embed_dim && this.vdim === embed_dim;
    this.num_heads = a.num_heads;
    this.dropout = a.dropout;
    this.batch_first = a.batch_first;
    this.head_dim = Math.floor(embed_dim / a.num_heads);
    if (this.head_dim * a.num_heads !== embed_dim) throw new AssertionError("embed_dim must be divisible by num_heads");
    if (!this._qkv_same_embed_dim) {
      this.q_proj_weight = new Parameter(factoryEmpty([embed_dim, embed_dim], a));
      this.k_proj_weight = new Parameter(factoryEmpty([embed_dim, this.kdim], a));
      this.v_proj_weight = new Parameter(factoryEmpty([embed_dim, this.vdim], a));
      this.register_parameter("in_proj_weight", null);
    } else {
      this.in_proj_weight = new Parameter(factoryEmpty([3 * embed_dim, embed_dim], a));
      this.register_parameter("q_proj_weight", null);
      this.register_parameter("k_proj_weight", null);
      this.register_parameter("v_proj_weight", null);
    }
    if (a.bias) this.in_proj_bias = new Parameter(factoryEmpty([3 * embed_dim], a));
    else this.register_parameter("in_proj_bias", null);
    this.out_proj = new NonDynamicallyQuantizableLinear(embed_dim, embed_dim, { bias: a.bias, device: a.device, dtype: a.dtype });
    if (a.add_bias_kv) {
      this.bias_k = new Parameter(factoryEmpty([1, 1, embed_dim], a));
      this.bias_v = new Parameter(factoryEmpty([1, 1, embed_dim], a));
    } else {
      this.bias_k = null;
      this.bias_v = null;
    }
    this.add_zero_attn = a.add_zero_attn;
    this._reset_parameters();
  }

  _reset_parameters(): void {
    if (this._qkv_same_embed_dim) init.xavier_uniform_(this.in_proj_weight!);
    else {
      init.xavier_uniform_(this.q_proj_weight!);
      init.xavier_uniform_(this.k_proj_weight!);
      init.xavier_uniform_(this.v_proj_weight!);
    }
    if (this.in_proj_bias !== null) {
      init.constant_(this.in_proj_bias, 0);
      init.constant_(this.out_proj.bias!, 0);
    }
    if (this.bias_k !== null) init.xavier_normal_(this.bias_k);
    if (this.bias_v !== null) init.xavier_normal_(this.bias_v);
  }

  /** forward(query, key, value, {key_padding_mask, need_weights, attn_mask, average_attn_weights}) -> [attn_output, attn_output_weights | null]. */
  override forward(...args: unknown[]): [Tensor, Tensor | null] {
    let { query, key, value, key_padding_mask, need_weights, attn_mask, average_attn_weights } = bindArgs("forward", args, [
      ["query"], ["key"], ["value"], ["key_padding_mask", null], ["need_weights", true], ["attn_mask", null], ["average_attn_weights", true],
    ]);
    const is_batched = query.dim() === 3;
    if (key_padding_mask !== null && key_padding_mask.dtype.name !== "bool" && !key_padding_mask.is_floating_point()) {
      throw new AssertionError("only bool and floating types of key_padding_mask are supported");
    }
    if (this.batch_first && is_batched) {
      // keep query is key is value (self-attention) and key is value: the in-projection depends on it
      if (key === value) {
        if (query === key) query = key = value = query.transpose(1, 0);
        else {
          [query, key] = [query.transpose(1, 0), key.transpose(1, 0)];
          value = key;
        }
      } else [query, key, value] = [query.transpose(1, 0), key.transpose(1, 0), value.transpose(1, 0)];
    }
    const common = [
      query, key, value, this.embed_dim, this.num_heads, this.in_proj_weight, this.in_proj_bias, this.bias_k, this.bias_v, this.add_zero_attn,
      this.dropout, this.out_proj.weight, this.out_proj.bias,
    ];
    const opts: F.MhaOptions = { training: this.training, key_padding_mask, need_weights, attn_mask, average_attn_weights };
    if (!this._qkv_same_embed_dim) {
      Object.assign(opts, { use_separate_proj_weight: true, q_proj_weight: this.q_proj_weight, k_proj_weight: this.k_proj_weight, v_proj_weight: this.v_proj_weight });
    }
    const [attn_output, attn_output_weights] = F.multi_head_attention_forward(...common, opts);
    if (this.batch_first && is_batched) return [(attn_output as any).transpose(1, 0), attn_output_weights];
    return [attn_output, attn_output_weights];
  }
}
