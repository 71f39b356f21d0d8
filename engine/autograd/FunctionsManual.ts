// The helpers derivatives.yaml formulas call (torch/csrc/autograd/FunctionsManual.cpp), by the same
// names. They call ops through their handles (at:: in PyTorch), so under create_graph the backward's
// own ops are recorded and can be differentiated again.

import type { Tensor } from "../aten/core/Tensor.js";
import { NotImplementedError } from "../c10/Errors.js";
import { dtypeOf, bool as boolDtype, type ScalarType } from "../c10/ScalarType.js";
import { maybe_wrap_dim } from "../c10/WrapDimMinimal.js";
import { mul_Tensor } from "../generated/mul.js";
import { unsqueeze_default } from "../generated/unsqueeze.js";
import { expand_default } from "../generated/expand.js";
import { zeros_like_default } from "../generated/zeros_like.js";
import { zeros } from "../generated/zeros.js";
import { where } from "../generated/where.js";
import { softplus_default } from "../generated/softplus.js";
import { nll_loss_backward_default } from "../generated/nll_loss_backward.js";
import { nll_loss2d_backward_default } from "../generated/nll_loss2d_backward.js";
import { nll_loss_default } from "../generated/nll_loss.js";
import { nll_loss2d_default } from "../generated/nll_loss2d.js";
import { threshold_backward_default } from "../generated/threshold_backward.js";
import { leaky_relu_backward_default } from "../generated/leaky_relu_backward.js";
import { hardtanh_backward_default } from "../generated/hardtanh_backward.js";
import { hardsigmoid_backward_default } from "../generated/hardsigmoid_backward.js";
import { log_sigmoid_default } from "../generated/log_sigmoid.js";
import { cat } from "../generated/cat.js";
import { stack } from "../generated/stack.js";
import { _unique_default } from "../generated/_unique.js";
import { index_Tensor as index_Tensor_op } from "../generated/index_op.js";
import { tensor } from "../aten/tensor_new.js";
import { result_type } from "../aten/TypeProperties.js";
import { wrapped_scalar_tensor } from "../aten/core/OpRegistration.js";
import { _trilinear } from "../generated/_trilinear.js";
import { linalg_solve } from "../generated/linalg_solve.js";
import { RuntimeError } from "../c10/Errors.js";
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

// ---------------------------------------------------------------------------------------------------------------
// Elementwise ops. Complex inputs do not exist yet, so PyTorch's conj() calls are left out; the ops run in
// PyTorch's order (C++ `s * t` with a Scalar s is t.mul(s)), so the values are the same bits.

type Opt<T> = T | null | undefined;
const zeroScalarLike = 0;

/** log1p_backward: grad / (self + 1). */
export function log1p_backward(grad: Tensor, self: Tensor): Tensor {
  return grad.div(self.add(1));
}

/** sigmoid_backward (the ATen kernel): grad * (1 - y) * y. */
export function sigmoid_backward(grad: Tensor, output: Tensor): Tensor {
  return grad.mul(output.neg().add(1)).mul(output);
}

/** tanh_backward (the ATen kernel): grad * (1 - y * y). */
export function tanh_backward(grad: Tensor, output: Tensor): Tensor {
  return grad.mul(output.mul(output).neg().add(1));
}

/** sgn_backward(result, grad, self): sgn is piecewise constant on real inputs, so PyTorch returns zeros there
 * (an efficient zero tensor, which never requires grad); the complex formula is not needed yet. */
export function sgn_backward(_result: Tensor, _grad: Tensor, self: Tensor): Tensor {
  return zeros_like(self);
}

/** infinitely_differentiable_logit_backward: grad / (x (1 - x)) inside [eps, 1 - eps], else 0 (NaN without eps). */
export function infinitely_differentiable_logit_backward(grad: Tensor, self: Tensor, eps: Opt<number>): Tensor {
  const lo = eps ?? 0, hi = 1 - lo;
  const inside = self.ge(lo).logical_and(self.le(hi));
  return where(inside, grad.div(self.mul(self.neg().add(1))), eps === null || eps === undefined ? NaN : 0);
}

/** clamp_backward: grad where min <= self <= max (the subgradient 1 at the bounds), else 0. */
export function clamp_backward(grad: Tensor, self: Tensor, min: Opt<number>, max: Opt<number>): Tensor {
  const hasMin = min !== null && min !== undefined, hasMax = max !== null && max !== undefined;
  if (hasMin && hasMax) return where(self.ge(min).logical_and(self.le(max)), grad, 0);
  if (hasMin) return where(self.ge(min), grad, 0);
  if (hasMax) return where(self.le(max!), grad, 0);
  return grad;
}

/** clamp_backward_min_max: the gradients of clamp(self, min, max) with Tensor bounds. */
export function clamp_backward_min_max(grad: Tensor, self: Tensor, min: Tensor | null, max: Tensor | null, mask: readonly boolean[]): (Tensor | null)[] {
  const ret: (Tensor | null)[] = [null, null, null];
  if (max && min) {
    if (mask[0]) ret[0] = where(self.ge(min).logical_and(self.le(max)), grad, 0);
    if (mask[1]) ret[1] = where(self.lt(min).logical_and(min.lt(max)), grad, 0);
    if (mask[2]) ret[2] = where(self.gt(max).logical_or(max.lt(min)), grad, 0);
  } else if (min) {
    if (mask[0]) ret[0] = where(self.ge(min), grad, 0);
    if (mask[1]) ret[1] = where(self.lt(min), grad, 0);
  } else if (max) {
    if (mask[0]) ret[0] = where(self.le(max), grad, 0);
    if (mask[2]) ret[2] = where(self.gt(max), grad, 0);
  }
  return ret;
}

/** atan2_backward: d/dself = other / (self² + other²), d/dother = -self / (self² + other²). */
export function atan2_backward(grad: Tensor, self: Tensor, other: Tensor, mask: readonly boolean[]): (Tensor | null)[] {
  const recip = self.mul(self).add(other.mul(other)).reciprocal();
  return [mask[0] ? grad.mul(other).mul(recip) : null, mask[1] ? grad.mul(self.neg()).mul(recip) : null];
}

/** copysign_tensor_self_backward: grad * (result / self), 0 where self == 0. */
export function copysign_tensor_self_backward(grad: Tensor, self: Tensor, result: Tensor): Tensor {
  const ratio = where(self.eq(0), 0, result.div(self));
  return grad.mul(ratio);
}

/** div_tensor_self_backward: grad / other; zero when a rounding mode makes div piecewise constant. */
export function div_tensor_self_backward(grad: Tensor, other: Tensor | number, self_st: ScalarType, rounding_mode: Opt<string>): Tensor {
  if (rounding_mode !== null && rounding_mode !== undefined) return zeros_like_dtype(grad, self_st);
  return handle_r_to_c(self_st, grad.div(other as Tensor));
}

/** div_tensor_other_backward: -grad * ((self / other) / other). */
export function div_tensor_other_backward(grad: Tensor, self: Tensor, other: Tensor, rounding_mode: Opt<string>): Tensor {
  if (rounding_mode !== null && rounding_mode !== undefined) return zeros_like_dtype(grad, other.dtype.scalarType);
  return handle_r_to_c(other.dtype.scalarType, grad.neg().mul(self.div(other).div(other)));
}

function zeros_like_dtype(t: Tensor, st: ScalarType): Tensor {
  return zeros_like_default.call(t, dtypeOf(st), null, null, null, null) as Tensor;
}

/** pow_backward (Scalar exponent): grad * (exponent * self^(exponent - 1)); zero for exponent 0. */
export function pow_backward(grad: Tensor, self: Tensor, exponent: number): Tensor {
  if (Number(exponent) === 0) return zeros_like(self);
  const e = Number(exponent);
  return handle_r_to_c(self.dtype.scalarType, grad.mul(self.pow(e - 1).mul(e)));
}

/** pow_backward_self (Tensor exponent): zero where exponent == 0, else grad * exponent * self^(exponent - 1). */
export function pow_backward_self(grad: Tensor, self: Tensor, exponent: Tensor): Tensor {
  const out = where(exponent.eq(0), zeros_0d(grad), grad.mul(exponent.mul(self.pow(exponent.sub(1)))));
  return handle_r_to_c(self.dtype.scalarType, out);
}

/**
 * pow_backward_exponent: grad * result * log(self), and 0 where self == 0 and exponent >= 0 (where
 * result * log(0) would be 0 * -inf); `self` is a Tensor (pow.Tensor_Tensor) or a number (pow.Scalar).
 */
export function pow_backward_exponent(grad: Tensor, self: Tensor | number, exponent: Tensor, result: Tensor): Tensor {
  if (typeof self === "number" || typeof self === "boolean") {
    const base = Number(self);
    const g = result.mul(Math.log(base));
    if (base === 0) return handle_r_to_c(exponent.dtype.scalarType, grad.mul(where(exponent.ge(0), zeros_0d(grad), g)));
    return handle_r_to_c(exponent.dtype.scalarType, grad.mul(g));
  }
  const self_ = self.to(result_type(self, exponent));
  const cond = self_.eq(0).logical_and(exponent.ge(0));
  return handle_r_to_c(exponent.dtype.scalarType, grad.mul(where(cond, zeros_0d(grad), result.mul(self_.log()))));
}

/** at::zeros({}, grad.options()). */
function zeros_0d(like: Tensor): Tensor {
  return zeros([], { dtype: like.dtype, device: like.device });
}

// ---------------------------------------------------------------------------------------------------------------
// Reductions

function dimList(dims: readonly number[] | number | null | undefined): number[] {
  return dims === null || dims === undefined ? [] : typeof dims === "number" ? [dims] : [...dims];
}

/** _safe_size: the number of elements reduced over `dims` (1 for a 0-d input). */
export function _safe_size(sizes: readonly number[], dims: readonly number[] | number | null): number {
  if (sizes.length === 0) return 1;
  let n = 1;
  for (const d of dimList(dims)) n *= sizes[maybe_wrap_dim(d, sizes.length)];
  return n;
}

/** mean_backward: sum_backward divided by the number of elements averaged. */
export function mean_backward(grad: Tensor, sizes: readonly number[], dims: readonly number[] | number | null, numel: number, keepdim: boolean): Tensor {
  const list = dimList(dims);
  const allReduce = list.length === 0;
  const n = allReduce ? numel : _safe_size(sizes, list);
  return sum_backward(grad, sizes, list, keepdim).div(n);
}

/** restore_reduced_dims: reshape a reduced result so it has size-1 dims where it was reduced. */
export function restore_reduced_dims(output: Tensor, dims: readonly number[] | number, keepdim: boolean): Tensor {
  if (keepdim) return output;
  const list = dimList(dims);
  const total = output.dim() + list.length;
  const target = new Array<number>(total).fill(0);
  for (let i of list) {
    if (i < 0) i = total + i;
    target[i] = 1;
  }
  let j = 0;
  for (const s of output.shape) {
    while (target[j] > 0) j++;
    target[j++] = s;
  }
  return output.reshape(target);
}

/** scale_grad_by_count: the gradient shared evenly among the elements the mask marks in each reduced slice. */
export function scale_grad_by_count(grad: Tensor, mask: Tensor, dims: readonly number[] | number): Tensor {
  return grad.div(mask.sum(dimList(dims), true)).mul(mask);
}

/** evenly_distribute_backward (the CPU path): grad / count at the elements equal to the value (or NaN if it is NaN). */
export function evenly_distribute_backward(grad: Tensor, input: Tensor, value: Tensor): Tensor {
  const mask = value.isnan().item() ? input.isnan() : input.eq(value);
  return where(mask, grad.div(mask.sum()), 0);
}

/**
 * value_selecting_reduction_backward (max.dim, min.dim, sort): PyTorch scatters grad into zeros at the
 * indices along dim. Here a one-hot mask M[.., j, k, ..] = (indices[.., j, ..] == k) (data, not
 * differentiable) selects grad with where() and the j axis is summed away: each output element receives
 * one gradient value plus zeros, so the values are the scatter's, and the result stays differentiable in grad.
 */
export function value_selecting_reduction_backward(grad: Tensor, dim: number, indices: Tensor, sizes: readonly number[], keepdim: boolean): Tensor {
  const nd = sizes.length;
  if (nd === 0) return grad;
  const d = maybe_wrap_dim(dim, nd);
  const g = keepdim ? grad : grad.unsqueeze(d);
  const idx = (keepdim ? indices : indices.unsqueeze(d)).contiguous();
  const idxVals = idx.reshape([-1]).tolist() as number[];
  const isz = [...idx.shape];
  const m = isz[d], n = sizes[d];
  const outer = isz.slice(0, d).reduce((a, b) => a * b, 1);
  const inner = isz.slice(d + 1).reduce((a, b) => a * b, 1);
  // mask of shape [outer.., m, n, inner..] in row-major order
  const mask = new Array<boolean>(outer * m * n * inner);
  let w = 0;
  for (let o = 0; o < outer; o++)
    for (let j = 0; j < m; j++)
      for (let k = 0; k < n; k++)
        for (let i = 0; i < inner; i++) mask[w++] = idxVals[(o * m + j) * inner + i] === k;
  const M = tensor(mask, { dtype: boolDtype }).reshape([...isz.slice(0, d), m, n, ...isz.slice(d + 1)]);
  return where(M, g.unsqueeze(d + 1), 0).sum([d], false);
}

/** prod_safe_zeros_backward: the product of the other elements along dim, computed without dividing. */
function prod_safe_zeros_backward(grad: Tensor, inp: Tensor, dim: number): Tensor {
  if (inp.numel() === 0) return grad.expand_as(inp);
  const n = inp.shape[dim];
  if (n === 1) return grad;
  // PyTorch multiplies an exclusive cumprod by a reversed one; the product of the slice with element i
  // replaced by 1 is the same quantity (rounding may differ in the last bits).
  let others: Tensor | null = null;
  const shape = inp.shape.map((_, i) => (i === dim ? n : 1));
  for (let i = 0; i < n; i++) {
    const onehot = tensor(Array.from({ length: n }, (_, k) => k === i), { dtype: boolDtype }).reshape(shape);
    const p = where(onehot, 1, inp).prod(dim, true);
    const placed = where(onehot, p, 0);
    others = others === null ? placed : others.add(placed);
  }
  return grad.mul(others!);
}

/** prod_backward: grad * result / input without zeros; else the zero-safe product of the others. */
export function prod_backward(grad: Tensor, input: Tensor, result: Tensor, dim: number | null, keepdim: boolean): Tensor {
  if (input.dim() === 0) return grad;
  if (dim === null) {
    const zeros = input.eq(0).sum().item() as number;
    if (zeros === 0) return grad.mul(result.div(input));
    // 1.13 returns zeros for two or more zeros even under create_graph (the result then needs no grad)
    if (zeros > 1) return zeros_like(input);
    return prod_safe_zeros_backward(grad, input.contiguous().view([-1]), 0).view_as(input);
  }
  const d = maybe_wrap_dim(dim, input.dim());
  let g = grad, r = result;
  if (!keepdim) {
    g = grad.unsqueeze(d);
    r = result.unsqueeze(d);
  }
  const zeros = input.eq(0).sum().item() as number;
  if (zeros === 0) return g.mul(r.div(input));
  return prod_safe_zeros_backward(g, input, d);
}

/** var_backward: grad * 2 (x - mean) / (N - correction). */
export function var_backward(grad: Tensor, self: Tensor, dims: readonly number[] | number | null, correction: Opt<number>, keepdim: boolean): Tensor {
  const corr = correction ?? 1;
  if (self.dim() === 0 || dims === null || dims === undefined) {
    // 1.13: INFINITY * grad when n == correction (grad keeps its 0-d shape, so the engine then refuses
    // it for an input with dims, as PyTorch's does); a negative dof goes through the formula
    const n = self.numel();
    if (n === corr) return grad.mul(Infinity);
    return grad.mul(2 / (n - corr)).mul(self.sub(self.mean()));
  }
  const list = dimList(dims);
  let g = grad;
  if (!keepdim && self.dim() > 1) g = unsqueeze_multiple(grad, list, self.dim());
  const dof = _safe_size(self.shape, list) - corr;
  return g.mul(2 / dof).mul(self.sub(self.mean(list, true)));
}

/** std_backward: var_backward of grad / (2 std), 0 where std is 0. */
export function std_backward(result: Tensor, grad: Tensor, self: Tensor, dims: readonly number[] | number | null, correction: Opt<number>, keepdim: boolean): Tensor {
  const grad_var = where(result.eq(0), 0, grad.div(result.mul(2)));
  return var_backward(grad_var, self, dims, correction, keepdim);
}

/** var_mean_backward: the variance's and the mean's gradients added (either may be undefined). */
export function var_mean_backward(gvar: Tensor | null, gmean: Tensor | null, self: Tensor, dims: readonly number[] | number | null, correction: Opt<number>, keepdim: boolean): Tensor {
  let gself: Tensor | null = gvar ? var_backward(gvar, self, dims, correction, keepdim) : null;
  if (gmean) {
    const aux = mean_backward(gmean, self.shape, dimList(dims), self.numel(), keepdim);
    gself = gself ? gself.add(aux) : aux;
  }
  return gself!;
}

/** std_mean_backward: the standard deviation's and the mean's gradients added. */
export function std_mean_backward(gstd: Tensor | null, gmean: Tensor | null, self: Tensor, std: Tensor, dims: readonly number[] | number | null, correction: Opt<number>, keepdim: boolean): Tensor {
  let gself: Tensor | null = gstd ? std_backward(std, gstd, self, dims, correction, keepdim) : null;
  if (gmean) {
    const aux = mean_backward(gmean, self.shape, dimList(dims), self.numel(), keepdim);
    gself = gself ? gself.add(aux) : aux;
  }
  return gself!;
}

// ---------------------------------------------------------------------------------------------------------------
// Views

/** permute_backwards: permute by the inverse permutation. */
export function permute_backwards(grad: Tensor, fwd_dims: readonly number[]): Tensor {
  const ndims = fwd_dims.length;
  const dims = new Array<number>(ndims);
  for (let i = 0; i < ndims; i++) dims[maybe_wrap_dim(fwd_dims[i], ndims)] = i;
  return grad.permute(dims);
}

/** unsqueeze_to: put back the size-1 dims squeeze removed (all of them, or only `dim`). */
export function unsqueeze_to(grad: Tensor, dim: number | null, sizes: readonly number[]): Tensor {
  if (dim === null) {
    let r = grad;
    sizes.forEach((s, d) => {
      if (s === 1) r = r.unsqueeze(d);
    });
    return r;
  }
  const d = maybe_wrap_dim(dim, sizes.length);
  return sizes.length > 0 && sizes[d] === 1 ? grad.unsqueeze(d) : grad;
}

// ---------------------------------------------------------------------------------------------------------------
// Joins and indexing views

/** legacy_cat_wrap_dim: dim wrapped by the first input that is not the legacy empty [0] tensor. */
function legacy_cat_wrap_dim(dim: number, sizes: readonly (readonly number[])[]): number {
  for (const s of sizes) if (!(s.length === 1 && s[0] === 0)) return maybe_wrap_dim(dim, s.length);
  return dim;
}

/** cat_tensors_backward: each input's gradient is its slice of grad along dim (an empty [0] input gets zeros([0])). */
export function cat_tensors_backward(grad: Tensor, sizes: readonly (readonly number[])[], _dtypes: readonly ScalarType[], dim: number): (Tensor | null)[] {
  const d = legacy_cat_wrap_dim(dim, sizes);
  let accumulate = 0;
  return sizes.map((shape) => {
    if (shape.length === 1 && shape[0] === 0) return zeros([0], { dtype: grad.dtype, device: grad.device });
    const size = shape[d];
    accumulate += size;
    return grad.narrow(d, accumulate - size, size);
  });
}

/** stack_tensors_backward: input i's gradient is grad.select(dim, i). */
export function stack_tensors_backward(grad: Tensor, dim: number, dtypes: readonly ScalarType[]): Tensor[] {
  return dtypes.map((_, i) => grad.select(dim, i));
}

/** zeros of `sizes` with size `n` at dim d, in grad's dtype. */
function zerosAlong(grad: Tensor, sizes: readonly number[], d: number, n: number): Tensor {
  return zeros(sizes.map((s, i) => (i === d ? n : s)), { dtype: grad.dtype, device: grad.device });
}

/**
 * select_backward: zeros of the input's sizes with grad at `index` along dim. PyTorch copies grad into a
 * zeros tensor; here the zeros before and after are concatenated around it (same values), which keeps the
 * result differentiable in grad without an in-place copy into a view.
 */
export function select_backward(grad: Tensor, sizes: readonly number[], dim: number, index: number): Tensor {
  const d = maybe_wrap_dim(dim, sizes.length);
  const n = sizes[d];
  const i = index < 0 ? index + n : index;
  const parts: Tensor[] = [];
  if (i > 0) parts.push(zerosAlong(grad, sizes, d, i));
  parts.push(grad.unsqueeze(d));
  if (n - 1 - i > 0) parts.push(zerosAlong(grad, sizes, d, n - 1 - i));
  return parts.length === 1 ? parts[0] : cat(parts, d);
}

/**
 * slice_backward_wrapper / slice_backward: zeros of the input's sizes with grad at start, start + step, ...
 * along dim (start and end normalized as slice does). With step > 1 each grad entry is followed by step - 1
 * zeros (a cat on a new dim, then merged), and the zeros before and after are concatenated.
 */
export function slice_backward_wrapper(grad: Tensor, sizes: readonly number[], dim: number, start: number | null, end: number | null, step: number): Tensor {
  const d = maybe_wrap_dim(dim, sizes.length);
  const n = sizes[d];
  let s = start ?? 0, e = end ?? Number.MAX_SAFE_INTEGER;
  if (s < 0) s += n;
  if (e < 0) e += n;
  s = s < 0 ? 0 : s >= n ? n : s;
  e = e < s ? s : e >= n ? n : e;
  const len = grad.shape[d];
  if (len === 0) return zeros([...sizes], { dtype: grad.dtype, device: grad.device });
  let body = grad;
  if (step > 1) {
    const gsizes = [...grad.shape];
    const spread = cat([grad.unsqueeze(d + 1), zeros([...gsizes.slice(0, d + 1), step - 1, ...gsizes.slice(d + 1)], { dtype: grad.dtype, device: grad.device })], d + 1);
    body = spread.reshape([...gsizes.slice(0, d), len * step, ...gsizes.slice(d + 1)]);
    body = body.narrow(d, 0, Math.min(len * step, n - s));
  }
  const bodyLen = body.shape[d];
  const parts: Tensor[] = [];
  if (s > 0) parts.push(zerosAlong(grad, sizes, d, s));
  parts.push(body);
  if (n - s - bodyLen > 0) parts.push(zerosAlong(grad, sizes, d, n - s - bodyLen));
  return parts.length === 1 ? parts[0] : cat(parts, d);
}

/** _to_copy_backward: grad converted back to the input's dtype (and device). */
export function _to_copy_backward(grad: Tensor, self_options: { dtype: Tensor["dtype"]; device: Tensor["device"] }): Tensor {
  return grad.dtype === self_options.dtype ? grad : grad.to(self_options.dtype);
}

/** roll's backward: roll by the negated shifts, with shifts and dims in reverse order. */
export function roll_backward(grad: Tensor, shifts: readonly number[] | number, dims: readonly number[] | number): Tensor {
  const sh = dimList(shifts).reverse().map((s) => -s);
  return grad.roll(sh, dimList(dims).reverse());
}

/** repeat_backward: sum the repeated copies back (leading new dims summed, then each repeated dim split and summed). */
export function repeat_backward(grad: Tensor, repeats: readonly number[], input_shape: readonly number[]): Tensor {
  if (repeats.includes(0)) return zeros([...input_shape], { dtype: grad.dtype, device: grad.device });
  const input_dims = input_shape.length;
  const num_unsqueezed = grad.dim() - input_dims;
  let g = grad;
  for (let i = 0; i < num_unsqueezed; i++) g = g.sum([0], false);
  const grad_size: number[] = [];
  const sum_dims: number[] = [];
  for (let dim = 0; dim < input_dims; dim++) {
    const repeat = repeats[dim + num_unsqueezed];
    if (repeat !== 1) {
      grad_size.push(repeat);
      sum_dims.push(grad_size.length - 1);
    }
    grad_size.push(input_shape[dim]);
  }
  g = g.reshape(grad_size);
  if (sum_dims.length) g = g.sum(sum_dims);
  return g;
}

/**
 * diagonal_backward: zeros of the input's sizes with grad on the (offset) diagonal of dims dim1, dim2.
 * PyTorch copies grad into the diagonal view of a zeros tensor; here a one-hot mask E[k, i, j] (i, j on
 * the k-th diagonal element) places grad with where() and sums the k axis away (one value plus zeros per
 * element), then the two dims move back to dim1 and dim2.
 */
export function diagonal_backward(grad: Tensor, sizes: readonly number[], offset: number, dim1: number, dim2: number): Tensor {
  const nd = sizes.length;
  const d1 = maybe_wrap_dim(dim1, nd), d2 = maybe_wrap_dim(dim2, nd);
  const n1 = sizes[d1], n2 = sizes[d2];
  const L = grad.shape[grad.dim() - 1];
  if (L === 0) return zeros([...sizes], { dtype: grad.dtype, device: grad.device });
  const i0 = Math.max(-offset, 0), j0 = Math.max(offset, 0);
  const mask: boolean[] = [];
  for (let k = 0; k < L; k++) for (let i = 0; i < n1; i++) for (let j = 0; j < n2; j++) mask.push(i === k + i0 && j === k + j0);
  const E = tensor(mask, { dtype: boolDtype }).reshape([L, n1, n2]);
  const placed = where(E, grad.unsqueeze(-1).unsqueeze(-1), 0).sum([-3], false);
  return placed.movedim([-2, -1], [d1, d2]);
}

/**
 * unfold_backward: each window's gradient added back at the positions it covered. A one-hot mask
 * E[w, t, p] = (p == w * step + t) places the windows with where(), and the window axes are summed.
 */
export function unfold_backward(grad: Tensor, input_sizes: readonly number[], dim: number, size: number, step: number): Tensor {
  const nd = input_sizes.length;
  const d = nd === 0 ? 0 : maybe_wrap_dim(dim, nd);
  if (nd === 0) return grad.reshape([]);
  const n = input_sizes[d];
  const nw = grad.shape[d];
  const mask: boolean[] = [];
  for (let w = 0; w < nw; w++) for (let t = 0; t < size; t++) for (let p = 0; p < n; p++) mask.push(p === w * step + t);
  const shape = [...input_sizes.slice(0, d).map(() => 1), nw, size, n, ...input_sizes.slice(d + 1).map(() => 1)];
  const E = tensor(mask, { dtype: boolDtype }).reshape(shape);
  const g = grad.movedim(-1, d + 1).unsqueeze(d + 2);
  return where(E, g, 0).sum([d, d + 1], false);
}

/** split_with_sizes_backward: the outputs' gradients concatenated back (an undefined one as zeros of its piece's size). */
export function split_with_sizes_backward(grads: readonly (Tensor | null)[], split_sizes: readonly number[], dim: number, sizes: readonly number[], options: { dtype: Tensor["dtype"]; device: Tensor["device"] }): Tensor {
  const d = maybe_wrap_dim(dim, sizes.length);
  const all = grads.map((g, j) => g ?? zeros(sizes.map((s, i) => (i === d ? split_sizes[j] : s)), { dtype: options.dtype, device: options.device }));
  return cat(all, d);
}

/** split_backward: split_with_sizes_backward with every piece split_size long but the last. */
export function split_backward(grads: readonly (Tensor | null)[], split_size: number, dim: number, sizes: readonly number[], options: { dtype: Tensor["dtype"]; device: Tensor["device"] }): Tensor {
  const d = maybe_wrap_dim(dim, sizes.length);
  const n = grads.length;
  const split_sizes = new Array<number>(n).fill(split_size);
  split_sizes[n - 1] = split_size - (split_size * n - sizes[d]);
  return split_with_sizes_backward(grads, split_sizes, d, sizes, options);
}

/** unbind_backward: the outputs' gradients stacked back along dim (undefined ones as expanded zeros). */
export function unbind_backward(grads: readonly (Tensor | null)[], dim: number): Tensor {
  const like = grads.find((g): g is Tensor => g !== null)!;
  const all = grads.map((g) => g ?? zeros([], { dtype: like.dtype, device: like.device }).expand([...like.shape]));
  return stack(all, dim);
}

/** _min_storage_size: the elements a geometry reaches from storage index 0. */
function _min_storage_size(sizes: readonly number[], strides: readonly number[], offset: number): number {
  let n = offset + 1;
  for (let i = 0; i < sizes.length; i++) {
    if (sizes[i] === 0) return offset;
    n += (sizes[i] - 1) * strides[i];
  }
  return n;
}

/** _maybe_overlapping_memory: can two indices of this geometry (size-1 and stride-0 dims dropped) share memory? */
function _maybe_overlapping_memory(sizes: readonly number[], strides: readonly number[]): boolean {
  const order = sizes.map((_, i) => i).sort((i, j) => strides[i] - strides[j]);
  let maxIndex = 0;
  for (const i of order) {
    if (strides[i] <= maxIndex) return true;
    maxIndex += strides[i] * (sizes[i] - 1);
  }
  return false;
}

/** Storage index of every element of a geometry, in row-major order. */
function storageIndices(sizes: readonly number[], strides: readonly number[], offset: number): number[] {
  const out: number[] = [];
  for (const idx of rowMajor(sizes)) out.push(offset + idx.reduce((a, v, d) => a + v * strides[d], 0));
  return out;
}

function* rowMajor(sizes: readonly number[]): Generator<number[]> {
  const n = sizes.reduce((a, b) => a * b, 1);
  const idx = new Array<number>(sizes.length).fill(0);
  for (let k = 0; k < n; k++) {
    yield idx;
    for (let d = sizes.length - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}

/**
 * as_strided_backward (1.13's algorithm): a zero "storage" covering both geometries receives grad at the
 * output's storage indices (summed where the output overlaps itself: PyTorch's index_add_), is divided by
 * how often the input sees each index when the input overlaps, and is read back with the input's geometry.
 * The scatter is a one-hot where() summed over the output elements, so it stays differentiable in grad.
 */
export function as_strided_backward(
  grad: Tensor,
  input: { sizes: readonly number[]; strides: readonly number[]; storage_offset: number },
  sizes: readonly number[],
  strides: readonly number[],
  storage_offset: number | null,
): Tensor {
  const offset = storage_offset ?? input.storage_offset;
  if (sizes.includes(0) || input.sizes.includes(0)) return zeros([...input.sizes], { dtype: grad.dtype, device: grad.device });
  const keep = (sz: readonly number[], st: readonly number[]) => {
    const s: number[] = [], t: number[] = [];
    sz.forEach((n, i) => {
      if (n !== 1 && st[i] !== 0) (s.push(n), t.push(st[i]));
    });
    return [s, t] as const;
  };
  const [outS, outT] = keep(sizes, strides);
  const [inpS, inpT] = keep(input.sizes, input.strides);
  const shared = Math.min(input.storage_offset, offset);
  const inpOff = input.storage_offset - shared, outOff = offset - shared;
  const base = Math.max(_min_storage_size(inpS, inpT, inpOff), _min_storage_size(outS, outT, outOff));
  // scatter: storage[p] = sum of grad over the output elements at p (expanded and size-1 dims included)
  const pos = storageIndices(sizes, strides, outOff);
  const mask = new Array<boolean>(pos.length * base);
  pos.forEach((p, e) => {
    for (let q = 0; q < base; q++) mask[e * base + q] = q === p;
  });
  const M = tensor(mask, { dtype: boolDtype }).reshape([pos.length, base]);
  let storage = where(M, grad.reshape([-1, 1]), 0).sum([0], false);
  if (_maybe_overlapping_memory(inpS, inpT)) {
    const count = new Array<number>(base).fill(0);
    for (const p of storageIndices(inpS, inpT, inpOff)) count[p] += 1;
    storage = storage.div(tensor(count, { dtype: grad.dtype }));
  }
  return storage.as_strided([...input.sizes], [...input.strides], inpOff);
}

// ---- linalg ----
// Matrix products and torch.linalg (FunctionsManual.cpp, PyTorch 1.13). PyTorch's mH() is transpose(-2, -1)
// here (no complex dtypes). Where PyTorch reuses the forward's LU with linalg_lu_solve or calls
// linalg_solve_triangular (ops Glasstorch does not have yet), these solve with linalg_solve, which is the
// path PyTorch itself takes under create_graph (linalg_solve_backward): same math, last-bit rounding may differ.

const mH = (t: Tensor): Tensor => t.transpose(-2, -1);

/** A batch of identity matrices shaped like diag_embed(v) for v of sizes [..., k]. */
function eye_like_last(v: Tensor): Tensor {
  const k = v.shape[v.shape.length - 1];
  const vals: number[] = [];
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) vals.push(i === j ? 1 : 0);
  return tensor(vals, { dtype: v.dtype }).reshape([k, k]);
}

/** at::diag_embed(v) over the last dim (v.unsqueeze(-1) * I). */
function diag_embed_last(v: Tensor): Tensor {
  return v.unsqueeze(-1).mul(eye_like_last(v));
}

/** d(mat1 @ mat2)/d mat1; a column-major mat1 gets its gradient column-major (mat2 @ grad^T)^T, as PyTorch. */
export function mm_mat1_backward(grad: Tensor, mat2: Tensor, sizes: readonly number[], strides: readonly number[], _layout: unknown, alpha: number): Tensor {
  if (strides[0] === 1 && strides[1] === sizes[0]) return maybe_multiply(mat2.mm(grad.t()).t(), alpha);
  return maybe_multiply(grad.mm(mat2.t()), alpha);
}

/** d(mat1 @ mat2)/d mat2; a column-major mat2 gets (grad^T @ mat1)^T. */
export function mm_mat2_backward(grad: Tensor, mat1: Tensor, sizes: readonly number[], strides: readonly number[], _layout: unknown, alpha: number): Tensor {
  if (strides[0] === 1 && strides[1] === sizes[0]) return maybe_multiply(grad.t().mm(mat1).t(), alpha);
  return maybe_multiply(mat1.t().mm(grad), alpha);
}

/** _trilinear's gradients are _trilinear calls with grad in the input's place and sumdim/expand swapped. */
export function _trilinear_backward(
  grad: Tensor, i1: Tensor, i2: Tensor, i3: Tensor,
  expand1: readonly number[], expand2: readonly number[], expand3: readonly number[], sumdim: readonly number[], mask: readonly boolean[],
): (Tensor | null)[] {
  const e1 = [...expand1], e2 = [...expand2], e3 = [...expand3], sd = [...sumdim];
  return [
    mask[0] ? _trilinear(grad, i2, i3, sd, e2, e3, e1) : null,
    mask[1] ? _trilinear(i1, grad, i3, e1, sd, e3, e2) : null,
    mask[2] ? _trilinear(i1, i2, grad, e1, e2, sd, e3) : null,
  ];
}

/** d det(A) = det(A) tr(A^{-1} dA): the gradient is (grad * det) A^{-H}, solved as A^H X = (grad * det) I. */
export function linalg_det_backward(grad: Tensor, det: Tensor, A: Tensor, _LU: Tensor, _pivots: Tensor): Tensor {
  const d = diag_embed_last(grad.mul(det).unsqueeze(-1).expand([...A.shape.slice(0, -1)]));
  return linalg_solve(mH(A), d);
}

/** slogdet: only logabsdet carries a gradient for real inputs: g A^{-H}. */
export function slogdet_backward(_grad_sign: Tensor | null, grad_logabsdet: Tensor | null, A: Tensor, _signdet: Tensor, _LU: Tensor, _pivots: Tensor): Tensor | null {
  if (grad_logabsdet === null) return null;
  const d = diag_embed_last(grad_logabsdet.unsqueeze(-1).expand([...A.shape.slice(0, -1)]));
  return linalg_solve(mH(A), d);
}

/** A = L L^H: gA = L^{-H} Φ(L^H gL) L^{-1}, Φ taking the lower triangle with its diagonal halved, symmetrised. */
export function cholesky_backward(gL: Tensor | null, upper: boolean, L: Tensor): Tensor | null {
  if (gL === null) return null;
  if (upper) {
    L = mH(L);
    gL = mH(gL);
  }
  let gA = mH(L).matmul(gL).tril();
  gA = gA.add(mH(gA.tril(-1))).mul(0.5);
  gA = linalg_solve(mH(L), gA); // PyTorch: linalg_solve_triangular(L^H, gA, upper=true, left=true)
  gA = linalg_solve(L, gA, { left: false }); // linalg_solve_triangular(L, gA, upper=false, left=false)
  return gA;
}

/** X = A^{-1} B (left) or B A^{-1}: gB = A^{-H} gX (gX A^{-H}), gA = -gB X^H (-X^H gB). */
export function linalg_solve_backward(gX: Tensor | null, X: Tensor, A: Tensor, LU: Tensor, _pivots: Tensor, left: boolean, A_requires_grad: boolean, B_requires_grad: boolean): (Tensor | null)[] {
  if (gX === null || (!A_requires_grad && !B_requires_grad)) return [null, null];
  // linalg_solve_is_vector_rhs(LU, X)
  const vector_case = X.dim() === 1 || (LU.dim() - 1 === X.dim() && X.shape.every((s, i) => s === LU.shape[i]));
  const toM = (t: Tensor) => (vector_case ? t.unsqueeze(-1) : t);
  const toV = (t: Tensor) => (vector_case ? t.squeeze(-1) : t);
  const gB = linalg_solve(mH(A), toM(gX), { left });
  let gA: Tensor | null = null;
  if (A_requires_grad) {
    const X_ = toM(X);
    gA = left ? gB.matmul(mH(X_)).neg() : mH(X_).matmul(gB).neg();
  }
  return [gA, B_requires_grad ? toV(gB) : null];
}

/** QR (arXiv 2009.10071 §4): M = gR R^H - Q^H gQ; tall/square: (gQ + Q syminvadj(triu(M))) R^{-H}. */
export function linalg_qr_backward(gQ: Tensor | null, gR: Tensor | null, Q: Tensor, R: Tensor, mode: string): Tensor | null {
  const m = Q.shape[Q.shape.length - 2], n = R.shape[R.shape.length - 1];
  const compute_q = mode !== "r", reduced = mode !== "complete";
  if (!compute_q) throw new RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
  if (!(reduced || m <= n)) throw new RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
  if (gQ === null && gR === null) return null;
  let gA: Tensor;
  if (gQ !== null) gA = gR !== null ? gR.matmul(mH(R)).sub(mH(Q).matmul(gQ)) : mH(Q).matmul(gQ).neg();
  else gA = gR!.matmul(mH(R));
  if (m >= n) {
    // syminvadj(X) = X + X^H with the diagonal halved
    const t = gA.triu();
    const sym = t.add(mH(t)).sub(diag_embed_last(t.diagonal(0, -2, -1)));
    gA = Q.matmul(sym);
    if (gQ !== null) gA = gA.add(gQ);
    gA = linalg_solve(mH(R), gA, { left: false }); // linalg_solve_triangular(R^H, gA, upper=false, left=false)
    return gA;
  }
  // wide: trilImInvAdjSkew(-gA) = tril(-gA + gA^H)
  const X = gA.neg();
  gA = Q.matmul(X.sub(mH(X)).tril());
  gA = linalg_solve(mH(R.narrow(-1, 0, m)), gA, { left: false });
  const shape = [...R.shape];
  shape[shape.length - 1] = n - m;
  gA = cat([gA, zeros(shape, { dtype: R.dtype, device: R.device })], -1);
  if (gR !== null) gA = gA.add(Q.matmul(gR));
  return gA;
}

/** SVD (real case): the gradient through U, S, Vh (narrowed to k = min(m, n) columns by the caller). */
export function svd_backward(gU: Tensor | null, gS: Tensor | null, gVh: Tensor | null, U: Tensor, S: Tensor, Vh: Tensor): Tensor | null {
  const m = U.shape[U.shape.length - 2], n = Vh.shape[Vh.shape.length - 1];
  if (gS === null && gU === null && gVh === null) return null;
  if (gU === null && gVh === null) {
    return m >= n ? U.matmul(gS!.unsqueeze(-1).mul(Vh)) : U.mul(gS!.unsqueeze(-2)).matmul(Vh);
  }
  const V = mH(Vh);
  const gV = gVh === null ? null : mH(gVh);
  const skew = (A: Tensor) => A.sub(mH(A));
  const UhgU = gU === null ? null : skew(mH(U).matmul(gU));
  const VhgV = gV === null ? null : skew(Vh.matmul(gV));
  // E_jk = S_k^2 - S_j^2, with ones on the diagonal (PyTorch: diagonal().fill_(1); the diagonal is 0 before)
  const S2 = S.mul(S);
  const E = S2.unsqueeze(-2).sub(S2.unsqueeze(-1)).add(eye_like_last(S));
  let gA: Tensor;
  if (UhgU !== null) gA = VhgV !== null ? UhgU.mul(S.unsqueeze(-2)).add(S.unsqueeze(-1).mul(VhgV)).div(E) : UhgU.div(E).mul(S.unsqueeze(-2));
  else gA = S.unsqueeze(-1).mul(VhgV!.div(E));
  if (gS !== null) gA = gA.add(diag_embed_last(gS));
  if (m > n && gU !== null) {
    gA = U.matmul(gA);
    const gUSinv = gU.div(S.unsqueeze(-2));
    gA = gA.add(gUSinv).sub(U.matmul(mH(U).matmul(gUSinv)));
    gA = gA.matmul(Vh);
  } else if (m < n && gV !== null) {
    gA = gA.matmul(Vh);
    const SinvgVh = mH(gV).div(S.unsqueeze(-1));
    gA = gA.add(SinvgVh).sub(SinvgVh.matmul(V).matmul(Vh));
    gA = U.matmul(gA);
  } else {
    gA = m >= n ? U.matmul(gA.matmul(Vh)) : U.matmul(gA).matmul(Vh);
  }
  return gA;
}

// ---------------------------------------------------------------------------------------------------------------
// ---- index ----
// Indexing, scatter/gather, masked, cumulative, logsumexp and norm backward helpers (FunctionsManual.cpp,
// PyTorch 1.13). Where PyTorch uses an in-place op on a fresh tensor (zeros.index_put_), the same op runs here.

/** at::index(t, indices): PyTorch's grad.index(indices) (Tensor has no index method here). */
export function index_Tensor(t: Tensor, indices: readonly (Tensor | null)[]): Tensor {
  return index_Tensor_op.call(t, indices) as Tensor;
}

/** index_backward: zeros_like(self).index_put_(indices, grad, accumulate=true). */
export function index_backward(zeros_like_self: Tensor, indices: readonly (Tensor | null)[], grad: Tensor): Tensor {
  return zeros_like_self.index_put_(indices as (Tensor | null)[], grad, true);
}

/** index_select_backward (a CompositeImplicitAutograd op in PyTorch): zeros(self_sizes).index_add_(dim, index, grad). */
export function index_select_backward(grad: Tensor, self_sizes: readonly number[], dim: number, index: Tensor): Tensor {
  return zeros(self_sizes as number[], { dtype: grad.dtype, device: grad.device }).index_add_(dim, index, grad);
}

/** gather_backward: zeros(self_sizes).scatter_add_(dim, index, grad) (sparse_grad has no sparse tensors here). */
export function gather_backward(grad: Tensor, self_sizes: readonly number[], dim: number, index: Tensor, sparse_grad: boolean): Tensor {
  if (sparse_grad) throw new NotImplementedError("gather(): sparse_grad=True needs sparse tensors, which Glasstorch does not have");
  return zeros(self_sizes as number[], { dtype: grad.dtype, device: grad.device }).scatter_add_(dim, index, grad);
}

/** take_backward: zeros_like(self).put_(index, grad, accumulate=true), as the flat index_put_ it is. */
export function take_backward(grad: Tensor, self: Tensor, index: Tensor): Tensor {
  const flat = zeros([self.numel()], { dtype: grad.dtype, device: grad.device });
  return flat.index_put_([index.reshape([-1])], grad.reshape([-1]), true).view([...self.shape]);
}

/** masked_select_backward: zeros of the broadcast shape with grad scattered into the masked places. */
export function masked_select_backward(grad: Tensor, input: Tensor, mask: Tensor): Tensor {
  const shape = broadcastShapes([...input.shape], [...mask.shape]);
  const result = zeros_like(input.expand(shape));
  return result.index_put_([mask.expand(shape)], grad, false);
}

/** masked_fill_backward (the value of masked_fill.Tensor): grad.masked_select(mask).sum(). */
export function masked_fill_backward(grad: Tensor, mask: Tensor): Tensor {
  return grad.masked_select(mask).sum();
}

function broadcastShapes(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1, y = b[b.length - n + i] ?? 1;
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** reversed_cumsum: w.flip(dim).cumsum(dim).flip(dim). */
function reversed_cumsum(w: Tensor, dim: number): Tensor {
  return w.flip([dim]).cumsum(dim).flip([dim]);
}

/** cumsum_backward: the reversed cumulative sum of grad. */
export function cumsum_backward(grad: Tensor, dim: number): Tensor {
  if (grad.numel() <= 1 || grad.shape[maybe_wrap_dim(dim, Math.max(grad.dim(), 1))] === 1) return grad;
  return reversed_cumsum(grad, dim);
}

/**
 * cumprod_backward: reversed_cumsum(result * grad) / input when no input is zero; otherwise PyTorch's
 * O(n^2) double-differentiable form (for every k, the sum over j >= k of grad_j * prod_{i<=j, i!=k} input_i),
 * used here for first order too (PyTorch's first-order O(n) pass gives the same sums in another order).
 */
export function cumprod_backward(grad: Tensor, input: Tensor, dim: number, output: Tensor): Tensor {
  if (input.numel() <= 1) return grad;
  const d = maybe_wrap_dim(dim, input.dim());
  const n = input.shape[d];
  if (n === 1) return grad;
  const w = output.mul(grad);
  if (!(input.eq(0).any().item() as boolean)) return reversed_cumsum(w, d).div(input);
  const ones = torch_ones_like_slice(input, d);
  const cols: Tensor[] = [];
  for (let k = 0; k < n; k++) {
    let omitted: Tensor;
    if (k === 0) {
      omitted = cat([ones, input.slice(d, k + 1).cumprod(d)], d);
    } else if (k === n - 1) {
      omitted = input.slice(d, 0, k).prod(d, { keepdim: true });
    } else {
      const until = input.slice(d, 0, k).prod(d, { keepdim: true });
      const from = input.slice(d, k + 1).cumprod(d);
      omitted = cat([until, until.expand([...from.shape]).mul(from)], d);
    }
    cols.push(grad.slice(d, k).mul(omitted).sum(d));
  }
  return stack(cols, d);
}

function torch_ones_like_slice(input: Tensor, d: number): Tensor {
  const sizes = [...input.shape];
  sizes[d] = 1;
  return zeros(sizes, { dtype: input.dtype, device: input.device }).add(1);
}

/** cummaxmin_backward: zeros(input).scatter_add_(dim, indices, grad). */
export function cummaxmin_backward(grad: Tensor, input: Tensor, indices: Tensor, dim: number): Tensor {
  if (input.numel() === 0) return input;
  return zeros([...input.shape], { dtype: input.dtype, device: input.device }).scatter_add_(dim, indices, grad);
}

/**
 * logcumsumexp_backward (real inputs): the positive and negative parts of grad in log space, each
 * reverse-logcumsumexp'ed against result, as TensorFlow's formula PyTorch cites.
 */
export function logcumsumexp_backward(grad: Tensor, self: Tensor, result: Tensor, dim: number): Tensor {
  if (grad.dim() === 0 || grad.numel() === 0) return grad;
  const lowest = grad.dtype.name === "float32" ? -3.4028234663852886e38 : -Number.MAX_VALUE;
  const rev = (x: Tensor) => x.flip([dim]).logcumsumexp(dim).flip([dim]);
  const log_abs_grad = grad.abs().log();
  const log_grad_positive = where(grad.gt(0), log_abs_grad, lowest);
  const log_grad_negative = where(grad.lt(0), log_abs_grad, lowest);
  const output_pos = rev(log_grad_positive.sub(result)).add(self).exp();
  const output_neg = rev(log_grad_negative.sub(result)).add(self).exp();
  return output_pos.sub(output_neg);
}

/** logsumexp_backward: grad * exp(self - result), the reduced dims put back. */
export function logsumexp_backward(grad: Tensor, self: Tensor, result: Tensor, dim: readonly number[] | number, keepdim: boolean): Tensor {
  if (!keepdim && self.dim() !== 0) {
    grad = unsqueeze_multiple(grad, dimList(dim), self.dim());
    result = unsqueeze_multiple(result, dimList(dim), self.dim());
  }
  return grad.mul(self.sub(result).exp());
}

/** norm_backward: PyTorch's cases p = 0 (no gradient: an undefined tensor), 1, 2, inf, p < 1, p < 2, p >= 2. */
export function norm_backward(grad: Tensor, self: Tensor, p_: Opt<number>, norm: Tensor, dim: readonly number[] | number, keepdim: boolean): Tensor | null {
  const ndim = self.dim();
  const p = p_ ?? 2;
  const dims = dimList(dim);
  if (!keepdim && ndim !== 0) {
    grad = unsqueeze_multiple(grad, dims, ndim);
    norm = unsqueeze_multiple(norm, dims, ndim);
  }
  if (p === 0) return null;
  if (p === 1) return self.sgn().mul(grad);
  if (p === 2) return grad.mul(self.div(norm).masked_fill(norm.eq(0), 0));
  if (!Number.isFinite(p)) {
    const self_abs = self.abs();
    const mask = self_abs.eq(norm).logical_or(self_abs.isnan());
    return self.sgn().mul(grad.div(mask.sum(dims, true)).mul(mask));
  }
  if (p < 1) {
    const self_scaled = self.sgn().mul(self.abs().pow(p - 1).masked_fill(self.eq(0), 0));
    return self_scaled.mul(grad).mul(norm.pow(1 - p));
  }
  if (p < 2) {
    const self_scaled = self.sgn().mul(self.abs().pow(p - 1));
    const scale_v = grad.div(norm.pow(p - 1)).masked_fill(norm.eq(0), 0);
    return self_scaled.mul(scale_v);
  }
  const self_scaled = self.mul(self.abs().pow(p - 2));
  const scale_v = grad.div(norm.pow(p - 1)).masked_fill(norm.eq(0), 0);
  return self_scaled.mul(scale_v);
}

/** linalg_vector_norm_backward: norm_backward over dim (all dims when null). */
export function linalg_vector_norm_backward(grad: Tensor, self: Tensor, ord: number, norm: Tensor, dim: Opt<readonly number[] | number>, keepdim: boolean): Tensor | null {
  return norm_backward(grad, self, ord, norm, dim ?? [], keepdim);
}

/** scatter_reduce_backward (scatter_reduce.two): per reduction, the gradients of self and src. */
export function scatter_reduce_backward(
  grad: Tensor, self: Tensor, dim: number, index: Tensor, src: Tensor, reduce: string, include_self: boolean, result: Tensor, mask: readonly boolean[],
): (Tensor | null)[] {
  let grad_self: Tensor, grad_src: Tensor;
  if (reduce === "sum") {
    grad_self = grad;
    grad_src = grad.gather(dim, index);
  } else if (reduce === "prod") {
    // exclusive products for the zeros of self and src
    const masked_self = self.masked_fill(self.eq(0), 1);
    const masked_self_result = masked_self.scatter_reduce(dim, index, src, reduce, { include_self });
    grad_self = grad.mul(masked_self_result).div(masked_self);
    const src_zero = src.eq(0);
    const src_num_zeros = zeros_like(self).scatter_add(dim, index, src_zero.to(self.dtype)).gather(dim, index);
    const src_single_zero = src_zero.bitwise_and(src_num_zeros.eq(1));
    const masked_src = src.masked_fill(src_single_zero, 1);
    const masked_src_result = self.scatter_reduce(dim, index, masked_src, reduce, { include_self });
    grad_src = where(src_single_zero, grad.mul(masked_src_result).gather(dim, index), grad.mul(result).gather(dim, index).div(src.masked_fill(src_zero, 1)));
  } else if (reduce === "mean") {
    let N = include_self ? zeros_like(grad).add(1) : zeros_like(grad);
    N = N.scatter_add(dim, index, zeros_like(src).add(1));
    N = N.masked_fill(N.eq(0), 1);
    grad_self = grad.div(N);
    grad_src = grad.gather(dim, index).div(N.gather(dim, index));
  } else if (reduce === "amax" || reduce === "amin") {
    // the gradient is shared evenly between the elements equal to the result
    const value = result.gather(dim, index);
    const self_is_result = self.eq(result).to(self.dtype);
    const src_is_result = src.eq(value).to(self.dtype);
    const N_to_distribute = self_is_result.scatter_add(dim, index, src_is_result);
    const grad_distributed = grad.div(N_to_distribute);
    grad_self = self.eq(result).mul(grad_distributed);
    grad_src = src.eq(value).mul(grad_distributed.gather(dim, index));
  } else {
    throw new Error(`Expected 'reduce' argument to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got ${reduce}.`);
  }
  if (!include_self) grad_self = grad_self.scatter(dim, index, 0);
  return [mask[0] ? grad_self : null, mask[1] ? grad_src : null];
}

/** std::get<0>(at::_unique(index, sorted=false)) (index_fill.int_Tensor's value gradient). */
export function _unique_unsorted(index: Tensor): Tensor {
  return (_unique_default.call(index, false, false) as unknown as Tensor[])[0];
}
// ---------------------------------------------------------------------------------------------------------------
// ---- act: the activation and loss family ----
// The backward aten ops PyTorch's formulas call for these (elu_backward, gelu_backward, softplus_backward,
// hardswish_backward, log_sigmoid_backward, _softmax_backward_data, _log_softmax_backward_data,
// mse_loss_backward, smooth_l1_loss_backward, huber_loss_backward, binary_cross_entropy_backward) are not
// declared as operators yet: the `<op>_composite` helpers compute the same math, in the CPU kernels' order,
// from existing ops, so create_graph differentiates them (PyTorch differentiates the backward op itself).
// threshold_backward, leaky_relu_backward, hardtanh_backward and hardsigmoid_backward are real operators.

import { ScalarType as ST } from "../c10/ScalarType.js";
const M_SQRT1_2 = Math.SQRT1_2, M_2_SQRTPI = 2 / Math.sqrt(Math.PI);

/** elu_backward (is_result false): self <= 0 ? grad * input_scale * (alpha * scale) * exp(self * input_scale) : grad * scale. */
export function elu_backward_composite(grad: Tensor, alpha: number, scale: number, input_scale: number, self: Tensor): Tensor {
  const f32 = self.dtype.scalarType === ST.Float;
  const negcoef = f32 ? Math.fround(Math.fround(alpha) * Math.fround(scale)) : alpha * scale;
  const neg = grad.mul(input_scale).mul(negcoef).mul(self.mul(input_scale).exp());
  return where(self.le(0), neg, grad.mul(scale));
}

/** elu_backward (is_result true, the in-place elu_): result <= 0 ? grad * input_scale * (result + alpha * scale) : grad * scale. */
export function elu_backward_result_composite(grad: Tensor, alpha: number, scale: number, input_scale: number, result: Tensor): Tensor {
  const f32 = result.dtype.scalarType === ST.Float;
  const negcoef = f32 ? Math.fround(Math.fround(alpha) * Math.fround(scale)) : alpha * scale;
  return where(result.le(0), grad.mul(input_scale).mul(result.add(negcoef)), grad.mul(scale));
}

/** gelu_backward: 'none': grad * (cdf + x * pdf); 'tanh': the derivative of 0.5 x (1 + tanh(kBeta (x + kKappa x^3))). */
export function gelu_backward_composite(grad: Tensor, self: Tensor, approximate: string): Tensor {
  if (approximate === "tanh") {
    const kBeta = Math.SQRT2 * M_2_SQRTPI * 0.5, kKappa = 0.044715;
    const x_sq = self.mul(self), x_cube = x_sq.mul(self);
    const inner = self.add(x_cube.mul(kKappa)).mul(kBeta);
    const tanh_inner = inner.tanh();
    const left = self.mul(0.5), right = tanh_inner.add(1);
    const left_derivative = right.mul(0.5);
    const tanh_derivative = tanh_inner.mul(tanh_inner).neg().add(1);
    const inner_derivative = x_sq.mul(3 * kKappa).add(1).mul(kBeta);
    const right_derivative = left.mul(tanh_derivative).mul(inner_derivative);
    return grad.mul(left_derivative.add(right_derivative));
  }
  const kBeta = M_2_SQRTPI * M_SQRT1_2 * 0.5;
  const cdf = self.mul(M_SQRT1_2).erf().add(1).mul(0.5);
  const pdf = self.mul(self).mul(-0.5).exp().mul(kBeta);
  return grad.mul(cdf.add(self.mul(pdf)));
}

/** FunctionsManual's infinitely_differentiable_silu_backward: grad * sigmoid * (1 + self * (1 - sigmoid)). */
export function infinitely_differentiable_silu_backward(grad_output: Tensor, input: Tensor): Tensor {
  const sigmoid = input.sigmoid();
  return grad_output.mul(sigmoid).mul(input.mul(sigmoid.neg().add(1)).add(1));
}

/** FunctionsManual's infinitely_differentiable_mish_backward: grad * (tanh(softplus(x)) + x * sigmoid(x) * (1 - tanh_softplus^2)). */
export function infinitely_differentiable_mish_backward(grad_output: Tensor, input: Tensor): Tensor {
  const sigmoid = input.sigmoid();
  const tanh_softplus = (softplus_default.call(input, 1, 20) as Tensor).tanh();
  return grad_output.mul(tanh_softplus.add(sigmoid.mul(input).mul(tanh_softplus.mul(tanh_softplus).neg().add(1))));
}

/** softplus_backward: self * beta > threshold ? grad : grad * z / (z + 1), z = exp(self * beta). */
export function softplus_backward_composite(grad: Tensor, self: Tensor, beta: number, threshold: number): Tensor {
  const xb = self.mul(beta), z = xb.exp();
  return where(xb.gt(threshold), grad, grad.mul(z).div(z.add(1)));
}

/** hardswish_backward: self < -3 ? 0 : self <= 3 ? grad * (self / 3 + 0.5) : grad. */
export function hardswish_backward_composite(grad: Tensor, self: Tensor): Tensor {
  return where(self.lt(-3), 0, where(self.le(3), grad.mul(self.div(3).add(0.5)), grad));
}

/** log_sigmoid_backward (CPU kernel): z = exp(-|x|); grad * (x < 0 ? 1 - z / (1 + z) : z / (1 + z)). */
export function log_sigmoid_backward_composite(grad: Tensor, self: Tensor): Tensor {
  const z = self.abs().neg().exp(), q = z.div(z.add(1));
  return grad.mul(where(self.lt(0), q.neg().add(1), q));
}

/** _softmax_backward_data: output * (grad - sum(grad * output, dim, keepdim)). */
export function _softmax_backward_data_composite(grad: Tensor, output: Tensor, dim: number): Tensor {
  return output.mul(grad.sub(grad.mul(output).sum([dim], true)));
}

/** _log_softmax_backward_data: grad - exp(output) * sum(grad, dim, keepdim). */
export function _log_softmax_backward_data_composite(grad: Tensor, output: Tensor, dim: number): Tensor {
  return grad.sub(output.exp().mul(grad.sum([dim], true)));
}

// Reduction: 0 None, 1 Mean, 2 Sum (at::Reduction).

/** mse_loss_backward: norm * (self - target) * grad, norm = 2 / numel for Mean, else 2. */
export function mse_loss_backward_composite(grad: Tensor, self: Tensor, target: Tensor, reduction: number): Tensor {
  const norm = reduction === 1 ? 2 / self.numel() : 2;
  return self.sub(target).mul(norm).mul(grad);
}

/** smooth_l1_loss_backward: x = self - target; x < -beta ? -norm * grad : x > beta ? norm * grad : norm * x * grad / beta. */
export function smooth_l1_loss_backward_composite(grad: Tensor, self: Tensor, target: Tensor, reduction: number, beta: number): Tensor {
  const norm = reduction === 1 ? 1 / self.numel() : 1;
  const x = self.sub(target), g = grad.mul(norm);
  return where(x.lt(-beta), g.neg(), where(x.gt(beta), g, x.mul(norm).mul(grad).div(beta)));
}

/** huber_loss_backward: x = self - target; x < -delta ? -norm * grad * delta : x > delta ? norm * grad * delta : norm * x * grad. */
export function huber_loss_backward_composite(grad: Tensor, self: Tensor, target: Tensor, reduction: number, delta: number): Tensor {
  const norm = reduction === 1 ? 1 / self.numel() : 1;
  const x = self.sub(target), g = grad.mul(norm * delta);
  return where(x.lt(-delta), g.neg(), where(x.gt(delta), g, x.mul(norm).mul(grad)));
}

/** binary_cross_entropy_backward: grad * (self - target) / max((1 - self) * self, 1e-12) * weight (/ numel for Mean). */
export function binary_cross_entropy_backward_composite(grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  let r = grad.mul(self.sub(target)).div(self.neg().add(1).mul(self).clamp_min(1e-12));
  if (weight !== null) r = r.mul(weight);
  return reduction === 1 ? r.div(self.numel()) : r;
}

/** FunctionsManual's binary_cross_entropy_target_backward: grad * (log(1 - self) - log(self)) * weight (/ numel for Mean). */
export function binary_cross_entropy_target_backward(grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  let r = self.neg().add(1).log().sub(self.log());
  if (weight !== null) r = r.mul(weight);
  r = r.mul(grad);
  return reduction === 1 ? r.div(target.numel()) : r;
}

/** FunctionsManual's binary_cross_entropy_with_logits_backward: ((pos_weight * t + 1 - t) * sigmoid(x) - pos_weight * t) or (sigmoid(x) - t), times grad and weight (/ numel for Mean). */
export function binary_cross_entropy_with_logits_backward(grad: Tensor, input: Tensor, target: Tensor, weight: Tensor | null, pos_weight: Tensor | null, reduction: number): Tensor {
  let r: Tensor;
  if (pos_weight !== null) {
    const t = pos_weight.mul(target);
    r = t.add(1).sub(target).mul(input.sigmoid()).sub(t).mul(grad);
  } else {
    r = input.sigmoid().sub(target).mul(grad);
  }
  if (weight !== null) r = r.mul(weight);
  return reduction === 1 ? r.div(input.numel()) : r;
}

/** FunctionsManual's binary_cross_entropy_with_logits_target_backward: (log_sigmoid(-x) - pos_weight * log_sigmoid(x)) or -x, times grad and weight (/ numel for Mean). */
export function binary_cross_entropy_with_logits_target_backward(grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, pos_weight: Tensor | null, reduction: number): Tensor {
  let r: Tensor;
  if (pos_weight !== null) {
    const ls = (t: Tensor) => log_sigmoid_default.call(t) as Tensor;
    r = ls(self.neg()).sub(ls(self).mul(pos_weight)).mul(grad);
  } else {
    r = self.neg().mul(grad);
  }
  if (weight !== null) r = r.mul(weight);
  return reduction === 1 ? r.div(target.numel()) : r;
}

// at::threshold_backward, at::leaky_relu_backward, at::hardtanh_backward, at::hardsigmoid_backward: the
// operators (activation.yaml), called through their handles so the backward trace shows them.
export const threshold_backward = (grad: Tensor, self: Tensor, threshold: number): Tensor =>
  threshold_backward_default.call(grad, self, threshold) as Tensor;
export const leaky_relu_backward = (grad: Tensor, self: Tensor, negative_slope: number, self_is_result: boolean): Tensor =>
  leaky_relu_backward_default.call(grad, self, negative_slope, self_is_result) as Tensor;
export const hardtanh_backward = (grad: Tensor, self: Tensor, min_val: number, max_val: number): Tensor =>
  hardtanh_backward_default.call(grad, self, min_val, max_val) as Tensor;
export const hardsigmoid_backward = (grad: Tensor, self: Tensor): Tensor => hardsigmoid_backward_default.call(grad, self) as Tensor;

// at::nll_loss_backward, at::nll_loss2d_backward (loss.yaml) and the composites nll_loss, nll_loss2d (their double backward).
export const nll_loss_backward = (grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, total_weight: Tensor): Tensor =>
  nll_loss_backward_default.call(grad, self, target, weight, reduction, ignore_index, total_weight) as Tensor;
export const nll_loss2d_backward = (grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, total_weight: Tensor): Tensor =>
  nll_loss2d_backward_default.call(grad, self, target, weight, reduction, ignore_index, total_weight) as Tensor;
export const nll_loss = (self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number): Tensor =>
  nll_loss_default.call(self, target, weight, reduction, ignore_index) as Tensor;
export const nll_loss2d = (self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number): Tensor =>
  nll_loss2d_default.call(self, target, weight, reduction, ignore_index) as Tensor;
// ---- layers (conv.yaml, pooling.yaml, normalization.yaml, index.yaml's embedding) ----
// PyTorch's formulas here call fused backward ops (convolution_backward, native_batch_norm_backward,
// native_layer_norm_backward, native_group_norm_backward, embedding_dense_backward). Glasstorch does not have
// those ops yet: these helpers compute the same gradients from existing differentiable ops (convolution,
// where/sum, mean), so create_graph gives second-order gradients by differentiating them again (PyTorch's
// double-backward Nodes, ConvolutionBackwardBackward0 and the like, are not reproduced).

import { convolution_default } from "../generated/convolution.js";

/** The gradient of a convolution's weight: conv(input, grad) with input and grad's batch/channel dims swapped,
 * stride and dilation exchanged; per group, cut to the kernel's size. Weight layout [out, in/groups, k...]. */
function conv_weight_grad(inp: Tensor, gout: Tensor, ksize: readonly number[], stride: readonly number[], padding: readonly number[], dilation: readonly number[], groups: number): Tensor {
  const cin = inp.shape[1] / groups, cout = gout.shape[1] / groups;
  const nd = ksize.length;
  const parts: Tensor[] = [];
  for (let g = 0; g < groups; g++) {
    const i = inp.narrow(1, g * cin, cin).transpose(0, 1);
    const o = gout.narrow(1, g * cout, cout).transpose(0, 1);
    let w = convolution_default.call(i, o, null, [...dilation], [...padding], [...stride], false, new Array(nd).fill(0), 1) as Tensor;
    for (let d = 0; d < nd; d++) if (w.shape[2 + d] !== ksize[d]) w = w.narrow(2 + d, 0, ksize[d]);
    parts.push(w.transpose(0, 1));
  }
  return parts.length === 1 ? parts[0] : cat(parts, 0);
}

const expandParam = (p: readonly number[], nd: number): number[] => (p.length === 1 && nd > 1 ? new Array(nd).fill(p[0]) : [...p]);

/** convolution_backward (Convolution.cpp): [grad_input, grad_weight, grad_bias] of at::convolution. */
export function convolution_backward_composite(
  grad: Tensor, input: Tensor, weight: Tensor, stride: readonly number[], padding: readonly number[], dilation: readonly number[],
  transposed: boolean, output_padding: readonly number[], groups: number, mask: readonly boolean[],
): (Tensor | null)[] {
  const nd = weight.dim() - 2;
  const s = expandParam(stride, nd), p = expandParam(padding, nd), d = expandParam(dilation, nd);
  const k = weight.shape.slice(2);
  let gi: Tensor | null = null, gw: Tensor | null = null, gb: Tensor | null = null;
  // an unbatched input (C, L...) runs batched
  const unbatched = input.dim() === nd + 1;
  const x = unbatched ? input.unsqueeze(0) : input;
  const g = unbatched ? grad.unsqueeze(0) : grad;
  if (mask[0]) {
    if (!transposed) {
      // the transposed convolution maps the output back onto the input's size: output_padding makes up the rows
      // the forward's floor division dropped
      const op = k.map((kk, i) => x.shape[2 + i] - ((g.shape[2 + i] - 1) * s[i] - 2 * p[i] + d[i] * (kk - 1) + 1));
      gi = convolution_default.call(g, weight, null, s, p, d, true, op, groups) as Tensor;
    } else {
      gi = convolution_default.call(g, weight, null, s, p, d, false, new Array(nd).fill(0), groups) as Tensor;
    }
    if (unbatched) gi = gi.squeeze(0);
  }
  if (mask[1]) {
    // a transposed convolution is the adjoint of a convolution from its output to its input: the roles swap
    gw = transposed ? conv_weight_grad(g, x, k, s, p, d, groups) : conv_weight_grad(x, g, k, s, p, d, groups);
  }
  if (mask[2]) {
    const dims = [0, ...Array.from({ length: nd }, (_, i) => 2 + i)];
    gb = g.sum(dims, false);
  }
  return [gi, gw, gb];
}

/** The per-channel view [1, C, 1, ...] of a [C] parameter for an input of `dim` dims. */
function channelView(t: Tensor, dim: number): Tensor {
  return t.reshape([1, -1, ...new Array(Math.max(dim - 2, 0)).fill(1)]);
}

/** native_batch_norm_backward (Normalization.cpp batch_norm_backward_cpu_template): training uses the batch's
 * statistics (recomputed from input, so the result stays differentiable in input), eval the running ones. */
export function batch_norm_backward_composite(
  grad: Tensor | null, input: Tensor, weight: Tensor | null, running_mean: Tensor | null, running_var: Tensor | null,
  training: boolean, eps: number, mask: readonly boolean[],
): (Tensor | null)[] {
  if (grad === null) return [null, null, null];
  const nd = input.dim();
  const dims = [0, ...Array.from({ length: nd - 2 }, (_, i) => 2 + i)];
  const n = input.numel() / input.shape[1];
  let mean: Tensor, invstd: Tensor;
  if (training) {
    mean = input.mean(dims, true);
    invstd = input.sub(mean).pow(2).mean(dims, true).add(eps).sqrt().reciprocal();
  } else {
    mean = channelView(running_mean!, nd);
    invstd = channelView(running_var!, nd).add(eps).sqrt().reciprocal();
  }
  const centered = input.sub(mean);
  const dotp = centered.mul(grad).sum(dims, true);
  const w = weight === null ? null : channelView(weight, nd);
  let gi: Tensor | null = null;
  if (mask[0]) {
    if (training) {
      const k = dotp.mul(invstd).mul(invstd).div(n);
      const gradMean = grad.sum(dims, true).div(n);
      gi = grad.sub(gradMean).sub(centered.mul(k)).mul(invstd);
    } else {
      gi = grad.mul(invstd);
    }
    if (w !== null) gi = gi.mul(w);
  }
  const gw = mask[1] ? dotp.mul(invstd).reshape([-1]) : null;
  const gb = mask[2] ? grad.sum(dims, false) : null;
  return [gi, gw, gb];
}

/** The gradient of normalizing the last axis of x3 [N, G, D] (layer/group norm's LayerNormBackwardKernel
 * arithmetic: dx = rstd dy' + b x + c with ds = sum(dy' x), db = sum(dy'), dy' the gradient times gamma). */
function normalize_last_backward(dyg: Tensor, x3: Tensor, eps: number): Tensor {
  const D = x3.shape[x3.dim() - 1];
  const mean = x3.mean([-1], true);
  const rstd = x3.sub(mean).pow(2).mean([-1], true).add(eps).sqrt().reciprocal();
  const ds = dyg.mul(x3).sum([-1], true);
  const db = dyg.sum([-1], true);
  const b = db.mul(mean).sub(ds).mul(rstd).mul(rstd).mul(rstd).div(D);
  const c = b.neg().mul(mean).sub(db.mul(rstd).div(D));
  return dyg.mul(rstd).add(b.mul(x3)).add(c);
}

/** native_layer_norm_backward (layer_norm_backward_cpu): over the trailing normalized_shape dims. */
export function layer_norm_backward_composite(
  grad: Tensor | null, input: Tensor, normalized_shape: readonly number[], weight: Tensor | null, eps: number, mask: readonly boolean[],
): (Tensor | null)[] {
  if (grad === null) return [null, null, null];
  const D = normalized_shape.reduce((a, b) => a * b, 1);
  const x2 = input.reshape([-1, D]);
  const g2 = grad.reshape([-1, D]);
  const w2 = weight === null ? null : weight.reshape([1, D]);
  const gi = mask[0] ? normalize_last_backward(w2 === null ? g2 : g2.mul(w2), x2, eps).reshape([...input.shape]) : null;
  let gw: Tensor | null = null;
  if (mask[1]) {
    const mean = x2.mean([-1], true);
    const rstd = x2.sub(mean).pow(2).mean([-1], true).add(eps).sqrt().reciprocal();
    gw = g2.mul(x2.sub(mean).mul(rstd)).sum([0], false).reshape([...normalized_shape]);
  }
  const gb = mask[2] ? g2.sum([0], false).reshape([...normalized_shape]) : null;
  return [gi, gw, gb];
}

/** native_group_norm_backward (GroupNorm.cpp): input [N, C, HxW...] normalized per (n, group). */
export function group_norm_backward_composite(
  grad: Tensor | null, input: Tensor, weight: Tensor | null, N: number, C: number, HxW: number, group: number, eps: number, mask: readonly boolean[],
): (Tensor | null)[] {
  if (grad === null) return [null, null, null];
  const x4 = input.reshape([N, group, C / group, HxW]);
  const g4 = grad.reshape([N, group, C / group, HxW]);
  const w4 = weight === null ? null : weight.reshape([1, group, C / group, 1]);
  const dyg = (w4 === null ? g4 : g4.mul(w4)).reshape([N, group, -1]);
  const x3 = x4.reshape([N, group, -1]);
  const gi = mask[0] ? normalize_last_backward(dyg, x3, eps).reshape([...input.shape]) : null;
  let gw: Tensor | null = null;
  if (mask[1]) {
    const mean = x3.mean([-1], true);
    const rstd = x3.sub(mean).pow(2).mean([-1], true).add(eps).sqrt().reciprocal();
    const xhat = x3.sub(mean).mul(rstd).reshape([N, group, C / group, HxW]);
    gw = g4.mul(xhat).sum([0, 3], false).reshape([C]);
  }
  const gb = mask[2] ? g4.sum([0, 3], false).reshape([C]) : null;
  return [gi, gw, gb];
}

/** embedding_backward -> embedding_dense_backward_cpu: grad rows summed into the rows their indices name
 * (none into padding_idx), each scaled by 1/count of its index when scale_grad_by_freq. */
export function embedding_backward_composite(grad: Tensor, indices: Tensor, num_weights: number, padding_idx: number, scale_grad_by_freq: boolean): Tensor {
  const idx = indices.reshape([-1]).tolist() as number[];
  const L = idx.length;
  const D = grad.numel() / Math.max(L, 1);
  const g2 = grad.reshape([L, D]);
  const counts = new Array<number>(num_weights).fill(0);
  for (const i of idx) counts[i] += 1;
  const m = new Array<boolean>(L * num_weights);
  const scale = new Array<number>(L * num_weights).fill(1);
  for (let l = 0; l < L; l++)
    for (let k = 0; k < num_weights; k++) {
      m[l * num_weights + k] = idx[l] === k && k !== padding_idx;
      if (scale_grad_by_freq && idx[l] === k) scale[l * num_weights + k] = 1 / counts[k];
    }
  const M = tensor(m, { dtype: boolDtype }).reshape([L, num_weights, 1]);
  let rows = g2.unsqueeze(1);
  if (scale_grad_by_freq) rows = rows.mul(tensor(scale, { dtype: grad.dtype }).reshape([L, num_weights, 1]));
  return where(M, rows, 0).sum([0], false);
}

/** max_pool_double_backward: the gradient of max pooling's backward in grad_output picks, for every output,
 * the element of grad its index names (the last `dim` dims flattened, as the indices count them). */
export function max_pool_double_backward(grad: Tensor, indices: Tensor, dim: number): Tensor {
  if (indices.dim() < dim) throw new Error(`max_pool_double_backward: indices have fewer than ${dim} dims`);
  const g = grad.flatten(-dim, -1);
  const i = indices.flatten(-dim, -1);
  return g.gather(-1, i).view([...indices.shape]);
}

// at::max_pool2d_with_indices_backward, at::avg_pool2d_backward, at::avg_pool2d as PyTorch's formulas call them
import { max_pool2d_with_indices_backward_default } from "../generated/max_pool2d_with_indices_backward.js";
import { avg_pool2d_backward_default } from "../generated/avg_pool2d_backward.js";
import { avg_pool2d_default } from "../generated/avg_pool2d.js";
export function max_pool2d_with_indices_backward(grad: Tensor, self: Tensor, kernel_size: number[], stride: number[], padding: number[], dilation: number[], ceil_mode: boolean, indices: Tensor): Tensor {
  return max_pool2d_with_indices_backward_default.call(grad, self, kernel_size, stride, padding, dilation, ceil_mode, indices) as Tensor;
}
export function avg_pool2d_backward(grad: Tensor, self: Tensor, kernel_size: number[], stride: number[], padding: number[], ceil_mode: boolean, count_include_pad: boolean, divisor_override: number | null): Tensor {
  return avg_pool2d_backward_default.call(grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override) as Tensor;
}
export function avg_pool2d(self: Tensor, kernel_size: number[], stride: number[], padding: number[], ceil_mode: boolean, count_include_pad: boolean, divisor_override: number | null): Tensor {
  return avg_pool2d_default.call(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override) as Tensor;
}

// at::constant_pad_nd, at::im2col, at::col2im, at::pixel_shuffle, at::pixel_unshuffle as the formulas call them
import { constant_pad_nd_default } from "../generated/constant_pad_nd.js";
import { im2col_default } from "../generated/im2col.js";
import { col2im_default } from "../generated/col2im.js";
import { pixel_shuffle_default } from "../generated/pixel_shuffle.js";
import { pixel_unshuffle_default } from "../generated/pixel_unshuffle.js";
/** constant_pad_nd_backward: padding by the negated amounts cuts the padding off again (and re-pads with
 * zeros where the forward's negative padding cropped). */
export function constant_pad_nd_backward(grad: Tensor, pad: readonly number[]): Tensor {
  return constant_pad_nd_default.call(grad, pad.map((p) => -p), 0) as Tensor;
}
export function im2col(self: Tensor, kernel_size: number[], dilation: number[], padding: number[], stride: number[]): Tensor {
  return im2col_default.call(self, kernel_size, dilation, padding, stride) as Tensor;
}
export function col2im(self: Tensor, output_size: number[], kernel_size: number[], dilation: number[], padding: number[], stride: number[]): Tensor {
  return col2im_default.call(self, output_size, kernel_size, dilation, padding, stride) as Tensor;
}
export function pixel_shuffle(self: Tensor, upscale_factor: number): Tensor {
  return pixel_shuffle_default.call(self, upscale_factor) as Tensor;
}
export function pixel_unshuffle(self: Tensor, downscale_factor: number): Tensor {
  return pixel_unshuffle_default.call(self, downscale_factor) as Tensor;
}

// at::_adaptive_avg_pool2d(_backward), at::adaptive_max_pool2d_backward as the formulas call them
import { _adaptive_avg_pool2d_default } from "../generated/_adaptive_avg_pool2d.js";
import { _adaptive_avg_pool2d_backward_default } from "../generated/_adaptive_avg_pool2d_backward.js";
import { adaptive_max_pool2d_backward_default } from "../generated/adaptive_max_pool2d_backward.js";
export function _adaptive_avg_pool2d(self: Tensor, output_size: number[]): Tensor {
  return _adaptive_avg_pool2d_default.call(self, output_size) as Tensor;
}
export function _adaptive_avg_pool2d_backward(grad: Tensor, self: Tensor): Tensor {
  return _adaptive_avg_pool2d_backward_default.call(grad, self) as Tensor;
}
export function adaptive_max_pool2d_backward(grad: Tensor, self: Tensor, indices: Tensor): Tensor {
  return adaptive_max_pool2d_backward_default.call(grad, self, indices) as Tensor;
}

// ---------------------------------------------------------------------------------------------------------------
// ---- misc ----
// linalg_lu_factor_ex's gradient (FunctionsManual.cpp lu_factor_ex_backward -> linalg_lu_backward). Glasstorch
// has no lu_unpack or linalg_solve_triangular op yet: the unpacking is written with tril/triu/narrow and a
// permutation matrix built from the pivots, and the triangular solves use linalg_solve on the triangular
// factors (as the linalg helpers above do) — same math, so gradients agree to rounding, and create_graph
// differentiates through these ops.

/** at::lu_unpack(LU, pivots): P, L (unit lower, m x k) and U (upper, k x n) with A = P L U. */
function lu_unpack_composite(LU: Tensor, pivots: Tensor, unpack_pivots: boolean): [Tensor | null, Tensor, Tensor] {
  const m = LU.shape[LU.shape.length - 2], n = LU.shape[LU.shape.length - 1];
  const k = Math.min(m, n);
  const eyeMK: number[] = [];
  for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) eyeMK.push(i === j ? 1 : 0);
  const L = LU.narrow(-1, 0, k).tril(-1).add(tensor(eyeMK, { dtype: LU.dtype }).reshape([m, k]));
  const U = LU.narrow(-2, 0, k).triu();
  if (!unpack_pivots) return [null, L, U];
  // LAPACK's ipiv (1-based): row i was swapped with row ipiv[i] - 1, in order. perm[r] is the row of A that
  // ends up in row r of L U, so A = P (L U) with P[perm[r], r] = 1.
  const batch = LU.shape.slice(0, -2);
  const piv = pivots.reshape([-1, k]).tolist() as number[][];
  const vals: number[] = [];
  for (const p of piv) {
    const perm = Array.from({ length: m }, (_, i) => i);
    for (let i = 0; i < k; i++) {
      const j = p[i] - 1;
      [perm[i], perm[j]] = [perm[j], perm[i]];
    }
    const P = new Array(m * m).fill(0);
    for (let r = 0; r < m; r++) P[perm[r] * m + r] = 1;
    vals.push(...P);
  }
  return [tensor(vals, { dtype: LU.dtype }).reshape([...batch, m, m]), L, U];
}

/** linalg_lu_backward: the gradient of A = P L U from those of L and U (square, wide and tall cases). */
export function linalg_lu_backward(L_grad: Tensor | null, U_grad: Tensor | null, P: Tensor | null, L: Tensor, U: Tensor, pivot: boolean): Tensor | null {
  if (L_grad === null && U_grad === null) return null;
  const m = L.shape[L.shape.length - 2], n = U.shape[U.shape.length - 1];
  const k = Math.min(m, n);
  const permute = (g: Tensor) => (pivot ? P!.matmul(g) : g);
  // linalg_solve_triangular(B, X, left=false) is X B^{-1}; left=true is B^{-1} X
  const solveRight = (B: Tensor, X: Tensor) => linalg_solve(B, X, { left: false });
  const solveLeft = (B: Tensor, X: Tensor) => linalg_solve(B, X);
  if (m === n) {
    // A_grad = P L^{-H} [L^H L_grad o 1_L + U_grad U^H o 1_U] U^{-H}
    let A_grad: Tensor | null = L_grad !== null ? mH(L).matmul(L_grad).tril(-1) : null;
    if (U_grad !== null) {
      const u = U_grad.matmul(mH(U)).triu();
      A_grad = A_grad !== null ? A_grad.add(u) : u;
    }
    A_grad = solveRight(mH(U), A_grad!);
    A_grad = solveLeft(mH(L), A_grad);
    return permute(A_grad);
  }
  if (m < n) {
    // wide: A1_grad = P L^{-H} [U1_grad + (L^H L_grad o 1_L - U_grad U^H o 1_U) U1^{-H}], A2_grad = P L^{-H} U2_grad
    const U1 = (t: Tensor) => (n === k ? t : t.narrow(-1, 0, k));
    const U2 = (t: Tensor) => t.narrow(-1, k, n - k);
    let A_grad: Tensor | null = L_grad !== null ? mH(L).matmul(L_grad) : null;
    if (U_grad !== null) {
      const u = U_grad.triu().matmul(mH(U));
      A_grad = A_grad !== null ? A_grad.sub(u) : u.neg();
    }
    A_grad = solveRight(mH(U1(U)), A_grad!.tril(-1));
    if (U_grad !== null) A_grad = cat([A_grad.add(U1(U_grad).triu()), U2(U_grad)], -1);
    A_grad = solveLeft(mH(L), A_grad);
    if (U_grad === null) A_grad = cat([A_grad, zeros_like(U2(U))], -1);
    return permute(A_grad);
  }
  // tall: A1_grad = P [L1_grad + L^{-H} (U_grad U^H o 1_U - L^H L_grad o 1_L)] U^{-H}, A2_grad = P L2_grad U^{-H}
  const L1 = (t: Tensor) => (m === k ? t : t.narrow(-2, 0, k));
  const L2 = (t: Tensor) => t.narrow(-2, k, m - k);
  let A_grad: Tensor | null = U_grad !== null ? U_grad.matmul(mH(U)) : null;
  if (L_grad !== null) {
    const l = mH(L).matmul(L_grad.tril(-1));
    A_grad = A_grad !== null ? A_grad.sub(l) : l.neg();
  }
  A_grad = solveLeft(mH(L1(L)), A_grad!.triu());
  if (L_grad !== null) A_grad = cat([A_grad.add(L1(L_grad).tril(-1)), L2(L_grad)], -2);
  A_grad = solveRight(mH(U), A_grad);
  if (L_grad === null) A_grad = cat([A_grad, zeros_like(L2(L))], -2);
  return permute(A_grad);
}

/** lu_factor_ex_backward: LU packs L (strictly below the diagonal) and U; their gradients are grad's parts. */
export function lu_factor_ex_backward(grad: Tensor, LU: Tensor, pivs: Tensor, pivot: boolean): Tensor | null {
  const [P, L, U] = lu_unpack_composite(LU, pivs, pivot);
  const m = LU.shape[LU.shape.length - 2], n = LU.shape[LU.shape.length - 1];
  const k = Math.min(m, n);
  return linalg_lu_backward(grad.narrow(-1, 0, k).tril(-1), grad.narrow(-2, 0, k).triu(), P, L, U, pivot);
}
