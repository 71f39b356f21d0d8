// The backward ops of max and average pooling (DilatedMaxPool2d.cpp, AveragePool2d.cpp and their CPU kernels
// MaxPoolKernel.cpp / AvgPoolKernel.cpp). Both are structured: the meta part sizes grad_input like self; the
// impl zeroes it and adds each output's gradient back: max pooling to the element its index names, average
// pooling gradOutput / divide_factor to every element of the window. The sums run in scalar_t as PyTorch's do
// (float32 rounded at each step).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { DispatchStub } from "../DispatchStub.js";
import { hasData, readDense, writeDense } from "../conv/Dense.js";
import { pair, pooling_output_shape, structuredOutput, type StructuredMode } from "./PoolUtils.js";
import type { Window2d } from "./PoolKernels.js";

const { Double, Float, BFloat16, Long } = ScalarType;

const planes = (t: Tensor): [number, number, number] => {
  const s = t.shape;
  const n = s.length;
  return [s.slice(0, n - 2).reduce((a, b) => a * b, 1), s[n - 2], s[n - 1]];
};
const adder = (t: ScalarType) => (t === Float || t === BFloat16 ? (a: number, b: number) => Math.fround(a + b) : (a: number, b: number) => a + b);
const divider = (t: ScalarType) => (t === Float || t === BFloat16 ? (a: number, b: number) => Math.fround(a / b) : t === Double ? (a: number, b: number) => a / b : (a: number, b: number) => Math.trunc(a / b));

type MaxBackwardFn = (gradInput: Tensor, gradOutput: Tensor, indices: Tensor) => void;
export const max_pool2d_backward_kernel = new DispatchStub<MaxBackwardFn>("max_pool2d_backward_kernel", "aten/src/ATen/native/cpu/MaxPoolKernel.cpp");
max_pool2d_backward_kernel.register("ts", (gradInput, gradOutput, indices) => {
  const [P, H, W] = planes(gradInput);
  const [, OH, OW] = planes(gradOutput);
  const go = readDense(gradOutput);
  const idx = readDense(indices);
  const add = adder(gradInput.dtype.scalarType);
  const gi = new Float64Array(P * H * W);
  for (let p = 0; p < P; p++)
    for (let o = 0; o < OH * OW; o++) {
      const k = p * OH * OW + o;
      const m = p * H * W + idx[k];
      gi[m] = add(gi[m], go[k]);
    }
  writeDense(gradInput, gi);
});

type AvgBackwardFn = (gradInput: Tensor, gradOutput: Tensor, w: Window2d, countIncludePad: boolean, divisorOverride: number | null) => void;
export const avg_pool2d_backward_kernel = new DispatchStub<AvgBackwardFn>("avg_pool2d_backward_kernel", "aten/src/ATen/native/cpu/AvgPoolKernel.cpp");
avg_pool2d_backward_kernel.register("ts", (gradInput, gradOutput, w, countIncludePad, divisorOverride) => {
  const [P, H, W] = planes(gradInput);
  const [, OH, OW] = planes(gradOutput);
  const go = readDense(gradOutput);
  const st = gradInput.dtype.scalarType;
  const add = adder(st), div = divider(st);
  const gi = new Float64Array(P * H * W);
  for (let p = 0; p < P; p++)
    for (let oh = 0; oh < OH; oh++)
      for (let ow = 0; ow < OW; ow++) {
        let ih0 = oh * w.dH - w.padH, iw0 = ow * w.dW - w.padW;
        let ih1 = Math.min(ih0 + w.kH, H + w.padH), iw1 = Math.min(iw0 + w.kW, W + w.padW);
        const poolSize = (ih1 - ih0) * (iw1 - iw0);
        ih0 = Math.max(ih0, 0);
        iw0 = Math.max(iw0, 0);
        ih1 = Math.min(ih1, H);
        iw1 = Math.min(iw1, W);
        const divide = divisorOverride !== null ? divisorOverride : countIncludePad ? poolSize : (ih1 - ih0) * (iw1 - iw0);
        const delta = div(go[(p * OH + oh) * OW + ow], divide);
        for (let ih = ih0; ih < ih1; ih++)
          for (let iw = iw0; iw < iw1; iw++) {
            const m = p * H * W + ih * W + iw;
            gi[m] = add(gi[m], delta);
          }
      }
  writeDense(gradInput, gi);
});

/** check_dim_size (TensorUtils.cpp) as max_pool2d_backward_shape_check / avg_pool2d_backward_shape_check use it:
 * grad_output (and indices) have self's planes and the forward's output height and width. */
function checkGradOutput(self: Tensor, t: Tensor, OH: number, OW: number): void {
  const nd = self.dim();
  const want: [number, number][] = [[nd - 3, self.shape[nd - 3]], [nd - 2, OH], [nd - 1, OW]];
  for (const [d, size] of want) {
    if (t.dim() !== nd || t.shape[d] !== size) {
      throw new RuntimeError(`Expected a tensor of dimension ${nd} and tensor.size[${d}] == ${size} but got: dimension ${t.dim()} and tensor.size[${d}] = ${t.shape[d]}`);
    }
  }
}

export function max_pool2d_with_indices_backward_out_cpu(
  gradOutput: Tensor, self: Tensor, kernelSize: number[], stride: number[], padding: number[], dilation: number[], ceilMode: boolean, indices: Tensor,
  gradInput: Tensor | null, mode: StructuredMode = "out",
): Tensor {
  const [kH, kW] = pair(kernelSize);
  const [dH, dW] = stride.length === 0 ? [kH, kW] : pair(stride);
  const [padH, padW] = pair(padding);
  const [dilH, dilW] = pair(dilation);
  const [H, W] = self.shape.slice(-2);
  const OH = pooling_output_shape(H, kH, padH, dH, dilH, ceilMode), OW = pooling_output_shape(W, kW, padW, dW, dilW, ceilMode);
  checkGradOutput(self, gradOutput, OH, OW);
  checkGradOutput(self, indices, OH, OW);
  const gi = structuredOutput(self, self.shape, self.dtype, gradInput, mode);
  if (!hasData(gi)) return gi;
  AT_DISPATCH("max_pool2d_backward", self.dtype.scalarType, [Double, Float, BFloat16]);
  max_pool2d_backward_kernel.call("cpu", gi, gradOutput, indices);
  return gi;
}

export function avg_pool2d_backward_out_cpu(
  gradOutput: Tensor, self: Tensor, kernelSize: number[], stride: number[], padding: number[], ceilMode: boolean, countIncludePad: boolean,
  divisorOverride: number | null, gradInput: Tensor | null, mode: StructuredMode = "out",
): Tensor {
  const [kH, kW] = pair(kernelSize);
  const [dH, dW] = stride.length === 0 ? [kH, kW] : pair(stride);
  const [padH, padW] = pair(padding);
  if (divisorOverride !== null && divisorOverride === 0) throw new RuntimeError("divisor must be not zero");
  const [H, W] = self.shape.slice(-2);
  checkGradOutput(self, gradOutput, pooling_output_shape(H, kH, padH, dH, 1, ceilMode), pooling_output_shape(W, kW, padW, dW, 1, ceilMode));
  const gi = structuredOutput(self, self.shape, self.dtype, gradInput, mode);
  if (!hasData(gi)) return gi;
  AT_DISPATCH("avg_pool2d_backward_out_frame", self.dtype.scalarType, [Long, Double, Float, BFloat16]);
  avg_pool2d_backward_kernel.call("cpu", gi, gradOutput, { kH, kW, dH, dW, padH, padW, dilationH: 1, dilationW: 1 }, countIncludePad, divisorOverride);
  return gi;
}

// ---- adaptive pooling's backward ops (AdaptiveAveragePooling.cpp, AdaptiveMaxPooling2d.cpp) ----

/** cpu_adaptive_avg_pool_backward: each output's gradient / kh / kw spread over its window
 * [floor(o*I/O), ceil((o+1)*I/O)). */
export const adaptive_avg_pool2d_backward_kernel = new DispatchStub<(gradInput: Tensor, gradOutput: Tensor) => void>("adaptive_avg_pool2d_backward_kernel", "aten/src/ATen/native/cpu/AdaptiveAvgPoolKernel.cpp");
adaptive_avg_pool2d_backward_kernel.register("ts", (gradInput, gradOutput) => {
  const [P, H, W] = planes(gradInput);
  const [, OH, OW] = planes(gradOutput);
  const go = readDense(gradOutput);
  const st = gradInput.dtype.scalarType;
  const add = adder(st), div = divider(st);
  const start = (a: number, b: number, c: number) => Math.floor((a * c) / b);
  const end = (a: number, b: number, c: number) => Math.ceil(((a + 1) * c) / b);
  const gi = new Float64Array(P * H * W);
  for (let p = 0; p < P; p++)
    for (let oh = 0; oh < OH; oh++) {
      const ih0 = start(oh, OH, H), ih1 = end(oh, OH, H);
      for (let ow = 0; ow < OW; ow++) {
        const iw0 = start(ow, OW, W), iw1 = end(ow, OW, W);
        const delta = div(div(go[(p * OH + oh) * OW + ow], ih1 - ih0), iw1 - iw0);
        for (let ih = ih0; ih < ih1; ih++)
          for (let iw = iw0; iw < iw1; iw++) {
            const m = p * H * W + ih * W + iw;
            gi[m] = add(gi[m], delta);
          }
      }
    }
  writeDense(gradInput, gi);
});

/** adaptive_avg_pool2d_backward_cpu: grad_input like self (self's memory format). */
export function adaptive_avg_pool2d_backward_cpu(gradOutput: Tensor, self: Tensor): Tensor {
  const nd = self.dim();
  if (!(nd === 3 || nd === 4) || gradOutput.dim() !== nd) {
    throw new RuntimeError(`adaptive_avg_pool2d_backward(): Expected grad_output to be 3D or 4D, but got ${gradOutput.dim()}D`);
  }
  const gi = structuredOutput(self, self.shape, self.dtype, null, "functional");
  if (!hasData(gi)) return gi;
  AT_DISPATCH("adaptive_avg_pool2d_backward_cpu", self.dtype.scalarType, [Double, Float, BFloat16]);
  adaptive_avg_pool2d_backward_kernel.call("cpu", gi, gradOutput);
  return gi;
}

export const adaptive_max_pool2d_backward_kernel = new DispatchStub<MaxBackwardFn>("adaptive_max_pool2d_backward_kernel", "aten/src/ATen/native/cpu/AdaptiveMaxPoolKernel.cpp");
adaptive_max_pool2d_backward_kernel.register("ts", (gi, go, idx) => max_pool2d_backward_kernel.call("cpu", gi, go, idx));

export function adaptive_max_pool2d_backward_out_cpu(gradOutput: Tensor, self: Tensor, indices: Tensor, gradInput: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const nd = self.dim();
  if (!(nd === 3 || nd === 4)) throw new RuntimeError(`adaptive_max_pooling2d_backward(): Expected 3D or 4D tensor, but got ${self.shape}`);
  const gi = structuredOutput(self, self.shape, self.dtype, gradInput, mode);
  if (!hasData(gi)) return gi;
  AT_DISPATCH("adaptive_max_pool2d_backward", self.dtype.scalarType, [Double, Float, BFloat16]);
  adaptive_max_pool2d_backward_kernel.call("cpu", gi, gradOutput, indices);
  return gi;
}
