// Cumulative scans (aten/src/ATen/native/ReduceOps.cpp, cpu/ReduceOpsKernel.cpp): cumsum, cumprod
// (structured), cummax/cummin (CompositeExplicitAutograd over _cummax_helper/_cummin_helper) and
// logcumsumexp (over _logcumsumexp). Each lane along `dim` is scanned in order, as cpu_cum_base_kernel does.
//
// Numerics: cumsum/cumprod accumulate in at::acc_type<scalar_t, /*is_cuda=*/false> — double for float32
// and float64, float for float16/bfloat16, int64 for integers — and store each partial result cast to
// the result dtype, so results are exact here. PyTorch 1.13's CPU scans have no float16 kernels (the meta
// functions still give shapes), and logcumsumexp none for integers either. logcumsumexp computes log1p(exp(min - max)) + max in the
// element type; here in double rounded per step (float32 may differ by an ulp: the tests allow 1e-6).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, int64, isIntegralType, isFloatingType, type dtype } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { writeAll, roundTo } from "../reduce/ReduceUtils.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import type { StructuredMode } from "../BinaryOps.js";
import { _cummax_helper_default } from "../../../generated/_cummax_helper.js";
import { _cummin_helper_default } from "../../../generated/_cummin_helper.js";
import { cummax_out as cummax_out_op } from "../../../generated/cummax.js";
import { cummin_out as cummin_out_op } from "../../../generated/cummin.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { _logcumsumexp_default, _logcumsumexp_out } from "../../../generated/_logcumsumexp.js";
import { lanes, castTo, hasData, asDouble, isNaNValue, emptyLike, checkOutDtype, checkScalarTypeEqual, notImplementedFor, namedPair, type Value, type ValuesIndices } from "./common.js";

const REF = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp";

// ---- cumsum, cumprod ----

/** One lane's partial sums or products in the accumulate type, each cast to the result dtype. */
function scanLane(lane: readonly Value[], rdt: dtype, isSum: boolean): Value[] {
  const st = rdt.scalarType;
  if (isIntegralType(st, true) && st !== ScalarType.Bool) {
    let acc = isSum ? 0n : 1n;
    return lane.map((v) => {
      const x = typeof v === "bigint" ? v : BigInt(v);
      acc = BigInt.asIntN(64, isSum ? acc + x : acc * x);
      return castTo(rdt, acc);
    });
  }
  const half = st === ScalarType.Half || st === ScalarType.BFloat16; // acc_type is float
  let acc = isSum ? 0 : 1;
  return lane.map((v) => {
    acc = isSum ? acc + asDouble(v) : acc * asDouble(v);
    if (half) acc = Math.fround(acc);
    return castTo(rdt, acc);
  });
}

type CumKernel = (result: Tensor, self: Tensor, dim: number) => void;
function cumKernel(isSum: boolean): CumKernel {
  return (result, self, dim) => {
    const rdt = result.dtype;
    const { groups, at } = lanes(self, dim);
    const out: Value[] = new Array(self.numel());
    groups.forEach((g, li) => scanLane(g.map((v) => castTo(rdt, v)), rdt, isSum).forEach((v, k) => { out[at(li, k)] = v; }));
    writeAll(result, out);
  };
}
export const cumsum_stub = new DispatchStub<CumKernel>("cumsum_stub", REF);
export const cumprod_stub = new DispatchStub<CumKernel>("cumprod_stub", REF);
cumsum_stub.register("ts", cumKernel(true));
cumprod_stub.register("ts", cumKernel(false));

/** meta_func_cum_ops + impl_func_cum_ops: integral inputs give int64 unless dtype (or out=) says otherwise. */
function cumOp(self: Tensor, dim: number, dt: dtype | null, out: Tensor | null, mode: StructuredMode, stub: DispatchStub<CumKernel>, kernel: string): Tensor {
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  let result: Tensor;
  if (mode === "inplace") {
    const want = dt ?? self.dtype;
    if (want !== self.dtype) {
      throw new RuntimeError(`Bad in-place call: input tensor dtype ${typeMetaName(self.dtype.scalarType)} and output tensor dtype ${typeMetaName(want.scalarType)} should match`);
    }
    result = self;
  } else if (mode === "out" && out !== null) {
    checkOutDtype(out, dt ?? out.dtype);
    resize_output(out, sizes);
    result = out;
  } else {
    result = emptyLike(self, sizes, dt ?? (isIntegralType(self.dtype.scalarType, true) ? int64 : self.dtype));
  }
  if (!hasData(result)) return result;
  if (self.numel() === 0) return result; // impl_func_cum_ops: zero_() (0-d inputs are copied: fill_)
  // the stub's AT_DISPATCH_ALL_TYPES_AND(BFloat16) over the result dtype: no float16 on CPU in 1.13
  if (result.dtype.scalarType === ScalarType.Half && self.dim() > 0) throw notImplementedFor(kernel, ScalarType.Half);
  stub.call(self.device.type, result, self, d);
  return result;
}

export function cumsum_out(self: Tensor, dim: number, dt: dtype | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return cumOp(self, dim, dt, out, mode, cumsum_stub, "cumsum_out_cpu");
}
export function cumprod_out(self: Tensor, dim: number, dt: dtype | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return cumOp(self, dim, dt, out, mode, cumprod_stub, "cumprod_out_cpu");
}

// ---- cummax, cummin ----

/**
 * cummax_cummin_helper: the running extreme and its index; `>=` (cummax) or `<=` (cummin) lets a later
 * equal element take over, and every NaN takes over (NaN then stays, with the latest NaN's index).
 */
type CumExtremeKernel = (self: Tensor, values: Tensor, indices: Tensor, dim: number) => void;
function cumExtremeKernel(isMax: boolean): CumExtremeKernel {
  return (self, values, indices, dim) => {
    const { groups, at } = lanes(self, dim);
    const vs: Value[] = new Array(self.numel());
    const is: Value[] = new Array(self.numel());
    groups.forEach((g, li) => {
      let out = g[0], idx = 0;
      g.forEach((x, k) => {
        if (isNaNValue(x) || (!isNaNValue(out) && (isMax ? x >= out : x <= out))) [out, idx] = [x, k];
        vs[at(li, k)] = out;
        is[at(li, k)] = BigInt(idx);
      });
    });
    writeAll(values, vs);
    writeAll(indices, is);
  };
}
export const cummax_stub = new DispatchStub<CumExtremeKernel>("cummax_helper", REF);
export const cummin_stub = new DispatchStub<CumExtremeKernel>("cummin_helper", REF);
cummax_stub.register("ts", cumExtremeKernel(true));
cummin_stub.register("ts", cumExtremeKernel(false));

/** _cummax_helper (CPU): writes values and indices along dim; returns nothing. */
export function cummax_helper_cpu(self: Tensor, values: Tensor, indices: Tensor, dim: number): void {
  if (self.dtype.scalarType === ScalarType.Half) throw notImplementedFor("cummax_cpu", ScalarType.Half);
  cummax_stub.call(self.device.type, self, values, indices, dim);
}
export function cummin_helper_cpu(self: Tensor, values: Tensor, indices: Tensor, dim: number): void {
  if (self.dtype.scalarType === ScalarType.Half) throw notImplementedFor("cummin_cpu", ScalarType.Half);
  cummin_stub.call(self.device.type, self, values, indices, dim);
}


/**
 * cummax_out / cummin_out (CompositeExplicitAutograd): checks the outs (against an empty int64 tensor for
 * the indices, as PyTorch builds one), resizes them, fills 0-d results directly, else calls
 * _cummax_helper / _cummin_helper through the dispatcher.
 */
function cumExtremeOut(self: Tensor, dim: number, values: Tensor, indices: Tensor, isMax: boolean): ValuesIndices {
  checkScalarTypeEqual(values, self.dtype);
  checkScalarTypeEqual(indices, (empty_memory_format.call([0], int64, null, self.device, null, null) as Tensor).dtype);
  const sizes = self._impl.sizes();
  resize_output(values, sizes);
  resize_output(indices, sizes);
  if (sizes.length === 0) {
    if (hasData(values)) {
      writeAll(values, lanes(self, 0).groups[0]);
      writeAll(indices, [0n]);
    }
  } else if (self.numel() !== 0) {
    const d = maybe_wrap_dim(dim, sizes.length);
    (isMax ? _cummax_helper_default : _cummin_helper_default).call(self, values, indices, d);
  }
  return namedPair(values, indices);
}

export const cummax_out = (self: Tensor, dim: number, values: Tensor, indices: Tensor): ValuesIndices => cumExtremeOut(self, dim, values, indices, true);
export const cummin_out = (self: Tensor, dim: number, values: Tensor, indices: Tensor): ValuesIndices => cumExtremeOut(self, dim, values, indices, false);

/** cummax / cummin (CompositeExplicitAutograd): empty outs of self's sizes, then cummax.out through the dispatcher. */
function cumExtreme(self: Tensor, dim: number, isMax: boolean): ValuesIndices {
  const sizes = self._impl.sizes();
  const values = empty_memory_format.call(sizes, self.dtype, null, self.device, null, null) as Tensor;
  const indices = empty_memory_format.call(sizes, int64, null, self.device, null, null) as Tensor;
  return (isMax ? cummax_out_op : cummin_out_op).call(self, dim, values, indices) as ValuesIndices;
}
export const cummax = (self: Tensor, dim: number): ValuesIndices => cumExtreme(self, dim, true);
export const cummin = (self: Tensor, dim: number): ValuesIndices => cumExtreme(self, dim, false);

// ---- logcumsumexp ----

/** log(exp(x) + exp(y)) as PyTorch's log_add_exp: NaN propagates, equal infinities return x. */
function logAddExp(x: number, y: number): number {
  const min = Number.isNaN(y) ? y : Math.min(x, y);
  const max = Number.isNaN(y) ? y : Math.max(x, y);
  if (min !== max || Number.isFinite(min)) return Math.log1p(Math.exp(min - max)) + max;
  return x;
}

type LcseKernel = (result: Tensor, self: Tensor, dim: number) => void;
export const logcumsumexp_stub = new DispatchStub<LcseKernel>("logcumsumexp_stub", REF);
logcumsumexp_stub.register("ts", (result, self, dim) => {
  const st = self.dtype.scalarType;
  if (!isFloatingType(st) || st === ScalarType.Half) throw notImplementedFor("logcumsumexp_out_cpu", st);
  const { groups, at } = lanes(self, self.dim() === 0 ? 0 : maybe_wrap_dim(dim, self.dim()));
  const out: Value[] = new Array(self.numel());
  groups.forEach((g, li) => {
    let acc = -Infinity;
    g.forEach((v, k) => { acc = roundTo(self.dtype, logAddExp(asDouble(v), acc)); out[at(li, k)] = acc; });
  });
  writeAll(result, out);
});

/** _logcumsumexp_out_cpu: resizes the result, then the stub scans every lane. */
export function _logcumsumexp_out_cpu(self: Tensor, dim: number, result: Tensor): Tensor {
  resize_output(result, self._impl.sizes());
  if (self.numel() === 0 && isFloatingType(self.dtype.scalarType)) return result;
  logcumsumexp_stub.call(self.device.type, result, self, dim);
  return result;
}
export const _logcumsumexp_cpu = (self: Tensor, dim: number): Tensor =>
  _logcumsumexp_out_cpu(self, dim, emptyLike(self, self._impl.sizes(), self.dtype));

/** logcumsumexp (CompositeExplicitAutograd): at::_logcumsumexp. */
export const logcumsumexp = (self: Tensor, dim: number): Tensor => _logcumsumexp_default.call(self, dim) as Tensor;

/** logcumsumexp.out: out must have self's dtype; at::_logcumsumexp_out(result, self.toType(result dtype), dim). */
export function logcumsumexp_out(self: Tensor, dim: number, out: Tensor): Tensor {
  checkScalarTypeEqual(out, self.dtype);
  return _logcumsumexp_out.call(self, dim, out) as Tensor;
}
