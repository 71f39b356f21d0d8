// The native transposed 2-d convolution's forward (slow_conv_transpose2d_stub, conv/ConvKernels.ts), as
// NaiveConvolutionTranspose2d.cpp computes it: per image, the columns W^T @ x (the own GEMM: weight
// [C, O*kh*kw] read transposed, x [C, H*W]) folded back into the output by col2im (Im2Col.cc), then the
// bias. float32 and float64, contiguous operands; the others run the TypeScript kernel (which sums each
// output element in double and rounds once: here the GEMM's float sums with FMA and col2im's float adds,
// within the usual GEMM rounding bound, as conv2d's native path). The backward stays in TypeScript.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { slow_conv_transpose2d_stub } from "../conv/ConvKernels.js";
import type { NativeAddon } from "./NativeBackend.js";

const gemmMeta = new Float64Array(14);
const geometry = new Float64Array(14);

const contiguous = (t: Tensor) => t._impl.is_contiguous();
const view = (t: Tensor) => typedView(t._impl.storage, t.dtype) as unknown as ArrayBufferView;

export function registerConvTransposeKernels(addon: NativeAddon): void {
  slow_conv_transpose2d_stub.register("native", (output, input, weight, bias, a) => {
    const st = input.dtype.scalarType;
    if (st !== ScalarType.Float && st !== ScalarType.Double) return false;
    if ([output, weight, bias].some((t) => t !== null && t.dtype.scalarType !== st)) return false;
    if (input.dim() !== 4 || weight.dim() !== 4 || output.dim() !== 4 || ![output, input, weight].every(contiguous)) return false;
    const [N, C, H, W] = input.shape, [WC, O, KH, KW] = weight.shape, [, , OH, OW] = output.shape;
    if (WC !== C || (bias !== null && (bias.dim() !== 1 || bias.shape[0] !== O))) return false;
    if ([input, weight, bias].some((t) => t !== null && t._impl.storage === output._impl.storage)) return false; // (an out= over an operand)
    const rows = O * KH * KW, L = H * W;
    const cols = st === ScalarType.Float ? new Float32Array(N * rows * L) : new Float64Array(N * rows * L);
    const x = view(input), w = view(weight);
    for (let n = 0; n < N; n++) {
      // cols[n] (rows x L) = weight^T (rows x C: element (r, c) at c * rows + r) @ input[n] (C x L)
      gemmMeta.set([rows, L, C, 1, 0, weight._impl.storage_offset(), 1, rows, input._impl.storage_offset() + n * C * L, L, 1, n * rows * L, L, 1]);
      if (!addon.gemm(st, gemmMeta, w, x, cols)) return false; // (only the first can decline: same dtype, same shapes)
    }
    // fold the columns: the image N x O x OH x OW, the blocks H x W
    geometry.set([N, O, OH, OW, H, W, KH, KW, a.dilation[0], a.dilation[1], a.padding[0], a.padding[1], a.stride[0], a.stride[1]]);
    const out = view(output) as unknown as Float32Array, off = output._impl.storage_offset();
    if (!addon.col2im(st, cols, 0, out, off, geometry)) return false;
    if (bias !== null) {
      // the bias after the fold (NaiveConvolutionTranspose2d.cpp), one add in the dtype
      const b = bias.contiguous();
      const bv = view(b) as unknown as Float32Array, bo = b._impl.storage_offset(), plane = OH * OW;
      for (let n = 0; n < N; n++) {
        for (let o = 0; o < O; o++) {
          const v = bv[bo + o], at = off + (n * O + o) * plane;
          for (let e = at; e < at + plane; e++) out[e] += v;
        }
      }
    }
    return true;
  });
}
