// empty on each backend (aten/src/ATen/EmptyTensor.cpp): the allocation every factory starts from.

import { isStrided } from "../../c10/Layout.js";
import { get_default_dtype } from "../../c10/DefaultDtype.js";
import { RuntimeError } from "../../c10/Errors.js";
import { toDevice, type DeviceLike } from "../../c10/Device.js";
import type { dtype } from "../../c10/ScalarType.js";
import { empty_impl, wrap } from "../core/empty.js";
import type { Tensor } from "../core/Tensor.js";

function checkLayoutAndPin(layout: unknown, pinMemory: boolean | null): void {
  if (!isStrided(layout)) throw new RuntimeError(`empty: only the strided layout is supported, got ${String(layout)}`);
  if (pinMemory) throw new RuntimeError("Cannot pin memory: Glasstorch has no pinned-memory allocator yet");
}

export function empty_cpu(size: readonly number[], dt: dtype | null, layout: unknown, device: DeviceLike | null, pinMemory: boolean | null, _memoryFormat: unknown): Tensor {
  checkLayoutAndPin(layout, pinMemory);
  // uninitialised, as PyTorch's: callers write before they read (zeros() is empty + zero_())
  return wrap(empty_impl(size, dt ?? get_default_dtype(), toDevice(device ?? "cpu"), true));
}

export function empty_meta(size: readonly number[], dt: dtype | null, layout: unknown, _device: DeviceLike | null, pinMemory: boolean | null, _memoryFormat: unknown): Tensor {
  checkLayoutAndPin(layout, pinMemory);
  return wrap(empty_impl(size, dt ?? get_default_dtype(), toDevice("meta")));
}
