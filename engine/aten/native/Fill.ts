// fill_ (aten/src/ATen/native/Fill.cpp): every element of self becomes value; fill, its functional
// variant, fills a fresh tensor like self (at::empty_like(self).fill_(value)).

import { RuntimeError } from "../../c10/Errors.js";
import type { Tensor, Scalar } from "../core/Tensor.js";
import { fill_kernel } from "../cpu/FillKernel.js";
import { empty_like_default } from "../../generated/empty_like.js";
import { fill__Scalar, fill__Tensor } from "../../generated/fill.js";

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

export function fill(self: Tensor, value: Scalar | Tensor): Tensor {
  const out = empty_like_default.call(self, null, null, null, null, null) as Tensor;
  return (typeof value === "object" ? fill__Tensor.call(out, value) : fill__Scalar.call(out, value)) as Tensor;
}
