// Statistics kernels (aten/src/ATen/native/ReduceOps.cpp, TensorAdvancedIndexing.cpp): var, std,
// var_mean, std_mean (the .correction forms are the kernels; the `unbiased` forms are
// CompositeImplicitAutograd and call them through the dispatcher, as at::native does), and
// count_nonzero. One kernel serves CPU and Meta: checks, result dtype and shape, then the computation
// when the result holds data.
//
// Numerics: PyTorch 1.13 runs Welford's algorithm (in double for float64, in float for float32/half,
// upcast) and divides M2 by max(0, N - correction). Here each group is summed two-pass in double (mean,
// then the squared deviations) and rounded once to the result dtype, so float32 results can differ in
// the last bits (the tests allow relative 1e-5 for float32, 1e-12 for float64, 1e-3 for float16,
// 1e-2 for bfloat16). N - correction <= 0 gives M2/0: nan when M2 is 0 (one element, or empty),
// inf otherwise; PyTorch also warns, which Glasstorch does not.

import { RuntimeError } from "../../../c10/Errors.js";
import { int64, isFloatingType, isComplexType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { var_mean_correction } from "../../../generated/var_mean.js";
import { std_correction, std_correction_out } from "../../../generated/std.js";
import { var_correction, var_correction_out } from "../../../generated/var.js";
import { std_mean_correction } from "../../../generated/std_mean.js";
import { count_nonzero_dim_IntList } from "../../../generated/count_nonzero.js";
import { dimMask, reducedShape, structuredOutput, hasData, gather, writeAll, roundTo, type Value } from "./ReduceUtils.js";

import { DispatchStub } from "../DispatchStub.js";

const asDouble = (v: Value): number => (typeof v === "bigint" ? Number(v) : v);

/** [variance, mean] of a group in double; var = M2 / max(0, N - correction). */
function moments(g: readonly Value[], correction: number): [number, number] {
  const n = g.length;
  let sum = 0;
  for (const v of g) sum += asDouble(v);
  const mean = n === 0 ? NaN : sum / n;
  let m2 = 0;
  for (const v of g) { const d = asDouble(v) - mean; m2 += d * d; }
  if (n === 0) m2 = NaN;
  return [m2 / Math.max(0, n - correction), mean];
}

/**
 * std_var_stub (aten/src/ATen/native/cpu/ReduceOpsKernel.cpp): per output element, the variance (or
 * its square root) of the group into `result` and its mean into `mean` (when not null).
 */
export const std_var_stub = new DispatchStub<(self: Tensor, mask: readonly boolean[], correction: number, isStd: boolean, result: Tensor, mean: Tensor | null) => void>(
  "std_var_stub", "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp");
std_var_stub.register("ts", (self, mask, corr, isStd, result, mean) => {
  const rdt = result.dtype;
  const ms = gather(self, mask).map((g) => moments(g, corr));
  writeAll(result, ms.map(([v]) => roundTo(rdt, isStd ? Math.sqrt(v) : v)));
  if (mean) writeAll(mean, ms.map(([, m]) => roundTo(rdt, m)));
});

/** std_var_all / std_var_out's checks and result: returns [result(var or std), mean?]. */
function stdVar(fname: string, self: Tensor, dim: readonly number[] | null, correction: number | null, keepdim: boolean,
  isStd: boolean, out: Tensor | null, meanOut: Tensor | null, withMean: boolean): [Tensor, Tensor | null] {
  const st = self.dtype.scalarType;
  if (!isFloatingType(st) && !isComplexType(st)) {
    throw new RuntimeError(`${fname} only support floating point and complex dtypes`);
  }
  const corr = correction ?? 1;
  const sizes = self._impl.sizes();
  const mask = dimMask(dim, sizes.length);
  const shape = reducedShape(sizes, mask, keepdim);
  const result = structuredOutput(self, shape, self.dtype, out, out === null ? "functional" : "out");
  const mean = withMean ? structuredOutput(self, shape, self.dtype, meanOut, meanOut === null ? "functional" : "out") : null;
  if (!hasData(result)) return [result, mean];
  std_var_stub.call(self.device.type, self, mask, corr, isStd, result, mean);
  return [result, mean];
}

// ---- the .correction kernels (CPU, Meta) ----

export function var_(self: Tensor, dim: readonly number[] | null, correction: number | null, keepdim: boolean): Tensor {
  return stdVar("std and var", self, dim, correction, keepdim, false, null, null, false)[0];
}
export function std(self: Tensor, dim: readonly number[] | null, correction: number | null, keepdim: boolean): Tensor {
  return stdVar("std and var", self, dim, correction, keepdim, true, null, null, false)[0];
}
export function var_out(self: Tensor, dim: readonly number[] | null, correction: number | null, keepdim: boolean, out: Tensor): Tensor {
  return stdVar("std and var", self, dim, correction, keepdim, false, out, null, false)[0];
}
export function std_out(self: Tensor, dim: readonly number[] | null, correction: number | null, keepdim: boolean, out: Tensor): Tensor {
  return stdVar("std and var", self, dim, correction, keepdim, true, out, null, false)[0];
}
/** var_mean.correction: (var, mean), the schema's tuple in order. */
export function var_mean(self: Tensor, dim: readonly number[] | null, correction: number | null, keepdim: boolean): [Tensor, Tensor] {
  const [v, m] = stdVar("var_mean", self, dim, correction, keepdim, false, null, null, true);
  return [v, m!];
}
/** std_mean.correction: (std, mean). */
export function std_mean(self: Tensor, dim: readonly number[] | null, correction: number | null, keepdim: boolean): [Tensor, Tensor] {
  const [v, m] = stdVar("std_mean", self, dim, correction, keepdim, true, null, null, true);
  return [v, m!];
}

// ---- CompositeImplicitAutograd: `unbiased` forms call the .correction overloads through the dispatcher ----

const corrOf = (unbiased: boolean): number => (unbiased ? 1 : 0);
export const var_unbiased = (self: Tensor, unbiased: boolean): Tensor => var_correction.call(self, null, corrOf(unbiased), false) as Tensor;
export const var_dim = (self: Tensor, dim: readonly number[] | null, unbiased: boolean, keepdim: boolean): Tensor =>
  var_correction.call(self, dim, corrOf(unbiased), keepdim) as Tensor;
export const var_dim_out = (self: Tensor, dim: readonly number[] | null, unbiased: boolean, keepdim: boolean, out: Tensor): Tensor =>
  var_correction_out.call(self, dim, corrOf(unbiased), keepdim, out) as Tensor;
export const std_unbiased = (self: Tensor, unbiased: boolean): Tensor => std_correction.call(self, null, corrOf(unbiased), false) as Tensor;
export const std_dim = (self: Tensor, dim: readonly number[] | null, unbiased: boolean, keepdim: boolean): Tensor =>
  std_correction.call(self, dim, corrOf(unbiased), keepdim) as Tensor;
export const std_dim_out = (self: Tensor, dim: readonly number[] | null, unbiased: boolean, keepdim: boolean, out: Tensor): Tensor =>
  std_correction_out.call(self, dim, corrOf(unbiased), keepdim, out) as Tensor;
export const var_mean_unbiased = (self: Tensor, unbiased: boolean): [Tensor, Tensor] =>
  var_mean_correction.call(self, null, corrOf(unbiased), false) as [Tensor, Tensor];
export const var_mean_dim = (self: Tensor, dim: readonly number[] | null, unbiased: boolean, keepdim: boolean): [Tensor, Tensor] =>
  var_mean_correction.call(self, dim, corrOf(unbiased), keepdim) as [Tensor, Tensor];
export const std_mean_unbiased = (self: Tensor, unbiased: boolean): [Tensor, Tensor] =>
  std_mean_correction.call(self, null, corrOf(unbiased), false) as [Tensor, Tensor];
export const std_mean_dim = (self: Tensor, dim: readonly number[] | null, unbiased: boolean, keepdim: boolean): [Tensor, Tensor] =>
  std_mean_correction.call(self, dim, corrOf(unbiased), keepdim) as [Tensor, Tensor];

// ---- count_nonzero ----

/**
 * count_nonzero_stub: each int64 result element is the number of nonzero elements of its group (NaN
 * counts, -0.0 does not). A stub, not a loop in count_nonzero_cpu, so the native kernel can take it.
 */
export const count_nonzero_stub = new DispatchStub<(self: Tensor, mask: readonly boolean[], result: Tensor) => void>(
  "count_nonzero_stub", "aten/src/ATen/native/TensorAdvancedIndexing.cpp");
count_nonzero_stub.register("ts", (self, mask, result) => {
  writeAll(result, gather(self, mask).map((g) => BigInt(g.filter((v) => (typeof v === "bigint" ? v !== 0n : v !== 0)).length)));
});

/** count_nonzero.dim_IntList (count_nonzero_cpu): an int64 count of nonzero elements over the dims. */
export function count_nonzero_cpu(self: Tensor, dim: readonly number[]): Tensor {
  const sizes = self._impl.sizes();
  const mask = dimMask(dim, sizes.length);
  const result = structuredOutput(self, reducedShape(sizes, mask, false), int64, null, "functional");
  if (hasData(result)) count_nonzero_stub.call(self.device.type, self, mask, result);
  return result;
}

/** count_nonzero(self, dim=None): CompositeExplicitAutograd, count_nonzero.dim_IntList through the dispatcher. */
export function count_nonzero(self: Tensor, dim: number | null): Tensor {
  if (dim !== null) return count_nonzero_dim_IntList.call(self, [dim]) as Tensor;
  return count_nonzero_dim_IntList.call(self, []) as Tensor;
}

