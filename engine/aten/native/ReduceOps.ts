// sum (aten/src/ATen/native/ReduceOps.cpp): reduce over dims, keeping them as size 1 if keepdim.
// Integral and bool inputs sum to int64 unless a dtype is given.

import { RuntimeError } from "../../c10/Errors.js";
import { ScalarType, int64, isFloatingType, type dtype } from "../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../c10/WrapDimMinimal.js";
import { typedView, readNumber, toRaw, offsetOf } from "../../c10/ElementAccess.js";
import type { Tensor } from "../core/Tensor.js";
import { empty_impl, wrap } from "../core/empty.js";
import { resize_output } from "./Resize.js";
import type { StructuredMode } from "./BinaryOps.js";
import { sum_dim_IntList } from "../../generated/sum.js";
import { DispatchStub } from "./DispatchStub.js";

/**
 * sum_stub (aten/src/ATen/native/cpu/SumKernel.cpp): out[o] = the sum of self's elements that reduce
 * into o. `mask` marks the reduced dims of self; out has the reduced shape (keepdim or not).
 */
export const sum_stub = new DispatchStub<(self: Tensor, mask: readonly boolean[], out: Tensor) => void>("sum_stub", "aten/src/ATen/native/cpu/SumKernel.cpp");
sum_stub.register("ts", (self, mask, out) => reduceSum(self, mask, out));

/** get_dtype_from_self: the result dtype of sum when none is requested. */
function sumDtype(self: Tensor, requested: dtype | null): dtype {
  if (requested) return requested;
  return isFloatingType(self.dtype.scalarType) ? self.dtype : int64;
}

/** make_dim_mask: which dims reduce; an empty or absent list means all of them. */
function dimMask(dims: readonly number[] | null, ndim: number): boolean[] {
  const mask = new Array<boolean>(ndim).fill(dims === null || dims.length === 0);
  for (const d of dims ?? []) {
    const w = maybe_wrap_dim(d, ndim);
    if (mask[w]) throw new RuntimeError(`dim ${w} appears multiple times in the list of dims`);
    mask[w] = true;
  }
  return mask;
}

export function sum_IntList_out(self: Tensor, dim: readonly number[] | null, keepdim: boolean, dt: dtype | null, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (mode === "functional" || out === null) out = wrap(empty_impl([0], sumDtype(self, dt), self.device));
  const sizes = self._impl.sizes();
  const mask = dimMask(dim, sizes.length);
  const outSizes: number[] = [];
  sizes.forEach((s, i) => {
    if (!mask[i]) outSizes.push(s);
    else if (keepdim) outSizes.push(1);
  });
  resize_output(out, outSizes);
  if (!out._impl.storage.hasData()) return out;
  sum_stub.call(self.device.type, self, mask, out);
  return out;
}

/** sum(self, dtype): CompositeExplicitAutograd, the full reduction by calling the dim overload (through the dispatcher, as at::sum does). */
export function sum(self: Tensor, dt: dtype | null): Tensor {
  return sum_dim_IntList.call(self, null, false, dt) as Tensor;
}

/** Accumulates each output element (int64 in BigInt; floats in double, rounded once at the end). */
function reduceSum(self: Tensor, mask: readonly boolean[], out: Tensor): void {
  const impl = self._impl;
  const sizes = impl.sizes();
  const n = impl.numel();
  const outCount = out.numel();
  const exact = out.dtype.scalarType === ScalarType.Long;
  const acc: (number | bigint)[] = new Array(outCount).fill(exact ? 0n : 0);
  const view = typedView(impl.storage, impl.dtype);
  const st = impl.dtype.scalarType;
  // the output index of an input element: its coordinates with the reduced dims dropped
  const outStrides: number[] = [];
  let stride = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    outStrides[d] = mask[d] ? 0 : stride;
    if (!mask[d]) stride *= sizes[d];
  }
  for (let i = 0; i < n; i++) {
    let rem = i, o = 0;
    for (let d = sizes.length - 1; d >= 0; d--) {
      const c = rem % sizes[d];
      rem = (rem - c) / sizes[d];
      o += c * outStrides[d];
    }
    const off = offsetOf(impl, i);
    if (exact) acc[o] = (acc[o] as bigint) + (st === ScalarType.Long ? (view[off] as bigint) : BigInt(Math.trunc(readNumber(view, st, off))));
    else acc[o] = (acc[o] as number) + readNumber(view, st, off);
  }
  const outView = typedView(out._impl.storage, out.dtype) as unknown as (number | bigint)[];
  const ot = out.dtype.scalarType;
  for (let o = 0; o < outCount; o++) {
    const v = acc[o];
    outView[offsetOf(out._impl, o)] = typeof v === "bigint" ? BigInt.asIntN(64, v) : toRaw(ot, v);
  }
}
