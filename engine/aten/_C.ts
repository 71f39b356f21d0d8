// torch._C's dispatcher introspection (torch/csrc/utils/python_dispatch.cpp), in PyTorch's output formats.

import { Dispatcher } from "../dispatcher/index.js";
import { tls_local_dispatch_key_set } from "../c10/impl/LocalDispatchKeySet.js";
import type { DispatchKeySet } from "../c10/DispatchKeySet.js";
import type { Tensor } from "./core/Tensor.js";

/** Whether the native CPU addon loaded (and why not), its capability, threads and external memory. */
export { _native_status } from "./native/cpu_native/NativeBackend.js";

/** The registrations of one op ("aten::add.Tensor"): schema, kernels per key, fallbacks. */
export function _dispatch_dump(name: string): string {
  return Dispatcher.singleton()._dispatch_dump(name);
}

/** The computed runtime table of one op: which kernel each key runs, and why. */
export function _dispatch_dump_table(name: string): string {
  return Dispatcher.singleton()._dispatch_dump_table(name);
}

export function _dispatch_keys(t: Tensor): DispatchKeySet {
  return t._impl.key_set;
}

export function _dispatch_tls_local_include_set(): DispatchKeySet {
  return tls_local_dispatch_key_set().included_;
}

export function _dispatch_tls_local_exclude_set(): DispatchKeySet {
  return tls_local_dispatch_key_set().excluded_;
}

/** torch._C._nn: the ops native_functions.yaml marks `python_module: nn`. */
export * as _nn from "../generated/torch_nn_functions.js";
