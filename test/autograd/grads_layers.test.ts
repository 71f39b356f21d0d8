// The layer ops' derivatives.yaml formulas against PyTorch 1.13 (test/fixtures/gen_grads_layers.py ->
// grads_layers.json): convolution (conv1d/conv2d/conv_transpose*), batch/layer/group norm and embedding, on
// float32 and float64, plus max/avg/adaptive pooling, constant_pad_nd, pixel_(un)shuffle, im2col/col2im,
// upsampling (nearest 1d/2d, bilinear 2d, and their .vec overloads) and reflection/replication padding: grad_fn
// names, first-order gradients, create_graph flags, second-order gradients (through PyTorch's double-backward
// Nodes: ConvolutionBackwardBackward0, NativeBatchNormBackwardBackward0, NativeLayerNormBackwardBackward0, ...).
import { loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

const summed = /^(conv|batch_norm|native_batch_norm|layer_norm|native_layer_norm|group_norm|upsample_bilinear2d|F.interpolate)/;

describeGradCases("layer gradients against PyTorch 1.13 (grads_layers.json)", loadFixture("grads_layers.json"), {
  // Convolution gradients sum products in another order than PyTorch's im2col + gemm, the norms' backward
  // kernels sum in double, and bilinear weights multiply in another contraction: sums of many products round
  // differently in their last bits.
  tolerance: (name, dtype) => (summed.test(name) ? (dtype === "float64" ? [1e-10, 1e-10] : [2e-5, 1e-4]) : undefined),
});
