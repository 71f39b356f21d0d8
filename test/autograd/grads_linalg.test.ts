// The linalg derivatives.yaml formulas against PyTorch 1.13 (test/fixtures/gen_grads_linalg.py ->
// grads_linalg.json): matrix products (mm, bmm, mv, dot, vdot, addmm, addmv, addbmm, baddbmm, addr), the
// CompositeImplicitAutograd products built on them (matmul, outer, kron, einsum, tensordot, linear, bilinear via
// _trilinear) and torch.linalg (inv, det, slogdet, cholesky, solve, qr, svd, svdvals), on float32 and float64:
// grad_fn names, gradients, create_graph flags and second-order gradients.
// Tolerances: the default (float64 1e-12, float32 1e-6 + 1e-5 |e|) except float32 QR and SVD, whose
// factorizations (Householder sweeps, one-sided Jacobi vs LAPACK's gesdd) round differently from PyTorch's
// LAPACK: 1e-5 + 1e-4 |e|.
// Skipped (each checked by gradcheck_linalg.test.ts instead):
// - the SVD cases that differentiate U or Vh: singular vectors are defined up to a sign per column, and
//   Glasstorch's svd picks other signs than LAPACK for some columns, so U, Vh and the gradients of a fixed
//   upstream gradient on them differ from PyTorch's (the S-only cases are sign-free and are compared).
import { loadFixture } from "../support/fixtures.js";
import { describeGradCases } from "../support/grad_cases.js";

const SKIP = new Set([
  "linalg.svd reduced tall", "linalg.svd reduced wide", "linalg.svd square U only", "linalg.svd square Vh only",
  "linalg.svd full square", "linalg.svd full tall",
]);

describeGradCases("linalg gradients against PyTorch 1.13 (grads_linalg.json)", loadFixture("grads_linalg.json"), {
  skip: SKIP,
  tolerance: (name, dtype) => (dtype === "float32" && /linalg\.(qr|svd)/.test(name) ? [1e-5, 1e-4] : undefined),
});
