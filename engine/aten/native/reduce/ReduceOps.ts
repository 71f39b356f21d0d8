// Reduction kernels (aten/src/ATen/native/ReduceOps.cpp, TensorCompare.cpp, ReduceAllOps.cpp):
// mean, prod, amax/amin, max/min (full and .dim), argmax/argmin, all/any. Each structured kernel is
// its meta function (checks, result dtype and shape) followed by the computation when the result
// holds data; the same function serves the CPU and Meta keys.
//
// Numerics: int64 is exact (BigInt, wrapping as int64 does). Floating sums and products accumulate
// in double and round once to the result dtype; PyTorch accumulates float32 in float32 with a
// cascade of vectorized partial sums, so float32 results can differ in the last bits (the tests
// allow a relative 1e-6 for float32, 1e-12 for float64, 1 ulp for float16/bfloat16).

import { RuntimeError, IndexError } from "../../../c10/Errors.js";
import { ScalarType, int64, bool as boolDtype, uint8, isFloatingType, isComplexType, isIntegralType, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { mean_dim } from "../../../generated/mean.js";
import { typedView, readNumber, toRaw, offsetOf } from "../../../c10/ElementAccess.js";
import { sum_stub } from "../ReduceOps.js";
import { DispatchStub } from "../DispatchStub.js";
import {
  dimMask, reducedShape, structuredOutput, hasData, gather, writeAll, roundTo, isNaNValue, laneReduce,
  type StructuredMode, type Value,
} from "./ReduceUtils.js";

/** get_dtype_from_self(self, dtype, promote_integers=true): integral and bool inputs become int64. */
function dtypeFromSelf(self: Tensor, requested: dtype | null): dtype {
  if (requested) return requested;
  return isIntegralType(self.dtype.scalarType, true) ? int64 : self.dtype;
}

/** The result dtype of sum-like ops: out's dtype when out= is given, else get_dtype_from_self. */
function resultDtype(self: Tensor, requested: dtype | null, out: Tensor | null, mode: StructuredMode): dtype {
  if (requested) return requested;
  if (mode === "out" && out !== null) return out.dtype;
  return dtypeFromSelf(self, null);
}

/** zero_numel_check_dims(self, dims, fn) for a list of dims: only when the input is empty. */
function zeroNumelCheckList(self: Tensor, dims: readonly number[], fn: string): void {
  if (self.numel() !== 0) return;
  if (dims.length === 0) {
    throw new RuntimeError(`${fn}: Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`);
  }
  for (const d of dims) zeroNumelCheckDim(self, d, fn);
}

/** zero_numel_check_dims(self, dim, fn) for one dim (as given: wrapped by the caller or not). */
function zeroNumelCheckDim(self: Tensor, dim: number, fn: string): void {
  const sizes = self._impl.sizes();
  if (sizes.length === 0) {
    if (dim !== 0 && dim !== -1) throw new IndexError(`${fn}: Expected reduction dim -1 or 0 for scalar but got ${dim}`);
    return;
  }
  if (sizes[maybe_wrap_dim(dim, sizes.length)] === 0) throw new IndexError(`${fn}: Expected reduction dim ${dim} to have non-zero size.`);
}

const asDouble = (v: Value): number => (typeof v === "bigint" ? Number(v) : v);

// ---- mean ----

/** mean.out: sum over the dims into the result dtype, then divide by the count (TORCH_META_FUNC2(mean, dim)). */
export function mean_out(self: Tensor, dim: readonly number[] | null, keepdim: boolean, dt: dtype | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const inDtype = dtypeFromSelf(self, dt);
  if (!isFloatingType(inDtype.scalarType) && !isComplexType(inDtype.scalarType)) {
    const [what, name] = dt ? ["Optional", scalarTypeName(dt.scalarType)] : ["Input", scalarTypeName(self.dtype.scalarType)];
    throw new RuntimeError(`mean(): could not infer output dtype. ${what} dtype must be either a floating point or complex dtype. Got: ${name}`);
  }
  const outDtype = dt ?? (mode === "out" && out !== null ? out.dtype : self.dtype);
  const sizes = self._impl.sizes();
  const mask = dimMask(dim, sizes.length);
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), outDtype, out, mode);
  if (!hasData(result)) return result;
  // dim_prod: the number of elements each result averages
  let count = 1;
  if (dim === null || dim.length === 0 || sizes.length === 0) count = self.numel();
  else sizes.forEach((s, i) => { if (mask[i]) count *= s; });
  const rdt = result.dtype;
  // at::sum_out(result, ...) rounds the sum to the result dtype (sum_stub), then div_ divides in that dtype
  if (self.dtype === rdt) {
    sum_stub.call(self.device.type, self, mask, result);
    const impl = result._impl, view = typedView(impl.storage, rdt) as unknown as number[], n = result.numel();
    for (let o = 0; o < n; o++) {
      const off = offsetOf(impl, o);
      view[off] = toRaw(rdt.scalarType, roundTo(rdt, readNumber(view as any, rdt.scalarType, off) / count)) as number;
    }
    return result;
  }
  writeAll(result, gather(self, mask).map((g) => roundTo(rdt, roundTo(rdt, g.reduce<number>((a, v) => a + asDouble(v), 0)) / count)));
  return result;
}

/** mean(self, dtype): CompositeExplicitAutograd, at::mean(self, IntArrayRef{}, false, dtype) through the dispatcher. */
export function mean(self: Tensor, dt: dtype | null): Tensor {
  return mean_dim.call(self, [], false, dt) as Tensor;
}

// ---- prod ----

const times = (a: number, b: number): number => a * b;

/** An int64 product is exact (wrapping), so its order is free; a float one is in double, in laneReduce's order. */
function product(g: readonly Value[], exact: boolean): Value {
  if (exact) return g.reduce<bigint>((a, v) => BigInt.asIntN(64, a * (typeof v === "bigint" ? v : BigInt(v))), 1n);
  return laneReduce(g.map(asDouble), 1, times, times);
}

/**
 * prod_stub (cpu/ReduceOpsKernel.cpp prod_kernel_impl): each result element is the product of its
 * group (its row-major order): in double, in laneReduce's order (64 lanes per block of 32768: the
 * native kernel's order, so its bits), rounded once to the result dtype; an int64 result exact,
 * wrapping as int64 does. PyTorch multiplies float32 in float32 lanes of its own: within a few float
 * roundings of this.
 */
export const prod_stub = new DispatchStub<(self: Tensor, mask: readonly boolean[], result: Tensor) => void>("prod_stub", "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp");
prod_stub.register("ts", (self, mask, result) => {
  const exact = result.dtype.scalarType === ScalarType.Long;
  const rdt = result.dtype;
  writeAll(result, gather(self, mask).map((g) => {
    const p = product(g, exact);
    return typeof p === "bigint" ? p : roundTo(rdt, p);
  }));
});
const prodInto = (self: Tensor, mask: readonly boolean[], result: Tensor): void => prod_stub.call(self.device.type, self, mask, result);

/** prod.int_out (TORCH_META_FUNC2(prod, dim_int)). */
export function prod_out(self: Tensor, dim: number, keepdim: boolean, dt: dtype | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const sizes = self._impl.sizes();
  const mask = dimMask([dim], sizes.length);
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), resultDtype(self, dt, out, mode), out, mode);
  if (hasData(result)) prodInto(self, mask, result);
  return result;
}

/** prod(self, dtype): the full product, a 0-d tensor. */
export function prod(self: Tensor, dt: dtype | null): Tensor {
  const sizes = self._impl.sizes();
  const mask = dimMask(null, sizes.length);
  const result = structuredOutput(self, [], dtypeFromSelf(self, dt), null, "functional");
  if (hasData(result)) prodInto(self, mask, result);
  return result;
}

// ---- max/min: comparisons that propagate NaN ----

/** a beats b for max (greater) or min (less); NaN beats every number, and the first NaN stays. */
function beats(a: Value, b: Value, isMax: boolean): boolean {
  if (isNaNValue(b)) return false;
  if (isNaNValue(a)) return true;
  return isMax ? a > b : a < b;
}

/** The winning value and its (first) index in a group. */
function best(g: readonly Value[], isMax: boolean): [Value, number] {
  let v = g[0], at = 0;
  for (let i = 1; i < g.length; i++) if (beats(g[i], v, isMax)) [v, at] = [g[i], i];
  return [v, at];
}

/**
 * The max/min kernels behind DispatchStubs (a native kernel may take them): each writes, per output
 * element, the winning value into `values` and/or its first index into `indices` (either may be null).
 */
type MaxMinKernel = (self: Tensor, mask: readonly boolean[], values: Tensor | null, indices: Tensor | null) => void;
function maxMinStub(name: string, ref: string, isMax: boolean): DispatchStub<MaxMinKernel> {
  const stub = new DispatchStub<MaxMinKernel>(name, ref);
  stub.register("ts", (self, mask, values, indices) => {
    const bests = gather(self, mask).map((g) => best(g, isMax));
    if (values) writeAll(values, bests.map((b) => b[0]));
    if (indices) writeAll(indices, bests.map((b) => BigInt(b[1])));
  });
  return stub;
}
const REF_COMPARE = "aten/src/ATen/native/cpu/TensorCompareKernel.cpp", REF_REDUCE = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp";
/** amax / amin */
export const max_values_stub = maxMinStub("max_values_stub", REF_REDUCE, true);
export const min_values_stub = maxMinStub("min_values_stub", REF_REDUCE, false);
/** max() / min() over every element */
export const max_all_stub = maxMinStub("max_all_stub", "aten/src/ATen/native/cpu/ReduceAllOpsKernel.cpp", true);
export const min_all_stub = maxMinStub("min_all_stub", "aten/src/ATen/native/cpu/ReduceAllOpsKernel.cpp", false);
/** max.dim / min.dim: values and indices */
export const max_stub = maxMinStub("max_stub", REF_COMPARE, true);
export const min_stub = maxMinStub("min_stub", REF_COMPARE, false);
/** argmax / argmin */
export const argmax_stub = maxMinStub("argmax_stub", REF_REDUCE, true);
export const argmin_stub = maxMinStub("argmin_stub", REF_REDUCE, false);

/** amax.out / amin.out (TORCH_META_FUNC(amax)): the max over several dims, no indices. */
function amaxmin(self: Tensor, dim: readonly number[], keepdim: boolean, out: Tensor | null, mode: StructuredMode, isMax: boolean): Tensor {
  const name = isMax ? "amax" : "amin";
  if (mode === "out" && out !== null && out.dtype !== self.dtype) {
    throw new RuntimeError(`Expected the dtype for input and out to match, but got ${scalarTypeName(self.dtype.scalarType)} for input's dtype and ${scalarTypeName(out.dtype.scalarType)} for out's dtype.`);
  }
  zeroNumelCheckList(self, dim, `${name}()`);
  const sizes = self._impl.sizes();
  const mask = dimMask(dim, sizes.length);
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), self.dtype, out, mode);
  if (hasData(result)) (isMax ? max_values_stub : min_values_stub).call(self.device.type, self, mask, result, null);
  return result;
}

export function amax_out(self: Tensor, dim: readonly number[], keepdim: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return amaxmin(self, dim, keepdim, out, mode, true);
}
export function amin_out(self: Tensor, dim: readonly number[], keepdim: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return amaxmin(self, dim, keepdim, out, mode, false);
}

/**
 * max(self) / min(self): every element, a 0-d result; an empty input has no answer. PyTorch 1.13 has
 * no C++ Meta kernel for these: on device='meta' a Python reference gives the 0-d result without the
 * empty check, and so does this kernel on meta inputs.
 */
function maxminAll(self: Tensor, isMax: boolean): Tensor {
  const name = isMax ? "max" : "min";
  if (self.numel() === 0 && self.device.type !== "meta") {
    throw new RuntimeError(`${name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`);
  }
  const result = structuredOutput(self, [], self.dtype, null, "functional");
  if (hasData(result)) (isMax ? max_all_stub : min_all_stub).call(self.device.type, self, dimMask(null, self.dim()), result, null);
  return result;
}
export const max = (self: Tensor): Tensor => maxminAll(self, true);
export const min = (self: Tensor): Tensor => maxminAll(self, false);

/**
 * max.dim_max / min.dim_min (TORCH_PRECOMPUTE_META_FUNC2(max, dim)): values and the index of the first
 * maximum (of the first NaN) along one dim. Returns [values, indices], the schema's tuple in order.
 */
function maxminDim(self: Tensor, dim: number, keepdim: boolean, values: Tensor | null, indices: Tensor | null, mode: StructuredMode, isMax: boolean): [Tensor, Tensor] {
  const name = isMax ? "max" : "min";
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  if (self.numel() === 0) zeroNumelCheckDim(self, d, `${name}()`);
  const mask = dimMask([d], sizes.length);
  const shape = reducedShape(sizes, mask, keepdim);
  const v = structuredOutput(self, shape, self.dtype, values, mode);
  const i = structuredOutput(self, shape, int64, indices, mode);
  if (hasData(v)) (isMax ? max_stub : min_stub).call(self.device.type, self, mask, v, i);
  return [v, i];
}

/**
 * The generated functional registration of a two-output structured op passes a single `null` for
 * both outputs (native.max_out(self, dim, keepdim, null, "functional")): a string in the second
 * output's place is the mode. (Codegen fix to make: one `null` per out argument.)
 */
function outsAndMode(second: Tensor | null | StructuredMode, mode: StructuredMode): [Tensor | null, StructuredMode] {
  return typeof second === "string" ? [null, second] : [second, mode];
}

/**
 * torch.return_types.max & co.: PyTorch returns a named tuple. Here an array [values, indices] (so
 * `const [v, i] = torch.max(x, 0)` works) that also carries `.values` and `.indices` as own properties.
 */
export type ValuesIndices = [Tensor, Tensor] & { values: Tensor; indices: Tensor };
function namedTuple(pair: [Tensor, Tensor]): ValuesIndices {
  return Object.assign(pair, { values: pair[0], indices: pair[1] }) as ValuesIndices;
}

export function max_out(self: Tensor, dim: number, keepdim: boolean, max: Tensor | null, max_values: Tensor | null | StructuredMode, mode: StructuredMode = "out"): ValuesIndices {
  const [second, m] = outsAndMode(max_values, mode);
  return namedTuple(maxminDim(self, dim, keepdim, max, second, m, true));
}
export function min_out(self: Tensor, dim: number, keepdim: boolean, min: Tensor | null, min_indices: Tensor | null | StructuredMode, mode: StructuredMode = "out"): ValuesIndices {
  const [second, m] = outsAndMode(min_indices, mode);
  return namedTuple(maxminDim(self, dim, keepdim, min, second, m, false));
}

// ---- argmax / argmin ----

/** argmax.out / argmin.out (check_argmax_argmin, argmax_argmin_impl): dim=None reduces the flattened tensor. */
function argmaxmin(self: Tensor, dim: number | null, keepdim: boolean, out: Tensor | null, mode: StructuredMode, isMax: boolean): Tensor {
  const name = isMax ? "argmax()" : "argmin()";
  const sizes = self._impl.sizes();
  let shape: number[], mask: boolean[];
  if (dim !== null) {
    const d = maybe_wrap_dim(dim, sizes.length);
    if (self.numel() === 0) zeroNumelCheckDim(self, d, name);
    mask = dimMask([d], sizes.length);
    shape = reducedShape(sizes, mask, keepdim);
  } else {
    if (self.numel() === 0) throw new IndexError(`${name}: Expected reduction dim to be specified for input.numel() == 0.`);
    mask = dimMask(null, sizes.length);
    shape = keepdim ? sizes.map(() => 1) : [];
  }
  const result = structuredOutput(self, shape, int64, out, mode);
  if (hasData(result)) (isMax ? argmax_stub : argmin_stub).call(self.device.type, self, mask, null, result);
  return result;
}

export function argmax_out(self: Tensor, dim: number | null, keepdim: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return argmaxmin(self, dim, keepdim, out, mode, true);
}
export function argmin_out(self: Tensor, dim: number | null, keepdim: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return argmaxmin(self, dim, keepdim, out, mode, false);
}

// ---- all / any ----

/**
 * and_stub / or_stub (cpu/ReduceOpsKernel.cpp): 1 where every (some) element of the group is nonzero,
 * else 0; NaN is nonzero, -0.0 zero. A native kernel may take them.
 */
type AllAnyKernel = (self: Tensor, mask: readonly boolean[], result: Tensor) => void;
function allAnyStub(name: string, isAll: boolean): DispatchStub<AllAnyKernel> {
  const stub = new DispatchStub<AllAnyKernel>(name, "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp");
  stub.register("ts", (self, mask, result) => {
    writeAll(result, gather(self, mask).map((g) => {
      const truth = g.map((v) => (typeof v === "bigint" ? v !== 0n : v !== 0));
      return (isAll ? truth.every(Boolean) : truth.some(Boolean)) ? 1 : 0;
    }));
  });
  return stub;
}
export const and_stub = allAnyStub("and_stub", true);
export const or_stub = allAnyStub("or_stub", false);

/** allany_meta: uint8 inputs give uint8 (a 1.13 compatibility rule), every other dtype bool. */
function allany(self: Tensor, dims: number[] | null, keepdim: boolean, out: Tensor | null, mode: StructuredMode, isAll: boolean): Tensor {
  const sizes = self._impl.sizes();
  const mask = dimMask(dims, sizes.length);
  const dt = self.dtype === uint8 ? uint8 : boolDtype;
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), mode === "out" && out !== null ? out.dtype : dt, out, mode);
  if (hasData(result)) (isAll ? and_stub : or_stub).call(self.device.type, self, mask, result);
  return result;
}

export function all_out(self: Tensor, dim: number, keepdim: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return allany(self, [dim], keepdim, out, mode, true);
}
export function any_out(self: Tensor, dim: number, keepdim: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return allany(self, [dim], keepdim, out, mode, false);
}
export function all_all_out(self: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return allany(self, null, false, out, mode, true);
}
export function any_all_out(self: Tensor, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return allany(self, null, false, out, mode, false);
}
