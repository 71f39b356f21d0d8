// The native transposed 2-d convolution's forward (slow_conv_transpose2d_stub, conv/ConvKernels.ts).
// NaiveConvolutionTranspose2d.cpp computes it per image as the columns W^T @ x folded back into the
// output by col2im, then the bias: exactly the grad_input of the convolution it transposes, with x as
// that convolution's grad_output. So Conv.cc's conv2d backward computes it (conv_transpose2d): the
// columns a chunk of rows at a time in a per-thread buffer that stays in L2, whole images per thread,
// or at stride 1 the implicit-GEMM forward (no columns at all). float32 and float64, groups of one
// (the caller passes each group's channel slices); the others run the TypeScript kernel, which sums
// each output element in double and rounds once (here the GEMM's float sums with FMA and col2im's
// float adds, within the usual GEMM rounding bound, as conv2d's native path). The backward stays in
// TypeScript.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { slow_conv_transpose2d_stub } from "../conv/ConvKernels.js";
import type { NativeAddon } from "./NativeBackend.js";
import { putView } from "./NativeConv.js";

const GEO = 16;
const meta = new Float64Array(GEO + 17);

const view = (t: Tensor) => typedView(t._impl.storage, t.dtype) as unknown as ArrayBufferView;

export function registerConvTransposeKernels(addon: NativeAddon): void {
  slow_conv_transpose2d_stub.register("native", (output, input, weight, bias, a) => {
    const st = input.dtype.scalarType;
    if (st !== ScalarType.Float && st !== ScalarType.Double) return false;
    if ([output, weight, bias].some((t) => t !== null && t.dtype.scalarType !== st)) return false;
    if (input.dim() !== 4 || weight.dim() !== 4 || output.dim() !== 4) return false;
    const [N, C, H, W] = input.shape, [WC, O, KH, KW] = weight.shape, [, , OH, OW] = output.shape;
    if (WC !== C || (bias !== null && (bias.dim() !== 1 || bias.shape[0] !== O))) return false;
    if ([input, weight, bias].some((t) => t !== null && t._impl.storage === output._impl.storage)) return false; // (an out= over an operand)
    // the convolution transposed: input [N, O, OH, OW] -> output [N, C, H, W] with weight [C, O, KH, KW]
    meta.set([N, O, OH, OW, C, KH, KW, H, W, a.stride[0], a.stride[1], a.padding[0], a.padding[1], a.dilation[0], a.dilation[1], 1]);
    putView(meta, GEO, output);
    putView(meta, GEO + 5, weight);
    putView(meta, GEO + 10, input);
    if (bias !== null) putView(meta, GEO + 15, bias);
    return addon.conv_transpose2d(st, meta, view(output), view(input), view(weight), bias === null ? null : view(bias));
  });
}
