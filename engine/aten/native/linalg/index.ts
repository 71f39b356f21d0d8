// Kernels of the linalg operator family (engine/ops/native_functions/linalg.yaml), re-exported into
// at::native (../index.ts) under the names the yaml's `dispatch:` entries use.

export { mm_out_cpu, addmm_out_cpu, bmm_out_cpu, baddbmm_out_cpu, addbmm, addbmm_, addbmm_out, addmv_out_cpu, mv, mv_out, dot, dot_meta, vdot, dot_out, vdot_out } from "./Blas.js";
export { addr, addr_, addr_out, math_addr, math_addr_out } from "./Addr.js";
export { matmul, matmul_out, outer, outer_out, ger, ger_out, kron, kron_out, tensordot, tensordot_out } from "./Matmul.js";
export { einsum } from "./Einsum.js";
export { linear, linear_out, bilinear, _trilinear } from "./Linear.js";
export { squeeze__dim } from "./SqueezeInplace.js";
