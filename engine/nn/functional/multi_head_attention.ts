// torch.nn.functional.multi_head_attention_forward (torch/nn/functional.py, PyTorch 1.13) with its
// helpers _mha_shape_check, _in_projection_packed and _in_projection: the Python code, op for op
// (linear, chunk/split, cat, pad, view/transpose, baddbmm/bmm, softmax, dropout, linear), so the values
// and the autograd graph are PyTorch's. Failed `assert`s raise AssertionError with PyTorch's texts.

import type { Tensor } from "../../aten/core/Tensor.js";
import { AssertionError, RuntimeError } from "../../c10/Errors.js";
import * as T from "../../generated/torch_functions.js";
import { bool as kBool } from "../../c10/ScalarType.js";
import { linear, pad } from "../../generated/torch_nn_functions.js";
import { signature, warn } from "./_args.js";
import { softmax } from "./activation.js";
import { dropout } from "./dropout.js";

const A = (t: Tensor) => t as any;
/** Tensor.contiguous() as C++ has it: the tensor itself, with no op dispatched, when already contiguous. */
const contiguous = (t: Tensor): Tensor => (t.is_contiguous() ? t : (A(t).contiguous() as Tensor));
const torchSize = (s: readonly number[]) => `torch.Size([${s.join(", ")}])`;
const pyTuple = (s: readonly number[]) => (s.length === 1 ? `(${s[0]},)` : `(${s.join(", ")})`);
const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function check(cond: boolean, msg: string): void {
  if (!cond) throw new AssertionError(msg);
}

/** _mha_shape_check: whether the inputs are batched, with PyTorch's assertion texts. */
export function _mha_shape_check(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | null, attn_mask: Tensor | null, num_heads: number): boolean {
  if (query.dim() === 3) {
    check(key.dim() === 3 && value.dim() === 3, `For batched (3-D) \`query\`, expected \`key\` and \`value\` to be 3-D but found ${key.dim()}-D and ${value.dim()}-D tensors respectively`);
    if (key_padding_mask !== null) {
      check(key_padding_mask.dim() === 2, `For batched (3-D) \`query\`, expected \`key_padding_mask\` to be \`None\` or 2-D but found ${key_padding_mask.dim()}-D tensor instead`);
    }
    if (attn_mask !== null) {
      check(attn_mask.dim() === 2 || attn_mask.dim() === 3, `For batched (3-D) \`query\`, expected \`attn_mask\` to be \`None\`, 2-D or 3-D but found ${attn_mask.dim()}-D tensor instead`);
    }
    return true;
  }
  if (query.dim() === 2) {
    check(key.dim() === 2 && value.dim() === 2, `For unbatched (2-D) \`query\`, expected \`key\` and \`value\` to be 2-D but found ${key.dim()}-D and ${value.dim()}-D tensors respectively`);
    if (key_padding_mask !== null) {
      check(key_padding_mask.dim() === 1, `For unbatched (2-D) \`query\`, expected \`key_padding_mask\` to be \`None\` or 1-D but found ${key_padding_mask.dim()}-D tensor instead`);
    }
    if (attn_mask !== null) {
      check(attn_mask.dim() === 2 || attn_mask.dim() === 3, `For unbatched (2-D) \`query\`, expected \`attn_mask\` to be \`None\`, 2-D or 3-D but found ${attn_mask.dim()}-D tensor instead`);
      if (attn_mask.dim() === 3) {
        const expected_shape = [num_heads, query.shape[0], key.shape[0]];
        check(same(attn_mask.shape, expected_shape), `Expected \`attn_mask\` shape to be ${pyTuple(expected_shape)} but got ${torchSize(attn_mask.shape)}`);
      }
    }
    return false;
  }
  throw new AssertionError(`query should be unbatched 2D or batched 3D tensor but received ${query.dim()}-D query tensor`);
}

/** _in_projection_packed: one linear for self-attention, q + kv for encoder-decoder attention, else three. */
export function _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | null = null): Tensor[] {
  const E = q.size(-1);
  if (k === v) {
    if (q === k) return A(linear(q, w, b)).chunk(3, -1);
    const [w_q, w_kv] = A(w).split_with_sizes([E, E * 2]) as Tensor[];
    const [b_q, b_kv] = b === null ? [null, null] : (A(b).split_with_sizes([E, E * 2]) as Tensor[]);
    return [linear(q, w_q, b_q), ...A(linear(k, w_kv, b_kv)).chunk(2, -1)];
  }
  const [w_q, w_k, w_v] = A(w).chunk(3) as Tensor[];
  const [b_q, b_k, b_v] = b === null ? [null, null, null] : (A(b).chunk(3) as Tensor[]);
  return [linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)];
}

/** _in_projection: separate q/k/v weights (kdim/vdim differ from embed_dim). */
export function _in_projection(
  q: Tensor, k: Tensor, v: Tensor, w_q: Tensor, w_k: Tensor, w_v: Tensor, b_q: Tensor | null = null, b_k: Tensor | null = null, b_v: Tensor | null = null,
): Tensor[] {
  const [Eq, Ek, Ev] = [q.size(-1), k.size(-1), v.size(-1)];
  check(same(w_q.shape, [Eq, Eq]), `expecting query weights shape of ${pyTuple([Eq, Eq])}, but got ${torchSize(w_q.shape)}`);
  check(same(w_k.shape, [Eq, Ek]), `expecting key weights shape of ${pyTuple([Eq, Ek])}, but got ${torchSize(w_k.shape)}`);
  check(same(w_v.shape, [Eq, Ev]), `expecting value weights shape of ${pyTuple([Eq, Ev])}, but got ${torchSize(w_v.shape)}`);
  check(b_q === null || same(b_q.shape, [Eq]), `expecting query bias shape of ${pyTuple([Eq])}, but got ${b_q && torchSize(b_q.shape)}`);
  check(b_k === null || same(b_k.shape, [Eq]), `expecting key bias shape of ${pyTuple([Eq])}, but got ${b_k && torchSize(b_k.shape)}`);
  check(b_v === null || same(b_v.shape, [Eq]), `expecting value bias shape of ${pyTuple([Eq])}, but got ${b_v && torchSize(b_v.shape)}`);
  return [linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)];
}

const pMha = signature(
  "multi_head_attention_forward(Tensor query, Tensor key, Tensor value, int embed_dim_to_check, int num_heads, Tensor? in_proj_weight, Tensor? in_proj_bias, Tensor? bias_k, Tensor? bias_v, bool add_zero_attn, float dropout_p, Tensor out_proj_weight, Tensor? out_proj_bias, bool training=True, Tensor? key_padding_mask=None, bool need_weights=True, Tensor? attn_mask=None, bool use_separate_proj_weight=False, Tensor? q_proj_weight=None, Tensor? k_proj_weight=None, Tensor? v_proj_weight=None, Tensor? static_k=None, Tensor? static_v=None, bool average_attn_weights=True)",
);

export interface MhaOptions {
  training?: boolean;
  key_padding_mask?: Tensor | null;
  need_weights?: boolean;
  attn_mask?: Tensor | null;
  use_separate_proj_weight?: boolean;
  q_proj_weight?: Tensor | null;
  k_proj_weight?: Tensor | null;
  v_proj_weight?: Tensor | null;
  static_k?: Tensor | null;
  static_v?: Tensor | null;
  average_attn_weights?: boolean;
}

/** multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, {training, key_padding_mask, need_weights, attn_mask, ...}) -> [attn_output, attn_output_weights | null]. */
export function multi_head_attention_forward(...args: unknown[]): [Tensor, Tensor | null] {
  let [
    query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
    training, key_padding_mask, need_weights, attn_mask, use_separate_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight, static_k, static_v,
    average_attn_weights,
  ] = pMha(args) as any[];
  const is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads);
  // an unbatched input gets a batch dim (dim 1) for the computation, squeezed off the results
  if (!is_batched) {
    query = A(query).unsqueeze(1);
    key = A(key).unsqueeze(1);
    value = A(value).unsqueeze(1);
    if (key_padding_mask !== null) key_padding_mask = A(key_padding_mask).unsqueeze(0);
  }
  const [tgt_len, bsz, embed_dim] = query.shape as number[];
  let src_len = key.shape[0] as number;
  if (key_padding_mask !== null) {
    if (key_padding_mask.dtype.name !== "bool" && !A(key_padding_mask).is_floating_point()) {
      throw new AssertionError("only bool and floating types of key_padding_mask are supported");
    }
  }
  check(embed_dim === embed_dim_to_check, `was expecting embedding dimension of ${embed_dim_to_check}, but got ${embed_dim}`);
  const head_dim = Math.floor(embed_dim / num_heads);
  check(head_dim * num_heads === embed_dim, `embed_dim ${embed_dim} not divisible by num_heads ${num_heads}`);
  if (use_separate_proj_weight) {
    check(same(key.shape.slice(0, 2), value.shape.slice(0, 2)), `key's sequence and batch dims ${torchSize(key.shape.slice(0, 2))} do not match value's ${torchSize(value.shape.slice(0, 2))}`);
  } else {
    check(same(key.shape, value.shape), `key shape ${torchSize(key.shape)} does not match value shape ${torchSize(value.shape)}`);
  }

  // in-projection
  let q: Tensor, k: Tensor, v: Tensor;
  if (!use_separate_proj_weight) {
    check(in_proj_weight !== null, "use_separate_proj_weight is False but in_proj_weight is None");
    [q, k, v] = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias);
  } else {
    check(q_proj_weight !== null, "use_separate_proj_weight is True but q_proj_weight is None");
    check(k_proj_weight !== null, "use_separate_proj_weight is True but k_proj_weight is None");
    check(v_proj_weight !== null, "use_separate_proj_weight is True but v_proj_weight is None");
    const [b_q, b_k, b_v] = in_proj_bias === null ? [null, null, null] : (A(in_proj_bias).chunk(3) as Tensor[]);
    [q, k, v] = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v);
  }

  // attention mask: bool/float only (a uint8 mask is deprecated and converted), made 3-D
  if (attn_mask !== null) {
    if (attn_mask.dtype.name === "uint8") {
      warn("Byte tensor for attn_mask in nn.MultiheadAttention is deprecated. Use bool tensor instead.");
      attn_mask = A(attn_mask).to(kBool);
    } else {
      check(A(attn_mask).is_floating_point() || attn_mask.dtype.name === "bool", `Only float, byte, and bool types are supported for attn_mask, not torch.${attn_mask.dtype.name}`);
    }
    if (attn_mask.dim() === 2) {
      const correct_2d_size = [tgt_len, src_len];
      if (!same(attn_mask.shape, correct_2d_size)) {
        throw new RuntimeError(`The shape of the 2D attn_mask is ${torchSize(attn_mask.shape)}, but should be ${pyTuple(correct_2d_size)}.`);
      }
      attn_mask = A(attn_mask).unsqueeze(0);
    } else if (attn_mask.dim() === 3) {
      const correct_3d_size = [bsz * num_heads, tgt_len, src_len];
      if (!same(attn_mask.shape, correct_3d_size)) {
        throw new RuntimeError(`The shape of the 3D attn_mask is ${torchSize(attn_mask.shape)}, but should be ${pyTuple(correct_3d_size)}.`);
      }
    } else {
      throw new RuntimeError(`attn_mask's dimension ${attn_mask.dim()} is not supported`);
    }
  }

  // bias_k / bias_v: one more key and value position
  if (bias_k !== null && bias_v !== null) {
    check(static_k === null, "bias cannot be added to static key.");
    check(static_v === null, "bias cannot be added to static value.");
    k = T.cat([k, A(bias_k).repeat(1, bsz, 1)]) as Tensor;
    v = T.cat([v, A(bias_v).repeat(1, bsz, 1)]) as Tensor;
    if (attn_mask !== null) attn_mask = pad(attn_mask, [0, 1]);
    if (key_padding_mask !== null) key_padding_mask = pad(key_padding_mask, [0, 1]);
  } else {
    check(bias_k === null, "");
    check(bias_v === null, "");
  }

  // heads into the batch dim, batch first
  q = A(A(contiguous(q)).view(tgt_len, bsz * num_heads, head_dim)).transpose(0, 1);
  if (static_k === null) k = A(A(contiguous(k)).view(k.shape[0], bsz * num_heads, head_dim)).transpose(0, 1);
  else {
    check(static_k.size(0) === bsz * num_heads, `expecting static_k.size(0) of ${bsz * num_heads}, but got ${static_k.size(0)}`);
    check(static_k.size(2) === head_dim, `expecting static_k.size(2) of ${head_dim}, but got ${static_k.size(2)}`);
    k = static_k;
  }
  if (static_v === null) v = A(A(contiguous(v)).view(v.shape[0], bsz * num_heads, head_dim)).transpose(0, 1);
  else {
    check(static_v.size(0) === bsz * num_heads, `expecting static_v.size(0) of ${bsz * num_heads}, but got ${static_v.size(0)}`);
    check(static_v.size(2) === head_dim, `expecting static_v.size(2) of ${head_dim}, but got ${static_v.size(2)}`);
    v = static_v;
  }

  // add_zero_attn: a zero key and value along the (now first) batch dim
  if (add_zero_attn) {
    const zero_attn_shape = [bsz * num_heads, 1, head_dim];
    k = T.cat([k, T.zeros(zero_attn_shape, { dtype: k.dtype, device: k.device })], 1) as Tensor;
    v = T.cat([v, T.zeros(zero_attn_shape, { dtype: v.dtype, device: v.device })], 1) as Tensor;
    if (attn_mask !== null) attn_mask = pad(attn_mask, [0, 1]);
    if (key_padding_mask !== null) key_padding_mask = pad(key_padding_mask, [0, 1]);
  }
  src_len = k.size(1);

  // merge key padding and attention masks
  if (key_padding_mask !== null) {
    check(same(key_padding_mask.shape, [bsz, src_len]), `expecting key_padding_mask shape of ${pyTuple([bsz, src_len])}, but got ${torchSize(key_padding_mask.shape)}`);
    key_padding_mask = A(A(A(key_padding_mask).view(bsz, 1, 1, src_len)).expand(-1, num_heads, -1, -1)).reshape(bsz * num_heads, 1, src_len);
    if (attn_mask === null) attn_mask = key_padding_mask;
    else if (attn_mask.dtype.name === "bool") attn_mask = A(attn_mask).logical_or(key_padding_mask);
    else attn_mask = A(attn_mask).masked_fill(key_padding_mask, -Infinity);
  }
  // a bool mask becomes 0 / -inf in q's dtype
  if (attn_mask !== null && attn_mask.dtype.name === "bool") {
    const new_attn_mask = T.zeros_like(attn_mask, { dtype: q.dtype }) as Tensor;
    A(new_attn_mask).masked_fill_(attn_mask, -Infinity);
    attn_mask = new_attn_mask;
  }
  if (!training) dropout_p = 0.0;

  // attention and out projection
  const E = q.shape[2];
  const q_scaled = A(q).div(Math.sqrt(E)) as Tensor;
  let attn_output_weights: Tensor =
    attn_mask !== null ? (T.baddbmm(attn_mask, q_scaled, A(k).transpose(-2, -1)) as Tensor) : (T.bmm(q_scaled, A(k).transpose(-2, -1)) as Tensor);
  attn_output_weights = softmax(attn_output_weights, { dim: -1 }) as Tensor;
  if (dropout_p > 0.0) attn_output_weights = dropout(attn_output_weights, { p: dropout_p });
  let attn_output = T.bmm(attn_output_weights, v) as Tensor;
  attn_output = A(contiguous(A(attn_output).transpose(0, 1))).view(tgt_len * bsz, embed_dim);
  attn_output = linear(attn_output, out_proj_weight, out_proj_bias);
  attn_output = A(attn_output).view(tgt_len, bsz, attn_output.size(1));
  if (need_weights) {
    attn_output_weights = A(attn_output_weights).view(bsz, num_heads, tgt_len, src_len);
    if (average_attn_weights) attn_output_weights = A(A(attn_output_weights).sum(1)).div(num_heads);
    if (!is_batched) {
      attn_output = A(attn_output).squeeze(1);
      attn_output_weights = A(attn_output_weights).squeeze(0);
    }
    return [attn_output, attn_output_weights];
  }
  if (!is_batched) attn_output = A(attn_output).squeeze(1);
  return [attn_output, null];
}
