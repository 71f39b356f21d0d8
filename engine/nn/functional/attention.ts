// Scaled dot-product attention in torch.nn.functional.
// - _scaled_dot_product_attention is PyTorch 1.13's: torch._C._nn._scaled_dot_product_attention bound
//   unchanged (aten::_scaled_dot_product_attention), returning (output, attention weights).
// - scaled_dot_product_attention is the later API (PyTorch 2.0's F.scaled_dot_product_attention(query,
//   key, value, attn_mask=None, dropout_p=0.0, is_causal=False) -> Tensor), provided as a convenience over
//   the 1.13 op: it calls aten::_scaled_dot_product_attention with need_attn_weights=False and returns the
//   output alone. Its semantics are 1.13's math path (a bool mask keeps the True entries, a float mask is
//   added, is_causal masks with ones(L, S).tril()); 2.0's `scale=` argument (2.1) is not offered.

import type { Tensor } from "../../aten/core/Tensor.js";
import { _scaled_dot_product_attention } from "../../generated/torch_nn_functions.js";
import { signature } from "./_args.js";

export { _scaled_dot_product_attention };

type SdpaOpts = { attn_mask?: Tensor | null; dropout_p?: number; is_causal?: boolean };

const pSdpa = signature("scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False)");
export function scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, options?: SdpaOpts): Tensor;
export function scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask?: Tensor | null, dropout_p?: number, is_causal?: boolean): Tensor;
export function scaled_dot_product_attention(...args: unknown[]): Tensor {
  const [query, key, value, attn_mask, dropout_p, is_causal] = pSdpa(args);
  return (_scaled_dot_product_attention as any)(query, key, value, attn_mask, dropout_p, false, is_causal)[0] as Tensor;
}
