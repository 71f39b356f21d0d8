// Factories of the shape family (aten/src/ATen/native/TensorFactories.cpp, aten/src/ATen/EmptyTensor.cpp):
// empty_strided allocates a window with given strides; empty_like keeps its input's layout; zeros,
// full and the *_like forms are composites that allocate, then zero_() or fill_() through the dispatcher.

import { get_default_dtype } from "../../../c10/DefaultDtype.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { toDevice, type device } from "../../../c10/Device.js";
import { GetAllocator } from "../../../c10/Allocator.js";
import { Storage } from "../../../c10/Storage.js";
import { TensorImpl } from "../../../c10/TensorImpl.js";
import { bool, int64, type dtype } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import { Tensor, type Scalar } from "../../core/Tensor.js";
import { checkSizeNonnegative } from "../../core/SizeArgs.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { empty_strided_default } from "../../../generated/empty_strided.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { zero__default } from "../../../generated/zero.js";
import { memoryFormatOf } from "./MemoryFormat.js";
import { infer_dense_strides, is_non_overlapping_and_dense } from "./MemoryLayout.js";
import { computeStorageNbytes, computeStorageNbytesSymbolic } from "./StorageSize.js";
import { checkLayout, deviceArg } from "./TensorConversions.js";

const GRAIN_SIZE = 32768; // at::internal::GRAIN_SIZE: below it zero_ clears the bytes directly

function checkPin(pin_memory: boolean | null): void {
  if (pin_memory) throw new RuntimeError("Cannot pin memory: Glasstorch has no pinned-memory allocator yet");
}

/** empty_strided_generic: storage for exactly the elements the strides reach. */
function empty_strided_on(size: readonly number[], stride: readonly number[], dt: dtype | null, dev: device, symbolic: boolean): Tensor {
  checkSizeNonnegative(size);
  if (size.length !== stride.length) {
    throw new RuntimeError(`dimensionality of sizes (${size.length}) must match dimensionality of strides (${stride.length})`);
  }
  const d = dt ?? get_default_dtype();
  const nbytes = symbolic ? computeStorageNbytesSymbolic(size, stride, d.itemsize) : computeStorageNbytes(size, stride, d.itemsize);
  // uninitialised, as PyTorch's empty_strided (empty_like's callers write before they read)
  const storage = new Storage(nbytes, GetAllocator(dev.type), dev, true, true, d);
  return new Tensor(new TensorImpl(storage, d, size, stride));
}

export function empty_strided_cpu(size: readonly number[], stride: readonly number[], dtype: dtype | null, layout: unknown, _device: unknown, pin_memory: boolean | null): Tensor {
  checkLayout(layout, "empty_strided");
  checkPin(pin_memory);
  return empty_strided_on(size, stride, dtype, toDevice("cpu"), false);
}

export function empty_strided_meta_symint(size: readonly number[], stride: readonly number[], dtype: dtype | null, layout: unknown, _device: unknown, pin_memory: boolean | null): Tensor {
  checkLayout(layout, "empty_strided");
  checkPin(pin_memory);
  return empty_strided_on(size, stride, dtype, toDevice("meta"), true);
}

/** empty_like: self's sizes, dtype and device unless given; by default self's layout (preserve_format). */
export function empty_like(self: Tensor, dtype: dtype | null, layout: unknown, device: unknown, pin_memory: boolean | null, memory_format: unknown): Tensor {
  checkLayout(layout, "empty_like");
  const dt = dtype ?? self.dtype;
  const dev = deviceArg(device) ?? self.device;
  const format = memoryFormatOf(memory_format) ?? "preserve_format";
  const sizes = [...self._impl.sizes()];
  if (format === "preserve_format") {
    const strides = is_non_overlapping_and_dense(self._impl) ? [...self._impl.strides()] : infer_dense_strides(sizes, self._impl.strides());
    return empty_strided_default.call(sizes, strides, dt, layout, dev, pin_memory) as Tensor;
  }
  return empty_memory_format.call(sizes, dt, layout, dev, pin_memory, format) as Tensor;
}

/** zero_ on CPU: a dense tensor below the grain size has its bytes cleared; others go through fill_(0). */
export function zero_(self: Tensor): Tensor {
  const impl = self._impl;
  if (impl.numel() < GRAIN_SIZE && is_non_overlapping_and_dense(impl)) {
    // zero_cpu_: memset of the elements' block (a dense window is one block, whatever its strides)
    if (impl.numel() > 0) {
      const view = typedView(impl.storage, impl.dtype) as unknown as { fill(v: unknown, s: number, e: number): void };
      view.fill(impl.dtype === int64 ? 0n : 0, impl.storage_offset(), impl.storage_offset() + impl.numel());
    }
    return self;
  }
  return fill__Scalar.call(self, 0) as Tensor;
}

/** zero_ on Meta: nothing to write. */
export function zero_meta_(self: Tensor): Tensor {
  return self;
}

export function zeros_symint(size: readonly number[], dtype: dtype | null, layout: unknown, device: unknown, pin_memory: boolean | null): Tensor {
  const result = empty_memory_format.call(size, dtype, layout, device, pin_memory, null) as Tensor;
  return zero__default.call(result) as Tensor;
}

export function zeros_like(self: Tensor, dtype: dtype | null, layout: unknown, device: unknown, pin_memory: boolean | null, memory_format: unknown): Tensor {
  const result = empty_like_default.call(self, dtype, layout, device, pin_memory, memory_format) as Tensor;
  return zero__default.call(result) as Tensor;
}

export function ones_like(self: Tensor, dtype: dtype | null, layout: unknown, device: unknown, pin_memory: boolean | null, memory_format: unknown): Tensor {
  const result = empty_like_default.call(self, dtype, layout, device, pin_memory, memory_format) as Tensor;
  return fill__Scalar.call(result, 1) as Tensor;
}

/** A Scalar argument's value, and whether C++ would see it as a bool or an integer (a 0-d tensor keeps its dtype's kind). */
function scalarKind(v: Scalar | Tensor): { value: Scalar; isBool: boolean; isIntegral: boolean } {
  if (v instanceof Tensor) {
    const value = v.item();
    return { value, isBool: v.dtype === bool, isIntegral: !v.dtype.is_floating_point && v.dtype !== bool };
  }
  return { value: v, isBool: typeof v === "boolean", isIntegral: typeof v === "number" && Number.isInteger(v) };
}

/** full: infer_full_options picks bool for a bool value and int64 for an integer when no dtype is given. */
export function full(size: readonly number[], fill_value: Scalar | Tensor, dtype: dtype | null, layout: unknown, device: unknown, pin_memory: boolean | null): Tensor {
  const k = scalarKind(fill_value);
  const dt = dtype ?? (k.isBool ? bool : k.isIntegral ? int64 : null);
  const result = empty_memory_format.call(size, dt, layout, device, pin_memory, null) as Tensor;
  return fill__Scalar.call(result, k.value) as Tensor;
}

export function full_like(self: Tensor, fill_value: Scalar | Tensor, dtype: dtype | null, layout: unknown, device: unknown, pin_memory: boolean | null, memory_format: unknown): Tensor {
  const result = empty_like_default.call(self, dtype, layout, device, pin_memory, memory_format) as Tensor;
  fill__Scalar.call(result, scalarKind(fill_value).value);
  return result;
}
