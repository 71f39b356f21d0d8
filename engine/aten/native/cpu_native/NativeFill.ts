// The native parallel fill (native/cpu/Fill.cc) behind fill_kernel (engine/aten/cpu/FillKernel.ts):
// zeros / ones / full / fill_ on large contiguous windows, split over the intra-op pool.

import { set_native_fill } from "../../cpu/FillKernel.js";
import type { NativeAddon } from "./NativeBackend.js";

export function registerFillKernels(addon: NativeAddon): void {
  if (typeof addon.fill_bytes === "function") set_native_fill((view, offset, numel, pattern) => addon.fill_bytes(view, offset, numel, pattern));
}
