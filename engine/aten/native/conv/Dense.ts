// Element access for the nn kernels (conv, pooling, normalization, vision): a tensor's values in
// logical row-major order as doubles, and results written back through the output's dtype and
// strides. PyTorch's kernels work on contiguous() inputs; reading the logical order is the same.
// Values are computed in double and rounded once when stored (static_cast to the output dtype).

import { ScalarType } from "../../../c10/ScalarType.js";
import { forEachOffset, typedView, readNumber, toRaw } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";

/** True when the tensor holds data (false on device='meta'). */
export const hasData = (t: Tensor): boolean => t._impl.storage.hasData();

/** t's elements in row-major order, as doubles. */
export function readDense(t: Tensor): Float64Array {
  const impl = t._impl;
  const st = impl.dtype.scalarType;
  const view = typedView(impl.storage, impl.dtype);
  const out = new Float64Array(impl.numel());
  if (impl.is_contiguous() && (st === ScalarType.Float || st === ScalarType.Double)) {
    const off = impl.storage_offset();
    out.set((view as Float32Array | Float64Array).subarray(off, off + out.length));
    return out;
  }
  forEachOffset(impl, (off, i) => {
    out[i] = readNumber(view, st, off);
  });
  return out;
}

/** Writes row-major values into t (any strides), converting as static_cast does. */
export function writeDense(t: Tensor, values: ArrayLike<number>): void {
  const impl = t._impl;
  const st = impl.dtype.scalarType;
  const view = typedView(impl.storage, impl.dtype) as unknown as (number | bigint)[];
  if (st === ScalarType.Float || st === ScalarType.Double) {
    forEachOffset(impl, (off, i) => {
      view[off] = values[i];
    });
    return;
  }
  forEachOffset(impl, (off, i) => {
    view[off] = toRaw(st, values[i]);
  });
}

/** int64 values of a tensor (indices), row-major. */
export function writeIndices(t: Tensor, values: ArrayLike<number>): void {
  const impl = t._impl;
  const view = typedView(impl.storage, impl.dtype) as BigInt64Array;
  forEachOffset(impl, (off, i) => {
    view[off] = BigInt(values[i]);
  });
}

/** "[2, 3, 4]", as IntArrayRef prints. */
export const sizesStr = (s: readonly number[]): string => `[${s.join(", ")}]`;
