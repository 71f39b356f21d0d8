// Kernels of the conv family (engine/ops/native_functions/conv.yaml), re-exported into at::native
// (../index.ts) under the names the yaml's `dispatch:` entries use.

export { conv1d, conv2d, conv1d_padding, conv2d_padding, conv_transpose1d, conv_transpose2d, convolution, _convolution, _convolution_deprecated, _convolution_mode } from "./Convolution.js";
export { thnn_conv2d, thnn_conv2d_out, slow_conv2d_forward_cpu, slow_conv2d_forward_out_cpu, slow_conv_dilated2d_cpu, slow_conv_transpose2d_structured_cpu, slow_conv2d_backward_cpu, slow_conv2d_backward_out_cpu } from "./SlowConv2d.js";
export { meta_convolution } from "./MetaConvolution.js";
export { convolution_backward, _convolution_double_backward } from "./ConvolutionBackward.js";
