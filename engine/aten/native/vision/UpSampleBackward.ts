// The upsampling backward ops (UpSampleNearest1d.cpp, UpSampleNearest2d.cpp, UpSampleBilinear2d.cpp, and
// the loops of cpu/UpSampleKernel.cpp): structured, their meta part checks grad_output against the output
// size the forward had and allocates a gradient of input_size; the CPU part zeroes it and adds every
// grad_output element into the input element(s) it was read from, in output order, one rounding per add
// (the scalar type's arithmetic, as the kernels accumulate in scalar_t). The .vec overloads
// (CompositeExplicitAutograd) turn output_size / scale_factors into the sizes and scales, as the forward's.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { hasData, readDense, writeDense } from "../conv/Dense.js";
import { structuredOutput, type StructuredMode } from "../pooling/PoolUtils.js";
import { upsample_nearest1d_backward_default } from "../../../generated/upsample_nearest1d_backward.js";
import { upsample_nearest2d_backward_default } from "../../../generated/upsample_nearest2d_backward.js";
import { upsample_bilinear2d_backward_default } from "../../../generated/upsample_bilinear2d_backward.js";
import { linearIndices, scalarRound } from "./UpSampleKernels.js";
import { compute_output_size, upsample_1d_common_check, upsample_2d_common_check } from "./UpSample.js";

const { Double, Float, BFloat16 } = ScalarType;
const FLOATS = [Double, Float, BFloat16];

/** nearest_idx (UpSample.h): the input index an output index reads; the scale computed in float. */
function nearest_idx(o: number, inputSize: number, outputSize: number, scale: number | null): number {
  if (outputSize === inputSize) return o;
  if (outputSize === 2 * inputSize) return o >> 1;
  const s = scale !== null && scale > 0 ? Math.fround(1 / scale) : Math.fround(Math.fround(inputSize) / outputSize);
  return Math.min(Math.floor(Math.fround(o * s)), inputSize - 1);
}

type NearestBackwardFn = (gradInput: Tensor, gradOutput: Tensor, scales: (number | null)[]) => void;
export const upsample_nearest_backward_kernel = new DispatchStub<NearestBackwardFn>("upsample_nearest2d_backward_kernel", "aten/src/ATen/native/cpu/UpSampleKernel.cpp");
upsample_nearest_backward_kernel.register("ts", (gi, go, scales) => {
  const r = scalarRound(gi.dtype.scalarType);
  const nd = scales.length;
  const [IH, IW] = nd === 2 ? gi.shape.slice(-2) : [1, gi.shape[gi.dim() - 1]];
  const [OH, OW] = nd === 2 ? go.shape.slice(-2) : [1, go.shape[go.dim() - 1]];
  const planes = gi.numel() / (IH * IW);
  const g = readDense(go);
  const out = new Float64Array(gi.numel());
  for (let p = 0; p < planes; p++) {
    for (let oy = 0; oy < OH; oy++) {
      const iy = nd === 2 ? nearest_idx(oy, IH, OH, scales[0]) : 0;
      for (let ox = 0; ox < OW; ox++) {
        const e = (p * IH + iy) * IW + nearest_idx(ox, IW, OW, scales[nd - 1]);
        out[e] = r(out[e] + g[(p * OH + oy) * OW + ox]);
      }
    }
  }
  writeDense(gi, out);
});

type LinearBackwardFn = (gradInput: Tensor, gradOutput: Tensor, alignCorners: boolean, scales: (number | null)[]) => void;
export const upsample_bilinear2d_backward_kernel = new DispatchStub<LinearBackwardFn>("upsample_bilinear2d_backward_kernel", "aten/src/ATen/native/cpu/UpSampleKernel.cpp");
upsample_bilinear2d_backward_kernel.register("ts", (gi, go, alignCorners, scales) => {
  const t = gi.dtype.scalarType;
  const r = scalarRound(t);
  const op = t === Double ? (v: number) => v : Math.fround; // opmath
  const [IH, IW] = gi.shape.slice(-2);
  const [OH, OW] = go.shape.slice(-2);
  const planes = gi.numel() / (IH * IW);
  const h = linearIndices(t, IH, OH, alignCorners, scales[0]);
  const w = linearIndices(t, IW, OW, alignCorners, scales[1]);
  const g = readDense(go);
  const out = new Float64Array(gi.numel());
  const add = (e: number, v: number) => (out[e] = r(out[e] + v));
  for (let p = 0; p < planes; p++) {
    const base = p * IH * IW;
    for (let oy = 0; oy < OH; oy++) {
      const r0 = base + h.i0[oy] * IW, r1 = base + h.i1[oy] * IW;
      for (let ox = 0; ox < OW; ox++) {
        const v = g[(p * OH + oy) * OW + ox];
        const a = w.i0[ox], b = w.i1[ox];
        // h_lambda * w_lambda * grad, left to right in opmath
        add(r0 + a, op(op(h.l0[oy] * w.l0[ox]) * v));
        add(r0 + b, op(op(h.l0[oy] * w.l1[ox]) * v));
        add(r1 + a, op(op(h.l1[oy] * w.l0[ox]) * v));
        add(r1 + b, op(op(h.l1[oy] * w.l1[ox]) * v));
      }
    }
  }
  writeDense(gi, out);
});

/** The 2-d backward meta checks: grad_output is 4-d and has the output's full size. */
function check2d(gradOutput: Tensor, full: number[]): void {
  if (gradOutput.dim() !== 4) throw new RuntimeError(`Expected grad_output to be a tensor of dimension 4 but got: dimension ${gradOutput.dim()}`);
  for (let i = 0; i < 4; i++) {
    if (gradOutput.shape[i] !== full[i]) {
      throw new RuntimeError(`Expected grad_output to have the same shape as output; output.size(${i}) = ${full[i]} but got grad_output.size(${i}) = ${gradOutput.shape[i]}`);
    }
  }
}

/** check_dim_size (TensorUtils.cpp) */
function check_dim_size(t: Tensor, dim: number, dimSize: number, size: number): void {
  if (!(t.dim() === dim && t.shape[dimSize] === size)) {
    throw new RuntimeError(`Expected a tensor of dimension ${dim} and tensor.size[${dimSize}] == ${size} but got: dimension ${t.dim()} and tensor.size[${dimSize}] = ${t.shape[dimSize]}`);
  }
}

export function upsample_nearest1d_backward_out_cpu(gradOutput: Tensor, outputSize: number[], inputSize: number[], scales: number | null, gradInput: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const full = upsample_1d_common_check(inputSize, outputSize);
  for (let i = 0; i < 3; i++) check_dim_size(gradOutput, 3, i, full[i]);
  const gi = structuredOutput(gradOutput, inputSize, gradOutput.dtype, gradInput, mode);
  if (!hasData(gi)) return gi;
  AT_DISPATCH("upsample_nearest1d_backward", gradOutput.dtype.scalarType, FLOATS);
  if (gi.numel() > 0) upsample_nearest_backward_kernel.call("cpu", gi, gradOutput, [scales]);
  return gi;
}

export function upsample_nearest2d_backward_out_cpu(gradOutput: Tensor, outputSize: number[], inputSize: number[], scalesH: number | null, scalesW: number | null, gradInput: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const full = upsample_2d_common_check(inputSize, outputSize);
  check2d(gradOutput, full);
  const gi = structuredOutput(gradOutput, inputSize, gradOutput.dtype, gradInput, mode);
  if (!hasData(gi)) return gi;
  AT_DISPATCH("upsample_nearest2d_backward", gradOutput.dtype.scalarType, FLOATS);
  if (gi.numel() > 0) upsample_nearest_backward_kernel.call("cpu", gi, gradOutput, [scalesH, scalesW]);
  return gi;
}

export function upsample_bilinear2d_backward_out_cpu(gradOutput: Tensor, outputSize: number[], inputSize: number[], alignCorners: boolean, scalesH: number | null, scalesW: number | null, gradInput: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const full = upsample_2d_common_check(inputSize, outputSize);
  check2d(gradOutput, full);
  const gi = structuredOutput(gradOutput, inputSize, gradOutput.dtype, gradInput, mode);
  if (!hasData(gi)) return gi;
  AT_DISPATCH("upsample_bilinear2d_backward", gradOutput.dtype.scalarType, FLOATS);
  if (gi.numel() > 0) upsample_bilinear2d_backward_kernel.call("cpu", gi, gradOutput, alignCorners, [scalesH, scalesW]);
  return gi;
}

const scaleAt = (scales: number[] | null, i: number): number | null => (scales === null ? null : scales[i]);

export function upsample_nearest1d_backward(gradOutput: Tensor, outputSize: number[] | null, inputSize: number[], scaleFactors: number[] | null): Tensor {
  const osize = compute_output_size(inputSize, outputSize, scaleFactors);
  return upsample_nearest1d_backward_default.call(gradOutput, osize, inputSize, scaleAt(scaleFactors, 0)) as Tensor;
}

export function upsample_nearest2d_backward(gradOutput: Tensor, outputSize: number[] | null, inputSize: number[], scaleFactors: number[] | null): Tensor {
  const osize = compute_output_size(inputSize, outputSize, scaleFactors);
  return upsample_nearest2d_backward_default.call(gradOutput, osize, inputSize, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1)) as Tensor;
}

export function upsample_bilinear2d_backward(gradOutput: Tensor, outputSize: number[] | null, inputSize: number[], alignCorners: boolean, scaleFactors: number[] | null): Tensor {
  const osize = compute_output_size(inputSize, outputSize, scaleFactors);
  return upsample_bilinear2d_backward_default.call(gradOutput, osize, inputSize, alignCorners, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1)) as Tensor;
}
