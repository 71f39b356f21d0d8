// The activation and loss family's derivatives.yaml entries against PyTorch 1.13 (test/fixtures/gen_grads_act.py
// -> grads_act.json): relu, threshold, leaky_relu, hardtanh, hardsigmoid, hardswish, elu/selu/celu, gelu, silu,
// mish, softplus, log_sigmoid, softmax/log_softmax, the losses (kl_div's target through xlogy) and xlogy, on
// float32 and float64: grad_fn names, first-order gradients, requires_grad under create_graph, second-order
// gradients; and the backward ops themselves (elu_backward, gelu_backward, ..., binary_cross_entropy_backward)
// with every input differentiable, so their own entries (EluBackwardBackward0, ...) are checked to second order.
// Tolerances: float64 |a - e| <= 1e-12 + 1e-12 |e|, float32 1e-6 + 1e-5 |e| (the describeGradCases defaults).
import { loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

describeGradCases("activation and loss gradients against PyTorch 1.13 (grads_act.json)", loadFixture("grads_act.json"));
