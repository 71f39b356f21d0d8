// The native CPU backend: loading the addon (NativeBackend.ts) and registering its kernels into the
// DispatchStubs (NativeKernels.ts). Imported for its effect by ../index.ts, after every stub exists.

export { nativeAddon, _native_status, set_num_threads, get_num_threads, get_cpu_capability, _set_native_isa } from "./NativeBackend.js";
export { registerNativeKernels } from "./NativeKernels.js";
