// The normalization backward ops PyTorch 1.13's formulas call: native_batch_norm_backward
// (Normalization.cpp batch_norm_backward_cpu), native_layer_norm_backward (layer_norm.cpp
// layer_norm_backward_cpu) and native_group_norm_backward (group_norm.cpp), each with its CPU loop behind a
// DispatchStub (batch_norm_cpu_backward_stub, LayerNormBackwardKernel, GroupNormBackwardKernel) and a Meta
// kernel (sizes only: PyTorch 1.13 runs these on meta through its Python decompositions). They use the
// statistics the forward saved (save_mean / save_invstd, mean / rstd), or in eval mode the running ones.
// Sums are kept in double and each result rounded once to the output dtype (PyTorch sums float32 in
// float32 / vectorized float lanes: float32 results agree within a few ulps, not bit for bit).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { DispatchStub } from "../DispatchStub.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { hasData, readDense, writeDense } from "../conv/Dense.js";
import { contig } from "../conv/Convolution.js";
import { checkInputs } from "./LayerNorm.js";

const { Double, Float, BFloat16 } = ScalarType;
const FLOATS = [Double, Float, BFloat16];

type Grads3 = [Tensor | null, Tensor | null, Tensor | null];
// Uninitialised (at::empty, as PyTorch allocates them): every element of each result is written, by the
// kernel (TypeScript or native: each writes all of dX / dgamma / dbeta it is given) or by the empty-input
// branches below (zero parameter gradients); a zero-filled block would be cleared only to be overwritten.
const fresh = (sizes: readonly number[], like: Tensor): Tensor => wrap(empty_impl([...sizes], like.dtype, like.device, true));

// ---- native_batch_norm_backward ----

/** Per channel c of x [N, C, *]: mean[c], invstd[c] given; gi, gw (= dotp * invstd), gb (= sum(dy)). */
type BatchNormBackwardFn = (gi: Tensor | null, gw: Tensor | null, gb: Tensor | null, dy: Tensor, x: Tensor, w: Float64Array | null, mean: Float64Array, invstd: Float64Array, train: boolean) => void;
export const batch_norm_cpu_backward_stub = new DispatchStub<BatchNormBackwardFn>("batch_norm_cpu_backward_stub", "aten/src/ATen/native/cpu/batch_norm_kernel.cpp");
batch_norm_cpu_backward_stub.register("ts", (gi, gw, gb, dyT, xT, w, mean, invstd, train) => {
  const C = xT.shape[1], N = xT.shape[0];
  const image = xT.numel() / Math.max(N * C, 1);
  const n = N * image;
  const dy = readDense(dyT), x = readDense(xT);
  const sum = new Float64Array(C), dotp = new Float64Array(C);
  for (let k = 0; k < N; k++) {
    for (let c = 0; c < C; c++) {
      const base = (k * C + c) * image;
      for (let i = 0; i < image; i++) {
        sum[c] += dy[base + i];
        dotp[c] += (x[base + i] - mean[c]) * dy[base + i];
      }
    }
  }
  if (gi) {
    const out = new Float64Array(xT.numel());
    for (let c = 0; c < C; c++) {
      const wc = w ? w[c] : 1;
      // training: dx = (dy - mean(dy) - (x - mean) * dotp * invstd^2 / n) * invstd * w; eval: dy * invstd * w
      const k = (dotp[c] * invstd[c] * invstd[c]) / n;
      const gradMean = sum[c] / n;
      for (let b = 0; b < N; b++) {
        const base = (b * C + c) * image;
        for (let i = 0; i < image; i++) {
          const e = base + i;
          out[e] = train ? (dy[e] - gradMean - (x[e] - mean[c]) * k) * invstd[c] * wc : dy[e] * invstd[c] * wc;
        }
      }
    }
    writeDense(gi, out);
  }
  if (gw) writeDense(gw, dotp.map((d, c) => d * invstd[c]));
  if (gb) writeDense(gb, sum);
});

export function batch_norm_backward_cpu(
  gradOut: Tensor, input: Tensor, weight: Tensor | null, runningMean: Tensor | null, runningVar: Tensor | null,
  saveMean: Tensor | null, saveInvstd: Tensor | null, train: boolean, eps: number, mask: boolean[],
): Grads3 {
  AT_DISPATCH("batch_norm_backward_cpu", input.dtype.scalarType, FLOATS);
  const C = input.shape[maybe_wrap_dim(1, input.dim())];
  const gi = mask[0] ? fresh(input.shape, input) : null;
  const gw = mask[1] ? fresh([C], input) : null;
  const gb = mask[2] ? fresh([C], input) : null;
  if (!hasData(input) || input.numel() === 0) {
    // an empty input: zero parameter gradients (the loops add nothing)
    if (gw && hasData(gw)) writeDense(gw, new Float64Array(C));
    if (gb && hasData(gb)) writeDense(gb, new Float64Array(C));
    return [gi, gw, gb];
  }
  const mean = train ? readDense(saveMean!) : readDense(runningMean!);
  const invstd = train ? readDense(saveInvstd!) : readDense(runningVar!).map((v) => 1 / Math.sqrt(v + eps));
  if (!train && input.dtype.scalarType !== Double) for (let c = 0; c < C; c++) invstd[c] = Math.fround(invstd[c]);
  batch_norm_cpu_backward_stub.call("cpu", gi, gw, gb, contig(gradOut), contig(input), weight ? readDense(weight) : null, mean, invstd, train);
  return [gi, gw, gb];
}

// ---- native_layer_norm_backward ----

/** Rows i < M of N elements: dx = rstd*dy*g + b*x + c with b, c from ds = sum(dy*g*x), db = sum(dy*g). */
type LayerNormBackwardFn = (dX: Tensor | null, dgamma: Tensor | null, dbeta: Tensor | null, dY: Tensor, X: Tensor, mean: Float64Array, rstd: Float64Array, gamma: Float64Array | null, M: number, N: number) => void;
export const LayerNormBackwardKernel = new DispatchStub<LayerNormBackwardFn>("LayerNormBackwardKernel", "aten/src/ATen/native/cpu/layer_norm_kernel.cpp");
LayerNormBackwardKernel.register("ts", (dX, dgamma, dbeta, dYT, XT, mean, rstd, gamma, M, N) => {
  const dy = readDense(dYT), x = readDense(XT);
  const dx = dX ? new Float64Array(M * N) : null;
  const dg = new Float64Array(N), db = new Float64Array(N);
  for (let i = 0; i < M; i++) {
    const o = i * N;
    let ds = 0, dbs = 0;
    for (let j = 0; j < N; j++) {
      const gj = gamma ? gamma[j] : 1;
      ds += dy[o + j] * gj * x[o + j];
      dbs += dy[o + j] * gj;
      dg[j] += dy[o + j] * (x[o + j] - mean[i]) * rstd[i];
      db[j] += dy[o + j];
    }
    if (dx) {
      const a = rstd[i];
      const b = ((dbs * mean[i] - ds) * a * a * a) / N;
      const c = -b * mean[i] - (dbs * a) / N;
      for (let j = 0; j < N; j++) dx[o + j] = a * dy[o + j] * (gamma ? gamma[j] : 1) + b * x[o + j] + c;
    }
  }
  if (dX) writeDense(dX, dx!);
  if (dgamma) writeDense(dgamma, dg);
  if (dbeta) writeDense(dbeta, db);
});

export function layer_norm_backward_cpu(
  dY: Tensor, input: Tensor, normalizedShape: number[], mean: Tensor, rstd: Tensor, weight: Tensor | null, bias: Tensor | null, mask: boolean[],
): Grads3 {
  const [M, N] = checkInputs(input, normalizedShape, weight, bias);
  const X = contig(input);
  const undefinedLike = (t: Tensor | null): Tensor => {
    // at::native::empty_like(*gamma) on an undefined tensor
    if (t === null) throw new RuntimeError("tensor does not have a device");
    return fresh(t.shape, t);
  };
  const dX = mask[0] ? fresh(X.shape, X) : null;
  const dgamma = mask[1] ? undefinedLike(weight) : null;
  const dbeta = mask[2] ? undefinedLike(bias) : null;
  AT_DISPATCH("LayerNormBackwardKernelImpl", X.dtype.scalarType, FLOATS);
  if (hasData(X)) {
    if (M > 0 && N > 0) {
      LayerNormBackwardKernel.call("cpu", dX, dgamma, dbeta, contig(dY), X, readDense(mean), readDense(rstd), weight ? readDense(weight) : null, M, N);
    } else if (M === 0) {
      // zeros_like(*gamma) / zeros_like(*beta)
      if (dgamma) writeDense(dgamma, new Float64Array(dgamma.numel()));
      if (dbeta) writeDense(dbeta, new Float64Array(dbeta.numel()));
    }
  }
  return [dX, dgamma, dbeta];
}

// ---- native_group_norm_backward ----

type GroupNormBackwardFn = (dX: Tensor | null, dgamma: Tensor | null, dbeta: Tensor | null, dY: Tensor, X: Tensor, mean: Float64Array, rstd: Float64Array, gamma: Float64Array | null, N: number, C: number, HxW: number, G: number) => void;
export const GroupNormBackwardKernel = new DispatchStub<GroupNormBackwardFn>("GroupNormBackwardKernel", "aten/src/ATen/native/cpu/group_norm_kernel.cpp");
GroupNormBackwardKernel.register("ts", (dX, dgamma, dbeta, dYT, XT, mean, rstd, gamma, N, C, HxW, G) => {
  const dy = readDense(dYT), x = readDense(XT);
  const D = C / G;
  const s = 1 / (D * HxW);
  // ds[n, c] = sum_hw dy * x, db[n, c] = sum_hw dy (ComputeInternalGradients)
  const ds = new Float64Array(N * C), db = new Float64Array(N * C);
  for (let nc = 0; nc < N * C; nc++) {
    for (let k = 0; k < HxW; k++) {
      ds[nc] += dy[nc * HxW + k] * x[nc * HxW + k];
      db[nc] += dy[nc * HxW + k];
    }
  }
  if (dX) {
    const dx = new Float64Array(N * C * HxW);
    for (let n = 0; n < N; n++) {
      for (let g = 0; g < G; g++) {
        const ng = n * G + g;
        let dsg = 0, dbg = 0;
        for (let d = 0; d < D; d++) {
          const c = g * D + d;
          const gc = gamma ? gamma[c] : 1;
          dsg += ds[n * C + c] * gc;
          dbg += db[n * C + c] * gc;
        }
        const r = rstd[ng], m = mean[ng];
        const c2 = (dbg * m - dsg) * r * r * r * s;
        const c3 = -c2 * m - dbg * r * s;
        for (let d = 0; d < D; d++) {
          const c = g * D + d;
          const c1 = r * (gamma ? gamma[c] : 1);
          const base = (n * C + c) * HxW;
          for (let k = 0; k < HxW; k++) dx[base + k] = c1 * dy[base + k] + c2 * x[base + k] + c3;
        }
      }
    }
    writeDense(dX, dx);
  }
  if (dgamma) {
    const dg = new Float64Array(C);
    for (let n = 0; n < N; n++) for (let c = 0; c < C; c++) {
      const ng = n * G + Math.floor(c / D);
      dg[c] += (ds[n * C + c] - db[n * C + c] * mean[ng]) * rstd[ng];
    }
    writeDense(dgamma, dg);
  }
  if (dbeta) {
    const dbt = new Float64Array(C);
    for (let n = 0; n < N; n++) for (let c = 0; c < C; c++) dbt[c] += db[n * C + c];
    writeDense(dbeta, dbt);
  }
});

export function native_group_norm_backward(
  dY: Tensor, X: Tensor, mean: Tensor, rstd: Tensor, gamma: Tensor | null, N: number, C: number, HxW: number, group: number, mask: boolean[],
): Grads3 {
  // mean.data_ptr<T>() / rstd.data_ptr<T>() in the kernel
  for (const t of [mean, rstd]) {
    if (t.dtype !== X.dtype) throw new RuntimeError(`expected scalar type ${scalarTypeName(X.dtype.scalarType)} but found ${scalarTypeName(t.dtype.scalarType)}`);
  }
  const like = (t: Tensor | null): Tensor => {
    if (t === null) throw new RuntimeError("tensor does not have a device");
    return fresh(t.shape, t);
  };
  const dX = mask[0] ? fresh(X.shape, X) : null;
  const dgamma = mask[1] ? like(gamma) : null;
  const dbeta = mask[2] ? like(gamma) : null;
  AT_DISPATCH("GroupNormBackwardKernelImpl", X.dtype.scalarType, FLOATS);
  if (hasData(X) && N * HxW > 0) {
    GroupNormBackwardKernel.call("cpu", dX, dgamma, dbeta, contig(dY), contig(X), readDense(mean), readDense(rstd), gamma ? readDense(gamma) : null, N, C, HxW, group);
  } else if (hasData(X)) {
    // nothing to sum: zero parameter gradients
    if (dgamma) writeDense(dgamma, new Float64Array(dgamma.numel()));
    if (dbeta) writeDense(dbeta, new Float64Array(dbeta.numel()));
  }
  return [dX, dgamma, dbeta];
}
