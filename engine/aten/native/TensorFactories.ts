// Composite factories (aten/src/ATen/native/TensorFactories.cpp): built from other ops through the
// dispatcher, so a trace shows ones() calling empty() and fill_().

import type { DeviceLike } from "../../c10/Device.js";
import type { dtype } from "../../c10/ScalarType.js";
import type { Tensor } from "../core/Tensor.js";
import { empty_memory_format } from "../../generated/empty.js";
import { fill__Scalar } from "../../generated/fill.js";

export function ones(size: readonly number[], dt: dtype | null, layout: unknown, device: DeviceLike | null, pinMemory: boolean | null): Tensor {
  const result = empty_memory_format.call(size, dt, layout, device, pinMemory, null) as Tensor;
  return fill__Scalar.call(result, 1) as Tensor;
}
