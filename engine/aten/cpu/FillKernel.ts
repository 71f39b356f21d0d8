// fill_ on CPU (aten/src/ATen/native/cpu/FillKernel.cpp): every element of the window gets one value.

import type { TensorImpl } from "../../c10/TensorImpl.js";
import { forEachOffset, toRaw, typedView } from "../../c10/ElementAccess.js";
import { ScalarType } from "../../c10/ScalarType.js";

const fastCopyTypes = new Set([ScalarType.Float, ScalarType.Double, ScalarType.Char, ScalarType.Byte, ScalarType.Short, ScalarType.Int]);

export function fill_kernel(self: TensorImpl, value: number): void {
  if (!self.storage.hasData() || self.numel() === 0) return; // meta: nothing to write
  const view = typedView(self.storage, self.dtype) as unknown as { fill(v: unknown, s: number, e: number): void } & (number | bigint)[];
  const raw = toRaw(self.dtype.scalarType, value);
  if (self.is_contiguous()) {
    view.fill(raw, self.storage_offset(), self.storage_offset() + self.numel());
    return;
  }
  forEachOffset(self, (offset) => {
    view[offset] = raw;
  });
}

/** Writes `values` (row-major logical order) into the tensor's window, converting to its dtype. */
export function write_values_kernel(self: TensorImpl, values: ArrayLike<number>): void {
  if (!self.storage.hasData()) return;
  const view = typedView(self.storage, self.dtype) as unknown as (number | bigint)[];
  const t = self.dtype.scalarType;
  // Typed-array copies convert exactly as static_cast does for these types (float rounding, int truncation and wrap)
  if (self.is_contiguous() && fastCopyTypes.has(t)) {
    (view as unknown as Float32Array).set(values, self.storage_offset());
    return;
  }
  forEachOffset(self, (offset, i) => {
    view[offset] = toRaw(t, values[i]);
  });
}
