// The activation and loss family's derivatives.yaml entries against PyTorch 1.13 (test/fixtures/gen_grads_act.py
// -> grads_act.json): relu, threshold, leaky_relu, hardtanh, hardsigmoid, hardswish, elu/selu/celu, gelu, silu,
// mish, softplus, log_sigmoid, softmax/log_softmax and the losses, on float32 and float64: grad_fn names,
// first-order gradients, requires_grad under create_graph, second-order gradients, PyTorch's refusals.
// Tolerances: float64 |a - e| <= 1e-12 + 1e-12 |e|, float32 1e-6 + 1e-5 |e| (the describeGradCases defaults),
// widened below where a gradient is computed by a composite of ops instead of PyTorch's fused kernel.
import { loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

describeGradCases("activation and loss gradients against PyTorch 1.13 (grads_act.json)", loadFixture("grads_act.json"), {
  // binary_cross_entropy's double backward: PyTorch runs binary_cross_entropy_double_backward, here the
  // composite (grad * (self - target) / clamp_min((1 - self) * self, 1e-12)) is differentiated op by op;
  // the second-order values differ from about the 10th digit
  tolerance: (name, dtype) => (name.startsWith("binary_cross_entropy ") && dtype === "float64" ? [1e-9, 1e-9] : undefined),
});
