// torch.nn.functional.embedding and one_hot (torch/nn/functional.py): the Python-level checks and
// defaults, then the aten ops (torch.embedding, torch.embedding_renorm_, torch._C._nn.one_hot).

import type { Tensor } from "../../aten/core/Tensor.js";
import { embedding_default } from "../../generated/embedding.js";
import { embedding_renorm__default } from "../../generated/embedding_renorm.js";
import { contiguous_default } from "../../generated/contiguous.js";
import { one_hot as one_hot_nn } from "../../generated/torch_nn_functions.js";

/** Python's AssertionError: torch/nn/functional.py checks padding_idx with `assert`. */
export class AssertionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AssertionError";
  }
}

export interface EmbeddingOptions {
  padding_idx?: number | null;
  max_norm?: number | null;
  norm_type?: number;
  scale_grad_by_freq?: boolean;
  sparse?: boolean;
}

/** F.embedding(input, weight, {padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse}) */
export function embedding(input: Tensor, weight: Tensor, options: EmbeddingOptions = {}): Tensor {
  const { max_norm = null, norm_type = 2.0, scale_grad_by_freq = false, sparse = false } = options;
  let padding_idx = options.padding_idx ?? null;
  if (padding_idx !== null) {
    if (padding_idx > 0) {
      if (!(padding_idx < weight.size(0))) throw new AssertionError("Padding_idx must be within num_embeddings");
    } else if (padding_idx < 0) {
      if (!(padding_idx >= -weight.size(0))) throw new AssertionError("Padding_idx must be within num_embeddings");
      padding_idx = weight.size(0) + padding_idx;
    }
  } else {
    padding_idx = -1;
  }
  if (max_norm !== null) {
    // embedding_renorm_ makes indices contiguous anyway; doing it here helps the embedding call too
    if (!input.is_contiguous()) input = contiguous_default.call(input, "contiguous_format") as Tensor;
    embedding_renorm__default.call(weight, input, max_norm, norm_type);
  }
  return embedding_default.call(weight, input, padding_idx, scale_grad_by_freq, sparse) as Tensor;
}

/** F.one_hot(tensor, num_classes=-1): torch._C._nn.one_hot. */
export function one_hot(tensor: Tensor, num_classes = -1): Tensor {
  return one_hot_nn(tensor, num_classes);
}
