// The CPU loops behind the slow convolution backends, each behind a DispatchStub so a native or CUDA
// kernel can replace it. PyTorch's Slow2d and SlowDilated2d kernels unfold the input (im2col) and
// multiply by the weight (cpublas::gemm); here a direct loop adds the same products in the same order
// (input channel, then kernel row, then kernel column), starting from the bias.
// float64/float32/int64: the sums are kept in double and rounded once, exact for float64 and int64 and
// within float32 rounding of the BLAS sgemm PyTorch calls. bfloat16: 1.13's gemm (gemm_notrans_) works in
// BFloat16 arithmetic, `c += a * (b * alpha)`: each product is rounded to bfloat16, then each sum; the
// loop does the same (checked element for element against PyTorch on random inputs).

import { DispatchStub } from "../DispatchStub.js";
import type { Tensor } from "../../core/Tensor.js";
import { readDense, writeDense } from "./Dense.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { bfloat16BitsFromNumber, bfloat16BitsToNumber } from "../../../c10/util/Half.js";

const toBf16 = (v: number): number => bfloat16BitsToNumber(bfloat16BitsFromNumber(v));
/** c += a * b in BFloat16 arithmetic: the product rounded to bfloat16, then the sum. */
const bf16Acc = (c: number, a: number, b: number): number => toBf16(c + toBf16(a * b));

export interface Conv2dArgs {
  stride: readonly number[];
  padding: readonly number[];
  dilation: readonly number[];
  /** transposed only */
  output_padding?: readonly number[];
}

type ConvFn = (output: Tensor, input: Tensor, weight: Tensor, bias: Tensor | null, a: Conv2dArgs) => void;

/** out[n, o, y, x] = bias[o] + sum_{c, i, j} in[n, c, y*s - p + i*d, x*s - p + j*d] * w[o, c, i, j] */
function conv2dDirect(output: Tensor, input: Tensor, weight: Tensor, bias: Tensor | null, a: Conv2dArgs): void {
  const [N, C, H, W] = input.shape;
  const [O, , KH, KW] = weight.shape;
  const [OH, OW] = output.shape.slice(2);
  const x = readDense(input);
  const w = readDense(weight);
  const b = bias ? readDense(bias) : null;
  const out = new Float64Array(N * O * OH * OW);
  const [sh, sw] = a.stride;
  const [ph, pw] = a.padding;
  const [dh, dw] = a.dilation;
  const bf16 = output.dtype.scalarType === ScalarType.BFloat16;
  for (let n = 0; n < N; n++) {
    for (let o = 0; o < O; o++) {
      const ob = (n * O + o) * OH * OW;
      if (b) out.fill(b[o], ob, ob + OH * OW);
      if (bf16) {
        conv2dBf16Plane(out, ob, x, w, n, o, { C, H, W, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw });
        continue;
      }
      for (let c = 0; c < C; c++) {
        const xb = (n * C + c) * H * W;
        for (let i = 0; i < KH; i++) {
          for (let j = 0; j < KW; j++) {
            const wv = w[((o * C + c) * KH + i) * KW + j];
            // the output columns whose input column ix = xo*sw - pw + j*dw lies inside the image
            const shift = j * dw - pw;
            const lo = Math.max(0, Math.ceil(-shift / sw));
            const hi = Math.min(OW, Math.floor((W - 1 - shift) / sw) + 1);
            for (let y = 0; y < OH; y++) {
              const iy = y * sh - ph + i * dh;
              if (iy < 0 || iy >= H) continue;
              const row = xb + iy * W + shift;
              const orow = ob + y * OW;
              for (let xo = lo; xo < hi; xo++) out[orow + xo] += x[row + xo * sw] * wv;
            }
          }
        }
      }
    }
  }
  writeDense(output, out);
}

interface Geometry { C: number; H: number; W: number; KH: number; KW: number; OH: number; OW: number; sh: number; sw: number; ph: number; pw: number; dh: number; dw: number }

/** One output plane in bfloat16, each product rounded into the output in gemm's order (padding adds 0). */
function conv2dBf16Plane(out: Float64Array, ob: number, x: Float64Array, w: Float64Array, n: number, o: number, g: Geometry): void {
  const { C, H, W, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw } = g;
  for (let y = 0; y < OH; y++) {
    for (let xo = 0; xo < OW; xo++) {
      let acc = out[ob + y * OW + xo];
      for (let c = 0; c < C; c++) {
        const xb = (n * C + c) * H * W;
        for (let i = 0; i < KH; i++) {
          const iy = y * sh - ph + i * dh;
          for (let j = 0; j < KW; j++) {
            const ix = xo * sw - pw + j * dw;
            const v = iy >= 0 && iy < H && ix >= 0 && ix < W ? x[xb + iy * W + ix] : 0;
            acc = bf16Acc(acc, v, w[((o * C + c) * KH + i) * KW + j]);
          }
        }
      }
      out[ob + y * OW + xo] = acc;
    }
  }
}

/** The adjoint: every input element scatters in[n, c, y, x] * w[c, o, i, j] to out[n, o, y*s - p + i*d, x*s - p + j*d]. */
function convTranspose2dDirect(output: Tensor, input: Tensor, weight: Tensor, bias: Tensor | null, a: Conv2dArgs): void {
  const [N, C, H, W] = input.shape;
  const [, O, KH, KW] = weight.shape;
  const [OH, OW] = output.shape.slice(2);
  const x = readDense(input);
  const w = readDense(weight);
  const b = bias ? readDense(bias) : null;
  const out = new Float64Array(N * O * OH * OW);
  const [sh, sw] = a.stride;
  const [ph, pw] = a.padding;
  const [dh, dw] = a.dilation;
  for (let n = 0; n < N; n++) {
    for (let o = 0; o < O; o++) {
      const ob = (n * O + o) * OH * OW;
      for (let c = 0; c < C; c++) {
        const xb = (n * C + c) * H * W;
        for (let i = 0; i < KH; i++) {
          for (let j = 0; j < KW; j++) {
            const wv = w[((c * O + o) * KH + i) * KW + j];
            // the input columns whose output column ox = xi*sw - pw + j*dw lies inside the output
            const shift = j * dw - pw;
            const lo = Math.max(0, Math.ceil(-shift / sw));
            const hi = Math.min(W, Math.floor((OW - 1 - shift) / sw) + 1);
            for (let y = 0; y < H; y++) {
              const oy = y * sh - ph + i * dh;
              if (oy < 0 || oy >= OH) continue;
              const orow = ob + oy * OW + shift;
              const row = xb + y * W;
              for (let xi = lo; xi < hi; xi++) out[orow + xi * sw] += x[row + xi] * wv;
            }
          }
        }
      }
      // the bias is added after the columns are folded back (NaiveConvolutionTranspose2d.cpp)
      if (b) for (let e = ob; e < ob + OH * OW; e++) out[e] += b[o];
    }
  }
  writeDense(output, out);
}

const REF_MM = "aten/src/ATen/native/ConvolutionMM2d.cpp";
export const slow_conv2d_stub = new DispatchStub<ConvFn>("slow_conv2d_stub", REF_MM);
slow_conv2d_stub.register("ts", conv2dDirect);
export const slow_conv_dilated2d_stub = new DispatchStub<ConvFn>("slow_conv_dilated2d_stub", "aten/src/ATen/native/NaiveDilatedConvolution.cpp");
slow_conv_dilated2d_stub.register("ts", conv2dDirect);
export const slow_conv_transpose2d_stub = new DispatchStub<ConvFn>("slow_conv_transpose2d_stub", "aten/src/ATen/native/NaiveConvolutionTranspose2d.cpp");
slow_conv_transpose2d_stub.register("ts", convTranspose2dDirect);
