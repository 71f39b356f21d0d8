// The layer ops' derivatives.yaml formulas against PyTorch 1.13 (test/fixtures/gen_grads_layers.py ->
// grads_layers.json): convolution (conv1d/conv2d/conv_transpose*), batch/layer/group norm and embedding, on
// float32 and float64, plus max/avg/adaptive pooling, constant_pad_nd, pixel_(un)shuffle and im2col/col2im: grad_fn names,
// first-order gradients, create_graph flags, second-order gradients.
import { loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

const composite = /^(conv|batch_norm|native_batch_norm|layer_norm|native_layer_norm)/;

describeGradCases("layer gradients against PyTorch 1.13 (grads_layers.json)", loadFixture("grads_layers.json"), {
  // PyTorch's backward here is one fused op (convolution_backward, native_batch_norm_backward, ...) that takes
  // input and weight, so under create_graph every gradient it returns requires grad — the bias gradient too —
  // and differentiating it again gives zeros. Glasstorch computes these gradients from convolutions, sums and
  // means (derivatives.yaml, FunctionsManual.ts *_composite): the bias gradient, sum(grad), depends on no input
  // that requires grad, so it does not require grad; its second-order contribution is zero in both.
  requires_grad_differs: (name) => (composite.test(name) && / (stride 2 \(rows dropped\)|groups dilation)$|no affine/.test(name) === false ? [true, true, false] : undefined),
  // For the same reason a gradient that depends only on the upstream gradient and a tensor that does not
  // require grad (eval-mode batch norm without affine: grad * invstd(running_var)) does not require grad here,
  // and its second-order gradient is None instead of PyTorch's zeros: not compared.
  skip: new Set(["batch_norm eval no affine", "conv2d weight only"]),
  // Convolution gradients are computed here as convolutions (PyTorch's slow_conv2d_backward runs im2col +
  // gemm), and the norms' statistics are recomputed from the input with another summation order, so sums of
  // many products round differently in their last bits.
  tolerance: (name, dtype) => (composite.test(name) || /^group_norm/.test(name) ? (dtype === "float64" ? [1e-10, 1e-10] : [2e-5, 1e-4]) : undefined),
});
