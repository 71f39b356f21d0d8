// NumPy's names and other aliases (UnaryOps.cpp, TensorCompare.cpp): CompositeImplicitAutograd
// kernels that call the op they stand for through the dispatcher, as at::neg(self) does. A math
// kernel runs at the Autograd key, above autograd and ADInplaceOrView, so the call it makes goes
// through both: negative_ bumps self's version once, in neg_'s ADInplaceOrView kernel.

import { Tensor, type Scalar } from "../../core/Tensor.js";
import { neg_default, neg__default, neg_out } from "../../../generated/neg.js";
import { abs_default, abs__default, abs_out } from "../../../generated/abs.js";
import { asin_default, asin__default, asin_out } from "../../../generated/asin.js";
import { acos_default, acos__default, acos_out } from "../../../generated/acos.js";
import { atan_default, atan__default, atan_out } from "../../../generated/atan.js";
import { trunc_default, trunc__default, trunc_out } from "../../../generated/trunc.js";
import { clamp_default, clamp_Tensor, clamp__default, clamp__Tensor, clamp_out, clamp_Tensor_out } from "../../../generated/clamp.js";

type Op = { call(...args: unknown[]): unknown };

/** The functional, in-place and out= kernels of an alias of `target`. */
function alias(fn: Op, inplace: Op, out: Op) {
  return [
    (self: Tensor) => fn.call(self) as Tensor,
    (self: Tensor) => inplace.call(self) as Tensor,
    (self: Tensor, result: Tensor) => out.call(self, result) as Tensor,
  ] as const;
}

export const [negative, negative_, negative_out] = alias(neg_default, neg__default, neg_out);
export const [absolute, absolute_, absolute_out] = alias(abs_default, abs__default, abs_out);
export const [arcsin, arcsin_, arcsin_out] = alias(asin_default, asin__default, asin_out);
export const [arccos, arccos_, arccos_out] = alias(acos_default, acos__default, acos_out);
export const [arctan, arctan_, arctan_out] = alias(atan_default, atan__default, atan_out);
export const [fix, fix_, fix_out] = alias(trunc_default, trunc__default, trunc_out);

// clip and clip.Tensor share one kernel name, as the C++ overloads do; the bounds' kind picks clamp's overload.
type Bound = Scalar | Tensor | null;
const tensorBounds = (min: Bound, max: Bound) => min instanceof Tensor || max instanceof Tensor;

export function clip(self: Tensor, min: Bound, max: Bound): Tensor {
  return (tensorBounds(min, max) ? clamp_Tensor : clamp_default).call(self, min, max) as Tensor;
}

export function clip_(self: Tensor, min: Bound, max: Bound): Tensor {
  return (tensorBounds(min, max) ? clamp__Tensor : clamp__default).call(self, min, max) as Tensor;
}

export function clip_out(self: Tensor, min: Bound, max: Bound, out: Tensor): Tensor {
  return (tensorBounds(min, max) ? clamp_Tensor_out : clamp_out).call(self, min, max, out) as Tensor;
}
