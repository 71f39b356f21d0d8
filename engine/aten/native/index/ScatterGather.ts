// gather and the scatter family (TensorAdvancedIndexing.cpp: gather/scatter meta functions and
// scatter_impl; cpu/ScatterGatherKernel.cpp: cpu_scatter_gather_base_kernel).
//   gather:  out[i][j] = self[index[i][j]][j]            (dim 0; index gives the result's shape)
//   scatter: out[index[i][j]][j] = src[i][j] (or value)  (out starts as a copy of self)
// The walk covers index's shape; positions along `dim` come from index and must lie in
// [0, size) — negative indices are errors here, unlike t[idx]. Reductions: scatter(reduce=
// "add"|"multiply"), scatter_add, and scatter_reduce(sum|prod|mean|amax|amin, include_self).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isFloatingType, type dtype } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { assert_no_internal_overlap, assert_no_partial_overlap } from "../MemoryOverlap.js";
import type { StructuredMode } from "../BinaryOps.js";
import { copy__default } from "../../../generated/copy.js";
import { arith, assert_no_overlap, elements, forEachIndex, hasData, isLong, list, nonemptyDim, nonemptySize, offsetAt, type Value } from "./common.js";

const REF = "aten/src/ATen/native/cpu/ScatterGatherKernel.cpp";

export type Reduction = "sum" | "prod" | "mean" | "amax" | "amin";

/** get_operator_enum: the old scatter(reduce=) spells add/multiply; scatter_reduce spells sum/prod/mean/amax/amin. */
function get_operator_enum(reduce: string, useNewOptions: boolean): Reduction {
  if (useNewOptions) {
    if (reduce === "sum" || reduce === "prod" || reduce === "mean" || reduce === "amax" || reduce === "amin") return reduce;
    throw new RuntimeError("reduce argument must be either sum, prod, mean, amax or amin.");
  }
  if (reduce === "add") return "sum";
  if (reduce === "multiply") return "prod";
  throw new RuntimeError("reduce argument must be either add or multiply.");
}

/** The position along `dim` each index element names, checked as the kernel checks it. */
function walk(index: Tensor, dim: number, bound: number, fn: (idx: readonly number[], at: number[]) => void): void {
  const iv = elements(index);
  const at: number[] = [];
  forEachIndex(index._impl.sizes(), (idx) => {
    const v = Number(iv.get(offsetAt(index, idx)));
    if (!(v >= 0 && v < bound)) throw new RuntimeError(`index ${v} is out of bounds for dimension ${dim} with size ${bound}`);
    at.length = 0;
    at.push(...idx);
    if (at.length) at[dim] = v;
    fn(idx, at);
  });
}

// ---- the stubs (gather_stub, scatter_stub, scatter_fill_stub, scatter_add_stub, scatter_reduce_two_stub...) ----

export const gather_stub = new DispatchStub<(result: Tensor, self: Tensor, dim: number, index: Tensor) => void>("gather_stub", REF);
gather_stub.register("ts", (result, self, dim, index) => {
  const out = elements(result), src = elements(self);
  walk(index, dim, nonemptySize(self, dim), (idx, at) => out.set(offsetAt(result, idx), src.get(offsetAt(self, at))));
});

/** scatter_stub / scatter_fill_stub / scatter_add_stub / scatter_reduce*_stub in one: src is a tensor or a Scalar. */
export const scatter_stub = new DispatchStub<(self: Tensor, dim: number, index: Tensor, src: Tensor | Scalar | bigint, op: Reduction | null) => void>("scatter_stub", REF);
scatter_stub.register("ts", (self, dim, index, src, op) => {
  const out = elements(self);
  const combine = reducer(self.dtype, op);
  const long = self.dtype.scalarType === ScalarType.Long;
  const value = typeof src === "object" ? null : typeof src === "bigint" ? src : long ? BigInt(Math.trunc(Number(src))) : Number(src);
  const s = typeof src === "object" ? elements(src) : null;
  walk(index, dim, nonemptySize(self, dim), (idx, at) => {
    const o = offsetAt(self, at);
    const x = s ? s.get(offsetAt(src as Tensor, idx)) : (value as Value);
    out.set(o, combine(out.get(o), x));
  });
});

const isNaNValue = (v: Value) => typeof v === "number" && Number.isNaN(v);

function reducer(dt: dtype, op: Reduction | null): (a: Value, b: Value) => Value {
  const ar = arith(dt);
  switch (op) {
    case null: return (_a, b) => b;
    case "sum":
    case "mean": return ar.add;
    case "prod": return ar.mul;
    case "amax": return (a, b) => (isNaNValue(b) ? b : a < b ? b : a); // std::max keeps a NaN self
    case "amin": return (a, b) => (isNaNValue(b) ? b : b < a ? b : a);
  }
}

/** The reduction's identity, written where include_self=False (scatter_reduce_exclude_self_helper). */
function identity(dt: dtype, op: Reduction): Value {
  const st = dt.scalarType;
  const long = st === ScalarType.Long;
  if (op === "sum" || op === "mean") return long ? 0n : 0;
  if (op === "prod") return long ? 1n : 1;
  if (isFloatingType(st)) return op === "amax" ? -Infinity : Infinity;
  const limits: Partial<Record<ScalarType, [number, number]>> = {
    [ScalarType.Byte]: [0, 255], [ScalarType.Char]: [-128, 127], [ScalarType.Short]: [-32768, 32767],
    [ScalarType.Int]: [-(2 ** 31), 2 ** 31 - 1], [ScalarType.Bool]: [0, 1],
  };
  if (long) return op === "amax" ? -(2n ** 63n) : 2n ** 63n - 1n;
  const [lo, hi] = limits[st]!;
  return op === "amax" ? lo : hi;
}

// ---- checks shared by the meta functions ----

/** scatter_gather_dtype_check */
function dtypeCheck(method: string, self: Tensor, index: Tensor, src: Tensor | null): void {
  if (index.numel() !== 0 && !isLong(index)) throw new RuntimeError(`${method}(): Expected dtype int64 for index`);
  if (src && self.dtype !== src.dtype) throw new RuntimeError(`${method}(): Expected self.dtype to be equal to src.dtype`);
}

/** scatter_shape_check */
function scatterShapeCheck(self: Tensor, dim: number, index: Tensor, src: Tensor | null): void {
  if (index.numel() === 0) return;
  if (nonemptyDim(self) !== nonemptyDim(index)) throw new RuntimeError("Index tensor must have the same number of dimensions as self tensor");
  const n = nonemptyDim(self);
  let wrong = false;
  for (let d = 0; d < n && !wrong; d++) if (d !== dim && nonemptySize(index, d) > nonemptySize(self, d)) wrong = true;
  if (!wrong && src) for (let d = 0; d < n && !wrong; d++) if (nonemptySize(index, d) > nonemptySize(src, d)) wrong = true;
  if (!wrong) return;
  const head = `Expected index ${list(index._impl.sizes())} to be smaller than self ${list(self._impl.sizes())} apart from dimension ${dim}`;
  throw new RuntimeError(src ? `${head} and to be smaller size than src ${list(src._impl.sizes())}` : head);
}

/** gather_shape_check */
function gatherShapeCheck(self: Tensor, dim: number, index: Tensor): void {
  const n = nonemptyDim(self);
  if (n !== nonemptyDim(index)) throw new RuntimeError("Index tensor must have the same number of dimensions as input tensor");
  for (let i = 0; i < n; i++) {
    if (i !== dim && nonemptySize(index, i) > nonemptySize(self, i)) {
      throw new RuntimeError(
        `Size does not match at dimension ${i} expected index ${list(index._impl.sizes())} to be smaller than self ${list(self._impl.sizes())} apart from dimension ${dim}`,
      );
    }
  }
}

/** set_output_raw_strided for these structured ops: a fresh contiguous output, self (in-place), or out resized. */
function output(self: Tensor, sizes: readonly number[], out: Tensor | null, mode: StructuredMode, uninitialized = false): Tensor {
  if (mode === "inplace") return self;
  if (mode === "functional" || !out) return wrap(empty_impl(sizes, self.dtype, self.device, uninitialized));
  resize_output(out, sizes);
  return out;
}

// ---- gather ----

export function gather_out(self: Tensor, dimArg: number, index: Tensor, _sparse_grad: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const dim = maybe_wrap_dim(dimArg, self.dim());
  if (mode === "out" && out) {
    assert_no_internal_overlap(out);
    assert_no_overlap(out, self);
    assert_no_partial_overlap(out, index);
  }
  if (index.numel() !== 0 && !isLong(index)) throw new RuntimeError("gather(): Expected dtype int64 for index");
  if (index.numel() !== 0) gatherShapeCheck(self, dim, index);
  // uninitialised (at::empty): both kernels write every element of the index's shape
  const result = output(self, index._impl.sizes(), out, mode, true);
  if (index.numel() === 0 || !hasData(result)) return result;
  gather_stub.call(self.device.type, result, self, dim, index);
  return result;
}

// ---- scatter (scatter_meta_impl + scatter_impl) ----

function scatter_common(
  self: Tensor, dimArg: number, index: Tensor, src: Tensor | Scalar, reduce: string | null, useNew: boolean,
  includeSelf: boolean, out: Tensor | null, mode: StructuredMode,
): Tensor {
  const dim = maybe_wrap_dim(dimArg, self.dim());
  const srcT = typeof src === "object" ? src : null;
  dtypeCheck(useNew ? "scatter_reduce" : "scatter", self, index, srcT);
  scatterShapeCheck(self, dim, index, srcT);
  const given = mode === "inplace" ? self : mode === "out" ? out : null;
  if (given) {
    assert_no_internal_overlap(given);
    assert_no_overlap(given, index);
    if (srcT) assert_no_overlap(given, srcT);
  }
  const op = reduce === null ? null : get_operator_enum(reduce, useNew);
  const result = output(self, self._impl.sizes(), out, mode);
  if (result !== self) copy__default.call(result, self, false); // if (!self.is_same(out)) out.copy_(self)
  if (index.numel() === 0 || !hasData(result)) return result;
  if (op !== null && !includeSelf) {
    // scatter_reduce_exclude_self_helper: the scattered-to positions start at the reduction's identity
    scatter_stub.call(self.device.type, result, dim, index, identity(result.dtype, op), null);
  }
  scatter_stub.call(self.device.type, result, dim, index, src, op);
  if (op === "mean" && srcT) meanDivide(result, dim, index, includeSelf);
  return result;
}

/** scatter_reduce mean: divide each position by how many values reached it (self included), floor for integers. */
function meanDivide(result: Tensor, dim: number, index: Tensor, includeSelf: boolean): void {
  const counts = new Map<number, number>();
  walk(index, dim, nonemptySize(result, dim), (_idx, at) => {
    const o = offsetAt(result, at);
    counts.set(o, (counts.get(o) ?? (includeSelf ? 1 : 0)) + 1);
  });
  const e = elements(result);
  const floating = isFloatingType(result.dtype.scalarType);
  for (const [o, c] of counts) {
    const v = e.get(o);
    if (typeof v === "bigint") {
      const q = v / BigInt(c);
      e.set(o, q * BigInt(c) !== v && v < 0n ? q - 1n : q); // floor division
    } else {
      e.set(o, floating ? v / c : Math.floor(v / c));
    }
  }
}

export const scatter_src_out = (self: Tensor, dim: number, index: Tensor, src: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor =>
  scatter_common(self, dim, index, src, null, false, true, out, mode);

export const scatter_value_out = (self: Tensor, dim: number, index: Tensor, value: Scalar, out: Tensor | null, mode: StructuredMode = "out"): Tensor =>
  scatter_common(self, dim, index, value, null, false, true, out, mode);

export const scatter_reduce_out = (self: Tensor, dim: number, index: Tensor, src: Tensor, reduce: string, out: Tensor | null, mode: StructuredMode = "out"): Tensor =>
  scatter_common(self, dim, index, src, reduce, false, true, out, mode);

export const scatter_value_reduce_out = (self: Tensor, dim: number, index: Tensor, value: Scalar, reduce: string, out: Tensor | null, mode: StructuredMode = "out"): Tensor =>
  scatter_common(self, dim, index, value, reduce, false, true, out, mode);

/** scatter_add.out: scatter_meta_impl(..., "add") then scatter_add_stub. */
export const scatter_add = (self: Tensor, dim: number, index: Tensor, src: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor =>
  scatter_common(self, dim, index, src, "add", false, true, out, mode);

export function scatter_reduce_two(
  self: Tensor, dim: number, index: Tensor, src: Tensor, reduce: string, include_self: boolean, out: Tensor | null, mode: StructuredMode = "out",
): Tensor {
  return scatter_common(self, dim, index, src, reduce, true, include_self, out, mode);
}

