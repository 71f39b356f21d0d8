// torch._foreach_* as PyTorch 1.13 runs them on CPU tensors: the "slow" fallback (ForeachOpsKernels.cpp,
// foreach_tensor_*_kernel_slow) applies the ordinary op to each tensor of the list in turn, so the
// numbers are exactly the per-tensor ops'. The _multi_tensor_* optimizer implementations (foreach=True)
// are written over these. (Glasstorch has no aten::_foreach_* operators yet: a dispatch trace of a
// foreach step shows the per-tensor aten::add_, aten::mul_, ... the fallback runs.)

import type { Tensor } from "../aten/core/Tensor.js";
import * as T from "../generated/torch_functions.js";

type Ts = readonly Tensor[];
const each = <R>(ts: Ts, f: (t: any, i: number) => R): R[] => ts.map((t, i) => f(t, i));

export const _foreach_neg = (ts: Ts): Tensor[] => each(ts, (t) => t.neg());
/** _foreach_add(list, list, alpha) / _foreach_add(list, scalar). */
export function _foreach_add(ts: Ts, other: Ts | number, alpha = 1): Tensor[] {
  return each(ts, (t, i) => (typeof other === "number" ? t.add(other) : t.add(other[i], { alpha })));
}
/** _foreach_add_(list, list, alpha) / _foreach_add_(list, scalar). */
export function _foreach_add_(ts: Ts, other: Ts | number, alpha = 1): void {
  each(ts, (t, i) => (typeof other === "number" ? t.add_(other) : t.add_(other[i], { alpha })));
}
export function _foreach_mul_(ts: Ts, scalar: number): void {
  each(ts, (t) => t.mul_(scalar));
}
export function _foreach_addcmul_(ts: Ts, t1: Ts, t2: Ts, value: number): void {
  each(ts, (t, i) => t.addcmul_(t1[i], t2[i], { value }));
}
/** _foreach_addcdiv_(list, list, list, scalars): one value per tensor. */
export function _foreach_addcdiv_(ts: Ts, t1: Ts, t2: Ts, values: readonly number[]): void {
  each(ts, (t, i) => t.addcdiv_(t1[i], t2[i], { value: values[i] }));
}
export const _foreach_sqrt = (ts: Ts): Tensor[] => each(ts, (t) => t.sqrt());
/** _foreach_div_(list, scalars): one divisor per tensor. */
export function _foreach_div_(ts: Ts, scalars: readonly number[]): void {
  each(ts, (t, i) => t.div_(scalars[i]));
}
export function _foreach_maximum_(ts: Ts, others: Ts): void {
  each(ts, (t, i) => T.maximum(t, others[i], { out: t }));
}
/** _foreach_addcmul(list, list, list, value): new tensors. */
export function _foreach_addcmul(ts: Ts, t1: Ts, t2: Ts, value: number): Tensor[] {
  return each(ts, (t, i) => t.addcmul(t1[i], t2[i], { value }));
}
export function _foreach_sqrt_(ts: Ts): void {
  each(ts, (t) => t.sqrt_());
}
/** _foreach_addcdiv_(list, list, list, value): one value for every tensor (default 1). */
export function _foreach_addcdiv_scalar_(ts: Ts, t1: Ts, t2: Ts, value = 1): void {
  each(ts, (t, i) => t.addcdiv_(t1[i], t2[i], { value }));
}
/** _foreach_mul(list, list): elementwise products, new tensors (a 0-d tensor per entry broadcasts). */
export function _foreach_mul(ts: Ts, others: Ts): Tensor[] {
  return each(ts, (t, i) => t.mul(others[i]));
}
/** _foreach_div(list, list): elementwise quotients, new tensors. */
export function _foreach_div(ts: Ts, others: Ts): Tensor[] {
  return each(ts, (t, i) => t.div(others[i]));
}
