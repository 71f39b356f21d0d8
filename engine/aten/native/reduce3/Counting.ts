// Counting kernels (aten/src/ATen/native/SummaryOps.cpp, Histogram.cpp, cpu/HistogramKernel.cpp):
// bincount and histc. Both are CPU-only in PyTorch 1.13 (no Meta kernel).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, int64, float32, float64, isFloatingType, type dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { dimMask, gather, writeAll, roundTo } from "../reduce/ReduceUtils.js";
import { asDouble, emptyLike, notImplementedFor, type Value } from "./common.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import { max_default } from "../../../generated/max.js";
import { min_default } from "../../../generated/min.js";

const values = (t: Tensor): Value[] => (t.numel() === 0 ? [] : gather(t, dimMask(null, t.dim()))[0]);
/** A 0-d tensor's value as a number (a bool as 0 / 1). */
const itemOf = (t: Tensor): number => Number(t.item());
const notImplemented = notImplementedFor;

// ---- bincount ----

/** The kernel reads self (1-d, non-negative, below out's length) and weights (float32 or float64 sums: out's dtype) as tensors. */
type BincountKernel = (out: Tensor, self: Tensor, weights: Tensor | null) => void;
export const bincount_stub = new DispatchStub<BincountKernel>("bincount", "aten/src/ATen/native/SummaryOps.cpp");
bincount_stub.register("ts", (out, selfT, weightsT) => {
  const n = out.numel();
  const wdt = out.dtype;
  const self = values(selfT);
  if (weightsT === null) {
    const counts = new Array<bigint>(n).fill(0n);
    for (const v of self) counts[Number(v)] += 1n;
    writeAll(out, counts);
  } else {
    // float32 weights add in float; any other weights were converted to double
    const weights = values(weightsT).map((v) => roundTo(wdt, asDouble(v)));
    const acc = new Array<number>(n).fill(0);
    self.forEach((v, i) => { acc[Number(v)] = roundTo(wdt, acc[Number(v)] + weights[i]); });
    writeAll(out, acc);
  }
});

/** _bincount_cpu: 1-d non-negative integral input; int64 counts, or float/double sums of the weights. */
export function _bincount_cpu(self: Tensor, weights: Tensor | null, minlength: number): Tensor {
  const st = self.dtype.scalarType;
  if (isFloatingType(st) || st === ScalarType.Bool) throw notImplemented("bincount_cpu", st);
  if (minlength < 0) throw new RuntimeError("minlength should be >= 0");
  if (self.dim() === 1 && self.numel() === 0) {
    const z = emptyLike(self, [minlength], int64);
    writeAll(z, new Array(minlength).fill(0n));
    return z;
  }
  // self.min() and self.max(), as _bincount_cpu_template reads them
  if (self.dim() !== 1 || itemOf(min_default.call(self) as Tensor) < 0) throw new RuntimeError("bincount only supports 1-d non-negative integral inputs.");
  if (weights !== null && (weights.dim() !== 1 || weights.shape[0] !== self.shape[0])) {
    throw new RuntimeError("weights should be 1-d and have the same length as input");
  }
  const nbins = Math.max(itemOf(max_default.call(self) as Tensor) + 1, minlength);
  const wdt: dtype | null = weights === null ? null : weights.dtype === float32 ? float32 : float64;
  const out = emptyLike(self, [nbins], wdt ?? int64);
  bincount_stub.call(self.device.type, out, self, weights);
  return out;
}

// ---- histc ----

/**
 * at::linspace(start, end, steps) as linspace_kernel computes it in the element type: the first half counts
 * up from start, the rest down from end — except that the vectorized loop (AVX2: 32-byte vectors, two per
 * step) fills whole vectors as base, base + step, base + 2*step, ... from the vector's first index.
 */
function linspace(start: number, end: number, steps: number, dt: dtype): number[] {
  const r = (v: number) => roundTo(dt, v);
  const [s, e] = [r(start), r(end)];
  const step = r((e - s) / (steps - 1));
  const half = Math.floor(steps / 2);
  const at = (i: number) => (i < half ? r(s + r(step * i)) : r(e - r(step * (steps - i - 1))));
  const lanes = 32 / dt.itemsize;
  const vectorized = Math.floor(steps / (2 * lanes)) * 2 * lanes;
  const out: number[] = [];
  for (let i0 = 0; i0 < vectorized; i0 += lanes) {
    const base = at(i0);
    for (let k = 0; k < lanes; k++) out.push(k === 0 ? base : r(base + r(k * step)));
  }
  for (let i = vectorized; i < steps; i++) out.push(at(i));
  return out;
}

/** upper_bound over edges[lo, hi) for v. */
function upperBound(edges: readonly number[], lo: number, hi: number, v: number): number {
  while (lo < hi) {
    const mid = lo + ((hi - lo) >> 1);
    if (!(v < edges[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The kernel reads the input tensor (hist's dtype) itself; edges are linspace's values of that dtype. */
type HistKernel = (hist: Tensor, self: Tensor, edges: readonly number[]) => void;
export const histogramdd_linear_stub = new DispatchStub<HistKernel>("histogramdd_linear_stub", "aten/src/ATen/native/cpu/HistogramKernel.cpp");
histogramdd_linear_stub.register("ts", (hist, self, edges) => {
  const dt = hist.dtype;
  const input = values(self).map((x) => roundTo(dt, asDouble(x)));
  const r = (v: number) => roundTo(dt, v);
  const nEdges = edges.length;
  const [left, right] = [edges[0], edges[nEdges - 1]];
  const counts = new Array<number>(nEdges - 1).fill(0);
  for (const elt of input) {
    if (elt < left || elt > right) continue; // outside the range (NaN is not)
    // LINEAR_INTERPOLATION_WITH_LOCAL_SEARCH: divide, then check the neighbouring bins' edges
    let pos = Number.isNaN(elt) ? 0 : Math.trunc(r(r(r(elt - left) * (nEdges - 1)) / r(right - left)));
    if (!Number.isNaN(elt)) {
      const lo = Math.max(0, pos - 1), hi = Math.min(pos + 2, nEdges);
      pos = upperBound(edges, lo, hi, elt) - 1;
    }
    if (pos === nEdges - 1) pos -= 1; // the last bin includes its right edge
    counts[pos] = r(counts[pos] + 1);
  }
  writeAll(hist, counts);
});

/**
 * histogram_histc_cpu_out: the bins' edges span [min, max] (the input's extremes when min == max), then
 * linear binning (histogramdd_linear_stub). PyTorch 1.13 supports float32, float64 and bfloat16 here; its
 * checks run in this order: hist dtype, bins > 0, aminmax (no float16), linspace (no bool), the kernel.
 * A NaN element passes PyTorch's range test and is counted in the first bin (as 1.13's CPU build does).
 * Known difference: on bfloat16, an element lying exactly on an inner bin edge can land one bin off from
 * PyTorch's (float32 and float64 match exactly; the bfloat16 fixture avoids edges).
 */
export function histogram_histc_cpu_out(self: Tensor, bins: number, min: number | boolean, max: number | boolean, hist: Tensor): Tensor {
  const st = self.dtype.scalarType;
  if (hist.dtype !== self.dtype) {
    throw new RuntimeError(`torch.histogram: input tensor and hist tensor should have the same dtype, but got input ${typeMetaName(st)} and hist ${typeMetaName(hist.dtype.scalarType)}`);
  }
  if (bins <= 0) throw new RuntimeError(`torch.histogram(): bins must be > 0, but got ${bins} for dimension 0`);
  resize_output(hist, [bins]);
  let [lo, hi] = [Number(min), Number(max)];
  if (lo === hi && self.numel() > 0) {
    // aminmax: the extremes, NaN if there is one
    if (st === ScalarType.Half) throw notImplemented("aminmax_cpu", st);
    lo = itemOf(min_default.call(self) as Tensor);
    hi = itemOf(max_default.call(self) as Tensor);
  }
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    // C++ streams print the NaN aminmax produces as "-nan"
    const f = (v: number) => (Number.isNaN(v) ? "-nan" : Number.isFinite(v) ? String(v) : v > 0 ? "inf" : "-inf");
    throw new RuntimeError(`torch.histc: range of [${f(lo)}, ${f(hi)}] is not finite`);
  }
  if (!(lo < hi)) throw new RuntimeError("torch.histc: max must be larger than min");
  if (st === ScalarType.Bool) throw notImplemented("linspace_cpu", st);
  if (!(st === ScalarType.Float || st === ScalarType.Double || st === ScalarType.BFloat16)) throw notImplemented("histogram_cpu", st);
  histogramdd_linear_stub.call(self.device.type, hist, self, linspace(lo, hi, bins + 1, self.dtype));
  return hist;
}

export const histogram_histc_cpu = (self: Tensor, bins: number, min: number | boolean, max: number | boolean): Tensor =>
  histogram_histc_cpu_out(self, bins, min, max, emptyLike(self, [0], self.dtype));

