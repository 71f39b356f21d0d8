// The native NN kernels (native/cpu/NN.cc, nn_kernels.inc, NNIndex.cc), registered into the
// DispatchStubs of the TypeScript kernels they mirror: softmax and log_softmax (forward and backward,
// last dim and inner dim), layer norm (forward and backward), batch norm (statistics, affine step,
// backward), 2-d max / average / adaptive-average pooling (forward and backward), and the index
// kernels: index_select (embedding's rows), gather, scatter / scatter_add / scatter_reduce's sum and
// mean, embedding_dense_backward, and nll_loss forward / backward (cross_entropy's last step). The NN kernels take float32 and float64 on contiguous operands (the
// layout PyTorch's kernels themselves run on after .contiguous()), softmax also bfloat16 (in
// float, but the last-dim log_softmax forward); index_select, gather and scatter
// copy elements of any dtype (adds: float32, float64, int32, int64), gather and scatter on any strides;
// index_select reads its int64 / int32 index tensor where it lies (any stride, 0-d).
// Anything else (another dtype, a strided or channels-last operand, an index out of range, whose
// error the TypeScript kernel raises) returns false and the TypeScript kernel runs.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, type TypedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import * as SM from "../activation/SoftMaxKernel.js";
import { upsample_bilinear2d_kernel, upsample_nearest_kernel, linearIndices, nearestIndices } from "../vision/UpSampleKernels.js";
import { LayerNormKernel, GroupNormKernel, batch_norm_cpu_collect_stats_stub, batch_norm_cpu_stub } from "../normalization/NormKernels.js";
import { max_pool2d_kernel, avg_pool2d_kernel, adaptive_avg_pool2d_kernel, type Window2d } from "../pooling/PoolKernels.js";
import { LayerNormBackwardKernel, batch_norm_cpu_backward_stub } from "../normalization/NormBackward.js";
import { max_pool2d_backward_kernel, avg_pool2d_backward_kernel, adaptive_avg_pool2d_backward_kernel } from "../pooling/PoolBackward.js";
import { index_select_stub } from "../index/IndexSelect.js";
import { gather_stub, scatter_stub } from "../index/ScatterGather.js";
import { embedding_dense_backward_stub } from "../index/EmbeddingBackward.js";
import { nll_loss_forward_stub } from "../loss/LossNLL.js";
import { nll_loss_backward_stub } from "../loss/LossNLLBackward.js";
import type { NativeAddon } from "./NativeBackend.js";

/** The addon's NN functions (native/cpu/NN.cc); offsets and sizes count elements. */
export interface NativeNNAddon {
  nn_softmax(kind: number, dtype: number, input: TypedView, inOffset: number, output: TypedView, outOffset: number, outer: number, dim: number, inner: number): boolean;
  nn_softmax_backward(
    kind: number, dtype: number, grad: TypedView, gradOffset: number, output: TypedView, outputOffset: number,
    gradInput: TypedView, gradInputOffset: number, outer: number, dim: number, inner: number,
  ): boolean;
  nn_layer_norm(
    dtype: number, x: TypedView, xOffset: number, gamma: TypedView | null, gammaOffset: number, beta: TypedView | null, betaOffset: number,
    M: number, N: number, eps: number, y: TypedView, yOffset: number, mean: Float64Array, rstd: Float64Array,
  ): boolean;
  nn_upsample2d(
    bilinear: boolean, dtype: number, x: TypedView, xOffset: number, y: TypedView, yOffset: number, planes: number, IH: number, IW: number, OH: number, OW: number,
    hi0: Int32Array, hi1: Int32Array, hl0: Float64Array, hl1: Float64Array, wi0: Int32Array, wi1: Int32Array, wl0: Float64Array, wl1: Float64Array,
  ): boolean;
  nn_group_norm(
    dtype: number, x: TypedView, xOffset: number, gamma: TypedView | null, gammaOffset: number, beta: TypedView | null, betaOffset: number,
    N: number, C: number, HxW: number, G: number, eps: number, y: TypedView, yOffset: number, mean: Float64Array, rstd: Float64Array,
  ): boolean;
  nn_batch_norm_stats(dtype: number, x: TypedView, xOffset: number, N: number, C: number, image: number, mean: Float64Array, varSum: Float64Array): boolean;
  nn_batch_norm_apply(dtype: number, x: TypedView, xOffset: number, y: TypedView, yOffset: number, N: number, C: number, image: number, alpha: Float64Array, beta: Float64Array): boolean;
  nn_max_pool2d(
    dtype: number, x: TypedView, xOffset: number, y: TypedView, yOffset: number, indices: TypedView, indOffset: number,
    P: number, H: number, W: number, OH: number, OW: number, window: Float64Array,
  ): boolean;
  nn_avg_pool2d(dtype: number, x: TypedView, xOffset: number, y: TypedView, yOffset: number, P: number, H: number, W: number, OH: number, OW: number, window: Float64Array | null): boolean;
  nn_layer_norm_backward(
    dtype: number, dY: TypedView, dyOffset: number, X: TypedView, xOffset: number, mean: Float64Array, rstd: Float64Array, gamma: Float64Array | null,
    M: number, N: number, dX: TypedView | null, dxOffset: number, dgamma: TypedView | null, dgOffset: number, dbeta: TypedView | null, dbOffset: number,
  ): boolean;
  nn_batch_norm_backward(
    dtype: number, dY: TypedView, dyOffset: number, X: TypedView, xOffset: number, N: number, C: number, image: number,
    weight: Float64Array | null, mean: Float64Array, invstd: Float64Array, train: boolean,
    gi: TypedView | null, giOffset: number, gw: TypedView | null, gwOffset: number, gb: TypedView | null, gbOffset: number,
  ): boolean;
  /** kind: 0 max (indices), 1 avg (window), 2 adaptive avg; false for an index outside its plane. */
  nn_pool2d_backward(
    kind: number, dtype: number, gradInput: TypedView, giOffset: number, gradOutput: TypedView, goOffset: number, indices: TypedView | null, indOffset: number,
    P: number, H: number, W: number, OH: number, OW: number, window: Float64Array | null,
  ): boolean;
  /** Copies rows of any dtype (itemsize bytes per element); offsets in elements; false for an index out of range. */
  nn_index_select(
    itemsize: number, dst: Uint8Array, dstOffset: number, src: Uint8Array, srcOffset: number, outer: number, dimSize: number, inner: number,
    index: TypedView, indexOffset: number, indexStride: number, n: number,
  ): boolean;
  /** mode 0 gather, 1 scatter, 2 scatter_add; meta = [ndim, sizes, (offset, strides) of index, self, other, self's size along dim]. */
  nn_gather_scatter(mode: number, dtype: number, itemsize: number, meta: Float64Array, dim: number, index: TypedView, self: Uint8Array, other: ArrayBufferView): boolean;
  nn_embedding_dense_backward(
    dtype: number, gradWeight: TypedView, gwOffset: number, grad: TypedView, gradOffset: number, index: Float64Array,
    numWeights: number, D: number, paddingIdx: number, scale: boolean,
  ): boolean;
  /** false (nothing written) for a target outside [0, C) that is not ignore_index. */
  nn_nll_loss_forward(
    dtype: number, self: TypedView, selfOffset: number, target: TypedView, targetOffset: number, weight: TypedView | null, weightOffset: number,
    N: number, C: number, ignoreIndex: number, reduction: number, perSample: boolean, out: TypedView, outOffset: number, totalWeight: TypedView, twOffset: number,
  ): boolean;
  nn_nll_loss_backward(
    dtype: number, gradInput: TypedView, giOffset: number, target: TypedView, targetOffset: number, weight: TypedView | null, weightOffset: number,
    N: number, C: number, ignoreIndex: number, reduction: number, perSample: boolean, gradOutput: TypedView | null, goOffset: number, gradOutputValue: number, totalWeightValue: number,
  ): boolean;
}

// NativeAddon (NativeBackend.ts) gains these functions by declaration merging
declare module "./NativeBackend.js" {
  interface NativeAddon extends NativeNNAddon {}
}

const isFloat = (t: ScalarType): boolean => t === ScalarType.Float || t === ScalarType.Double;

/** A contiguous tensor's storage view and offset, or null (another dtype, or not contiguous). */
function dense(t: Tensor, st: ScalarType): [TypedView, number] | null {
  const impl = t._impl;
  if (impl.dtype.scalarType !== st || !impl.is_contiguous()) return null;
  return [typedView(impl.storage, impl.dtype), impl.storage_offset()];
}

// the kinds of NN.cc's softmax: bit 0 log_softmax, bit 1 the inner-dim kernel
const LOG = 1, INNER_DIM = 2;

function softmax(addon: NativeNNAddon, kind: number, a: SM.SoftmaxArgs): boolean {
  // bfloat16 in float, but the last-dim log_softmax (1.13 rounds its every step to bfloat16: the TS kernel)
  if (!isFloat(a.dtype) && !(a.dtype === ScalarType.BFloat16 && kind !== LOG)) return false;
  const x = dense(a.input, a.dtype), y = dense(a.output, a.dtype);
  if (x === null || y === null) return false;
  return addon.nn_softmax(kind, a.dtype, x[0], x[1], y[0], y[1], a.outer, a.dimSize, a.inner);
}

function softmaxBackward(addon: NativeNNAddon, kind: number, a: SM.SoftmaxBackwardArgs): boolean {
  if (!isFloat(a.dtype) && a.dtype !== ScalarType.BFloat16) return false;
  const g = dense(a.grad, a.dtype), o = dense(a.output, a.dtype), gi = dense(a.gradInput, a.dtype);
  if (g === null || o === null || gi === null) return false;
  return addon.nn_softmax_backward(kind, a.dtype, g[0], g[1], o[0], o[1], gi[0], gi[1], a.outer, a.dimSize, a.inner);
}

type Dense = [TypedView, number];
/** Optional outputs: [view, offset] for a contiguous tensor of dtype st, [null, 0] for none, false to decline. */
function optionalDense(t: Tensor | null, st: ScalarType): Dense | [null, number] | false {
  if (t === null) return [null, 0];
  return dense(t, st) ?? false;
}

/** The bytes of a tensor's storage (the index kernels copy elements of any dtype). */
const bytesOf = (t: Tensor): Uint8Array => new Uint8Array(t._impl.storage.buffer());
const prod = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);

/** gather / scatter: the walk over index's shape with index's, self's and the other operand's strides. */
function gatherScatter(addon: NativeNNAddon, mode: number, self: Tensor, dim: number, index: Tensor, other: Tensor | null, value: ArrayBufferView | null): boolean {
  const nd = index.dim();
  if (nd === 0 || self.dim() !== nd || index.dtype.scalarType !== ScalarType.Long || (other && (other.dim() !== nd || other.dtype !== self.dtype))) return false;
  const meta = new Float64Array(2 + nd + 3 * (1 + nd));
  meta[0] = nd;
  index._impl.sizes().forEach((v, d) => (meta[1 + d] = v));
  let at = 1 + nd;
  for (const t of [index, self, other]) {
    if (t) {
      meta[at] = t._impl.storage_offset();
      t._impl.strides().forEach((v, d) => (meta[at + 1 + d] = v));
    }
    at += 1 + nd;
  }
  meta[at] = self.size(dim);
  const st = self.dtype.scalarType;
  const ix = typedView(index._impl.storage, index.dtype);
  return addon.nn_gather_scatter(mode, st, self.dtype.itemsize, meta, dim, ix, bytesOf(self), other ? bytesOf(other) : value!);
}

/** A scatter's Scalar value as one element of self's dtype, converted as the TypeScript kernel converts it; null to decline. */
function scalarValue(st: ScalarType, v: unknown): ArrayBufferView | null {
  if (typeof v === "bigint") return st === ScalarType.Long ? new BigInt64Array([BigInt.asIntN(64, v)]) : null;
  if (typeof v !== "number") return null;
  if (st === ScalarType.Float) return new Float32Array([v]);
  if (st === ScalarType.Double) return new Float64Array([v]);
  if (st === ScalarType.Long && Number.isFinite(v)) return new BigInt64Array([BigInt(Math.trunc(v))]);
  return null;
}

/** [planes, H, W] of a pooling operand (batch and channels folded). */
function planes(t: Tensor): [number, number, number] {
  const s = t.shape;
  const n = s.length;
  return [s.slice(0, n - 2).reduce((a, b) => a * b, 1), s[n - 2], s[n - 1]];
}

const windowArray = new Float64Array(8);
function windowOf(w: Window2d, a6: number, a7: number): Float64Array {
  windowArray.set([w.kH, w.kW, w.dH, w.dW, w.padH, w.padW, a6, a7]);
  return windowArray;
}

export function registerNNKernels(addon: NativeAddon): void {
  SM.softmax_lastdim_kernel.register("native", (a) => softmax(addon, 0, a));
  SM.log_softmax_lastdim_kernel.register("native", (a) => softmax(addon, LOG, a));
  SM.softmax_kernel.register("native", (a) => softmax(addon, INNER_DIM, a));
  SM.log_softmax_kernel.register("native", (a) => softmax(addon, INNER_DIM | LOG, a));
  SM.softmax_backward_lastdim_kernel.register("native", (a) => softmaxBackward(addon, 0, a));
  SM.log_softmax_backward_lastdim_kernel.register("native", (a) => softmaxBackward(addon, LOG, a));
  SM.softmax_backward_kernel.register("native", (a) => softmaxBackward(addon, INNER_DIM, a));
  SM.log_softmax_backward_kernel.register("native", (a) => softmaxBackward(addon, INNER_DIM | LOG, a));

  LayerNormKernel.register("native", (input, gamma, beta, M, N, eps, Y, mean, rstd) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st)) return false;
    const x = dense(input, st), y = dense(Y, st);
    const g = gamma ? dense(gamma, st) : null, b = beta ? dense(beta, st) : null;
    if (x === null || y === null || (gamma && g === null) || (beta && b === null)) return false;
    return addon.nn_layer_norm(st, x[0], x[1], g ? g[0] : null, g ? g[1] : 0, b ? b[0] : null, b ? b[1] : 0, M, N, eps, y[0], y[1], mean, rstd);
  });

  // resampling: the TS kernel's source indices and weights, the per-element loop natively
  upsample_bilinear2d_kernel.register("native", (output, input, alignCorners, scales) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st)) return false;
    const x = dense(input, st), y = dense(output, st);
    if (x === null || y === null) return false;
    const [IH, IW] = input.shape.slice(-2), [OH, OW] = output.shape.slice(-2);
    const h = linearIndices(st, IH, OH, alignCorners, scales[0]), w = linearIndices(st, IW, OW, alignCorners, scales[1]);
    return addon.nn_upsample2d(true, st, x[0], x[1], y[0], y[1], input.numel() / (IH * IW), IH, IW, OH, OW, h.i0, h.i1, h.l0, h.l1, w.i0, w.i1, w.l0, w.l1);
  });
  upsample_nearest_kernel.register("native", (output, input, scales) => {
    const st = input.dtype.scalarType, nd = scales.length;
    if (!isFloat(st) || (nd !== 1 && nd !== 2)) return false;
    const x = dense(input, st), y = dense(output, st);
    if (x === null || y === null) return false;
    const [IH, IW] = nd === 2 ? input.shape.slice(-2) : [1, input.shape[input.dim() - 1]];
    const [OH, OW] = nd === 2 ? output.shape.slice(-2) : [1, output.shape[output.dim() - 1]];
    const iy = nd === 2 ? nearestIndices(st, IH, OH, scales[0]) : new Int32Array(1), ix = nearestIndices(st, IW, OW, scales[nd - 1]);
    const none = new Float64Array(0);
    return addon.nn_upsample2d(false, st, x[0], x[1], y[0], y[1], input.numel() / (IH * IW), IH, IW, OH, OW, iy, iy, none, none, ix, ix, none, none);
  });

  GroupNormKernel.register("native", (input, gamma, beta, N, C, HxW, G, eps, Y, mean, rstd) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st)) return false;
    const x = dense(input, st), y = dense(Y, st);
    const g = gamma ? dense(gamma, st) : null, b = beta ? dense(beta, st) : null;
    if (x === null || y === null || (gamma && g === null) || (beta && b === null)) return false;
    return addon.nn_group_norm(st, x[0], x[1], g ? g[0] : null, g ? g[1] : 0, b ? b[0] : null, b ? b[1] : 0, N, C, HxW, G, eps, y[0], y[1], mean, rstd);
  });

  batch_norm_cpu_collect_stats_stub.register("native", (out, input) => {
    const st = input.dtype.scalarType;
    const x = isFloat(st) ? dense(input, st) : null;
    if (x === null) return false;
    const [N, C] = input.shape;
    const image = input.numel() / Math.max(N * C, 1);
    return addon.nn_batch_norm_stats(st, x[0], x[1], N, C, image, out.mean, out.varSum);
  });
  batch_norm_cpu_stub.register("native", (output, input, alpha, beta) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st)) return false;
    const x = dense(input, st), y = dense(output, st);
    if (x === null || y === null) return false;
    const [N, C] = input.shape;
    const image = input.numel() / Math.max(N * C, 1);
    return addon.nn_batch_norm_apply(st, x[0], x[1], y[0], y[1], N, C, image, alpha, beta);
  });

  max_pool2d_kernel.register("native", (output, indices, input, w) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st)) return false;
    const x = dense(input, st), y = dense(output, st), ind = dense(indices, ScalarType.Long);
    if (x === null || y === null || ind === null) return false;
    const [P, H, W] = planes(input);
    const [, OH, OW] = planes(output);
    return addon.nn_max_pool2d(st, x[0], x[1], y[0], y[1], ind[0], ind[1], P, H, W, OH, OW, windowOf(w, w.dilationH, w.dilationW));
  });
  avg_pool2d_kernel.register("native", (output, input, w, countIncludePad, divisorOverride) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st) || divisorOverride === 0) return false;
    const x = dense(input, st), y = dense(output, st);
    if (x === null || y === null) return false;
    const [P, H, W] = planes(input);
    const [, OH, OW] = planes(output);
    return addon.nn_avg_pool2d(st, x[0], x[1], y[0], y[1], P, H, W, OH, OW, windowOf(w, countIncludePad ? 1 : 0, divisorOverride ?? 0));
  });
  adaptive_avg_pool2d_kernel.register("native", (output, input) => {
    const st = input.dtype.scalarType;
    if (!isFloat(st)) return false;
    const x = dense(input, st), y = dense(output, st);
    if (x === null || y === null) return false;
    const [P, H, W] = planes(input);
    const [, OH, OW] = planes(output);
    return addon.nn_avg_pool2d(st, x[0], x[1], y[0], y[1], P, H, W, OH, OW, null);
  });

  LayerNormBackwardKernel.register("native", (dX, dgamma, dbeta, dY, X, mean, rstd, gamma, M, N) => {
    const st = X.dtype.scalarType;
    if (!isFloat(st)) return false;
    const dy = dense(dY, st), x = dense(X, st);
    const dx = optionalDense(dX, st), dg = optionalDense(dgamma, st), db = optionalDense(dbeta, st);
    if (dy === null || x === null || dx === false || dg === false || db === false) return false;
    return addon.nn_layer_norm_backward(st, dy[0], dy[1], x[0], x[1], mean, rstd, gamma, M, N, dx[0], dx[1], dg[0], dg[1], db[0], db[1]);
  });
  batch_norm_cpu_backward_stub.register("native", (gi, gw, gb, dY, X, w, mean, invstd, train) => {
    const st = X.dtype.scalarType;
    if (!isFloat(st)) return false;
    const dy = dense(dY, st), x = dense(X, st);
    const gin = optionalDense(gi, st), gwe = optionalDense(gw, st), gbi = optionalDense(gb, st);
    if (dy === null || x === null || gin === false || gwe === false || gbi === false) return false;
    const [N, C] = X.shape;
    const image = X.numel() / Math.max(N * C, 1);
    return addon.nn_batch_norm_backward(st, dy[0], dy[1], x[0], x[1], N, C, image, w, mean, invstd, train, gin[0], gin[1], gwe[0], gwe[1], gbi[0], gbi[1]);
  });

  const poolBackward = (kind: number, gradInput: Tensor, gradOutput: Tensor, indices: Tensor | null, window: Float64Array | null): boolean => {
    const st = gradInput.dtype.scalarType;
    if (!isFloat(st)) return false;
    const gi = dense(gradInput, st), go = dense(gradOutput, st);
    const ind = indices ? dense(indices, ScalarType.Long) : null;
    if (gi === null || go === null || (indices && ind === null)) return false;
    const [P, H, W] = planes(gradInput);
    const [P2, OH, OW] = planes(gradOutput);
    if (P2 !== P) return false;
    return addon.nn_pool2d_backward(kind, st, gi[0], gi[1], go[0], go[1], ind ? ind[0] : null, ind ? ind[1] : 0, P, H, W, OH, OW, window);
  };
  max_pool2d_backward_kernel.register("native", (gi, go, idx) => poolBackward(0, gi, go, idx, null));
  avg_pool2d_backward_kernel.register("native", (gi, go, w, countIncludePad, divisorOverride) =>
    divisorOverride !== 0 && poolBackward(1, gi, go, null, windowOf(w, countIncludePad ? 1 : 0, divisorOverride ?? 0)));
  adaptive_avg_pool2d_backward_kernel.register("native", (gi, go) => poolBackward(2, gi, go, null, null));

  index_select_stub.register("native", (result, self, dim, index) => {
    if (self.dim() === 0 || result.dtype !== self.dtype || !self._impl.is_contiguous() || !result._impl.is_contiguous()) return false;
    const sizes = self._impl.sizes();
    return addon.nn_index_select(
      self.dtype.itemsize, bytesOf(result), result._impl.storage_offset(), bytesOf(self), self._impl.storage_offset(),
      prod(sizes.slice(0, dim)), sizes[dim], prod(sizes.slice(dim + 1)),
      typedView(index._impl.storage, index.dtype), index._impl.storage_offset(), index.dim() === 0 ? 1 : index.stride(0), index.numel(),
    );
  });
  gather_stub.register("native", (result, self, dim, index) => result.dtype === self.dtype && gatherScatter(addon, 0, self, dim, index, result, null));
  scatter_stub.register("native", (self, dim, index, src, op) => {
    const mode = op === null ? 1 : op === "sum" || op === "mean" ? 2 : -1;
    if (mode < 0) return false;
    if (typeof src === "object" && src !== null) return gatherScatter(addon, mode, self, dim, index, src as Tensor, null);
    const value = scalarValue(self.dtype.scalarType, src);
    return value !== null && gatherScatter(addon, mode, self, dim, index, null, value);
  });
  embedding_dense_backward_stub.register("native", (gw, grad, idx, paddingIdx, scale) => {
    const st = gw.dtype.scalarType;
    if (!isFloat(st)) return false;
    const w = dense(gw, st), g = dense(grad, st);
    if (w === null || g === null || gw.dim() !== 2 || grad.numel() !== idx.length * gw.shape[1]) return false;
    return addon.nn_embedding_dense_backward(st, w[0], w[1], g[0], g[1], idx, gw.shape[0], gw.shape[1], paddingIdx, scale);
  });

  // nll_loss: targets must fit a double exactly (ignore_index is passed as a number)
  const nllOperands = (self: Tensor, target: Tensor, weight: Tensor | null, ignore: number) => {
    const st = self.dtype.scalarType;
    if (!isFloat(st) || !Number.isSafeInteger(ignore)) return null;
    const x = dense(self, st), t = dense(target, ScalarType.Long), w = weight ? dense(weight, st) : null;
    if (x === null || t === null || (weight && w === null)) return null;
    return { st, x, t, w, N: self.dim() === 1 ? 1 : self.size(0), C: self.size(-1) };
  };
  nll_loss_forward_stub.register("native", (out, tw, self, target, weight, reduction, ignore, perSample) => {
    const o = nllOperands(self, target, weight, ignore);
    const y = dense(out, self.dtype.scalarType), z = dense(tw, self.dtype.scalarType);
    if (o === null || y === null || z === null) return false;
    return addon.nn_nll_loss_forward(o.st, o.x[0], o.x[1], o.t[0], o.t[1], o.w ? o.w[0] : null, o.w ? o.w[1] : 0, o.N, o.C, ignore, reduction, perSample, y[0], y[1], z[0], z[1]);
  });
  nll_loss_backward_stub.register("native", (gradInput, self, target, weight, gradOutput, totalWeight, reduction, ignore, perSample) => {
    const o = nllOperands(self, target, weight, ignore);
    const gi = dense(gradInput, self.dtype.scalarType);
    if (o === null || gi === null || gradOutput.dtype !== self.dtype || totalWeight.dtype !== self.dtype) return false;
    const go = perSample ? dense(gradOutput, o.st) : null;
    if (perSample && go === null) return false;
    const g = perSample ? 0 : gradOutput._flatNumbers()[0], tw = totalWeight._flatNumbers()[0];
    return addon.nn_nll_loss_backward(o.st, gi[0], gi[1], o.t[0], o.t[1], o.w ? o.w[0] : null, o.w ? o.w[1] : 0, o.N, o.C, ignore, reduction, perSample, go ? go[0] : null, go ? go[1] : 0, g, tw);
  });
}
