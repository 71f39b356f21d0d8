// to and _to_copy (aten/src/ATen/native/TensorConversions.cpp). `to` returns self when nothing would
// change (to_will_alias) and otherwise calls _to_copy, which allocates the result on the target
// device and dtype with self's layout (empty_strided) and copies into it.
// C++ overloads one name `to` four times; here each overload has its own kernel (to_dtype, ...).

import { isStrided } from "../../../c10/Layout.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { device as Device, toDevice } from "../../../c10/Device.js";
import type { dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_strided_default } from "../../../generated/empty_strided.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { copy__default } from "../../../generated/copy.js";
import { _to_copy_default } from "../../../generated/_to_copy.js";
import { memoryFormatOf } from "./MemoryFormat.js";
import { infer_dense_strides, is_non_overlapping_and_dense } from "./MemoryLayout.js";

/** A Device argument: a torch.device, a string, or a CUDA index. */
export function deviceArg(d: unknown): Device | null {
  if (d === null || d === undefined) return null;
  if (typeof d === "number") return new Device("cuda", d);
  return toDevice(d as Device | string);
}

export function checkLayout(layout: unknown, what: string): void {
  if (!isStrided(layout)) {
    throw new RuntimeError(`${what}: only the strided layout is supported, got ${String(layout)}`);
  }
}

export function _to_copy(self: Tensor, dtype: dtype | null, layout: unknown, device: unknown, pin_memory: boolean | null, non_blocking: boolean, memory_format: unknown): Tensor {
  checkLayout(layout, "to(options)");
  const dt = dtype ?? self.dtype;
  const dev = deviceArg(device) ?? self.device;
  const format = memoryFormatOf(memory_format) ?? "preserve_format";
  const sizes = [...self._impl.sizes()];
  let r: Tensor;
  if (format === "preserve_format") {
    // keep the layout: a dense tensor's strides as they are, others dense in the same dim order
    const strides = is_non_overlapping_and_dense(self._impl) ? [...self._impl.strides()] : infer_dense_strides(sizes, self._impl.strides());
    r = empty_strided_default.call(sizes, strides, dt, null, dev, false) as Tensor;
  } else {
    r = empty_memory_format.call(sizes, dt, null, dev, pin_memory, format) as Tensor;
  }
  copy__default.call(r, self, non_blocking);
  return r;
}

/** to_will_alias: the requested dtype, layout, device and memory format are self's already, and no copy was asked for. */
function to_impl(self: Tensor, dtype: dtype | null, layout: unknown, device: Device | null, pin_memory: boolean | null, non_blocking: boolean, copy: boolean, memory_format: unknown): Tensor {
  const format = memoryFormatOf(memory_format) ?? "preserve_format";
  const alias =
    (dtype === null || dtype === self.dtype) &&
    isStrided(layout) && // self.layout() is strided
    (device === null || device.equals(self.device)) &&
    !copy &&
    // suggest_memory_format() is contiguous_format for every layout Glasstorch has
    (format === "preserve_format" || format === "contiguous_format");
  if (alias) return self;
  return _to_copy_default.call(self, dtype, layout, device, pin_memory, non_blocking, memory_format) as Tensor;
}

/** to(*, dtype, layout, device, pin_memory, non_blocking, copy, memory_format) */
export function to_dtype_layout(self: Tensor, dtype: dtype | null, layout: unknown, device: unknown, pin_memory: boolean | null, non_blocking: boolean, copy: boolean, memory_format: unknown): Tensor {
  return to_impl(self, dtype, layout, deviceArg(device), pin_memory, non_blocking, copy, memory_format);
}

/** to(device, dtype, non_blocking, copy, memory_format) */
export function to_device(self: Tensor, device: unknown, dtype: dtype, non_blocking: boolean, copy: boolean, memory_format: unknown): Tensor {
  return to_impl(self, dtype, null, deviceArg(device), null, non_blocking, copy, memory_format);
}

/** to(dtype, non_blocking, copy, memory_format) */
export function to_dtype(self: Tensor, dtype: dtype, non_blocking: boolean, copy: boolean, memory_format: unknown): Tensor {
  return to_impl(self, dtype, null, null, null, non_blocking, copy, memory_format);
}

/** to(other, non_blocking, copy, memory_format): other's dtype and device. */
export function to_other(self: Tensor, other: Tensor, non_blocking: boolean, copy: boolean, memory_format: unknown): Tensor {
  return to_impl(self, other.dtype, null, other.device, false, non_blocking, copy, memory_format);
}
