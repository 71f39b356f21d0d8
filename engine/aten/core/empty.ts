// at::empty: allocate a Storage on the device and wrap it in a contiguous TensorImpl.
// Every factory starts here (aten/src/ATen/EmptyTensor.cpp).

import { TensorImpl } from "../../c10/TensorImpl.js";
import { Storage } from "../../c10/Storage.js";
import { GetAllocator } from "../../c10/Allocator.js";
import { computeNumel, computeStorageNumelNeeded } from "../../c10/Contiguity.js";
import type { device } from "../../c10/Device.js";
import type { dtype } from "../../c10/ScalarType.js";
import { checkSizeNonnegative } from "./SizeArgs.js";
import { Tensor } from "./Tensor.js";

// The memory is zeroed unless `uninitialized`: only for callers that write every element before any is
// read (torch.empty, whose contents PyTorch leaves undefined, and TensorIterator outputs). Kernels that
// allocate and then accumulate (+=) rely on the default.
// `colour`: where the data should start in its 4 KiB page (c10/Allocator.ts colour_away_from).
export function empty_impl(sizes: readonly number[], dt: dtype, dev: device, uninitialized = false, colour?: number): TensorImpl {
  checkSizeNonnegative(sizes);
  const storage = new Storage(computeNumel(sizes) * dt.itemsize, GetAllocator(dev.type), dev, true, uninitialized, dt, colour);
  return new TensorImpl(storage, dt, sizes);
}

export function empty_strided_impl(sizes: readonly number[], strides: readonly number[], dt: dtype, dev: device, uninitialized = false, colour?: number): TensorImpl {
  checkSizeNonnegative(sizes);
  const storage = new Storage(computeStorageNumelNeeded(sizes, strides, 0) * dt.itemsize, GetAllocator(dev.type), dev, true, uninitialized, dt, colour);
  return new TensorImpl(storage, dt, sizes, strides);
}

export function wrap(impl: TensorImpl): Tensor {
  return new Tensor(impl);
}
