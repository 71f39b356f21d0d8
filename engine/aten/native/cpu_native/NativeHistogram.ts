// The counting and search kernels (native/cpu/Histogram.cc, Bucketize.cc), registered into
// bincount_stub, histogramdd_linear_stub (reduce3/Counting.ts) and searchsorted_stub (reduce3/Bucketize.ts).
// They read the input where it lies.
//
// Covered:
//   bincount_stub: uint8/int8/int16/int32/int64 input of any stride; int64 counts, or float32 / float64
//     weights (any stride) summed in input order in their own type. Other weight dtypes (converted to
//     double by the TS kernel) stay in TypeScript.
//   histogramdd_linear_stub (histc): contiguous float32 / float64 input; bfloat16 stays in TypeScript.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, type TypedView } from "../../../c10/ElementAccess.js";
import { bincount_stub, histogramdd_linear_stub } from "../reduce3/Counting.js";
import { searchsorted_stub } from "../reduce3/Bucketize.js";
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

export interface NativeBucketizeAddon {
  /** native/cpu/Bucketize.cc; false for a sorter index outside its row. */
  bucket_searchsorted(
    input: TypedView, inOffset: number, n: number, boundaries: TypedView, bOffset: number, rows: number, rowLen: number, inRow: number,
    sorter: TypedView | null, sorterOffset: number, right: boolean, out: TypedView, outOffset: number,
  ): boolean;
}

declare module "./NativeBackend.js" {
  interface NativeAddon extends NativeBucketizeAddon {}
}

const SEARCHED = new Set<ScalarType>([Int, Long, Float, Double]);

/**
 * searchsorted_stub (searchsorted, bucketize): input and boundaries of one dtype (int32, int64, float32,
 * float64; mixed dtypes are converted by the TS kernel), contiguous, an optional contiguous sorter,
 * a contiguous int64 / int32 out.
 */
export function registerBucketizeKernel(addon: NativeAddon): void {
  searchsorted_stub.register("native", (out, input, boundaries, right, sorter) => {
    const x = input._impl, b = boundaries._impl, o = out._impl, s = sorter?._impl ?? null;
    if (input.dtype !== boundaries.dtype || !SEARCHED.has(x.dtype.scalarType) || input.numel() < nativeSizePolicy.minNumel) return false;
    if (!x.is_contiguous() || !b.is_contiguous() || !o.is_contiguous() || (s !== null && !s.is_contiguous())) return false;
    const rowLen = b.sizes()[b.dim() - 1];
    if (rowLen === 0) return false;
    const inRow = x.dim() === 0 ? 1 : x.sizes()[x.dim() - 1];
    return addon.bucket_searchsorted(
      typedView(x.storage, x.dtype), x.storage_offset(), input.numel(), typedView(b.storage, b.dtype), b.storage_offset(),
      b.dim() === 1 ? 1 : boundaries.numel() / rowLen, rowLen, inRow, s ? typedView(s.storage, s.dtype) : null, s ? s.storage_offset() : 0,
      right, typedView(o.storage, o.dtype), o.storage_offset(),
    );
  });
}
