// Kernels of the linalg operator family (engine/ops/native_functions/linalg.yaml), re-exported into
// at::native (../index.ts) under the names the yaml's `dispatch:` entries use.

export { mm_out_cpu, addmm_out_cpu, bmm_out_cpu, baddbmm_out_cpu, addbmm, addbmm_, addbmm_out, addmv_out_cpu, mv, mv_out, dot, dot_meta, vdot, dot_out, vdot_out } from "./Blas.js";
export { addr, addr_, addr_out, math_addr, math_addr_out } from "./Addr.js";
export { matmul, matmul_out, outer, outer_out, ger, ger_out, kron, kron_out, tensordot, tensordot_out } from "./Matmul.js";
export { einsum } from "./Einsum.js";
export { linear, linear_out, bilinear, _trilinear } from "./Linear.js";
export { squeeze__dim, squeeze_ } from "./SqueezeInplace.js";
export { linalg_lu_factor_ex_out, linalg_lu_factor, linalg_lu_factor_out, _linalg_check_errors_op } from "./LuFactor.js";
export { _linalg_solve_ex_out, linalg_solve_ex, linalg_solve_ex_out, linalg_solve, linalg_solve_out, linalg_inv_ex_out, linalg_inv, linalg_inv_out } from "./Solve.js";
export { _linalg_det_out, linalg_det, linalg_det_out, det, _linalg_slogdet_out, linalg_slogdet, linalg_slogdet_out } from "./Det.js";
export { linalg_cholesky_ex_out, linalg_cholesky, linalg_cholesky_out } from "./Cholesky.js";
export { linalg_qr_out } from "./Qr.js";
export { _linalg_svd_out, linalg_svd, linalg_svd_out, linalg_svdvals, linalg_svdvals_out } from "./Svd.js";
export { linalg_multi_dot } from "./MultiDot.js";
