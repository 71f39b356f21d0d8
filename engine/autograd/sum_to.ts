// at::sum_to and is_expandable_to (aten/src/ATen/ExpandUtils.h): how the engine undoes broadcasting.
// A gradient with the broadcast shape of a forward output is summed over the leading dims the input
// did not have and over the dims where the input had size 1.

import type { Tensor } from "../aten/core/Tensor.js";
import { sum_default, sum_dim_IntList } from "../generated/sum.js";
import { view_default } from "../generated/view.js";

/** Can `shape` be broadcast to `desired`? */
export function is_expandable_to(shape: readonly number[], desired: readonly number[]): boolean {
  if (shape.length > desired.length) return false;
  for (let i = 0; i < shape.length; i++) {
    const size = shape[shape.length - 1 - i], target = desired[desired.length - 1 - i];
    if (size !== target && size !== 1) return false;
  }
  return true;
}

export function sum_to(tensor: Tensor, shape: readonly number[]): Tensor {
  if (shape.length === 0) return sum_default.call(tensor, null) as Tensor;
  const sizes = tensor._impl.sizes();
  const leading = sizes.length - shape.length;
  const reduce: number[] = [];
  for (let i = 0; i < leading; i++) reduce.push(i);
  for (let i = leading; i < sizes.length; i++) if (shape[i - leading] === 1 && sizes[i] !== 1) reduce.push(i);
  let t = tensor;
  if (reduce.length) t = sum_dim_IntList.call(t, reduce, true, null) as Tensor;
  return leading > 0 ? (view_default.call(t, [...shape]) as Tensor) : t;
}
