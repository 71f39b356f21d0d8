// The native cummax / cummin and logcumsumexp (native/cpu/Scan.cc), registered into cummax_stub,
// cummin_stub and logcumsumexp_stub (reduce3/Scans.ts). Each lane along dim is scanned in order with
// every operand's own strides.
//
// Covered: cummax/cummin on uint8, int8, int16, int32, int64, bool, bfloat16, float32, float64 (the TS
// kernel's comparisons, so values and indices are the same bits); logcumsumexp on float32 and float64
// with result of self's dtype (glibc's exp/log1p where the TS kernel has V8's: Scan.cc states the bound).
// float16 (refused before the stub), a 0-d self and the other dtypes run the TS kernels.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { cummax_stub, cummin_stub, logcumsumexp_stub } from "../reduce3/Scans.js";
import { laneMeta } from "./NativeSorting.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";

const { Byte, Char, Short, Int, Long, Float, Double, Bool, BFloat16 } = ScalarType;
const EXTREME = new Set<ScalarType>([Byte, Char, Short, Int, Long, Float, Double, Bool, BFloat16]);

export function registerScanKernels(addon: NativeAddon): void {
  if (typeof addon.cum_extreme_lanes !== "function") return;
  const extreme = (isMax: boolean) => (self: Tensor, values: Tensor, indices: Tensor, d: number) => {
    const x = self._impl, v = values._impl, i = indices._impl, t = x.dtype.scalarType;
    if (x.dim() === 0 || !EXTREME.has(t) || x.numel() < nativeSizePolicy.minNumel || v.dtype.scalarType !== t || i.dtype.scalarType !== Long) return false;
    return addon.cum_extreme_lanes(t, isMax, laneMeta(x, d, [v, i, x]), typedView(v.storage, v.dtype), typedView(i.storage, i.dtype), typedView(x.storage, x.dtype));
  };
  cummax_stub.register("native", extreme(true));
  cummin_stub.register("native", extreme(false));
  logcumsumexp_stub.register("native", (result: Tensor, self: Tensor, dim: number) => {
    const x = self._impl, r = result._impl, t = x.dtype.scalarType;
    if (x.dim() === 0 || (t !== Float && t !== Double) || x.numel() < nativeSizePolicy.minNumel || r.dtype.scalarType !== t) return false;
    const d = maybe_wrap_dim(dim, x.dim());
    return addon.logcumsumexp_lanes(t, laneMeta(x, d, [r, x]), typedView(r.storage, r.dtype), typedView(x.storage, x.dtype));
  });
}
