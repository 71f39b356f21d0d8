// fill_ on CPU (aten/src/ATen/native/cpu/FillKernel.cpp): every element of the window gets one value.

import type { TensorImpl } from "../../c10/TensorImpl.js";
import { forEachOffset, toRaw, typedView, type TypedView } from "../../c10/ElementAccess.js";
import { get_cpu_capability } from "../native/DispatchStub.js";
import { ScalarType } from "../../c10/ScalarType.js";

const fastCopyTypes = new Set([ScalarType.Float, ScalarType.Double, ScalarType.Char, ScalarType.Byte, ScalarType.Short, ScalarType.Int]);

/**
 * The native backend's parallel fill (native/cpu/Fill.cc, installed by cpu_native/NativeFill.ts):
 * elements [offset, offset + numel) of `view` get the bytes of `pattern`; false when it declines.
 * Only large contiguous windows go there: below NATIVE_FILL_MIN_BYTES the call costs more than it saves.
 */
type NativeFill = (view: TypedView, offset: number, numel: number, pattern: Uint8Array) => boolean;
let nativeFill: NativeFill | null = null;
const NATIVE_FILL_MIN_BYTES = 1 << 17;

export function set_native_fill(fn: NativeFill | null): void {
  nativeFill = fn;
}

/** The value's bytes in the view's element type (the typed array converts it as the TS fill does). */
function patternOf(view: TypedView, raw: number | bigint): Uint8Array {
  const one = new (view.constructor as new (n: number) => TypedView)(1);
  (one as unknown as (number | bigint)[])[0] = raw;
  return new Uint8Array(one.buffer, one.byteOffset, one.byteLength);
}

export function fill_kernel(self: TensorImpl, value: number): void {
  if (!self.storage.hasData() || self.numel() === 0) return; // meta: nothing to write
  const typed = typedView(self.storage, self.dtype);
  const view = typed as unknown as { fill(v: unknown, s: number, e: number): void } & (number | bigint)[];
  const raw = toRaw(self.dtype.scalarType, value);
  if (self.is_contiguous()) {
    const numel = self.numel();
    if (nativeFill !== null && numel * typed.BYTES_PER_ELEMENT >= NATIVE_FILL_MIN_BYTES && get_cpu_capability() !== "ts" &&
        typed.BYTES_PER_ELEMENT === self.dtype.itemsize && nativeFill(typed, self.storage_offset(), numel, patternOf(typed, raw))) {
      return;
    }
    view.fill(raw, self.storage_offset(), self.storage_offset() + numel);
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
