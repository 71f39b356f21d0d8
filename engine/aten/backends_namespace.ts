// torch.backends: torch.backends.cpu.get_cpu_capability() (PyTorch 2.x's name) says which kernels run
// on the CPU: "AVX512", "AVX2" or "DEFAULT" for the native unit chosen by CPU features, "DEFAULT"
// when the TypeScript kernels run (no addon, or GLASSTORCH_CPU_CAPABILITY=ts).

import { get_cpu_capability as forcedCapability } from "./native/DispatchStub.js";
import { get_cpu_capability as nativeCapability } from "./native/cpu_native/NativeBackend.js";

export const cpu = {
  get_cpu_capability(): string {
    return forcedCapability() === "ts" ? "DEFAULT" : nativeCapability();
  },
};
