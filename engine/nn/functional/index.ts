// torch.nn.functional (torch/nn/functional.py): the Python-level wrappers a model calls — argument
// checks, defaults and small decompositions — over the aten ops (torch._C._nn and torch.*). Each
// function lives in the file of its family and is re-exported here.

export * from "./linear.js";
export * from "./padding.js";
export * from "./distance.js";
export {
  threshold, threshold_, relu, relu_, relu6, hardtanh, hardtanh_, elu, elu_, selu, celu, leaky_relu, leaky_relu_, gelu, softplus,
  silu, mish, hardsigmoid, hardswish, softmax, log_softmax, softmin, _get_softmax_dim, logsigmoid, softsign, tanhshrink, sigmoid, tanh,
  prelu, glu,
} from "./activation.js";
export { dropout, dropout1d, dropout2d, dropout3d, alpha_dropout, feature_alpha_dropout } from "./dropout.js";
export {
  nll_loss, cross_entropy, mse_loss, l1_loss, smooth_l1_loss, huber_loss, binary_cross_entropy, binary_cross_entropy_with_logits, kl_div,
  cosine_embedding_loss, margin_ranking_loss,
} from "./loss.js";
export { embedding, one_hot } from "./sparse.js";
export { conv1d, conv2d, conv_transpose1d, conv_transpose2d } from "./conv.js";
export { max_pool1d, max_pool2d, avg_pool1d, avg_pool2d, adaptive_avg_pool2d, adaptive_max_pool2d } from "./pooling.js";
export { batch_norm, instance_norm, layer_norm, group_norm } from "./normalization.js";
export { interpolate, pixel_shuffle, pixel_unshuffle, unfold, fold } from "./vision.js";
export { _scaled_dot_product_attention, scaled_dot_product_attention } from "./attention.js";
export { multi_head_attention_forward, type MhaOptions } from "./multi_head_attention.js";
