// The CPU pooling loops (aten/src/ATen/native/cpu/MaxPoolKernel.cpp, AvgPoolKernel.cpp,
// AdaptiveAvgPoolKernel.cpp, AdaptiveMaxPoolKernel.cpp, MaxPooling.cpp's max_pool1d_impl), each behind
// a DispatchStub. They see the input as [planes, H, W] (batch and channel folded, as the contiguous
// kernels do). Max pooling picks the first largest element, a NaN winning (`val > max || isnan(val)`),
// and records its index within the plane (h * W + w). Sums run in the accumulate type PyTorch uses:
// float for float32 and bfloat16 (rounded at each step), double for float64, int64 for integers.

import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { readDense, writeDense, writeIndices } from "../conv/Dense.js";

export interface Window2d {
  kH: number; kW: number; dH: number; dW: number; padH: number; padW: number; dilationH: number; dilationW: number;
}

/** The adder of the accumulate type: float32 steps for float and bfloat16 (opmath), exact otherwise. */
function accAdd(t: ScalarType): (a: number, b: number) => number {
  return t === ScalarType.Float || t === ScalarType.BFloat16 ? (a, b) => Math.fround(a + b) : (a, b) => a + b;
}
function accDiv(t: ScalarType): (a: number, b: number) => number {
  if (t === ScalarType.Float || t === ScalarType.BFloat16) return (a, b) => Math.fround(a / b);
  if (t === ScalarType.Double) return (a, b) => a / b;
  return (a, b) => Math.trunc(a / b); // integer division
}

const planes = (t: Tensor): [number, number, number] => {
  const s = t.shape;
  const n = s.length;
  return [s.slice(0, n - 2).reduce((a, b) => a * b, 1), s[n - 2], s[n - 1]];
};

type MaxFn = (output: Tensor, indices: Tensor, input: Tensor, w: Window2d) => void;

function maxPool2d(output: Tensor, indices: Tensor, input: Tensor, w: Window2d): void {
  const [P, H, W] = planes(input);
  const [, OH, OW] = planes(output);
  const x = readDense(input);
  const out = new Float64Array(P * OH * OW);
  const idx = new Float64Array(P * OH * OW);
  for (let p = 0; p < P; p++) {
    for (let oh = 0; oh < OH; oh++) {
      let ih0 = oh * w.dH - w.padH;
      const ih1 = Math.min(ih0 + (w.kH - 1) * w.dilationH + 1, H);
      while (ih0 < 0) ih0 += w.dilationH;
      for (let ow = 0; ow < OW; ow++) {
        let iw0 = ow * w.dW - w.padW;
        const iw1 = Math.min(iw0 + (w.kW - 1) * w.dilationW + 1, W);
        while (iw0 < 0) iw0 += w.dilationW;
        let maxIndex = ih0 * W + iw0;
        let maxVal = -Infinity;
        for (let ih = ih0; ih < ih1; ih += w.dilationH) {
          for (let iw = iw0; iw < iw1; iw += w.dilationW) {
            const v = x[p * H * W + ih * W + iw];
            if (v > maxVal || Number.isNaN(v)) {
              maxVal = v;
              maxIndex = ih * W + iw;
            }
          }
        }
        out[(p * OH + oh) * OW + ow] = maxVal;
        idx[(p * OH + oh) * OW + ow] = maxIndex;
      }
    }
  }
  writeDense(output, out);
  writeIndices(indices, idx);
}

export const max_pool2d_kernel = new DispatchStub<MaxFn>("max_pool2d_kernel", "aten/src/ATen/native/cpu/MaxPoolKernel.cpp");
max_pool2d_kernel.register("ts", maxPool2d);

/** max_pool1d_impl: the same window maximum without indices; NaN wins, as in the 2-d kernel. */
export const max_pool1d_stub = new DispatchStub<(output: Tensor, input: Tensor, w: Window2d) => void>("max_pool1d_stub", "aten/src/ATen/native/cpu/MaxPooling.cpp");
max_pool1d_stub.register("ts", (output, input, w) => {
  const W = input.shape[input.dim() - 1];
  const P = W === 0 ? 0 : input.numel() / W;
  const OW = output.shape[output.dim() - 1];
  const x = readDense(input);
  const out = new Float64Array(P * OW);
  for (let p = 0; p < P; p++) {
    for (let ow = 0; ow < OW; ow++) {
      const ij = ow * w.dW - w.padW;
      let m = -Infinity;
      for (let k = 0; k < w.kW; k++) {
        const i = ij + k * w.dilationW;
        if (i < 0 || i >= W) continue;
        const v = x[p * W + i];
        if (v > m || Number.isNaN(v)) m = v;
        if (Number.isNaN(m)) break;
      }
      out[p * OW + ow] = m;
    }
  }
  writeDense(output, out);
});

type AvgFn = (output: Tensor, input: Tensor, w: Window2d, countIncludePad: boolean, divisorOverride: number | null) => void;

export const avg_pool2d_kernel = new DispatchStub<AvgFn>("avg_pool2d_kernel", "aten/src/ATen/native/cpu/AvgPoolKernel.cpp");
avg_pool2d_kernel.register("ts", (output, input, w, countIncludePad, divisorOverride) => {
  const [P, H, W] = planes(input);
  const [, OH, OW] = planes(output);
  const x = readDense(input);
  const out = new Float64Array(P * OH * OW);
  const add = accAdd(input.dtype.scalarType);
  const div = accDiv(input.dtype.scalarType);
  for (let p = 0; p < P; p++) {
    for (let oh = 0; oh < OH; oh++) {
      for (let ow = 0; ow < OW; ow++) {
        let ih0 = oh * w.dH - w.padH;
        let iw0 = ow * w.dW - w.padW;
        let ih1 = Math.min(ih0 + w.kH, H + w.padH);
        let iw1 = Math.min(iw0 + w.kW, W + w.padW);
        const poolSize = (ih1 - ih0) * (iw1 - iw0);
        ih0 = Math.max(ih0, 0);
        iw0 = Math.max(iw0, 0);
        ih1 = Math.min(ih1, H);
        iw1 = Math.min(iw1, W);
        const o = (p * OH + oh) * OW + ow;
        if (ih0 >= ih1 || iw0 >= iw1) continue; // stays 0
        const divide = divisorOverride !== null ? divisorOverride : countIncludePad ? poolSize : (ih1 - ih0) * (iw1 - iw0);
        let sum = 0;
        for (let ih = ih0; ih < ih1; ih++) for (let iw = iw0; iw < iw1; iw++) sum = add(sum, x[p * H * W + ih * W + iw]);
        out[o] = div(sum, divide);
      }
    }
  }
  writeDense(output, out);
});

const startIndex = (a: number, b: number, c: number): number => Math.floor((a * c) / b);
const endIndex = (a: number, b: number, c: number): number => Math.ceil(((a + 1) * c) / b);

export const adaptive_avg_pool2d_kernel = new DispatchStub<(output: Tensor, input: Tensor) => void>("adaptive_avg_pool2d_kernel", "aten/src/ATen/native/cpu/AdaptiveAvgPoolKernel.cpp");
adaptive_avg_pool2d_kernel.register("ts", (output, input) => {
  const [P, H, W] = planes(input);
  const [, OH, OW] = planes(output);
  const x = readDense(input);
  const out = new Float64Array(P * OH * OW);
  const add = accAdd(input.dtype.scalarType);
  const div = accDiv(input.dtype.scalarType);
  for (let p = 0; p < P; p++) {
    for (let oh = 0; oh < OH; oh++) {
      const ih0 = startIndex(oh, OH, H), ih1 = endIndex(oh, OH, H);
      for (let ow = 0; ow < OW; ow++) {
        const iw0 = startIndex(ow, OW, W), iw1 = endIndex(ow, OW, W);
        let sum = 0;
        for (let ih = ih0; ih < ih1; ih++) for (let iw = iw0; iw < iw1; iw++) sum = add(sum, x[p * H * W + ih * W + iw]);
        out[(p * OH + oh) * OW + ow] = div(div(sum, ih1 - ih0), iw1 - iw0); // sum / kh / kw
      }
    }
  }
  writeDense(output, out);
});

export const adaptive_max_pool2d_kernel = new DispatchStub<(output: Tensor, indices: Tensor, input: Tensor) => void>("adaptive_max_pool2d_kernel", "aten/src/ATen/native/cpu/AdaptiveMaxPoolKernel.cpp");
adaptive_max_pool2d_kernel.register("ts", (output, indices, input) => {
  const [P, H, W] = planes(input);
  const [, OH, OW] = planes(output);
  const x = readDense(input);
  const out = new Float64Array(P * OH * OW);
  const idx = new Float64Array(P * OH * OW);
  for (let p = 0; p < P; p++) {
    for (let oh = 0; oh < OH; oh++) {
      const ih0 = startIndex(oh, OH, H), ih1 = endIndex(oh, OH, H);
      for (let ow = 0; ow < OW; ow++) {
        const iw0 = startIndex(ow, OW, W), iw1 = endIndex(ow, OW, W);
        let maxIndex = ih0 * W + iw0;
        let maxVal = -Infinity;
        for (let ih = ih0; ih < ih1; ih++) {
          for (let iw = iw0; iw < iw1; iw++) {
            const v = x[p * H * W + ih * W + iw];
            if (v > maxVal || Number.isNaN(v)) {
              maxVal = v;
              maxIndex = ih * W + iw;
            }
          }
        }
        out[(p * OH + oh) * OW + ow] = maxVal;
        idx[(p * OH + oh) * OW + ow] = maxIndex;
      }
    }
  }
  writeDense(output, out);
  writeIndices(indices, idx);
});
