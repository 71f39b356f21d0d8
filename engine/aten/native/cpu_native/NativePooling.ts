// The native max_pool1d and adaptive_max_pool2d forward kernels (native/cpu/Pooling.cc) registered into
// their stubs (pooling/PoolKernels.ts): float32 and float64 over contiguous input and output planes (the
// layout PyTorch's kernels run on after .contiguous()); other layouts and dtypes (bfloat16) run the
// TypeScript kernels. Comparisons only: the TS kernels' values exactly. (adaptive_max_pool2d's backward
// is max_pool2d's, native in NativeNN.ts.)

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, type TypedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { max_pool1d_stub, adaptive_max_pool2d_kernel } from "../pooling/PoolKernels.js";
import type { NativeAddon } from "./NativeBackend.js";

const isFloat = (t: ScalarType): boolean => t === ScalarType.Float || t === ScalarType.Double;

/** The contiguous tensor's typed array and offset, when it has dtype st. */
function dense(t: Tensor, st: ScalarType): [TypedView, number] | null {
  const impl = t._impl;
  if (impl.dtype.scalarType !== st || !impl.is_contiguous()) return null;
  return [typedView(impl.storage, impl.dtype), impl.storage_offset()];
}

export function registerPoolingKernels(addon: NativeAddon): void {
  max_pool1d_stub.register("native", (output, input, w) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st)) return false;
    const x = dense(input, st), y = dense(output, st);
    if (x === null || y === null) return false;
    const W = input.shape[input.dim() - 1], OW = output.shape[output.dim() - 1];
    const P = W === 0 ? 0 : input.numel() / W;
    return addon.pool_max1d(st, x[0], x[1], y[0], y[1], P, W, OW, w.kW, w.dW, w.padW, w.dilationW);
  });
  adaptive_max_pool2d_kernel.register("native", (output, indices, input) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st)) return false;
    const x = dense(input, st), y = dense(output, st), ind = dense(indices, ScalarType.Long);
    if (x === null || y === null || ind === null) return false;
    const n = input.dim(), H = input.shape[n - 2], W = input.shape[n - 1];
    const OH = output.shape[n - 2], OW = output.shape[n - 1];
    return addon.pool_adaptive_max2d(st, x[0], x[1], y[0], y[1], ind[0], ind[1], input.numel() / (H * W), H, W, OH, OW);
  });
}
