// expand and expand_as (aten/src/ATen/native/TensorShape.cpp, aten/src/ATen/ExpandUtils.cpp
// inferExpandGeometry): a size-1 dim becomes any size with stride 0, so every index reads the same
// element; new leading dims are added the same way. No data is copied.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { as_strided_default } from "../../../generated/as_strided.js";
import { expand_default } from "../../../generated/expand.js";
import { tensorTypeString } from "./TensorTypeString.js";

const list = (xs: readonly number[]) => `[${xs.join(", ")}]`;

/** inferExpandGeometry: the sizes and strides of `tensorSizes` seen at `sizes` (-1 keeps a dim). */
export function inferExpandGeometry(tensorSizes: readonly number[], tensorStrides: readonly number[], sizes: readonly number[]): { sizes: number[]; strides: number[] } {
  const ndim = sizes.length;
  const tensorDim = tensorSizes.length;
  if (tensorDim === 0) return { sizes: [...sizes], strides: new Array<number>(ndim).fill(0) };
  const outSizes = new Array<number>(ndim);
  const outStrides = new Array<number>(ndim);
  for (let i = ndim - 1; i >= 0; i--) {
    const offset = ndim - 1 - i;
    const dim = tensorDim - 1 - offset;
    let size = dim >= 0 ? tensorSizes[dim] : 1;
    let stride = dim >= 0 ? tensorStrides[dim] : outSizes[i + 1] * outStrides[i + 1];
    let targetSize = sizes[i];
    if (targetSize === -1) {
      if (dim < 0) throw new RuntimeError(`The expanded size of the tensor (${targetSize}) isn't allowed in a leading, non-existing dimension ${i}`);
      targetSize = size;
    }
    if (size !== targetSize) {
      if (size !== 1) {
        throw new RuntimeError(
          `The expanded size of the tensor (${targetSize}) must match the existing size (${size}) at non-singleton dimension ${i}.  ` +
            `Target sizes: ${list(sizes)}.  Tensor sizes: ${list(tensorSizes)}`,
        );
      }
      size = targetSize;
      stride = 0;
    }
    outSizes[i] = size;
    outStrides[i] = stride;
  }
  return { sizes: outSizes, strides: outStrides };
}

/** expand(size, implicit): `implicit` only marks expands inserted by broadcasting, for the JIT tracer. */
export function expand(self: Tensor, size: readonly number[], _implicit: boolean): Tensor {
  if (size.length < self.dim()) {
    throw new RuntimeError(
      `expand(${tensorTypeString(self)}{${list(self._impl.sizes())}}, size=${list(size)}): the number of sizes provided (${size.length}) ` +
        `must be greater or equal to the number of dimensions in the tensor (${self.dim()})`,
    );
  }
  const g = inferExpandGeometry(self._impl.sizes(), self._impl.strides(), size);
  return as_strided_default.call(self, g.sizes, g.strides, null) as Tensor;
}

export function expand_as(self: Tensor, other: Tensor): Tensor {
  return expand_default.call(self, [...other._impl.sizes()], false) as Tensor;
}
