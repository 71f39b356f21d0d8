// The CPU resampling loops (aten/src/ATen/native/cpu/UpSampleKernel.cpp, UpSample.h), behind
// DispatchStubs. Source indices and weights are computed as PyTorch computes them, in the kernel's
// scalar type (float for float32, double for float64, and for bfloat16: nearest's scale in bfloat16,
// linear weights stored in bfloat16 and interpolated in float). Nearest agrees bit for bit; bilinear
// agrees bit for bit on most elements and otherwise in the last bit (where the compiled loop's
// multiply-add contraction differs from the one modelled here).

import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { bfloat16BitsFromNumber, bfloat16BitsToNumber } from "../../../c10/util/Half.js";
import { DispatchStub } from "../DispatchStub.js";
import { readDense, writeDense } from "../conv/Dense.js";
import { fma } from "../normalization/NormKernels.js";

const toBf16 = (v: number): number => bfloat16BitsToNumber(bfloat16BitsFromNumber(v));
/** static_cast<scalar_t>: the rounding of the kernel's scalar type. */
export const scalarRound = (t: ScalarType): ((v: number) => number) => (t === ScalarType.Double ? (v) => v : t === ScalarType.BFloat16 ? toBf16 : Math.fround);
/** at::opmath_type<scalar_t>: float for float32 and bfloat16, double for double. */
const opmathRound = (t: ScalarType): ((v: number) => number) => (t === ScalarType.Double ? (v) => v : Math.fround);

/** compute_scales_value: 1 / scale when given (and positive), else input / output, in type T. */
function compute_scales_value(r: (v: number) => number, scale: number | null, inputSize: number, outputSize: number): number {
  return scale !== null && scale > 0 ? r(1.0 / scale) : r(r(inputSize) / outputSize);
}

/** area_pixel_compute_scale. */
function area_pixel_compute_scale(r: (v: number) => number, inputSize: number, outputSize: number, alignCorners: boolean, scale: number | null): number {
  if (alignCorners) return outputSize > 1 ? r(r(inputSize - 1) / (outputSize - 1)) : 0;
  return compute_scales_value(r, scale, inputSize, outputSize);
}

/** HelperInterpNearest::compute_indices_weights: floor(scale * i), clamped to the input. */
export function nearestIndices(t: ScalarType, inputSize: number, outputSize: number, scale: number | null): Int32Array {
  const r = scalarRound(t);
  const s = area_pixel_compute_scale(r, inputSize, outputSize, false, scale);
  const idx = new Int32Array(outputSize);
  for (let i = 0; i < outputSize; i++) idx[i] = Math.min(Math.floor(r(s * i)), inputSize - 1);
  return idx;
}

/**
 * compute_source_index_and_lambda for linear interpolation: two source indices and their weights. The
 * scale is a scalar_t; the source index is computed from it in double (area_pixel_compute_source_index
 * on accumulate types), and the weights are stored as scalar_t.
 */
export function linearIndices(t: ScalarType, inputSize: number, outputSize: number, alignCorners: boolean, scale: number | null): { i0: Int32Array; i1: Int32Array; l0: Float64Array; l1: Float64Array } {
  const store = scalarRound(t);
  const ratio = area_pixel_compute_scale(store, inputSize, outputSize, alignCorners, scale);
  const i0 = new Int32Array(outputSize), i1 = new Int32Array(outputSize), l0 = new Float64Array(outputSize), l1 = new Float64Array(outputSize);
  for (let i = 0; i < outputSize; i++) {
    if (outputSize === inputSize) {
      i0[i] = i1[i] = i;
      l0[i] = 1;
      l1[i] = 0;
      continue;
    }
    // scale * (i + 0.5) - 0.5, which the compiler fuses into one multiply-add
    let real = alignCorners ? ratio * i : fma(ratio, i + 0.5, -0.5);
    if (!alignCorners && real < 0) real = 0;
    i0[i] = Math.trunc(real);
    i1[i] = i0[i] + (i0[i] < inputSize - 1 ? 1 : 0);
    l1[i] = store(Math.min(Math.max(real - i0[i], 0), 1));
    l0[i] = store(1 - l1[i]);
  }
  return { i0, i1, l0, l1 };
}

type NearestFn = (output: Tensor, input: Tensor, scales: (number | null)[]) => void;

/** Nearest neighbour over the last 1 or 2 dims: output[..., y, x] = input[..., iy[y], ix[x]]. */
function upsampleNearest(output: Tensor, input: Tensor, scales: (number | null)[]): void {
  const t = input.dtype.scalarType;
  const nd = scales.length;
  const inS = input.shape.slice(-nd);
  const outS = output.shape.slice(-nd);
  const planes = input.numel() / inS.reduce((a, b) => a * b, 1);
  const x = readDense(input);
  const y = new Float64Array(output.numel());
  const [IH, IW] = nd === 2 ? inS : [1, inS[0]];
  const [OH, OW] = nd === 2 ? outS : [1, outS[0]];
  const iy = nd === 2 ? nearestIndices(t, IH, OH, scales[0]) : new Int32Array(1);
  const ix = nearestIndices(t, IW, OW, scales[nd - 1]);
  for (let p = 0; p < planes; p++) {
    for (let oy = 0; oy < OH; oy++) {
      for (let ox = 0; ox < OW; ox++) y[(p * OH + oy) * OW + ox] = x[(p * IH + iy[oy]) * IW + ix[ox]];
    }
  }
  writeDense(output, y);
}

export const upsample_nearest_kernel = new DispatchStub<NearestFn>("upsample_nearest2d_kernel", "aten/src/ATen/native/cpu/UpSampleKernel.cpp");
upsample_nearest_kernel.register("ts", upsampleNearest);

type LinearFn = (output: Tensor, input: Tensor, alignCorners: boolean, scales: (number | null)[]) => void;

/** Bilinear: out = (x[h0,w0] w0 + x[h0,w1] w1) h0 + (x[h1,w0] w0 + x[h1,w1] w1) h1, each step in opmath. */
function upsampleBilinear(output: Tensor, input: Tensor, alignCorners: boolean, scales: (number | null)[]): void {
  const t = input.dtype.scalarType;
  const op = opmathRound(t);
  const madd = t === ScalarType.Double ? fma : (a: number, b: number, c: number) => Math.fround(a * b + c);
  const [IH, IW] = input.shape.slice(-2);
  const [OH, OW] = output.shape.slice(-2);
  const planes = input.numel() / (IH * IW);
  const x = readDense(input);
  const y = new Float64Array(output.numel());
  const h = linearIndices(t, IH, OH, alignCorners, scales[0]);
  const w = linearIndices(t, IW, OW, alignCorners, scales[1]);
  for (let p = 0; p < planes; p++) {
    const base = p * IH * IW;
    for (let oy = 0; oy < OH; oy++) {
      const r0 = base + h.i0[oy] * IW, r1 = base + h.i1[oy] * IW;
      for (let ox = 0; ox < OW; ox++) {
        const a = w.i0[ox], b = w.i1[ox];
        // two terms per dim, the second product rounded and the first fused into the add (the form the
        // fixtures agree with; PyTorch's compiled loop contracts `t * w0 + t * w1` this way)
        const t0 = madd(x[r0 + a], w.l0[ox], op(x[r0 + b] * w.l1[ox]));
        const t1 = madd(x[r1 + a], w.l0[ox], op(x[r1 + b] * w.l1[ox]));
        y[(p * OH + oy) * OW + ox] = madd(t0, h.l0[oy], op(t1 * h.l1[oy]));
      }
    }
  }
  writeDense(output, y);
}

export const upsample_bilinear2d_kernel = new DispatchStub<LinearFn>("upsample_bilinear2d_kernel", "aten/src/ATen/native/cpu/UpSampleKernel.cpp");
upsample_bilinear2d_kernel.register("ts", upsampleBilinear);
