// Kernels of the join operator family (engine/ops/native_functions/join.yaml), re-exported into
// at::native (../index.ts) under the names the yaml's `dispatch:` entries use.

export { cat_out_cpu } from "./Cat.js";
export { stack, stack_out, atleast_1d, atleast_2d, atleast_3d, hstack, hstack_out, vstack, vstack_out, dstack, dstack_out } from "./Stack.js";
export { flip, flip_meta, roll_cpu, roll_meta } from "./Reorder.js";
export { tril_cpu, triu_cpu } from "./Triangular.js";
export { repeat, tile } from "./Repeat.js";
export { where, where_self_out, where_scalar_self, where_scalar_other, where_scalar } from "./Where.js";
export { sort_stable_out, sort_out, sort, argsort, argsort_stable } from "./Sort.js";
