// index_add / index_add_ / index_add.out (TensorAdvancedIndexing.cpp: index_add meta, index_add_cpu_out).
// out = self; then out.select(dim, index[i]) += alpha * source.select(dim, i) for each i — duplicate
// indices add up. Indices must lie in [0, size): negative ones are "index out of range in self".

import { IndexError, RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { fma, fmaf } from "../../../c10/util/FusedMultiplyAdd.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import type { StructuredMode } from "../BinaryOps.js";
import { alpha_check } from "../binary/common.js";
import { copy__default } from "../../../generated/copy.js";
import { elements, forEachIndex, hasData, indexValues, isIntIndex, list, offsetAt, scalarTypeName, type Value } from "./common.js";

const REF = "aten/src/ATen/native/TensorAdvancedIndexing.cpp";

/** a + alpha * b as add_stub computes it (fused for float/double, exact for integers). */
function addScaled(st: ScalarType, alpha: Scalar): (a: Value, b: Value) => Value {
  const al = Number(alpha);
  if (st === ScalarType.Long) return (a, b) => (a as bigint) + BigInt(al) * (b as bigint);
  if (st === ScalarType.Bool) return (a, b) => (a || (b && al) ? 1 : 0);
  if (st === ScalarType.Double) return (a, b) => fma(b as number, al, a as number);
  if (st === ScalarType.Float || st === ScalarType.Half || st === ScalarType.BFloat16) return (a, b) => fmaf(b as number, Math.fround(al), a as number);
  return (a, b) => (a as number) + al * (b as number);
}

/** The kernel checks the indices (all of them, before it writes: "index out of range in self") and adds. */
export const index_add_stub = new DispatchStub<(result: Tensor, dim: number, index: Tensor, source: Tensor, alpha: Scalar) => void>("index_add_cpu_", REF);
index_add_stub.register("ts", (result, dim, indexTensor, source, alpha) => {
  const index = indexValues(indexTensor);
  const size = result.dim() === 0 ? 1 : result.size(dim);
  for (const i of index) if (!(i >= 0 && i < size)) throw new IndexError("index out of range in self");
  const out = elements(result), src = elements(source);
  const f = addScaled(result.dtype.scalarType, alpha);
  const scalar = result.dim() === 0;
  const at: number[] = [];
  forEachIndex(source._impl.sizes(), (idx) => {
    at.length = 0;
    at.push(...idx);
    if (!scalar) at[dim] = index[idx[dim] ?? 0];
    const o = offsetAt(result, at);
    out.set(o, f(out.get(o), src.get(offsetAt(source, idx))));
  });
});

export function index_add_cpu_out(
  self: Tensor, dimArg: number, index: Tensor, source: Tensor, alpha: Scalar, out: Tensor | null, mode: StructuredMode = "out",
): Tensor {
  const dim = maybe_wrap_dim(dimArg, self.dim());
  const func = "index_add";
  const numel = index.numel();
  if (index.dim() > 1) {
    throw new IndexError(
      `${func}_(): Index is supposed to be a vector, but got dim: ${index.dim()} with type: ${scalarTypeName(index.dtype.scalarType)} and size: ${list(index._impl.sizes())}`,
    );
  }
  if (!isIntIndex(index)) throw new RuntimeError(`${func}_(): Expected dtype int32/int64 for index`);
  if (self.dtype !== source.dtype) {
    throw new RuntimeError(`${func}_(): self (${scalarTypeName(self.dtype.scalarType)}) and source (${scalarTypeName(source.dtype.scalarType)}) must have the same scalar type`);
  }
  if (!(dim === 0 || dim < source.dim())) throw new IndexError(`${func}_(): Indexing dim ${dim} is out of bounds of tensor`);
  const sourceSize = source.dim() === 0 ? 1 : source.size(dim);
  if (numel !== sourceSize) {
    throw new RuntimeError(`${func}_(): Number of indices (${numel}) should be equal to source.size(dim): (${sourceSize}), for dim: ${dim}`);
  }
  const result = mode === "inplace" ? self : mode === "out" && out ? (resize_output(out, self._impl.sizes()), out) : wrap(empty_impl(self._impl.sizes(), self.dtype, self.device));
  if (result !== self) copy__default.call(result, self, false);
  if (!hasData(result)) return result;
  alpha_check(result.dtype.scalarType, alpha);
  if (numel > 0) index_add_stub.call(self.device.type, result, dim, index, source, alpha);
  return result;
}
