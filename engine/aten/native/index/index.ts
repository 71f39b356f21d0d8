// Kernels of the index operator family (engine/ops/native_functions/index.yaml), re-exported into
// at::native (../index.ts) under the names the yaml's `dispatch:` entries use.

export { index_out } from "./IndexTensor.js";
export { index_put_, index_put, _index_put_impl_ } from "./IndexPut.js";
export { index_select_out_cpu_, index_select_cpu_ } from "./IndexSelect.js";
export { take, take_out } from "./Take.js";
export { gather_out, scatter_src_out, scatter_value_out, scatter_reduce_out, scatter_value_reduce_out, scatter_add, scatter_reduce_two } from "./ScatterGather.js";
export { index_add_cpu_out } from "./IndexAdd.js";
export { index_fill_, index_fill, masked_fill__cpu, masked_fill } from "./Fill.js";
export { masked_select_cpu, masked_select_out_cpu } from "./MaskedSelect.js";
export { nonzero_cpu, nonzero_out_cpu, nonzero_numpy, argwhere } from "./Nonzero.js";
export { embedding, embedding_renorm_cpu_ } from "./Embedding.js";
export { one_hot } from "./OneHot.js";
export { lift_fresh, empty_names, item, _local_scalar_dense_cpu, fill_meta_, inplace_meta_ } from "./LoweringOps.js";
export { embedding_backward_symint, embedding_dense_backward_cpu } from "./EmbeddingBackward.js";
