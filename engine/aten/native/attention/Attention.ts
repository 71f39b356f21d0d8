// Scaled dot-product attention (aten/src/ATen/native/transformers/attention.cpp, PyTorch 1.13).
// _scaled_dot_product_attention (CompositeImplicitAutograd) takes the math composite when an input
// requires grad, else the _scaled_dot_product_attention_forward kernel — whose CPU and Meta kernel
// (_scaled_dot_product_attention_forward_math) runs the same math composite beneath the dispatcher, so the
// trace shows one _scaled_dot_product_attention_forward call.
//
// The math: query * (1 / sqrt(E)) (mul.Scalar), matmul with key^T; is_causal replaces the mask with
// ones(L, S).tril() (bool); a bool mask becomes an additive one (zeros_like in the query's dtype,
// masked_fill_ -inf where the mask is False) and is added in place; softmax over the last dim; dropout
// (train=True) when dropout_p > 0; matmul with value. The attention weights are returned whatever
// need_attn_weights says (1.13's math path always returns them).

import { RuntimeError } from "../../../c10/Errors.js";
import { bool as boolDtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { mul_Scalar } from "../../../generated/mul.js";
import { transpose_int } from "../../../generated/transpose.js";
import { matmul_default } from "../../../generated/matmul.js";
import { ones_default } from "../../../generated/ones.js";
import { tril_default } from "../../../generated/tril.js";
import { zeros_like_default } from "../../../generated/zeros_like.js";
import { logical_not_default } from "../../../generated/logical_not.js";
import { masked_fill__Scalar } from "../../../generated/masked_fill.js";
import { add__Tensor } from "../../../generated/add.js";
import { softmax_int } from "../../../generated/softmax.js";
import { dropout_default } from "../../../generated/dropout.js";
import { _scaled_dot_product_attention_math_default as math_op } from "../../../generated/_scaled_dot_product_attention_math.js";
import { _scaled_dot_product_attention_forward_default as forward_op } from "../../../generated/_scaled_dot_product_attention_forward.js";

type SdpaArgs = [query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | null, dropout_p: number, need_attn_weights: boolean, is_causal: boolean];

/** _scaled_dot_product_attention_math (CompositeImplicitAutograd). */
export function _scaled_dot_product_attention_math(...[query_, key, value, attn_mask_, dropout_p, _need_attn_weights, is_causal]: SdpaArgs): [Tensor, Tensor] {
  let attn_mask = attn_mask_;
  const embed_size = query_.size(-1);
  const query = mul_Scalar.call(query_, 1.0 / Math.sqrt(embed_size)) as Tensor;
  if (is_causal) {
    if (attn_mask !== null) throw new RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
    // the causal mask: the lower triangle (query i attends to keys j <= i) takes part in attention
    const L = query.size(-2), S = key.size(-2);
    attn_mask = tril_default.call(ones_default.call([L, S], boolDtype, null, query.device, null), 0) as Tensor;
  }
  if (attn_mask !== null && attn_mask.dtype === boolDtype) {
    // a bool mask says what takes part: its complement is filled with -inf in an additive mask
    const additive = zeros_like_default.call(attn_mask, query.dtype, null, null, null, null) as Tensor;
    masked_fill__Scalar.call(additive, logical_not_default.call(attn_mask), -Infinity);
    attn_mask = additive;
  }
  let attn = matmul_default.call(query, transpose_int.call(key, -2, -1)) as Tensor;
  if (attn_mask !== null) add__Tensor.call(attn, attn_mask, 1);
  attn = softmax_int.call(attn, -1, null) as Tensor;
  if (dropout_p > 0.0) attn = dropout_default.call(attn, dropout_p, true) as Tensor;
  const output = matmul_default.call(attn, value) as Tensor;
  return [output, attn];
}

/** _scaled_dot_product_attention_forward's CPU and Meta kernel: the math composite. */
export const _scaled_dot_product_attention_forward_math = (...args: SdpaArgs): [Tensor, Tensor] => math_op.call(...args) as [Tensor, Tensor];

/** _scaled_dot_product_attention (CompositeImplicitAutograd): the math composite under autograd, else the forward kernel. */
export function _scaled_dot_product_attention(...args: SdpaArgs): [Tensor, Tensor] {
  const [query, key, value] = args;
  if (query.requires_grad || key.requires_grad || value.requires_grad) return math_op.call(...args) as [Tensor, Tensor];
  return forward_op.call(...args) as [Tensor, Tensor];
}
