// The counting kernels (native/cpu/Histogram.cc), registered into bincount_stub and
// histogramdd_linear_stub (reduce3/Counting.ts). They read the input where it lies.
//
// Covered:
//   bincount_stub: uint8/int8/int16/int32/int64 input of any stride; int64 counts, or float32 / float64
//     weights (any stride) summed in input order in their own type. Other weight dtypes (converted to
//     double by the TS kernel) stay in TypeScript.
//   histogramdd_linear_stub (histc): contiguous float32 / float64 input; bfloat16 stays in TypeScript.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, type TypedView } from "../../../c10/ElementAccess.js";
import { bincount_stub, histogramdd_linear_stub } from "../reduce3/Counting.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";

export interface NativeHistogramAddon {
  /** false (nothing written) for a value outside [0, nbins). */
  hist_bincount(
    self: TypedView, selfOffset: number, selfStride: number, n: number, weights: TypedView | null, wOffset: number, wStride: number,
    out: TypedView, outOffset: number, nbins: number,
  ): boolean;
  hist_histc(self: TypedView, selfOffset: number, n: number, edges: Float64Array, hist: TypedView, histOffset: number): boolean;
}

// NativeAddon (NativeBackend.ts) gains these functions by declaration merging
declare module "./NativeBackend.js" {
  interface NativeAddon extends NativeHistogramAddon {}
}

const { Byte, Char, Short, Int, Long, Float, Double } = ScalarType;
const INTEGER = new Set<ScalarType>([Byte, Char, Short, Int, Long]);
const isFloat = (t: ScalarType): boolean => t === Float || t === Double;

export function registerHistogramKernels(addon: NativeAddon): void {
  bincount_stub.register("native", (out, self, weights) => {
    const x = self._impl, o = out._impl;
    if (!INTEGER.has(x.dtype.scalarType) || !o.is_contiguous() || self.numel() < nativeSizePolicy.minNumel) return false;
    if (weights !== null && weights.dtype !== out.dtype) return false; // weights the TS kernel converts to double
    if (weights === null && out.dtype.scalarType !== Long) return false;
    const w = weights?._impl ?? null;
    return addon.hist_bincount(
      typedView(x.storage, x.dtype), x.storage_offset(), x.strides()[0], x.numel(),
      w ? typedView(w.storage, w.dtype) : null, w ? w.storage_offset() : 0, w ? w.strides()[0] : 0,
      typedView(o.storage, o.dtype), o.storage_offset(), out.numel(),
    );
  });
  histogramdd_linear_stub.register("native", (hist, self, edges) => {
    const x = self._impl, h = hist._impl;
    const st = x.dtype.scalarType;
    if (!isFloat(st) || hist.dtype !== self.dtype || !x.is_contiguous() || !h.is_contiguous() || self.numel() < nativeSizePolicy.minNumel) return false;
    return addon.hist_histc(typedView(x.storage, x.dtype), x.storage_offset(), x.numel(), Float64Array.from(edges), typedView(h.storage, h.dtype), h.storage_offset());
  });
}
