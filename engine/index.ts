// The `torch` namespace: `import * as torch from "glasstorch"`.

export {
  dtype, float32, float64, float16, bfloat16, int8, uint8, int16, int32, int64, bool,
  float32 as float, float64 as double, float16 as half, int16 as short, int32 as int, int64 as long,
} from "./c10/ScalarType.js";
export { device } from "./c10/Device.js";
export { layout, strided, sparse_coo, sparse_csr, sparse_csc, sparse_bsr, sparse_bsc, _mkldnn } from "./c10/Layout.js";
export { memory_format, contiguous_format, preserve_format, channels_last, channels_last_3d } from "./c10/MemoryFormat.js";
export { get_default_dtype, set_default_dtype } from "./c10/DefaultDtype.js";
export { RuntimeError, IndexError, ValueError, TypeError_ as TypeError, NotImplementedError, KeyboardInterrupt } from "./c10/Errors.js";
export { DispatchKeySet } from "./c10/DispatchKeySet.js";
export { Tensor } from "./aten/core/Tensor.js";
export { Size } from "./aten/core/Size.js";
export { set_printoptions } from "./aten/core/tensor_str.js";
export type { TensorOptions } from "./aten/core/TensorOptions.js";
export { result_type, promote_types, can_cast } from "./aten/TypeProperties.js";
export { broadcast_shapes } from "./aten/ExpandUtils.js";
export { eye } from "./aten/TensorFactories.js";
export { arange, linspace, logspace } from "./aten/RangeFactories.js";
export { tensor } from "./aten/tensor_new.js";
export { Generator, default_generator, manual_seed, initial_seed, seed, get_rng_state, set_rng_state } from "./aten/Generator.js";
export { rand, randn, randint, randperm, normal, multinomial, rand_like, randn_like, randint_like } from "./aten/Distributions.js";

// Operators: the backend fallbacks first, then every op generated from engine/ops/native_functions.yaml
// (registering its kernels and installing its Tensor methods).
import "./aten/core/fallbacks.js";
import "./generated/index.js"; // registers every op and installs the Tensor methods
import "./aten/python_variable_methods.js"; // the methods PyTorch binds by hand (Tensor.to)

// Autograd: the Autograd kernels generated from derivatives.yaml, and the autograd side of Tensor
import "./generated/VariableType.js";
import "./generated/ADInplaceOrViewType.js";
import "./autograd/VariableTypeManual.js";
import "./autograd/python_variable.js";
export * as autograd from "./autograd/index.js";
export { no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode, is_inference_mode_enabled } from "./autograd/grad_mode.js";
export { is_anomaly_enabled } from "./autograd/anomaly_mode.js";
export * from "./generated/torch_functions.js";
export { einsum, tensordot } from "./aten/functional.js"; // torch/functional.py wrappers over aten::einsum / aten::tensordot
export { norm, unique, unique_consecutive } from "./aten/functional.js"; // torch/functional.py shadows these bindings
export { ops } from "./aten/core/ops_namespace.js";
export * as utils from "./aten/utils_namespace.js";
export * as testing from "./aten/testing_namespace.js";
export * as library from "./aten/library_namespace.js";
export * as _C from "./aten/_C.js";
export * as backends from "./aten/backends_namespace.js";
export { set_num_threads, get_num_threads } from "./aten/native/cpu_native/NativeBackend.js";
export * as linalg from "./aten/linalg_namespace.js";
export * as special from "./aten/special_namespace.js";
export * as nn from "./nn/index.js";
export * as optim from "./optim/index.js";
export * as copy from "./nn/copy_namespace.js"; // Python's copy.deepcopy for modules, parameters and tensors
export { save, load } from "./serialization/index.js"; // torch.save / torch.load (weights-only)
export * as serialization from "./serialization/index.js";
export * as torchvision from "./data/torchvision.js"; // datasets.FashionMNIST, transforms (torchvision has no JS package)
// t.get(...) / t.set(...) (Python's t[...]), torch.indexing, and the hand-written nonzero binding
import "./aten/indexing/python_variable_indexing.js";
export * as indexing from "./aten/indexing/namespace.js";
export { nonzero } from "./aten/python_torch_functions_manual.js";

// The dispatch trace: attached to the dispatcher, recording only when asked (or GLASSTORCH_SHOW_DISPATCH_TRACE=1).
import { setDispatchObserver } from "./dispatcher/index.js";
import { attachTo, installIfEnv } from "./trace/index.js";
attachTo(setDispatchObserver);
installIfEnv();
export * as trace from "./trace/api.js";

import { Tensor } from "./aten/core/Tensor.js";

export function is_tensor(obj: unknown): obj is Tensor {
  return obj instanceof Tensor;
}

export function numel(t: Tensor): number {
  return t.numel();
}
