// at::native: every kernel native_functions.yaml names in a `dispatch:` entry, by that name.
// The generated registrations look kernels up here.

export { empty_cpu, empty_meta } from "./EmptyTensor.js";
export { ones } from "./TensorFactories.js";
export { fill_, fill } from "./Fill.js";
export { add_out, mul_out } from "./BinaryOps.js";
export { sum, sum_IntList_out } from "./ReduceOps.js";
export { view } from "./TensorShape.js";
export { autogen_copy_out, autogen_copy_out_list, autogen_clone_arg } from "./Autogen.js";
export * from "./unary/index.js";
export * from "./binary/index.js";
export * from "./shape/index.js";
export * from "./reduce/index.js";
export * from "./join/index.js";
export * from "./linalg/index.js";
export * from "./reduce3/index.js";
export * from "./pad/index.js";
export * from "./activation/index.js";
export * from "./loss/index.js";
export * from "./index/index.js";
export * from "./conv/index.js";
export * from "./pooling/index.js";
export * from "./normalization/index.js";
export * from "./vision/index.js";
export * from "./norms/index.js";
export * from "./attention/index.js";
export * from "./autograd/index.js";
export * from "./random/index.js";
export * from "./rnn/index.js";
export * from "./packed/index.js";
import "./cpu_native/index.js"; // the native CPU backend registers its kernels into the stubs above, when its addon loads
