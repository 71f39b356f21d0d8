// The CPU loops behind the slow convolution backends' backward passes, each behind a DispatchStub:
// _slow_conv2d_backward (ConvolutionMM2d.cpp), slow_conv_dilated2d_backward_stub
// (NaiveDilatedConvolution.cpp) and slow_conv_transpose2d_backward_stub (NaiveConvolutionTranspose2d.cpp).
// PyTorch's kernels unfold (im2col) and multiply (gemm); here one direct loop adds the same products.
// A convolution pairs a "low" grid L (a non-transposed conv's output, a transposed conv's input) with a
// "high" grid G through g[y*s - p + i*d] ~ l[y] and a weight [L-channels, G-channels, kh, kw]:
//   non-transposed: grad_input (on G) += grad_out (on L) * w,   grad_weight += grad_out(L) * input(G)
//   transposed:     grad_input (on L) += grad_out (on G) * w,   grad_weight += input(L) * grad_out(G)
// Sums are kept in double and rounded once into the output dtype (exact for float64 up to summation
// order; within float32 rounding of PyTorch's sgemm for float32).

import { DispatchStub } from "../DispatchStub.js";
import type { Tensor } from "../../core/Tensor.js";
import { readDense, writeDense } from "./Dense.js";
import type { Conv2dArgs } from "./ConvKernels.js";

/** Outputs of one backward call; null where output_mask is false. */
export interface ConvGrads { grad_input: Tensor | null; grad_weight: Tensor | null; grad_bias: Tensor | null }

type ConvBackwardFn = (grads: ConvGrads, grad_output: Tensor, input: Tensor, weight: Tensor, a: Conv2dArgs) => void;

function backward2d(transposed: boolean): ConvBackwardFn {
  return (grads, gradOut, input, weight, a) => {
    const [N] = input.shape;
    const [LC, GC, KH, KW] = weight.shape;
    const low = transposed ? input : gradOut; // the L grid's tensor
    const high = transposed ? gradOut : input; // the G grid's tensor
    const [LH, LW] = low.shape.slice(2);
    const [GH, GW] = high.shape.slice(2);
    const [sh, sw] = a.stride;
    const [ph, pw] = a.padding;
    const [dh, dw] = a.dilation;
    const lv = readDense(low);
    const gv = readDense(high);
    const w = readDense(weight);
    // the gradient lands on G (non-transposed input) or on L (transposed input)
    const gi = grads.grad_input ? new Float64Array(grads.grad_input.numel()) : null;
    const gw = grads.grad_weight ? new Float64Array(grads.grad_weight.numel()) : null;
    for (let n = 0; n < N; n++) {
      for (let l = 0; l < LC; l++) {
        const lb = (n * LC + l) * LH * LW;
        for (let g = 0; g < GC; g++) {
          const gb = (n * GC + g) * GH * GW;
          for (let i = 0; i < KH; i++) {
            for (let j = 0; j < KW; j++) {
              const wi = ((l * GC + g) * KH + i) * KW + j;
              const wv = w[wi];
              let acc = 0;
              for (let y = 0; y < LH; y++) {
                const gy = y * sh - ph + i * dh;
                if (gy < 0 || gy >= GH) continue;
                for (let x = 0; x < LW; x++) {
                  const gx = x * sw - pw + j * dw;
                  if (gx < 0 || gx >= GW) continue;
                  const li = lb + y * LW + x, hi = gb + gy * GW + gx;
                  if (gi) {
                    if (transposed) gi[li] += gv[hi] * wv;
                    else gi[hi] += lv[li] * wv;
                  }
                  if (gw) acc += lv[li] * gv[hi];
                }
              }
              if (gw) gw[wi] += acc;
            }
          }
        }
      }
    }
    if (gi) writeDense(grads.grad_input!, gi);
    if (gw) writeDense(grads.grad_weight!, gw);
    if (grads.grad_bias) {
      // grad_bias[o] = sum over batch and positions of grad_output[:, o]
      const [, O, OH, OW] = gradOut.shape;
      const go = transposed ? gv : lv;
      const gbv = new Float64Array(O);
      for (let n = 0; n < N; n++) for (let o = 0; o < O; o++) for (let e = 0; e < OH * OW; e++) gbv[o] += go[(n * O + o) * OH * OW + e];
      writeDense(grads.grad_bias, gbv);
    }
  };
}

export const slow_conv2d_backward_stub = new DispatchStub<ConvBackwardFn>("slow_conv2d_backward_stub", "aten/src/ATen/native/ConvolutionMM2d.cpp");
slow_conv2d_backward_stub.register("ts", backward2d(false));
export const slow_conv_dilated2d_backward_stub = new DispatchStub<ConvBackwardFn>("slow_conv_dilated2d_backward_stub", "aten/src/ATen/native/NaiveDilatedConvolution.cpp");
slow_conv_dilated2d_backward_stub.register("ts", backward2d(false));
export const slow_conv_transpose2d_backward_stub = new DispatchStub<ConvBackwardFn>("slow_conv_transpose2d_backward_stub", "aten/src/ATen/native/NaiveConvolutionTranspose2d.cpp");
slow_conv_transpose2d_backward_stub.register("ts", backward2d(true));
