// The derivatives.yaml formulas against PyTorch 1.13 (test/fixtures/gen_grads.py -> grads.json): for each
// elementwise op, reduction, where and view, on float32 and float64, the grad_fn name, the first-order
// gradients (torch.autograd.grad with a fixed upstream gradient), whether each gradient requires grad under
// create_graph, and the second-order gradients of sum(g * w).
// Tolerances: float64 |a - e| <= 1e-12 + 1e-12 |e| (PyTorch's ops run in the same order, so most values are
// the same bits; vectorized kernels may round a last bit differently); float32 1e-6 + 1e-5 |e|.
import { loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

describeGradCases("gradients against PyTorch 1.13 (grads.json)", loadFixture("grads.json"));
