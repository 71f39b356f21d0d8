// sort and argsort (aten/src/ATen/native/Sorting.cpp, TensorCompare.cpp).
// sort.values_stable is structured: its meta function wraps dim and gives both outputs self's sizes
// with self's strides when self is non-overlapping and dense, else dense strides inferred from them
// (infer_dense_strides). The CPU kernel sorts each slice along dim; NaN sorts as the largest value.
// PyTorch 1.13's CPU kernel orders ties stably whether or not stable=True is asked for, so one
// stable sort serves both. sort / sort.values call sort.stable with stable=False; argsort takes the
// indices. Returns [values, indices] with .values / .indices, as max.dim does (reduce/ReduceOps.ts).

import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { int64, type dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_strided_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { infer_dense_strides, is_non_overlapping_and_dense } from "../shape/MemoryLayout.js";
import { dimMask, gather, writeAll, type Value } from "../reduce/ReduceUtils.js";
import { sort_stable, sort_values_stable } from "../../../generated/sort.js";
import { hasData, type StructuredMode } from "./common.js";
import { DispatchStub } from "../DispatchStub.js";

export type ValuesIndices = [Tensor, Tensor] & { values: Tensor; indices: Tensor };
const namedTuple = (pair: [Tensor, Tensor]): ValuesIndices => Object.assign(pair, { values: pair[0], indices: pair[1] }) as ValuesIndices;

/** See reduce/ReduceOps.ts outsAndMode: the functional registration passes one null for both outputs. */
function outsAndMode(second: Tensor | null | StructuredMode, mode: StructuredMode): [Tensor | null, StructuredMode] {
  return typeof second === "string" ? [null, second] : [second, mode];
}

function output(self: Tensor, strides: readonly number[], dt: dtype, out: Tensor | null, mode: StructuredMode): Tensor {
  const sizes = self._impl.sizes();
  if (mode === "functional" || out === null) return wrap(empty_strided_impl(sizes, strides, dt, self.device));
  resize_output(out, sizes);
  return out;
}

/** a < b in ascending order with NaN largest. */
function less(a: Value, b: Value): boolean {
  if (typeof a === "number" && Number.isNaN(a)) return false;
  if (typeof b === "number" && Number.isNaN(b)) return true;
  return a < b;
}

/**
 * sort_stub (cpu/SortingKernel.cpp): each lane of self along dim d sorted into values, its positions into
 * indices (both already self's size). Stable, NaN largest: the TS kernel is Array.prototype.sort with
 * the position as the last key.
 */
export const sort_stub = new DispatchStub<(values: Tensor, indices: Tensor, self: Tensor, d: number, descending: boolean) => void>("sort_stub", "aten/src/ATen/native/cpu/SortingKernel.cpp");
sort_stub.register("ts", (values, indices, self, d, descending) => {
  const sizes = self._impl.sizes();
  const nd = sizes.length;
  const groups = gather(self, dimMask(nd === 0 ? [] : [d], nd));
  const size = nd === 0 ? 1 : sizes[d];
  let inner = 1;
  for (let k = d + 1; k < nd; k++) inner *= sizes[k];
  const outV: Value[] = new Array(self.numel());
  const outI: Value[] = new Array(self.numel());
  groups.forEach((g, gi) => {
    const order = g.map((_, k) => k);
    order.sort((a, b) => {
      const [x, y] = descending ? [g[b], g[a]] : [g[a], g[b]];
      if (less(x, y)) return -1;
      if (less(y, x)) return 1;
      return a - b; // stable
    });
    const outer = Math.floor(gi / inner), inn = gi % inner;
    order.forEach((src, k) => {
      const lin = outer * size * inner + k * inner + inn;
      outV[lin] = g[src];
      outI[lin] = BigInt(src);
    });
  });
  writeAll(values, outV);
  writeAll(indices, outI);
});

export function sort_stable_out(
  self: Tensor, _stable: boolean | null, dim: number, descending: boolean,
  values: Tensor | null, indicesArg: Tensor | null | StructuredMode, modeArg: StructuredMode = "out",
): ValuesIndices {
  const [indices, mode] = outsAndMode(indicesArg, modeArg);
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  const strides = is_non_overlapping_and_dense(self._impl) ? [...self._impl.strides()] : infer_dense_strides(sizes, self._impl.strides());
  const v = output(self, strides, self.dtype, values, mode);
  const i = output(self, strides, int64, indices, mode);
  if (!hasData(v) || self.numel() === 0) return namedTuple([v, i]);
  sort_stub.call(self.device.type, v, i, self, d, descending);
  return namedTuple([v, i]);
}

/** sort (CompositeExplicitAutograd): at::sort(self, stable=false, dim, descending). */
export function sort(self: Tensor, dim: number, descending: boolean): ValuesIndices {
  return sort_stable.call(self, false, dim, descending) as ValuesIndices;
}

/** sort.values (CompositeExplicitAutograd): at::sort_out(values, indices, self, stable=false, dim, descending). */
export function sort_out(self: Tensor, dim: number, descending: boolean, values: Tensor, indices: Tensor): ValuesIndices {
  return sort_values_stable.call(self, false, dim, descending, values, indices) as ValuesIndices;
}

/** argsort (CompositeImplicitAutograd): std::get<1>(at::sort(self, dim, descending)). */
export function argsort(self: Tensor, dim: number, descending: boolean): Tensor {
  return argsort_stable(self, false, dim, descending);
}

/** argsort.stable: std::get<1>(at::sort(self, stable, dim, descending)). */
export function argsort_stable(self: Tensor, stable: boolean, dim: number, descending: boolean): Tensor {
  const [values, indices] = sort_stable.call(self, stable, dim, descending) as ValuesIndices;
  values.dispose(); // the sorted values die here, as PyTorch's (c10/Dispose.ts)
  return indices;
}
