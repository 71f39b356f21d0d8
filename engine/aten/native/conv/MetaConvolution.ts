// convolution's Meta kernel: PyTorch 1.13 registers it in Python (torch/_meta_registrations.py,
// meta_conv), so a convolution on device='meta' gives the output's sizes without running a backend.
// Its checks are its own ("Invalid channel dimensions"), not _convolution's.

import { IndexError, RuntimeError } from "../../../c10/Errors.js";

/** Python's ZeroDivisionError, which meta_conv's `//` raises for a zero stride. */
class ZeroDivisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZeroDivisionError";
  }
}
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";

export function meta_convolution(input: Tensor, weight: Tensor, _bias: Tensor | null, stride: number[], padding: number[], dilation: number[], transposed: boolean, outputPadding: number[], groups: number): Tensor {
  const dims = input.shape.slice(2);
  const kernel = weight.shape.slice(2);
  const at = (l: number[], i: number) => (l.length === 1 ? l[0] : l[i]);
  // kernel_size[i] of a weight with fewer spatial dims than the input is Python's tuple IndexError
  if (kernel.length < dims.length) throw new IndexError("tuple index out of range");
  const floorDiv = (a: number, b: number) => {
    if (b === 0) throw new ZeroDivisionError("integer division or modulo by zero");
    return Math.floor(a / b);
  };
  const shape: number[] = [];
  let outChannels: number;
  if (transposed) {
    outChannels = groups * weight.shape[1];
    dims.forEach((ln, i) => shape.push((ln - 1) * at(stride, i) - 2 * at(padding, i) + at(dilation, i) * (kernel[i] - 1) + at(outputPadding, i) + 1));
  } else {
    outChannels = weight.shape[0];
    if (weight.shape[1] * groups !== input.shape[1]) throw new RuntimeError("Invalid channel dimensions");
    dims.forEach((ln, i) => shape.push(floorDiv(ln + 2 * at(padding, i) - at(dilation, i) * (kernel[i] - 1) - 1, at(stride, i)) + 1));
  }
  return wrap(empty_impl([input.shape[0], outChannels, ...shape], input.dtype, input.device));
}
