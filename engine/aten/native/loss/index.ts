// Kernels of the loss family, re-exported into at::native (../index.ts): every name
// engine/ops/native_functions/loss.yaml puts in a `dispatch:` entry.

export {
  mse_loss_out, smooth_l1_loss_out, huber_loss, huber_loss_out, l1_loss, binary_cross_entropy_cpu, binary_cross_entropy_out_cpu,
  binary_cross_entropy_with_logits, kl_div, cosine_embedding_loss, margin_ranking_loss,
} from "./Loss.js";
export {
  nll_loss_forward_out_cpu, nll_loss2d_forward_cpu, nll_loss2d_forward_out_cpu, nll_loss, nll_loss2d, nll_loss_out, nll_loss2d_out, nll_loss_nd,
} from "./LossNLL.js";
export { cross_entropy_loss } from "./CrossEntropy.js";
export { nll_loss_backward_out_cpu, nll_loss2d_backward_out_cpu, nll_loss2d_backward_cpu } from "./LossNLLBackward.js";
export {
  mse_loss_backward, mse_loss_backward_out, smooth_l1_loss_backward, smooth_l1_loss_backward_out, huber_loss_backward, huber_loss_backward_out,
  binary_cross_entropy_backward_cpu, binary_cross_entropy_backward_out_cpu,
} from "./LossBackward.js";
