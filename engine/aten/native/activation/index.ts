// Kernels of the activation family, re-exported into at::native (../index.ts): every name
// engine/ops/native_functions/activation.yaml puts in a `dispatch:` entry.

export {
  relu, relu_, relu6, relu6_, leaky_relu_out, elu_out, selu, selu_, celu, celu_, gelu_out_cpu, silu_out, mish_out,
  softplus_out, hardtanh, hardtanh_, hardtanh_out, hardsigmoid_out, hardswish, hardswish_, hardswish_out, threshold_out,
} from "./Activation.js";
export { softmax, log_softmax, softmax_out, log_softmax_out, softmax_cpu_out, log_softmax_cpu_out, softmax_backward_cpu_out, log_softmax_backward_cpu_out } from "./SoftMax.js";
export { log_sigmoid, log_sigmoid_out, log_sigmoid_forward_cpu, log_sigmoid_forward_out_cpu, log_sigmoid_backward_cpu, log_sigmoid_backward_cpu_out } from "./LogSigmoid.js";
export {
  dropout, dropout_, feature_dropout, feature_dropout_, alpha_dropout, alpha_dropout_, feature_alpha_dropout, feature_alpha_dropout_,
} from "./Dropout.js";
export {
  threshold_backward_out, leaky_relu_backward_out, hardtanh_backward, hardtanh_backward_out, hardsigmoid_backward_out, elu_backward_out,
  gelu_backward_out_cpu, softplus_backward_out, silu_backward_out, hardswish_backward, mish_backward,
} from "./ActivationBackward.js";
export { prelu_cpu, prelu_backward_cpu } from "./PReLU.js";
export { glu_out, glu_backward_cpu, glu_backward_cpu_out } from "./Glu.js";
