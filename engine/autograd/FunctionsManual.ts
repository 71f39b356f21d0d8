// The helpers derivatives.yaml formulas call (torch/csrc/autograd/FunctionsManual.cpp), by the same
// names. They call ops through their handles (at:: in PyTorch), so under create_graph the backward's
// own ops are recorded and can be differentiated again.

import type { Tensor } from "../aten/core/Tensor.js";
import { NotImplementedError } from "../c10/Errors.js";
import type { ScalarType } from "../c10/ScalarType.js";
import { maybe_wrap_dim } from "../c10/WrapDimMinimal.js";
import { mul_Tensor } from "../generated/mul.js";
import { unsqueeze_default } from "../generated/unsqueeze.js";
import { expand_default } from "../generated/expand.js";
import { zeros_like_default } from "../generated/zeros_like.js";
import { wrapped_scalar_tensor } from "../aten/core/OpRegistration.js";
export { sum_to } from "./sum_to.js";

/** The real part of a complex gradient for a real input (Glasstorch has no complex dtypes yet: g itself). */
export function handle_r_to_c(_self_scalar_type: ScalarType, g: Tensor): Tensor {
  return g;
}

/** t, or t * s when the scalar s is not 1. */
export function maybe_multiply(t: Tensor, s: number | boolean): Tensor {
  return Number(s) === 1 ? t : (mul_Tensor.call(t, wrapped_scalar_tensor(s)) as Tensor);
}

/** grad * conj(other), cast as handle_r_to_c says. */
export function mul_tensor_backward(grad: Tensor, other: Tensor, self_scalar_type: ScalarType): Tensor {
  return handle_r_to_c(self_scalar_type, mul_Tensor.call(grad, other) as Tensor);
}

/** unsqueeze_multiple: put back the reduced dims (in increasing order) so grad broadcasts to the input. */
function unsqueeze_multiple(t: Tensor, dims: readonly number[], ndim: number): Tensor {
  const wrapped = [...new Set(dims.map((d) => maybe_wrap_dim(d, ndim)))].sort((a, b) => a - b);
  return wrapped.reduce((r, d) => unsqueeze_default.call(r, d) as Tensor, t);
}

/** sum's backward: unsqueeze the reduced dims unless keepdim, then expand to the input's sizes. */
export function sum_backward(grad: Tensor, sizes: readonly number[], dims: readonly number[] | number | null, keepdim: boolean): Tensor {
  const list = dims === null ? [] : typeof dims === "number" ? [dims] : dims;
  const g = !keepdim && sizes.length > 0 && list.length > 0 ? unsqueeze_multiple(grad, list, sizes.length) : grad;
  return expand_default.call(g, [...sizes], false) as Tensor;
}

export function zeros_like(t: Tensor): Tensor {
  return zeros_like_default.call(t, null, null, null, null, null) as Tensor;
}

/** A derivative that exists in principle but is not written: backward raises. */
export function not_implemented(reason: string): never {
  throw new NotImplementedError(`the derivative for '${reason}' is not implemented.`);
}
