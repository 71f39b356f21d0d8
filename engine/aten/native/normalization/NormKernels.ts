// The CPU normalization loops (aten/src/ATen/native/cpu/batch_norm_kernel.cpp, layer_norm_kernel.cpp,
// group_norm_kernel.cpp), each behind a DispatchStub. Arithmetic follows the kernels' types:
// float32 math in float32 (Math.fround after each operation) where PyTorch computes in float, double
// where it accumulates in acc_type<float> = double (batch norm's statistics), bfloat16 in float.
// Layer and group norm's row moments (utils::RowwiseMoments: a vectorized, cascaded Welford) are
// computed here in double and rounded once, so float32 results agree within a few ulps, not bit for bit.

import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { readDense, writeDense } from "../conv/Dense.js";
import { bfloat16BitsFromNumber, bfloat16BitsToNumber } from "../../../c10/util/Half.js";

/** The rounding of the kernel's scalar type: float32 (and bfloat16's float opmath) or double. */
export function rounder(t: ScalarType): (v: number) => number {
  return t === ScalarType.Double ? (v) => v : Math.fround;
}

const toBf16 = (v: number): number => bfloat16BitsToNumber(bfloat16BitsFromNumber(v));

/** The rounding of the kernel's T itself: bfloat16 arithmetic rounds each result to bfloat16. */
function tRounder(t: ScalarType): (v: number) => number {
  return t === ScalarType.BFloat16 ? toBf16 : rounder(t);
}

export interface BatchNormStats {
  mean: Float64Array;
  /** sum of squared deviations, per channel */
  varSum: Float64Array;
}

/**
 * batch_norm_cpu_collect_stats_contiguous_impl: per channel, the mean (summed in double, stored in the
 * input dtype) and the sum of squared deviations from that stored mean.
 */
export const batch_norm_cpu_collect_stats_stub = new DispatchStub<(out: BatchNormStats, input: Tensor) => void>("batch_norm_cpu_collect_stats_stub", "aten/src/ATen/native/cpu/batch_norm_kernel.cpp");
batch_norm_cpu_collect_stats_stub.register("ts", (out, input) => {
  const r = rounder(input.dtype.scalarType);
  const x = readDense(input);
  const [N0, C] = input.shape;
  const image = input.numel() / Math.max(N0 * C, 1);
  const n = input.numel() / C;
  for (let c = 0; c < C; c++) {
    let sum = 0;
    for (let b = 0; b < N0; b++) for (let i = 0; i < image; i++) sum += x[(b * C + c) * image + i];
    const mean = r(sum / n);
    let varSum = 0;
    for (let b = 0; b < N0; b++) {
      for (let i = 0; i < image; i++) {
        const d = r(x[(b * C + c) * image + i] - mean);
        varSum += r(d * d);
      }
    }
    out.mean[c] = mean;
    out.varSum[c] = r(varSum);
  }
});

const SPLIT = 134217729; // 2^27 + 1, Veltkamp's splitter for doubles

/** a * b + c with one rounding (what the compiler's fused multiply-add gives), via error-free transforms. */
export function fma(a: number, b: number, c: number): number {
  const p = a * b;
  if (!Number.isFinite(p) || p === 0) return p + c;
  const as = SPLIT * a, ah = as - (as - a), al = a - ah;
  const bs = SPLIT * b, bh = bs - (bs - b), bl = b - bh;
  const pe = ((ah * bh - p) + ah * bl + al * bh) + al * bl; // a*b = p + pe exactly
  const s = p + c;
  const bb = s - p;
  const se = (p - (s - bb)) + (c - bb); // p + c = s + se exactly
  return s + (pe + se);
}

/** fma in float32: the double product of two floats is exact, so one double add and one rounding. */
const fmaf = (a: number, b: number, c: number): number => Math.fround(a * b + c);

/**
 * batch_norm_cpu_stub: y = x * alpha[c] + beta[c], alpha = invstd * weight, beta = bias - mean * alpha.
 * The vectorized `x * alpha + beta` is contracted into a fused multiply-add by the compiler: with it,
 * most fixtures agree bit for bit (small planes, 2-d and non-contiguous inputs take other vector paths
 * and can differ in the last bit).
 */
export const batch_norm_cpu_stub = new DispatchStub<(output: Tensor, input: Tensor, alpha: Float64Array, beta: Float64Array) => void>("batch_norm_cpu_stub", "aten/src/ATen/native/cpu/batch_norm_kernel.cpp");
batch_norm_cpu_stub.register("ts", (output, input, alpha, beta) => {
  const madd = input.dtype.scalarType === ScalarType.Double ? fma : fmaf;
  const x = readDense(input);
  const [N0, C] = input.shape;
  const image = input.numel() / Math.max(N0 * C, 1);
  const y = new Float64Array(x.length);
  for (let b = 0; b < N0; b++) {
    for (let c = 0; c < C; c++) {
      const base = (b * C + c) * image;
      for (let i = 0; i < image; i++) y[base + i] = madd(x[base + i], alpha[c], beta[c]);
    }
  }
  writeDense(output, y);
});

/** Mean and biased variance of each row of length n, in double. */
function rowMoments(x: Float64Array, start: number, n: number): [number, number] {
  let sum = 0;
  for (let j = 0; j < n; j++) sum += x[start + j];
  const mean = sum / n;
  let m2 = 0;
  for (let j = 0; j < n; j++) m2 += (x[start + j] - mean) ** 2;
  return [mean, m2 / n];
}

/** LayerNormKernelImpl: per row, y = (x * rstd - rstd * mean) * gamma + beta. */
export const LayerNormKernel = new DispatchStub<(input: Tensor, gamma: Tensor | null, beta: Tensor | null, M: number, N: number, eps: number, Y: Tensor, mean: Float64Array, rstd: Float64Array) => void>("LayerNormKernel", "aten/src/ATen/native/cpu/layer_norm_kernel.cpp");
LayerNormKernel.register("ts", (input, gamma, beta, M, N, eps, Y, meanOut, rstdOut) => {
  // mean and rstd are T (bfloat16 rounds them); the row transform runs in T_ACC (float for bfloat16)
  const r = rounder(input.dtype.scalarType);
  const t = tRounder(input.dtype.scalarType);
  const x = readDense(input);
  const g = gamma ? readDense(gamma) : null;
  const b = beta ? readDense(beta) : null;
  const y = new Float64Array(x.length);
  for (let i = 0; i < M; i++) {
    const [m, v] = rowMoments(x, i * N, N);
    const mean = t(m);
    const rstd = t(1 / t(Math.sqrt(t(t(v) + t(eps)))));
    const scale = rstd;
    const bias = r(-rstd * mean);
    for (let j = 0; j < N; j++) {
      const t = r(r(x[i * N + j] * scale) + bias);
      y[i * N + j] = r(r(t * (g ? g[j] : 1)) + (b ? b[j] : 0));
    }
    meanOut[i] = mean;
    rstdOut[i] = rstd;
  }
  writeDense(Y, y);
});

/** GroupNormKernelImpl: per (sample, group), y = scale[c] * x + bias[c], scale = rstd * gamma, bias = -scale * mean + beta. */
export const GroupNormKernel = new DispatchStub<(input: Tensor, gamma: Tensor | null, beta: Tensor | null, N: number, C: number, HxW: number, G: number, eps: number, Y: Tensor, mean: Float64Array, rstd: Float64Array) => void>("GroupNormKernel", "aten/src/ATen/native/cpu/group_norm_kernel.cpp");
GroupNormKernel.register("ts", (input, gamma, beta, N, C, HxW, G, eps, Y, meanOut, rstdOut) => {
  // every step is T arithmetic (bfloat16 rounds each one)
  const r = tRounder(input.dtype.scalarType);
  const x = readDense(input);
  const g = gamma ? readDense(gamma) : null;
  const b = beta ? readDense(beta) : null;
  const y = new Float64Array(x.length);
  const D = C / G;
  const inner = D * HxW;
  for (let i = 0; i < N * G; i++) {
    const [m, v] = rowMoments(x, i * inner, inner);
    const mean = r(m);
    const rstd = r(1 / r(Math.sqrt(r(Math.max(r(v), 0) + r(eps)))));
    const grp = i % G;
    for (let j = 0; j < D; j++) {
      const c = grp * D + j;
      const base = (i * D + j) * HxW;
      if (!g && !b) {
        for (let k = 0; k < HxW; k++) y[base + k] = r(r(x[base + k] - mean) * rstd);
        continue;
      }
      const scale = r(rstd * (g ? g[c] : 1));
      const bias = r(r(-scale * mean) + (b ? b[c] : 0));
      for (let k = 0; k < HxW; k++) y[base + k] = r(r(scale * x[base + k]) + bias);
    }
    meanOut[i] = mean;
    rstdOut[i] = rstd;
  }
  writeDense(Y, y);
});
