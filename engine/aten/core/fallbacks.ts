// The backend fallbacks ATen registers for every operator (PyTorch 1.13): keys an op may pass through
// without a kernel of its own. A fallthrough means "skip this key and go on to the next one".
//   BackendSelect       aten/src/ATen/core/BackendSelectFallbackKernel.cpp
//   ADInplaceOrView     aten/src/ATen/core/VariableFallbackKernel.cpp
//   Autograd<backend>   aten/src/ATen/core/VariableFallbackKernel.cpp (ops without autograd support)
//   Autocast<backend>   aten/src/ATen/autocast_mode.cpp
// As in 1.13 there is no AutogradMeta fallthrough: an op with no autograd kernel fails on meta tensors.

import { Dispatcher, KernelFunction } from "../../dispatcher/index.js";

const fallthroughKeys = ["BackendSelect", "ADInplaceOrView", "AutogradOther", "AutogradCPU", "AutogradCUDA", "AutocastCPU", "AutocastCUDA"];

const dispatcher = Dispatcher.singleton();
for (const key of fallthroughKeys) {
  if (!dispatcher.hasBackendFallbackForDispatchKey(key)) {
    dispatcher.registerFallback(key, KernelFunction.makeFallthrough(), { name: "fallthrough", registeredAt: "engine/aten/core/fallbacks.ts" });
  }
}
