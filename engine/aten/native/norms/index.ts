// The matrix norms (norms.yaml): linalg.matrix_norm, linalg.norm, nuclear_norm, and unsqueeze_.
export { linalg_matrix_norm, linalg_matrix_norm_str_ord, linalg_matrix_norm_out, linalg_matrix_norm_str_ord_out } from "./MatrixNorm.js";
export { linalg_norm, linalg_norm_ord_str, linalg_norm_out, linalg_norm_ord_str_out } from "./LinalgNorm.js";
export { nuclear_norm, nuclear_norm_out, nuclear_norm_dim, nuclear_norm_dim_out } from "./NuclearNorm.js";
export { unsqueeze_ } from "./UnsqueezeInplace.js";
