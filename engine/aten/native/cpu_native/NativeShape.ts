// The copy-like shape kernels (native/cpu/Shape.cc), registered into their DispatchStubs. Every dtype
// is moved as its bits, so the results are the TypeScript kernels' element for element.
//
// Covered:
//   shapeCopy (called by NativePointwise.ts's copy_ before pw_cast): a same-dtype copy between two
//     storages whose destination has a unit-stride dim and no overlap: contiguous rows memcpy'd, a
//     transposing layout (t().contiguous(), permute) copied in tiles; other layouts decline
//   pad_stub (reflection_pad / replication_pad 1d-3d): any input strides into a contiguous output;
//     pad_backward_stub: float32 / float64 (bfloat16 stays in TypeScript), contiguous, planes over the
//     pool, each plane's adds in the TS kernel's order
//   pixel_shuffle_kernel / pixel_unshuffle_kernel: the permuted view copied by shapeCopy, every dtype
//     but int64 (the TS kernel moves elements through a Float64Array, which int64 above 2^53 does not
//     survive: that stays the TS kernel's result)

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, type TypedView } from "../../../c10/ElementAccess.js";
import type { TensorImpl } from "../../../c10/TensorImpl.js";
import type { Tensor } from "../../core/Tensor.js";
import { pad_stub } from "../pad/Padding.js";
import { pad_backward_stub } from "../pad/PaddingBackward.js";
import { pixel_shuffle_kernel, pixel_unshuffle_kernel } from "../vision/PixelShuffle.js";
import { metaArray } from "./NativeMeta.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";

export interface NativeShapeAddon {
  /** meta = [nd, sizes..., dst offset, strides..., src offset, strides...]; false declines (nothing written). */
  shape_copy(itemsize: number, dst: TypedView, src: TypedView, meta: Float64Array): boolean;
  /** meta = [nd, k, input sizes..., src offset, strides..., output sizes..., pads (2k, width first)]; dst contiguous. */
  shape_pad(itemsize: number, reflect: boolean, dst: TypedView, dstOffset: number, src: TypedView, meta: Float64Array): boolean;
  /** float32 / float64 (false otherwise); meta = [nd, k, input sizes..., output sizes..., pads]; both contiguous. */
  shape_pad_backward(dtype: number, reflect: boolean, gradInput: TypedView, giOffset: number, gradOutput: TypedView, goOffset: number, meta: Float64Array): boolean;
}

// NativeAddon (NativeBackend.ts) gains these functions by declaration merging
declare module "./NativeBackend.js" {
  interface NativeAddon extends NativeShapeAddon {}
}

/** dst (sizes, strides, offset) = src read through srcStrides / srcOffset, same dtype, different storages. */
function copyWindow(
  addon: NativeShapeAddon, dst: TensorImpl, sizes: readonly number[], dstStrides: readonly number[], dstOffset: number,
  src: TensorImpl, srcStrides: readonly number[], srcOffset: number,
): boolean {
  const nd = sizes.length;
  const meta = metaArray(3 + 3 * nd);
  meta[0] = nd;
  for (let d = 0; d < nd; d++) {
    meta[1 + d] = sizes[d];
    meta[2 + nd + d] = dstStrides[d];
    meta[3 + 2 * nd + d] = srcStrides[d];
  }
  meta[1 + nd] = dstOffset;
  meta[2 + 2 * nd] = srcOffset;
  return addon.shape_copy(dst.dtype.itemsize, typedView(dst.storage, dst.dtype), typedView(src.storage, src.dtype), meta);
}

/** copy_'s same-dtype case: src (already of dst's shape, or broadcast to it: stride 0) into dst. */
export function shapeCopy(addon: NativeShapeAddon, dst: TensorImpl, src: TensorImpl): boolean {
  if (dst.dtype !== src.dtype || dst.storage === src.storage || dst.numel() < nativeSizePolicy.minNumel) return false;
  const sizes = dst.sizes(), nd = sizes.length;
  const ss = src.sizes(), st = src.strides();
  const srcStrides = new Array<number>(nd).fill(0);
  for (let i = 0; i < ss.length; i++) {
    const d = nd - ss.length + i;
    srcStrides[d] = ss[i] === 1 && sizes[d] !== 1 ? 0 : st[i];
  }
  return copyWindow(addon, dst, sizes, dst.strides(), dst.storage_offset(), src, srcStrides, src.storage_offset());
}

const contiguousStrides = (sizes: readonly number[]): number[] => {
  const s = new Array<number>(sizes.length);
  let acc = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    s[d] = acc;
    acc *= sizes[d];
  }
  return s;
};

/**
 * pixel_shuffle (up) / pixel_unshuffle as one copy into the contiguous output: out[.., c, h*r + i, w*r + j]
 * = in[.., c*r*r + i*r + j, h, w], the output seen as (.., C, H, r, W, r) and the input read through the
 * matching strides (unshuffle: the output as (.., C, r, r, H, W), the input as (.., C, H, r, W, r)).
 */
function shuffle(addon: NativeShapeAddon, output: Tensor, input: Tensor, r: number, up: boolean): boolean {
  if (input.dtype.scalarType === ScalarType.Long || !output._impl.is_contiguous()) return false;
  const big = up ? output : input;
  const [C, HR, WR] = big.shape.slice(-3);
  const H = HR / r, W = WR / r;
  const x = input._impl, nd = x.dim();
  const batch = x.sizes().slice(0, nd - 3), bs = x.strides().slice(0, nd - 3);
  const [sC, sH, sW] = x.strides().slice(nd - 3);
  let sizes: number[], strides: number[];
  if (up) {
    sizes = [...batch, C, H, r, W, r];
    strides = [...bs, r * r * sC, sH, r * sC, sW, sC];
  } else {
    sizes = [...batch, C, r, r, H, W];
    strides = [...bs, sC, sH, sW, r * sH, r * sW];
  }
  return copyWindow(addon, output._impl, sizes, contiguousStrides(sizes), output._impl.storage_offset(), x, strides, x.storage_offset());
}

export function registerShapeKernels(addon: NativeAddon): void {
  pad_stub.register("native", (out, input, pads, reflect) => {
    const o = out._impl, x = input._impl;
    if (!o.is_contiguous() || o.storage === x.storage || out.numel() < nativeSizePolicy.minNumel) return false;
    const nd = x.dim(), k = pads.length / 2;
    const meta = metaArray(3 + 3 * nd + 2 * k);
    meta[0] = nd;
    meta[1] = k;
    x.sizes().forEach((v, d) => (meta[2 + d] = v));
    meta[2 + nd] = x.storage_offset();
    x.strides().forEach((v, d) => (meta[3 + nd + d] = v));
    o.sizes().forEach((v, d) => (meta[3 + 2 * nd + d] = v));
    pads.forEach((v, i) => (meta[3 + 3 * nd + i] = v));
    return addon.shape_pad(x.dtype.itemsize, reflect, typedView(o.storage, o.dtype), o.storage_offset(), typedView(x.storage, x.dtype), meta);
  });
  pad_backward_stub.register("native", (gi, go, pads, reflect) => {
    const g = gi._impl, o = go._impl, st = gi.dtype.scalarType;
    if ((st !== ScalarType.Float && st !== ScalarType.Double) || go.dtype !== gi.dtype || !g.is_contiguous() || !o.is_contiguous() || g.storage === o.storage) return false;
    const nd = g.dim(), k = pads.length / 2;
    if (k > 3 || gi.numel() < nativeSizePolicy.minNumel) return false;
    const meta = metaArray(2 + 2 * nd + 2 * k);
    meta[0] = nd;
    meta[1] = k;
    g.sizes().forEach((v, d) => (meta[2 + d] = v));
    o.sizes().forEach((v, d) => (meta[2 + nd + d] = v));
    pads.forEach((v, i) => (meta[2 + 2 * nd + i] = v));
    return addon.shape_pad_backward(st, reflect, typedView(g.storage, g.dtype), g.storage_offset(), typedView(o.storage, o.dtype), o.storage_offset(), meta);
  });
  const shuffleKernel = (up: boolean) => (output: Tensor, input: Tensor, r: number): boolean =>
    output.numel() >= nativeSizePolicy.minNumel && output._impl.storage !== input._impl.storage && shuffle(addon, output, input, r, up);
  pixel_shuffle_kernel.register("native", shuffleKernel(true));
  pixel_unshuffle_kernel.register("native", shuffleKernel(false));
}
