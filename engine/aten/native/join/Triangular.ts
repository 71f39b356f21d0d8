// tril and triu (aten/src/ATen/native/TriangularOps.cpp): structured kernels. The meta part gives
// an output of self's sizes (contiguous) and checks out='s dtype; the impl keeps the elements on
// and below (tril) or on and above (triu) the `diagonal`-th diagonal of the last two dims and
// zeroes the rest. self.size(-2) is only read by the impl, so a 1-D input fails on CPU but not on Meta.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { typedView } from "../../../c10/ElementAccess.js";
import { int64 } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_cpu, empty_meta } from "../EmptyTensor.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import { resize_output } from "../Resize.js";
import { hasData, list, sameList, type StructuredMode } from "./common.js";
import { forEachIndex } from "./Reorder.js";
import { DispatchStub } from "../DispatchStub.js";

function structuredResult(self: Tensor, out: Tensor | null, mode: StructuredMode, name: string): Tensor {
  const sizes = [...self._impl.sizes()];
  // a structured kernel allocates its output directly (at::detail::empty_cpu / empty_meta), not through the dispatcher
  if (mode === "functional") return (self.is_meta ? empty_meta : empty_cpu)(sizes, self.dtype, null, self.device, null, null);
  if (mode === "inplace") {
    if (!sameList(self._impl.sizes(), sizes)) throw new RuntimeError(`${name}: bad in-place output shape ${list(sizes)}`);
    return self;
  }
  const o = out as Tensor;
  if (o.dtype !== self.dtype) {
    throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(self.dtype.scalarType)}, but got ${typeMetaName(o.dtype.scalarType)} instead`);
  }
  resize_output(o, sizes);
  return o;
}

/**
 * apply_triu_tril (TriangularOps.cpp): result's elements are self's where they are kept (on and below
 * the k-th diagonal for tril, on and above it for triu), zero elsewhere. result may be self (in place).
 */
export const triu_tril_stub = new DispatchStub<(result: Tensor, self: Tensor, k: number, upper: boolean) => void>(
  "apply_triu_tril", "aten/src/ATen/native/TriangularOps.cpp",
);
triu_tril_stub.register("ts", (result, self, k, upper) => {
  const nd = self.dim();
  const src = typedView(self._impl.storage, self.dtype) as unknown as unknown[];
  const dst = typedView(result._impl.storage, result.dtype) as unknown as unknown[];
  const zero = self.dtype === int64 ? 0n : 0;
  const sizes = [...self._impl.sizes()];
  const offset = (t: Tensor, idx: readonly number[]) => idx.reduce((o, v, d) => o + v * t._impl.strides()[d], t._impl.storage_offset());
  // read everything first: an in-place call may read and write the same elements
  const values: unknown[] = [];
  forEachIndex(sizes, (idx) => {
    const d = idx[nd - 1] - idx[nd - 2];
    const keep = upper ? d >= k : d <= k;
    values.push(keep ? src[offset(self, idx)] : zero);
  });
  let i = 0;
  forEachIndex(sizes, (idx) => {
    dst[offset(result, idx)] = values[i++];
  });
});

function triangular(self: Tensor, k: number, out: Tensor | null, mode: StructuredMode, upper: boolean): Tensor {
  const result = structuredResult(self, out, mode, upper ? "triu" : "tril");
  if (self.numel() === 0 || !hasData(result)) return result;
  maybe_wrap_dim(-2, self.dim()); // self.size(-2) in checkTrilTriuBatchContiguous
  triu_tril_stub.call(self.device.type, result, self, k, upper);
  return result;
}

export function tril_cpu(self: Tensor, diagonal: number, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return triangular(self, diagonal, out, mode, false);
}

export function triu_cpu(self: Tensor, diagonal: number, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return triangular(self, diagonal, out, mode, true);
}
