// resize_output (aten/src/ATen/native/Resize.cpp): an out= tensor of the wrong shape is resized,
// with PyTorch's deprecation warning when it already held elements.

import { computeNumel, contiguousStrides } from "../../c10/Contiguity.js";
import type { Tensor } from "../core/Tensor.js";

export function resize_output(out: Tensor, shape: readonly number[]): boolean {
  const sizes = out._impl.sizes();
  if (sizes.length === shape.length && sizes.every((s, i) => s === shape[i])) return false;
  if (out.numel() !== 0) {
    process.emitWarning(
      `An output with one or more elements was resized since it had shape [${sizes.join(", ")}], which does not match the required output shape [${shape.join(", ")}]. ` +
        "This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they have zero elements. " +
        "You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
      "UserWarning",
    );
  }
  const needed = (out._impl.storage_offset() + computeNumel(shape)) * out.element_size();
  if (needed > out._impl.storage.nbytes()) out._impl.storage.resize(needed);
  out._impl.set_sizes_and_strides(shape, contiguousStrides(shape));
  return true;
}
