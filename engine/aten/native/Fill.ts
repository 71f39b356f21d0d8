// fill_ (aten/src/ATen/native/Fill.cpp): every element of self becomes value.

import { RuntimeError } from "../../c10/Errors.js";
import type { Tensor, Scalar } from "../core/Tensor.js";
import { fill_kernel } from "../cpu/FillKernel.js";

export function fill_(self: Tensor, value: Scalar | Tensor): Tensor {
  let v: Scalar;
  if (typeof value === "object") {
    if (value.dim() !== 0) throw new RuntimeError(`fill_ only supports 0-dimension value tensor but got tensor with ${value.dim()} dimensions.`);
    v = value.item();
  } else {
    v = value;
  }
  fill_kernel(self._impl, Number(v));
  return self;
}
