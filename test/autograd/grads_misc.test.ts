// The misc derivatives.yaml entries against PyTorch 1.13 (test/fixtures/gen_grads_misc.py -> grads_misc.json):
// - linalg_lu_factor_ex's gradient (lu_factor_ex_backward) on square, wide, tall, batched and non-contiguous
//   inputs, with second order. Tolerances: float64 1e-10 + 1e-10 |e|, float32 1e-4 + 1e-4 |e| (a float32
//   second-order gradient PyTorch computes as exactly 0 is -1.5e-5 here), because Glasstorch's
//   lu_factor_ex_backward solves with linalg_solve where PyTorch uses linalg_solve_triangular (not in
//   Glasstorch yet): the same math, rounded differently.
// - the convolution ops under `convolution` (_convolution, _slow_conv2d_forward, slow_conv_dilated2d,
//   slow_conv_transpose2d), differentiated as 1.13 does with convolution_backward / _slow_conv2d_backward:
//   float32 sums round differently in the last bits (tolerance 2e-5 + 1e-4 |e|).
import { loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

const conv = /conv/;
describeGradCases("misc gradients against PyTorch 1.13 (grads_misc.json)", loadFixture("grads_misc.json"), {
  tolerance: (name, dtype) => (dtype === "float64" ? [1e-10, 1e-10] : conv.test(name) ? [2e-5, 1e-4] : [1e-4, 1e-4]),
});
