// The linalg derivatives.yaml formulas against PyTorch 1.13 (test/fixtures/gen_grads_linalg.py ->
// grads_linalg.json): matrix products (mm, bmm, mv, dot, vdot, addmm, addmv, addbmm, baddbmm, addr), the
// CompositeImplicitAutograd products built on them (matmul, outer, kron, einsum, tensordot, linear, bilinear via
// _trilinear) and torch.linalg (inv, det, slogdet, cholesky, solve, qr, svd, svdvals), on float32 and float64:
// grad_fn names, gradients, create_graph flags and second-order gradients.
import { loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

describeGradCases("linalg gradients against PyTorch 1.13 (grads_linalg.json)", loadFixture("grads_linalg.json"));
