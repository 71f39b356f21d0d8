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
import { nll_loss_backward_default } from "../generated/nll_loss_backward.js";
import { nll_loss2d_backward_default } from "../generated/nll_loss2d_backward.js";
import { nll_loss_default } from "../generated/nll_loss.js";
import { nll_loss2d_default } from "../generated/nll_loss2d.js";
import { threshold_backward_default } from "../generated/threshold_backward.js";
import { leaky_relu_backward_default } from "../generated/leaky_relu_backward.js";
import { hardtanh_backward_default } from "../generated/hardtanh_backward.js";
import { hardsigmoid_backward_default } from "../generated/hardsigmoid_backward.js";
import { glu_backward_default } from "../generated/glu_backward.js";
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
import { fw_grad, isFwGradDefined } from "./forward_grad.js";

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
// The backward aten ops PyTorch's formulas call (threshold_backward, leaky_relu_backward, hardtanh_backward,
// hardsigmoid_backward, elu_backward, gelu_backward, softplus_backward, hardswish_backward, silu_backward,
// mish_backward, log_sigmoid_backward, _softmax_backward_data, _log_softmax_backward_data, mse_loss_backward,
// smooth_l1_loss_backward, huber_loss_backward, binary_cross_entropy_backward, nll_loss(2d)_backward, xlogy) are
// operators (activation.yaml, loss.yaml, binary.yaml), called through their handles so the backward trace shows
// them; below are PyTorch's double-backward helpers for them, each running its ops in the order PyTorch 1.13's
// build runs them (C++ evaluates the right operand of `a * b` first there: the dispatch logs show it).

import { GradMode, AutoGradMode } from "../c10/GradMode.js";
import { empty_like_default } from "../generated/empty_like.js";
import { elu_backward_default } from "../generated/elu_backward.js";
import { gelu_backward_default } from "../generated/gelu_backward.js";
import { softplus_backward_default } from "../generated/softplus_backward.js";
import { hardswish_backward_default } from "../generated/hardswish_backward.js";
import { prelu_backward_default } from "../generated/prelu_backward.js";
import { silu_backward_default } from "../generated/silu_backward.js";
import { mish_backward_default } from "../generated/mish_backward.js";
import { log_sigmoid_backward_default } from "../generated/log_sigmoid_backward.js";
import { _softmax_backward_data_default } from "../generated/_softmax_backward_data.js";
import { _log_softmax_backward_data_default } from "../generated/_log_softmax_backward_data.js";
import { mse_loss_backward_default } from "../generated/mse_loss_backward.js";
import { smooth_l1_loss_backward_default } from "../generated/smooth_l1_loss_backward.js";
import { huber_loss_backward_default } from "../generated/huber_loss_backward.js";
import { binary_cross_entropy_backward_default } from "../generated/binary_cross_entropy_backward.js";
import { xlogy_Tensor, xlogy_Scalar_Other, xlogy_Scalar_Self } from "../generated/xlogy.js";
import { ones_like_default } from "../generated/ones_like.js";
import { mul_Scalar } from "../generated/mul.js";
import { div_Scalar, div__Scalar } from "../generated/div.js";
import { sub_Scalar } from "../generated/sub.js";
import { log__default } from "../generated/log.js";

/** GradMode::is_enabled(): silu's and mish's formulas pick the differentiable composite under create_graph. */
export const GradMode_is_enabled = (): boolean => GradMode.is_enabled();

/** C++'s `s - t` / `s / t` with a Scalar s: at::empty_like(t).fill_(s).sub_(t) / .div_(t). */
const rsub = (s: number, t: Tensor): Tensor => (empty_like_default.call(t, null, null, null, null, null) as Tensor).fill_(s).sub_(t);
const rdiv = (s: number, t: Tensor): Tensor => (empty_like_default.call(t, null, null, null, null, null) as Tensor).fill_(s).div_(t);
/** C++'s `t * s`, `t / s`, `t - s` with a Scalar s: mul.Scalar, div.Scalar, sub.Scalar (a TS `t.mul(s)` is Python's
 * mul.Tensor with a wrapped scalar). Glasstorch has no add.Scalar yet: `t + s` stays t.add(s) (add.Tensor). */
const muls = (t: Tensor, s: number): Tensor => mul_Scalar.call(t, s) as Tensor;
const divs = (t: Tensor, s: number): Tensor => div_Scalar.call(t, s) as Tensor;
const subs = (t: Tensor, s: number): Tensor => sub_Scalar.call(t, s, 1) as Tensor;
/** Tensor::type_as(other): other's dtype (a _to_copy when it differs). */
const type_as = (t: Tensor, other: Tensor): Tensor => t.to(other.dtype);
/** A ScalarType argument the way the op handles take it (a formula's <t>_scalar_type is the enum). */
const asDtype = (t: any) => (typeof t === "number" ? dtypeOf(t) : t);

// the operators
export const elu_backward = (grad: Tensor, alpha: number, scale: number, input_scale: number, is_result: boolean, self_or_result: Tensor): Tensor =>
  elu_backward_default.call(grad, alpha, scale, input_scale, is_result, self_or_result) as Tensor;
export const gelu_backward = (grad: Tensor, self: Tensor, approximate: string): Tensor => gelu_backward_default.call(grad, self, approximate) as Tensor;
export const softplus_backward = (grad: Tensor, self: Tensor, beta: number, threshold: number): Tensor =>
  softplus_backward_default.call(grad, self, beta, threshold) as Tensor;
export const hardswish_backward = (grad: Tensor, self: Tensor): Tensor => hardswish_backward_default.call(grad, self) as Tensor;
export const prelu_backward = (grad: Tensor, self: Tensor, weight: Tensor): [Tensor, Tensor] => prelu_backward_default.call(grad, self, weight) as [Tensor, Tensor];
export const silu_backward = (grad: Tensor, self: Tensor): Tensor => silu_backward_default.call(grad, self) as Tensor;
export const mish_backward = (grad: Tensor, self: Tensor): Tensor => mish_backward_default.call(grad, self) as Tensor;
export const log_sigmoid_backward = (grad: Tensor, self: Tensor, buffer: Tensor): Tensor => log_sigmoid_backward_default.call(grad, self, buffer) as Tensor;
export const _softmax_backward_data = (grad: Tensor, output: Tensor, dim: number, input_dtype: unknown): Tensor =>
  _softmax_backward_data_default.call(grad, output, dim, asDtype(input_dtype)) as Tensor;
export const _log_softmax_backward_data = (grad: Tensor, output: Tensor, dim: number, input_dtype: unknown): Tensor =>
  _log_softmax_backward_data_default.call(grad, output, dim, asDtype(input_dtype)) as Tensor;
export const mse_loss_backward = (grad: Tensor, self: Tensor, target: Tensor, reduction: number): Tensor =>
  mse_loss_backward_default.call(grad, self, target, reduction) as Tensor;
export const smooth_l1_loss_backward = (grad: Tensor, self: Tensor, target: Tensor, reduction: number, beta: number): Tensor =>
  smooth_l1_loss_backward_default.call(grad, self, target, reduction, beta) as Tensor;
export const huber_loss_backward = (grad: Tensor, self: Tensor, target: Tensor, reduction: number, delta: number): Tensor =>
  huber_loss_backward_default.call(grad, self, target, reduction, delta) as Tensor;
export const binary_cross_entropy_backward = (grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor =>
  binary_cross_entropy_backward_default.call(grad, self, target, weight, reduction) as Tensor;
/** at::xlogy: the overload the argument kinds pick (xlogy.Tensor, .Scalar_Other, .Scalar_Self). */
export function xlogy(self: Tensor | number, other: Tensor | number): Tensor {
  if (typeof self === "number") return xlogy_Scalar_Self.call(self, other) as Tensor;
  if (typeof other === "number") return xlogy_Scalar_Other.call(self, other) as Tensor;
  return xlogy_Tensor.call(self, other) as Tensor;
}

/** elu_double_backward: the gradient of elu_backward in self_or_result. */
export function elu_double_backward(grad: Tensor, grad_output: Tensor, alpha: number, scale: number, input_scale: number, is_result: boolean, self_or_result: Tensor): Tensor {
  const mask = type_as(self_or_result.lt(0), grad);
  if (is_result) return muls(grad.mul(grad_output), input_scale).mul(mask);
  return elu_backward(muls(grad.mul(grad_output), input_scale), alpha, scale, input_scale, is_result, self_or_result).mul(mask);
}

const M_SQRT2 = Math.SQRT2, M_SQRT1_2 = Math.SQRT1_2, M_2_SQRTPI = 2 / Math.sqrt(Math.PI);

/** gelu_double_backward: the gradient of gelu_backward in self (the second derivative of gelu, times ggI * gO). */
export function gelu_double_backward(ggI: Tensor, gO: Tensor, input: Tensor, approximate: string): Tensor {
  if (approximate === "tanh") {
    const kBeta = M_SQRT2 * M_2_SQRTPI * 0.5, kKappa = 0.044715;
    const inner = muls(input.add(muls(input.pow(3), kKappa)), kBeta);
    const tanh_inner = inner.tanh();
    const sech_inner = rdiv(1, inner.cosh());
    const f = muls(input, 0.5);
    const g = rsub(1, tanh_inner.mul(tanh_inner));
    const h = muls(muls(input, 3 * kKappa).mul(input).add(1), kBeta);
    const f_prime_gh = muls(g, 0.5).mul(h);
    const neg_sech_tanh = sech_inner.neg().mul(tanh_inner);
    const g_prime = muls(sech_inner, 2).mul(neg_sech_tanh).mul(h);
    const g_prime_fh = f.mul(h).mul(g_prime);
    const h_prime = muls(muls(input, 6 * kKappa), kBeta);
    const h_prime_fg = f.mul(g).mul(h_prime);
    const sum = muls(f_prime_gh, 2).add(g_prime_fh).add(h_prime_fg);
    return ggI.mul(gO).mul(sum);
  }
  const kBeta = M_2_SQRTPI * M_SQRT1_2 * 0.5;
  const input_sq = input.mul(input);
  const pdf = muls(muls(input_sq, -0.5).exp(), kBeta);
  const sq_pdf = input_sq.mul(pdf);
  const dgrad_dInput = muls(pdf, 2).sub(sq_pdf);
  return ggI.mul(gO).mul(dgrad_dInput);
}

/** FunctionsManual's infinitely_differentiable_silu_backward: grad * sigmoid * (1 + self * (1 - sigmoid)). */
export function infinitely_differentiable_silu_backward(grad_output: Tensor, input: Tensor): Tensor {
  const sigmoid = input.sigmoid();
  const right = input.mul(rsub(1, sigmoid)).add(1);
  return grad_output.mul(sigmoid).mul(right);
}

/** FunctionsManual's infinitely_differentiable_mish_backward: grad * (tanh(softplus) + x * sigmoid(x) * (1 - tanh(softplus)^2)), softplus = log1p(exp(x)). */
export function infinitely_differentiable_mish_backward(grad_output: Tensor, input: Tensor): Tensor {
  const sigmoid = input.sigmoid();
  const tanh_softplus = input.exp().log1p().tanh();
  const one_m = rsub(1, tanh_softplus.mul(tanh_softplus));
  return grad_output.mul(tanh_softplus.add(input.mul(sigmoid).mul(one_m)));
}

/** softplus_double_backward: sigmoid_backward(grad, sigmoid(x * beta)) * (x * beta < threshold) * beta. */
export function softplus_double_backward(grad: Tensor, input: Tensor, beta: number, threshold: number): Tensor {
  const x = muls(input, beta);
  const mask = type_as(x.lt(threshold), grad);
  return muls(sigmoid_backward(grad, x.sigmoid()).mul(mask), beta);
}

/** log_sigmoid_double_backward: grad * (sigmoid(x) - 1) * sigmoid(x). */
export function log_sigmoid_double_backward(grad: Tensor, input: Tensor): Tensor {
  const z = input.sigmoid();
  return grad.mul(subs(z, 1)).mul(z);
}

/** softmax_double_backward: grad_output * grad - sum(output * grad_output) * grad - grad_output * sum(output * grad), sums over dim. */
export function softmax_double_backward(grad: Tensor, grad_output: Tensor, dim: number, output: Tensor): Tensor {
  const t3 = grad_output.mul(output.mul(grad).sum([dim], true));
  const t2 = output.mul(grad_output).sum([dim], true).mul(grad);
  return grad_output.mul(grad).sub(t2).sub(t3);
}

// Reduction: 0 None, 1 Mean, 2 Sum (at::Reduction).

/** mse_loss_double_backward: 2 * grad (/ numel for Mean). */
export function mse_loss_double_backward(grad: Tensor, input: Tensor, reduction: number): Tensor {
  const grad_input = muls(grad, 2);
  return reduction === 1 ? (div__Scalar.call(grad_input, input.numel()) as Tensor) : grad_input;
}

/** smooth_l1_loss_double_backward: grad * (|input - target| < beta) / beta (/ numel for Mean); zeros for beta == 0. */
export function smooth_l1_loss_double_backward(grad: Tensor, input: Tensor, target: Tensor, reduction: number, beta: number): Tensor {
  if (beta === 0) return zeros([...grad.shape], { dtype: grad.dtype, device: grad.device });
  const d = input.sub(target).abs();
  const grad_input = divs(grad.mul(type_as(d.lt(beta), grad)), beta);
  return reduction === 1 ? (div__Scalar.call(grad_input, input.numel()) as Tensor) : grad_input;
}

/** huber_loss_double_backward: grad * (|input - target| < delta) (/ numel for Mean). */
export function huber_loss_double_backward(grad: Tensor, input: Tensor, target: Tensor, reduction: number, delta: number): Tensor {
  const d = input.sub(target).abs();
  const grad_input = grad.mul(d.lt(delta));
  return reduction === 1 ? (div__Scalar.call(grad_input, input.numel()) as Tensor) : grad_input;
}

/** huber_loss_double_backward_grad_output: huber_loss_backward(grad, ...) unreduced, else sum(huber_loss_backward(ones, ...) * grad). */
export function huber_loss_double_backward_grad_output(grad: Tensor, grad_output: Tensor, input: Tensor, target: Tensor, reduction: number, delta: number): Tensor {
  if (reduction === 0) return huber_loss_backward(grad, input, target, reduction, delta);
  const r = huber_loss_backward(ones_like_default.call(grad_output, null, null, null, null, null) as Tensor, input, target, reduction, delta);
  return r.mul(grad).sum();
}

const BCE_EPS = 1e-12;

/** binary_cross_entropy_double_backward: the gradient of binary_cross_entropy_backward in self. */
export function binary_cross_entropy_double_backward(grad_output: Tensor, grad: Tensor, input: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  const inp_pl_eps = input.add(BCE_EPS);
  const one_m_inp_pl_eps = rsub(1, input).add(BCE_EPS);
  const denom = inp_pl_eps.pow(2).mul(one_m_inp_pl_eps.pow(2)); // PyTorch squares one_m_inp_pl_eps first
  const two_it = muls(input, 2).mul(target);
  let gI = input.mul(input).sub(two_it).add(target).div(denom);
  gI = gI.mul(grad.mul(grad_output));
  if (weight !== null) gI = gI.mul(weight);
  return reduction === 1 ? divs(gI, input.numel()) : gI;
}

/** binary_cross_entropy_double_backward_grad_output: grad * (input - target) / ((input + eps) * (1 - input + eps)) * weight (/ numel for Mean). */
export function binary_cross_entropy_double_backward_grad_output(grad: Tensor, input: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  const one_m = rsub(1, input).add(BCE_EPS);
  let ggO = input.sub(target).div(input.add(BCE_EPS).mul(one_m));
  ggO = ggO.mul(grad);
  if (weight !== null) ggO = ggO.mul(weight);
  return reduction === 1 ? divs(ggO, input.numel()) : ggO;
}

/** binary_cross_entropy_double_backward_target: -grad * grad_output * weight / max((1 - self) * self, eps) (/ numel for Mean). */
export function binary_cross_entropy_double_backward_target(grad: Tensor, grad_output: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  let res = grad.neg().mul(grad_output);
  if (weight !== null) res = res.mul(weight);
  const denom = rsub(1, self).mul(self);
  {
    using _noGrad = new AutoGradMode(false); // at::NoGradGuard: the clamp is not differentiated
    denom.clamp_min_(BCE_EPS);
  }
  res = res.div(denom);
  return reduction === 1 ? (div__Scalar.call(res, target.numel()) as Tensor) : res;
}

/** FunctionsManual's binary_cross_entropy_target_backward: (1 - self).log_().sub_(self.log()) * grad * weight (/ numel for Mean). */
export function binary_cross_entropy_target_backward(grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  let r = (log__default.call(rsub(1, self)) as Tensor).sub_(self.log());
  r = r.mul(grad);
  if (weight !== null) r = r.mul(weight);
  return reduction === 1 ? (div__Scalar.call(r, target.numel()) as Tensor) : r;
}

/** C++'s `(self == 0.) & (other <= 0.)` in xlogy's formula: the right operand is evaluated first there. */
export function xlogy_self_zero_other_nonpositive(self: Tensor, other: Tensor): Tensor {
  const other_le = other.le(0.0);
  return self.eq(0.0).bitwise_and(other_le);
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

// ---- glu (GatedLinearUnit.cpp's backward, FunctionsManual.cpp's double backward) ----
export const glu_backward = (grad: Tensor, self: Tensor, dim: number): Tensor => glu_backward_default.call(grad, self, dim) as Tensor;

/**
 * glu_double_backward: the gradient of glu_backward(gO, input) wrt input, for grad = d(grad_input).
 * With a, b the halves and s = sigmoid(b): d/da gets ggb gO s(1-s); d/db gets
 * gga gO s(1-s) + ggb a gO (s(1-s)(1-s) - s s(1-s)).
 */
export function glu_double_backward(grad: Tensor, grad_output: Tensor, input: Tensor, dim: number): Tensor {
  const d = maybe_wrap_dim(dim, input.dim());
  const half = input.size(d) / 2;
  const firstHalf = input.narrow(d, 0, half);
  const sig = input.narrow(d, half, half).sigmoid();
  const oneSubSig = sig.neg().add(1);
  const sigOneSubSig = sig.mul(oneSubSig);
  const ggFirst = grad.narrow(d, 0, half);
  const ggSecond = grad.narrow(d, half, half);
  const ggSecondTimesFirst = ggSecond.mul(firstHalf);
  const gIFirst = ggSecond.mul(grad_output).mul(sigOneSubSig);
  const secondOrder = sigOneSubSig.mul(oneSubSig).sub(sig.mul(sigOneSubSig));
  const gISecond = ggSecondTimesFirst.mul(grad_output).mul(secondOrder).add(ggFirst.mul(grad_output).mul(sigOneSubSig));
  return cat([gIFirst, gISecond], d);
}

/** glu_double_backward_grad_output: glu_backward is linear in grad_output, so its transpose applied to grad. */
export function glu_double_backward_grad_output(grad: Tensor, input: Tensor, dim: number): Tensor {
  const d = maybe_wrap_dim(dim, input.dim());
  const sizes = [...input.shape];
  sizes[d] = sizes[d]! / 2;
  const tmp = grad.mul(glu_backward(zeros(sizes, { dtype: input.dtype, device: input.device }).add(1), input, d));
  return tmp.narrow(d, 0, sizes[d]!).add(tmp.narrow(d, sizes[d]!, sizes[d]!));
}

// at::nll_loss_backward, at::nll_loss2d_backward (loss.yaml) and the composites nll_loss, nll_loss2d (their double backward).
export const nll_loss_backward = (grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, total_weight: Tensor): Tensor =>
  nll_loss_backward_default.call(grad, self, target, weight, reduction, ignore_index, total_weight) as Tensor;
export const nll_loss2d_backward = (grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, total_weight: Tensor): Tensor =>
  nll_loss2d_backward_default.call(grad, self, target, weight, reduction, ignore_index, total_weight) as Tensor;
export const nll_loss = (self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number): Tensor =>
  nll_loss_default.call(self, target, weight, reduction, ignore_index) as Tensor;
export const nll_loss2d = (self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number): Tensor =>
  nll_loss2d_default.call(self, target, weight, reduction, ignore_index) as Tensor;
// ---- layers (conv.yaml, pooling.yaml, normalization.yaml, index.yaml's embedding, pad.yaml, vision.yaml) ----
// The backward ops PyTorch 1.13's layer formulas call, by their ATen names, and the FunctionsManual.cpp
// double-backward helpers (batchnorm_double_backward, layer_norm_double_backward,
// infinitely_differentiable_native_group_norm_backward, embedding_dense_double_backward) built from
// differentiable ops, so they can be differentiated again.

import { convolution_backward_default } from "../generated/convolution_backward.js";
import { _convolution_double_backward_default } from "../generated/_convolution_double_backward.js";
import { _slow_conv2d_backward_output_mask } from "../generated/_slow_conv2d_backward.js";

/** at::convolution_backward (conv.yaml): [grad_input, grad_weight, grad_bias], null where output_mask is false. */
export function convolution_backward(
  grad: Tensor, input: Tensor, weight: Tensor, bias_sizes: number[] | null, stride: number[], padding: number[], dilation: number[],
  transposed: boolean, output_padding: number[], groups: number, output_mask: boolean[],
): (Tensor | null)[] {
  return convolution_backward_default.call(grad, input, weight, bias_sizes, stride, padding, dilation, transposed, output_padding, groups, [...output_mask]) as (Tensor | null)[];
}

/** at::_slow_conv2d_backward.output_mask (conv.yaml): the slow 2-d backend's own backward, as _slow_conv2d_forward's formula calls it. */
export function _slow_conv2d_backward(
  grad: Tensor, self: Tensor, weight: Tensor, kernel_size: number[], stride: number[], padding: number[], output_mask: boolean[],
): (Tensor | null)[] {
  return _slow_conv2d_backward_output_mask.call(grad, self, weight, kernel_size, stride, padding, [...output_mask]) as (Tensor | null)[];
}

/** at::_convolution_double_backward (conv.yaml): [grad of grad_output, grad of input, grad of weight]. */
export function _convolution_double_backward(
  ggI: Tensor | null, ggW: Tensor | null, ggb: Tensor | null, gO: Tensor, weight: Tensor, input: Tensor, stride: number[], padding: number[],
  dilation: number[], transposed: boolean, output_padding: number[], groups: number, output_mask: boolean[],
): (Tensor | null)[] {
  return _convolution_double_backward_default.call(ggI, ggW, ggb, gO, weight, input, stride, padding, dilation, transposed, output_padding, groups, [...output_mask]) as (Tensor | null)[];
}

// (the normalization and embedding helpers follow at the end of this section)

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

// at::_pack_padded_sequence_backward (packed.yaml), PackPaddedSequenceBackward0's formula
import { _pack_padded_sequence_backward_default } from "../generated/_pack_padded_sequence_backward.js";
export function _pack_padded_sequence_backward(grad: Tensor, input_size: readonly number[], batch_sizes: Tensor, batch_first: boolean): Tensor {
  return _pack_padded_sequence_backward_default.call(grad, input_size, batch_sizes, batch_first) as Tensor;
}

// ---- layers backward ----
// at::native_batch_norm_backward, at::native_layer_norm_backward, at::native_group_norm_backward,
// at::embedding_backward, the upsampling and padding ops and their backward ops (normalization.yaml,
// index.yaml, vision.yaml, pad.yaml) as PyTorch's formulas call them, and FunctionsManual.cpp's double
// backward helpers. Those build on differentiable ops (out of place where PyTorch chains div_/add_/sub_
// on fresh temporaries: the same values), so they can be differentiated again.
import { native_batch_norm_backward_default } from "../generated/native_batch_norm_backward.js";
import { native_layer_norm_backward_default } from "../generated/native_layer_norm_backward.js";
import { native_group_norm_backward_default } from "../generated/native_group_norm_backward.js";
import { embedding_backward_default } from "../generated/embedding_backward.js";
import { ones_default } from "../generated/ones.js";
import { upsample_nearest1d_default, upsample_nearest1d_vec as upsample_nearest1d_vec_op } from "../generated/upsample_nearest1d.js";
import { upsample_nearest2d_default, upsample_nearest2d_vec as upsample_nearest2d_vec_op } from "../generated/upsample_nearest2d.js";
import { upsample_bilinear2d_default, upsample_bilinear2d_vec as upsample_bilinear2d_vec_op } from "../generated/upsample_bilinear2d.js";
import { upsample_nearest1d_backward_default, upsample_nearest1d_backward_vec as upsample_nearest1d_backward_vec_op } from "../generated/upsample_nearest1d_backward.js";
import { upsample_nearest2d_backward_default, upsample_nearest2d_backward_vec as upsample_nearest2d_backward_vec_op } from "../generated/upsample_nearest2d_backward.js";
import { upsample_bilinear2d_backward_default, upsample_bilinear2d_backward_vec as upsample_bilinear2d_backward_vec_op } from "../generated/upsample_bilinear2d_backward.js";
import { reflection_pad1d_default } from "../generated/reflection_pad1d.js";
import { reflection_pad2d_default } from "../generated/reflection_pad2d.js";
import { reflection_pad3d_default } from "../generated/reflection_pad3d.js";
import { replication_pad1d_default } from "../generated/replication_pad1d.js";
import { replication_pad2d_default } from "../generated/replication_pad2d.js";
import { replication_pad3d_default } from "../generated/replication_pad3d.js";
import { reflection_pad1d_backward_default } from "../generated/reflection_pad1d_backward.js";
import { reflection_pad2d_backward_default } from "../generated/reflection_pad2d_backward.js";
import { reflection_pad3d_backward_default } from "../generated/reflection_pad3d_backward.js";
import { replication_pad1d_backward_default } from "../generated/replication_pad1d_backward.js";
import { replication_pad2d_backward_default } from "../generated/replication_pad2d_backward.js";
import { replication_pad3d_backward_default } from "../generated/replication_pad3d_backward.js";

type Grads3 = (Tensor | null)[];

export function native_batch_norm_backward(
  grad: Tensor, input: Tensor, weight: Tensor | null, running_mean: Tensor | null, running_var: Tensor | null, save_mean: Tensor | null,
  save_invstd: Tensor | null, train: boolean, eps: number, output_mask: boolean[],
): Grads3 {
  return native_batch_norm_backward_default.call(grad, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps, [...output_mask]) as Grads3;
}

export function native_layer_norm_backward(
  grad: Tensor, input: Tensor, normalized_shape: number[], mean: Tensor, rstd: Tensor, weight: Tensor | null, bias: Tensor | null, output_mask: boolean[],
): Grads3 {
  return native_layer_norm_backward_default.call(grad, input, normalized_shape, mean, rstd, weight, bias, [...output_mask]) as Grads3;
}

export function native_group_norm_backward(
  grad: Tensor, input: Tensor, mean: Tensor, rstd: Tensor, weight: Tensor | null, N: number, C: number, HxW: number, group: number, output_mask: boolean[],
): Grads3 {
  return native_group_norm_backward_default.call(grad, input, mean, rstd, weight, N, C, HxW, group, [...output_mask]) as Grads3;
}

/** src [C] seen as [1, C, 1, ...] against target (unsqueeze_dim1 in FunctionsManual.cpp). */
function unsqueeze_dim1(src: Tensor, target: Tensor): Tensor {
  let s = src;
  while (s.dim() < target.dim() - 1) s = s.unsqueeze(1);
  if (s.dim() === target.dim() - 1) s = s.unsqueeze(0);
  return s;
}
const expand_as_dim1 = (src: Tensor, target: Tensor): Tensor => unsqueeze_dim1(src, target).expand_as(target);
/** The sum over every dim but 1 (sum_exclude_dim1). */
function sum_exclude_dim1(t: Tensor, keepdim = true): Tensor {
  const dims = Array.from({ length: t.dim() }, (_, i) => i).filter((d) => d !== 1);
  return t.sum(dims, keepdim);
}

/** batchnorm_double_backward (FunctionsManual.cpp): [gI, gG, ggO] from the gradients of
 * native_batch_norm_backward's outputs (ggI, ggG, ggB). */
export function batchnorm_double_backward(
  input: Tensor, gamma: Tensor | null, ggI: Tensor | null, ggG: Tensor | null, ggB: Tensor | null, gO: Tensor,
  running_mean: Tensor | null, running_var: Tensor | null, training: boolean, eps: number, save_mean: Tensor | null, save_invstd: Tensor | null,
  output_mask: boolean[],
): Grads3 {
  const affine = gamma !== null;
  const gamma_expanded = affine ? expand_as_dim1(gamma!, input) : (ones_default.call([], input.dtype, null, input.device, null) as Tensor);
  const ggG_expanded = affine && ggG !== null ? expand_as_dim1(ggG, input) : null;
  const ggB_expanded = affine && ggB !== null ? expand_as_dim1(ggB, input) : null;
  let M = input.shape[0];
  for (const s of input.shape.slice(2)) M *= s;
  const mu = unsqueeze_dim1(training ? save_mean!.to(input.dtype) : running_mean!, input);
  const input_sub_mu = input.sub(mu);
  const s_1_2 = unsqueeze_dim1(training ? save_invstd!.to(input.dtype) : running_var!.add(eps).pow(-0.5), input);
  const s_1 = s_1_2.pow(2);
  const s_3_2 = s_1_2.pow(3);
  const input_mu_s_3_2 = input_sub_mu.mul(s_3_2);
  const gOinmu_sum = sum_exclude_dim1(gO.mul(input_sub_mu));
  const gO_sum = sum_exclude_dim1(gO);
  let gI: Tensor | null = null;
  if (ggI !== null && training) {
    const ggI_sum = sum_exclude_dim1(ggI);
    const ggIinmu_sum = sum_exclude_dim1(ggI.mul(input_sub_mu));
    const all_sub = ggI_sum.mul(gO_sum).div(M).sub(sum_exclude_dim1(gO.mul(ggI))).add(s_1.mul(gOinmu_sum).mul(ggIinmu_sum).mul(3 / M));
    const gI_0t = input_mu_s_3_2.mul(all_sub).div(M);
    const gI_1t = ggIinmu_sum.mul(s_3_2).div(M).mul(gO_sum.div(M).sub(gO));
    const gI_2t = gOinmu_sum.mul(s_3_2).div(M).mul(ggI_sum.div(M).sub(ggI));
    gI = gamma_expanded.mul(gI_0t.add(gI_1t).add(gI_2t));
  }
  if (affine && ggG !== null) {
    let term: Tensor;
    if (training) {
      const t0 = gO.mul(s_1_2);
      const t1 = s_1_2.mul(gO_sum).div(-M);
      const t2 = input_mu_s_3_2.mul(sum_exclude_dim1(gO.mul(input_sub_mu))).div(-M);
      term = ggG_expanded!.mul(t0.add(t1).add(t2));
    } else {
      term = ggG_expanded!.mul(s_1_2).mul(gO);
    }
    gI = gI === null ? term : gI.add(term);
  }
  // the first backward's grad_input
  const first_back_grad_input = (g: Tensor, gam: Tensor): Tensor => {
    const h0 = gam.mul(s_1_2).div(M);
    const h1 = g.mul(M).sub(sum_exclude_dim1(g)).sub(input_sub_mu.mul(s_1).mul(sum_exclude_dim1(g.mul(input_sub_mu))));
    return h0.mul(h1);
  };
  let gG: Tensor | null = null;
  if (affine && ggI !== null) {
    gG = training
      ? sum_exclude_dim1(ggI.mul(first_back_grad_input(gO, ones_default.call([], s_1_2.dtype, null, s_1_2.device, null) as Tensor)), false)
      : sum_exclude_dim1(ggI.mul(gO).mul(s_1_2), false);
  }
  let ggO: Tensor | null = null;
  if (ggI !== null) ggO = training ? first_back_grad_input(ggI, gamma_expanded) : ggI.mul(s_1_2).mul(gamma_expanded);
  if (ggG !== null) {
    const term = ggG_expanded!.mul(input_sub_mu).mul(s_1_2);
    ggO = ggO === null ? term : ggO.add(term);
  }
  if (ggB !== null) ggO = ggO === null ? ggB_expanded! : ggO.add(ggB_expanded!);
  if (output_mask[1] && gG === null && !affine) throw new RuntimeError("gamma should always be defined when it requires grad");
  return [gI, gG, ggO];
}

/** layer_norm_double_backward (FunctionsManual.cpp): [gI, gG, ggO] over rows of N = prod(normalized_shape). */
export function layer_norm_double_backward(
  input_t: Tensor, gamma: Tensor | null, ggI: Tensor | null, ggG: Tensor | null, ggB: Tensor | null, gO_t: Tensor,
  save_mean_t: Tensor, save_invstd_t: Tensor, normalized_shape: number[], output_mask: boolean[],
): Grads3 {
  const axis = input_t.dim() - normalized_shape.length;
  const M = input_t.shape.slice(0, axis).reduce((a, b) => a * b, 1);
  const N = input_t.shape.slice(axis).reduce((a, b) => a * b, 1);
  const input = input_t.reshape([M, N]);
  const gO = gO_t.reshape([M, N]);
  const save_mean = save_mean_t.reshape([M, 1]);
  const save_invstd = save_invstd_t.reshape([M, 1]);
  const affine = gamma !== null;
  const gamma_expanded = affine ? gamma!.reshape([1, N]) : (ones_default.call([1], input.dtype, null, input.device, null) as Tensor);
  const ggG_expanded = affine && ggG !== null ? ggG.reshape([1, N]) : null;
  const ggB_expanded = affine && ggB !== null ? ggB.reshape([1, N]) : null;
  const ggI_expanded = ggI !== null ? ggI.reshape([M, N]) : null;
  const mu = save_mean.to(input.dtype);
  const input_sub_mu = input.sub(mu);
  const s_1_2 = save_invstd.to(input.dtype);
  const s_1 = s_1_2.pow(2);
  const s_3_2 = s_1_2.pow(3);
  const input_mu_s_3_2 = input_sub_mu.mul(s_3_2);
  let gI: Tensor | null = null;
  if (ggI_expanded !== null) {
    const gxhat = gO.mul(gamma_expanded);
    const gxhat_mu_sum = gxhat.mul(input_sub_mu).sum([1], true);
    const gxhat_sum = gxhat.sum([1], true);
    const ggI_sum = ggI_expanded.sum([1], true);
    const ggI_mu_sum = ggI_expanded.mul(input_sub_mu).sum([1], true);
    const all_sub = ggI_sum.mul(gxhat_sum).div(N).sub(ggI_expanded.mul(gxhat).sum([1], true)).add(s_1.mul(gxhat_mu_sum).mul(ggI_mu_sum).mul(3 / N));
    const gI_0t = input_mu_s_3_2.mul(all_sub).div(N);
    const gI_1t = ggI_mu_sum.mul(s_3_2).div(N).mul(gxhat_sum.div(N).sub(gxhat));
    const gI_2t = gxhat_mu_sum.mul(s_3_2).div(N).mul(ggI_sum.div(N).sub(ggI_expanded));
    gI = gI_0t.add(gI_1t).add(gI_2t);
  }
  if (affine && ggG_expanded !== null) {
    const t0 = gO.mul(ggG_expanded).mul(s_1_2);
    const t1 = s_1_2.mul(gO.mul(ggG_expanded).sum([1], true)).div(-N);
    const t2 = input_mu_s_3_2.mul(gO.mul(ggG_expanded).mul(input_sub_mu).sum([1], true)).div(N);
    const term = t0.add(t1).sub(t2);
    gI = gI === null ? term : gI.add(term);
  }
  if (gI !== null) gI = gI.reshape([...input_t.shape]);
  const first_bwd_fn_grad_input = (g: Tensor, gam: Tensor): Tensor => {
    const h0 = gam.mul(s_1_2).div(N);
    const h1 = g.mul(N).sub(g.sum([1], true)).sub(input_sub_mu.mul(s_1).mul(g.mul(input_sub_mu).sum([1], true)));
    return h0.mul(h1);
  };
  let gG: Tensor | null = null;
  if (affine && ggI_expanded !== null) {
    gG = first_bwd_fn_grad_input(ggI_expanded, ones_default.call([], s_1_2.dtype, null, s_1_2.device, null) as Tensor);
    gG = gO.mul(gG).sum([0], false).reshape([...gamma!.shape]);
  }
  let ggO: Tensor | null = null;
  if (ggI_expanded !== null) ggO = first_bwd_fn_grad_input(ggI_expanded, gamma_expanded);
  if (ggG_expanded !== null) {
    const term = ggG_expanded.mul(input_sub_mu).mul(s_1_2);
    ggO = ggO === null ? term : ggO.add(term);
  }
  if (ggB_expanded !== null) ggO = ggO === null ? ggB_expanded : ggO.add(ggB_expanded);
  if (ggO !== null) ggO = ggO.expand([M, N]).reshape([...input_t.shape]);
  if (output_mask[1] && gG === null && !affine) throw new RuntimeError("gamma should always be defined when it requires grad");
  return [gI, gG, ggO];
}

/** infinitely_differentiable_native_group_norm_backward (FunctionsManual.cpp): native_group_norm's gradients
 * (including through its mean and rstd outputs) from differentiable ops, used when GradMode is on. */
export function infinitely_differentiable_native_group_norm_backward(
  dY: Tensor | null, dmean: Tensor | null, drstd: Tensor | null, X: Tensor, mean: Tensor, rstd: Tensor, gamma: Tensor | null,
  N: number, C: number, HxW: number, group: number, eps: number, grad_input_mask: boolean[],
): Grads3 {
  const G = group;
  const D = C / G;
  const s = 1 / (D * HxW);
  let dX: Tensor | null = null, dgamma: Tensor | null = null, dbeta: Tensor | null = null;
  const X_tensor = X.reshape([N, G, D, HxW]);
  const mean_tensor = mean.reshape([N, G, 1, 1]);
  const rstd_tensor = rstd.reshape([N, G, 1, 1]);
  let dY_tensor: Tensor | null = null, ds: Tensor | null = null, db: Tensor | null = null;
  if (dY !== null) {
    dY_tensor = dY.reshape([N, G, D, HxW]);
    ds = dY_tensor.mul(X_tensor).sum([3], false).unsqueeze(-1);
    db = dY_tensor.sum([3], false).unsqueeze(-1);
  }
  if (grad_input_mask[0]) {
    const gamma_tensor = gamma !== null ? gamma.reshape([1, G, D, 1]) : null;
    const variance = rstd_tensor.mul(rstd_tensor).reciprocal().sub(eps).clamp_min(0);
    const rstd_cube = rstd_tensor.mul(rstd_tensor).mul(rstd_tensor);
    const dvar = drstd !== null ? rstd_cube.mul(-0.5).mul(drstd.view([N, G, 1, 1])) : null;
    if (dY_tensor !== null) {
      const a = gamma_tensor !== null ? rstd_tensor.mul(gamma_tensor) : rstd_tensor;
      let b = (gamma_tensor !== null ? ds!.mul(gamma_tensor).sum([2], false) : ds!.sum([2], false)).unsqueeze(-2);
      let c = (gamma_tensor !== null ? db!.mul(gamma_tensor).sum([2], false) : db!.sum([2], false)).unsqueeze(-2);
      b = c.mul(mean_tensor).sub(b).mul(rstd_cube).mul(s);
      c = b.neg().mul(mean_tensor).sub(c.mul(rstd_tensor).mul(s));
      dX = a.mul(dY_tensor).add(b.mul(X_tensor)).add(c);
      if (dmean !== null && drstd !== null) dX = dX.add(var_mean_backward(dvar, dmean.view([N, G, 1, 1]), X_tensor, [2, 3], 0, true));
      dX = dX.reshape([...X.shape]);
    } else if (dmean !== null && drstd !== null) {
      dX = var_mean_backward(dvar, dmean.view([N, G, 1, 1]), X_tensor, [2, 3], 0, true).reshape([...X.shape]);
    }
    void variance;
  }
  if (grad_input_mask[1] && dY !== null) dgamma = ds!.sub(db!.mul(mean_tensor)).mul(rstd_tensor).sum([0], false).reshape([...gamma!.shape]);
  if (grad_input_mask[2] && dY !== null) dbeta = db!.sum([0], false).reshape([...gamma!.shape]);
  return [dX, dgamma, dbeta];
}

/** at::embedding_backward (index.yaml, CompositeImplicitAutograd): embedding_dense_backward unless sparse. */
export function embedding_backward(grad: Tensor, indices: Tensor, num_weights: number, padding_idx: number, scale_grad_by_freq: boolean, sparse: boolean): Tensor {
  return embedding_backward_default.call(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse) as Tensor;
}

/** embedding_dense_double_backward (FunctionsManual.cpp): the rows of grad the indices name, zero for padding_idx. */
export function embedding_dense_double_backward(grad: Tensor, indices: Tensor, padding_idx: number): Tensor {
  let gg_weight = grad.index_select(0, indices.reshape([-1]));
  if (padding_idx >= 0) gg_weight = gg_weight.masked_fill(indices.eq(padding_idx).reshape([-1, 1]), 0);
  return gg_weight.view([...indices.shape, -1]);
}

// the upsampling ops and their backward ops; the `_vec` names are the .vec overloads (C++ picks them by overload)
export const upsample_nearest1d = (self: Tensor, output_size: number[], scales: number | null): Tensor => upsample_nearest1d_default.call(self, output_size, scales) as Tensor;
export const upsample_nearest1d_vec = (input: Tensor, output_size: number[] | null, scale_factors: number[] | null): Tensor => upsample_nearest1d_vec_op.call(input, output_size, scale_factors) as Tensor;
export const upsample_nearest1d_backward = (grad: Tensor, output_size: number[], input_size: number[], scales: number | null): Tensor =>
  upsample_nearest1d_backward_default.call(grad, output_size, input_size, scales) as Tensor;
export const upsample_nearest1d_backward_vec = (grad: Tensor, output_size: number[] | null, input_size: number[], scale_factors: number[] | null): Tensor =>
  upsample_nearest1d_backward_vec_op.call(grad, output_size, input_size, scale_factors) as Tensor;
export const upsample_nearest2d = (self: Tensor, output_size: number[], scales_h: number | null, scales_w: number | null): Tensor =>
  upsample_nearest2d_default.call(self, output_size, scales_h, scales_w) as Tensor;
export const upsample_nearest2d_vec = (input: Tensor, output_size: number[] | null, scale_factors: number[] | null): Tensor => upsample_nearest2d_vec_op.call(input, output_size, scale_factors) as Tensor;
export const upsample_nearest2d_backward = (grad: Tensor, output_size: number[], input_size: number[], scales_h: number | null, scales_w: number | null): Tensor =>
  upsample_nearest2d_backward_default.call(grad, output_size, input_size, scales_h, scales_w) as Tensor;
export const upsample_nearest2d_backward_vec = (grad: Tensor, output_size: number[] | null, input_size: number[], scale_factors: number[] | null): Tensor =>
  upsample_nearest2d_backward_vec_op.call(grad, output_size, input_size, scale_factors) as Tensor;
export const upsample_bilinear2d = (self: Tensor, output_size: number[], align_corners: boolean, scales_h: number | null, scales_w: number | null): Tensor =>
  upsample_bilinear2d_default.call(self, output_size, align_corners, scales_h, scales_w) as Tensor;
export const upsample_bilinear2d_vec = (input: Tensor, output_size: number[] | null, align_corners: boolean, scale_factors: number[] | null): Tensor =>
  upsample_bilinear2d_vec_op.call(input, output_size, align_corners, scale_factors) as Tensor;
export const upsample_bilinear2d_backward = (grad: Tensor, output_size: number[], input_size: number[], align_corners: boolean, scales_h: number | null, scales_w: number | null): Tensor =>
  upsample_bilinear2d_backward_default.call(grad, output_size, input_size, align_corners, scales_h, scales_w) as Tensor;
export const upsample_bilinear2d_backward_vec = (grad: Tensor, output_size: number[] | null, input_size: number[], align_corners: boolean, scale_factors: number[] | null): Tensor =>
  upsample_bilinear2d_backward_vec_op.call(grad, output_size, input_size, align_corners, scale_factors) as Tensor;

// reflection / replication padding and their backward ops
export const reflection_pad1d = (self: Tensor, padding: number[]): Tensor => reflection_pad1d_default.call(self, padding) as Tensor;
export const reflection_pad2d = (self: Tensor, padding: number[]): Tensor => reflection_pad2d_default.call(self, padding) as Tensor;
export const reflection_pad3d = (self: Tensor, padding: number[]): Tensor => reflection_pad3d_default.call(self, padding) as Tensor;
export const replication_pad1d = (self: Tensor, padding: number[]): Tensor => replication_pad1d_default.call(self, padding) as Tensor;
export const replication_pad2d = (self: Tensor, padding: number[]): Tensor => replication_pad2d_default.call(self, padding) as Tensor;
export const replication_pad3d = (self: Tensor, padding: number[]): Tensor => replication_pad3d_default.call(self, padding) as Tensor;
export const reflection_pad1d_backward = (grad: Tensor, self: Tensor, padding: number[]): Tensor => reflection_pad1d_backward_default.call(grad, self, padding) as Tensor;
export const reflection_pad2d_backward = (grad: Tensor, self: Tensor, padding: number[]): Tensor => reflection_pad2d_backward_default.call(grad, self, padding) as Tensor;
export const reflection_pad3d_backward = (grad: Tensor, self: Tensor, padding: number[]): Tensor => reflection_pad3d_backward_default.call(grad, self, padding) as Tensor;
export const replication_pad1d_backward = (grad: Tensor, self: Tensor, padding: number[]): Tensor => replication_pad1d_backward_default.call(grad, self, padding) as Tensor;
export const replication_pad2d_backward = (grad: Tensor, self: Tensor, padding: number[]): Tensor => replication_pad2d_backward_default.call(grad, self, padding) as Tensor;
export const replication_pad3d_backward = (grad: Tensor, self: Tensor, padding: number[]): Tensor => replication_pad3d_backward_default.call(grad, self, padding) as Tensor;
// ---- forward AD ----
// The *_jvp helpers derivatives.yaml's forward (`result:`) formulas call (FunctionsManual.cpp), in PyTorch's
// order of operations. conj() and at::real are left out: Glasstorch has no complex dtypes yet.

/** clamp_jvp (clamp.Tensor): the tangent of whichever of self, min, max the output took its value from. */
export function clamp_jvp(self_p: Tensor, self_t: Tensor, min_p: Tensor | null, min_t: Tensor | null, max_p: Tensor | null, max_t: Tensor | null): Tensor {
  if (min_p && max_p) return where(min_p.gt(max_p), max_t!, where(self_p.lt(min_p), min_t!, where(self_p.gt(max_p), max_t!, self_t)));
  if (min_p) return where(self_p.gt(min_p), self_t, min_t!);
  if (max_p) return where(self_p.lt(max_p), self_t, max_t!);
  return self_t;
}

/** amaxamin_jvp: the mean of the tangents over the positions that reach the extremum. */
export function amaxamin_jvp(x: Tensor, dx: Tensor, result: Tensor, dim: readonly number[] | number, keepdim: boolean): Tensor {
  const mask = x.eq(restore_reduced_dims(result, dim, keepdim));
  const dims = dimList(dim);
  return where(mask, dx, 0).sum(dims, keepdim).div(mask.sum(dims, keepdim));
}

/** gather_with_keepdimed_indices: the tangent at the selected indices (max.dim, sort, mode...). */
export function gather_with_keepdimed_indices(input: Tensor, dim: number, indices: Tensor, keepdim: boolean): Tensor {
  const full_indices = keepdim ? indices : (unsqueeze_default.call(indices, dim) as Tensor);
  const out = input.gather(dim, full_indices);
  return keepdim ? out : out.squeeze(dim);
}

/** evenly_read_jvp (max(), min(), median()): the mean tangent over the positions equal to the value. */
export function evenly_read_jvp(fw_grad: Tensor, input: Tensor, value: Tensor): Tensor {
  const mask = input.eq(value);
  const count = mask.sum();
  return mask.mul(fw_grad).sum().div(count);
}

/** logsumexp_jvp: sum(softmax(self) * self_t) over dim, with the exp-normalize trick. */
export function logsumexp_jvp(self_p: Tensor, self_t: Tensor, dim: readonly number[] | number, keepdim: boolean): Tensor {
  const dims = dimList(dim);
  const self_p_exp = self_p.numel() > 0 ? self_p.sub(self_p.amax(dims, true)).exp() : self_p.exp();
  const sumexp_p = self_p_exp.sum(dims, keepdim);
  return self_p_exp.mul(self_t).sum(dims, keepdim).div(sumexp_p);
}

/** norm_jvp: PyTorch's cases p = 0, 1, 2, inf, p < 1, p < 2, p >= 2. */
export function norm_jvp(self_p: Tensor, self_t: Tensor, p_: Opt<number>, norm: Tensor, dim: Opt<readonly number[] | number>, keepdim: boolean): Tensor {
  const ndim = self_p.dim();
  const p = p_ ?? 2;
  const dims = dimList(dim);
  if (p === 0) return zeros_like(norm);
  if (p === 1) return self_p.sgn().mul(self_t).sum(dims, keepdim);
  if (p === 2) return self_p.mul(self_t).sum(dims, keepdim).div(norm).masked_fill(norm.eq(0), 0);
  if (!Number.isFinite(p)) {
    if (!keepdim && ndim !== 0) norm = unsqueeze_multiple(norm, dims, ndim);
    const self_and_norm_isnan = self_p.isnan().logical_and(norm.isnan());
    const is_eq_max = self_p.abs().eq(norm).logical_or(self_and_norm_isnan).to(norm.dtype);
    let nb_max = is_eq_max.count_nonzero(dims);
    if (ndim !== 0) nb_max = unsqueeze_multiple(nb_max, dims, ndim);
    return self_p.sgn().mul(self_t).mul(is_eq_max).div(nb_max).sum(dims, keepdim);
  }
  if (p < 1) {
    const sumpow_t = self_p.abs().pow(p - 1).masked_fill(self_p.eq(0), 0).mul(self_p.sgn().mul(self_t)).sum(dims, keepdim);
    return sumpow_t.mul(norm.pow(1 - p));
  }
  if (p < 2) {
    const sumpow_t = self_p.abs().pow(p - 1).mul(self_p.sgn().mul(self_t)).sum(dims, keepdim);
    return sumpow_t.div(norm.pow(p - 1)).masked_fill(norm.eq(0), 0);
  }
  const sumpow_t = self_p.abs().pow(p - 2).mul(self_p.mul(self_t)).sum(dims, keepdim);
  return sumpow_t.div(norm.pow(p - 1)).masked_fill(norm.eq(0), 0);
}

/** linalg_vector_norm_jvp: norm_jvp over dim (all dims when null). */
export function linalg_vector_norm_jvp(self_p: Tensor, self_t: Tensor, ord: number, norm: Tensor, dim: Opt<readonly number[] | number>, keepdim: boolean): Tensor {
  return norm_jvp(self_p, self_t, ord, norm, dim ?? [], keepdim);
}

/** cumprod_jvp: cumsum(t / x) * result, with the zeros of x handled as PyTorch does. */
export function cumprod_jvp(self_t: Tensor, self_p: Tensor, result: Tensor, dim: number): Tensor {
  const gradient = self_t.div(self_p).cumsum(dim).mul(result);
  if (self_p.dim() === 0) return gradient.masked_fill(self_p.eq(0), self_t);
  const mask_zeros = self_p.eq(0);
  const mask_first_zero = mask_zeros.logical_and(mask_zeros.cumsum(dim).eq(1));
  const new_grad = where(mask_first_zero, self_t, self_p).cumprod(dim);
  const mask_after_first_zero = mask_first_zero.cumsum(dim);
  return where(mask_after_first_zero.to(boolDtype), new_grad, gradient);
}

/** at::_trilinear, which _trilinear's forward formula calls three times (once per input's tangent). */
export { _trilinear };

/** The tangents of a tensor list, zeros for those without (cat_jvp / stack_jvp); null when none has one. */
function listTangents(tensors: readonly Tensor[]): Tensor[] | null {
  if (!tensors.some((t) => isFwGradDefined(t))) return null;
  return tensors.map((t) => (isFwGradDefined(t) ? fw_grad(t, 0)! : zeros([...t._impl.sizes()], { dtype: t.dtype, device: t.device })));
}

/** cat_jvp: cat of the inputs' tangents (zeros for inputs without one). */
export function cat_jvp(tensors: readonly Tensor[], dim: number): Tensor | null {
  const ts = listTangents(tensors);
  return ts ? cat(ts, dim) : null;
}

/** stack_jvp: stack of the inputs' tangents. */
export function stack_jvp(tensors: readonly Tensor[], dim: number): Tensor | null {
  const ts = listTangents(tensors);
  return ts ? stack(ts, dim) : null;
}

// Linear algebra. PyTorch's jvps reuse the forward's LU (linalg_lu_solve) or solve triangular systems
// (linalg_solve_triangular), ops Glasstorch does not have yet: these take the primal A and solve with
// linalg_solve instead (same math; the last bits may round differently, and singular inputs are not
// nudged by eps as linalg_det_jvp does).

/** linalg_det_jvp: d det = tr(A^{-1} dA) det. (PyTorch: linalg_det_jvp(dA, det, LU, pivots, use_A_T).) */
export function linalg_det_jvp(A: Tensor, dA: Tensor, det: Tensor): Tensor {
  return linalg_solve(A, dA).diagonal(0, -2, -1).sum(-1).mul(det);
}

/** slogdet_jvp: a real input's sign has a zero tangent; logabsdet's is tr(A^{-1} dA). */
export function slogdet_jvp(A: Tensor, dA: Tensor, sign: Tensor): [Tensor, Tensor] {
  const trAinvE = linalg_solve(A, dA).diagonal(0, -2, -1).sum(-1);
  return [zeros_like(sign), trAinvE];
}

/** linalg_solve_jvp: dX = A^{-1}(dB - dA X) (left), (dB - X dA) A^{-1} (right); a vector rhs as a column. */
export function linalg_solve_jvp(A: Tensor, dA: Tensor, dB: Tensor, X: Tensor, left: boolean): Tensor {
  const vector_case = X.dim() === 1 || (A.dim() - 1 === X.dim() && X.shape.every((s, i) => s === A.shape[i]));
  const X_ = vector_case ? X.unsqueeze(-1) : X;
  const dB_ = vector_case ? dB.unsqueeze(-1) : dB;
  const R_ = left ? dA.matmul(X_) : X_.matmul(dA);
  const dX_ = linalg_solve(A, dB_.sub(R_), { left });
  return vector_case ? dX_.squeeze(-1) : dX_;
}

/** cholesky_jvp: dL = L Φ(L^{-1} dA L^{-H}), Φ the lower triangle with its diagonal halved. */
export function cholesky_jvp(dA: Tensor, L: Tensor, upper: boolean): Tensor {
  const L_ = upper ? mH(L) : L;
  let dL = linalg_solve(L_, dA); // PyTorch: linalg_solve_triangular(L, dA, upper=false, left=true)
  dL = linalg_solve(mH(L_), dL, { left: false }); // linalg_solve_triangular(L^H, dL, upper=true, left=false)
  dL = dL.tril().sub(diag_embed_last(dL.diagonal(0, -2, -1).mul(0.5)));
  dL = L_.matmul(dL);
  return upper ? mH(dL) : dL;
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
