// torch.optim.RMSprop (torch/optim/rmsprop.py, 1.13): smoothing constant alpha, centered (the variance
// estimate minus the squared mean gradient), momentum, L2 weight decay, maximize; `step` is a Python
// int in the state. The update is _single_tensor_rmsprop's for-loop, op for op, or with foreach=True
// _multi_tensor_rmsprop's phases over the whole list (_foreach_*: on CPU the same per-tensor ops, in
// another order, and weight decay added into the .grad tensors in place, as 1.13 does).

import { Tensor } from "../aten/core/Tensor.js";
import * as T from "../generated/torch_functions.js";
import { preserve_format } from "../c10/MemoryFormat.js";
import { RuntimeError, ValueError } from "../c10/Errors.js";
import { Optimizer, runClosure, withGradFor, type Params } from "./optimizer.js";
import { pyRepr } from "./_utils.js";
import { assertion } from "./adam.js";
import { _foreach_add, _foreach_add_, _foreach_addcdiv_scalar_, _foreach_addcmul, _foreach_addcmul_, _foreach_mul_, _foreach_neg, _foreach_sqrt, _foreach_sqrt_ } from "./_foreach.js";

export interface RMSpropOptions {
  lr?: number;
  alpha?: number;
  eps?: number;
  weight_decay?: number;
  momentum?: number;
  centered?: boolean;
  foreach?: boolean | null;
  maximize?: boolean;
  differentiable?: boolean;
}

export class RMSprop extends Optimizer {
  constructor(params: Params, options: RMSpropOptions = {}) {
    const { lr = 1e-2, alpha = 0.99, eps = 1e-8, weight_decay = 0, momentum = 0, centered = false, foreach = null, maximize = false, differentiable = false } = options;
    if (!(0.0 <= lr)) throw new ValueError(`Invalid learning rate: ${pyRepr(lr)}`);
    if (!(0.0 <= eps)) throw new ValueError(`Invalid epsilon value: ${pyRepr(eps)}`);
    if (!(0.0 <= momentum)) throw new ValueError(`Invalid momentum value: ${pyRepr(momentum)}`);
    if (!(0.0 <= weight_decay)) throw new ValueError(`Invalid weight_decay value: ${pyRepr(weight_decay)}`);
    if (!(0.0 <= alpha)) throw new ValueError(`Invalid alpha value: ${pyRepr(alpha)}`);
    super(params, { lr, momentum, alpha, eps, centered, weight_decay, foreach, maximize, differentiable });
  }

  override __setstate__(state: Parameters<Optimizer["__setstate__"]>[0]): void {
    super.__setstate__(state);
    for (const group of this.param_groups) {
      group.momentum ??= 0;
      group.centered ??= false;
      if (!("foreach" in group)) group.foreach = null;
      group.maximize ??= false;
      group.differentiable ??= false;
    }
  }

  override step(closure?: (() => any) | null): any {
    return withGradFor(this.defaults.differentiable, () => {
      const loss = runClosure(closure);
      for (const group of this.param_groups) {
        const params_with_grad: Tensor[] = [], grads: Tensor[] = [], square_avgs: Tensor[] = [];
        const grad_avgs: Tensor[] = [], momentum_buffer_list: Tensor[] = [];
        for (const p of group.params) {
          if (p.grad === null) continue;
          params_with_grad.push(p);
          grads.push(p.grad);
          const state = this.state.get(p);
          if (Object.keys(state).length === 0) {
            state.step = 0;
            state.square_avg = T.zeros_like(p, { memory_format: preserve_format });
            if (group.momentum > 0) state.momentum_buffer = T.zeros_like(p, { memory_format: preserve_format });
            if (group.centered) state.grad_avg = T.zeros_like(p, { memory_format: preserve_format });
          }
          square_avgs.push(state.square_avg);
          if (group.momentum > 0) momentum_buffer_list.push(state.momentum_buffer);
          if (group.centered) grad_avgs.push(state.grad_avg);
          if (group.differentiable && state.step instanceof Tensor) throw new RuntimeError("`step` can't be a tensor");
          state.step += 1;
        }
        rmsprop(params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list, {
          lr: group.lr, alpha: group.alpha, eps: group.eps, weight_decay: group.weight_decay, momentum: group.momentum,
          centered: group.centered, maximize: group.maximize, differentiable: group.differentiable, foreach: group.foreach,
        });
      }
      return loss;
    });
  }
}

export interface RMSpropArgs {
  lr: number;
  alpha: number;
  eps: number;
  weight_decay: number;
  momentum: number;
  centered: boolean;
  maximize: boolean;
  differentiable: boolean;
  /** foreach=True: _multi_tensor_rmsprop (None means False in 1.13). */
  foreach?: boolean | null;
}

/** torch.optim._functional.rmsprop. */
export function rmsprop(params: Tensor[], grads: Tensor[], square_avgs: Tensor[], grad_avgs: Tensor[], momentum_buffer_list: Tensor[], o: RMSpropArgs): void {
  if (o.foreach) _multi_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, o);
  else _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, o);
}

/** _multi_tensor_rmsprop (torch/optim/rmsprop.py, 1.13); real dtypes only, so no view_as_real step. */
function _multi_tensor_rmsprop(
  params: Tensor[], gradsIn: Tensor[], square_avgs: Tensor[], grad_avgs: Tensor[], momentum_buffer_list: Tensor[],
  { lr, alpha, eps, weight_decay, momentum, centered, maximize, differentiable }: RMSpropArgs,
): void {
  if (params.length === 0) return;
  if (differentiable) throw assertion("_foreach ops don't support autograd");
  let grads = gradsIn;
  if (maximize) grads = _foreach_neg(grads);
  // into the gradient tensors themselves (the .grad of each parameter unless maximize made new ones)
  if (weight_decay !== 0) _foreach_add_(grads, params, weight_decay);
  _foreach_mul_(square_avgs, alpha);
  _foreach_addcmul_(square_avgs, grads, grads, 1 - alpha);
  let avg: Tensor[];
  if (centered) {
    _foreach_mul_(grad_avgs, alpha);
    _foreach_add_(grad_avgs, grads, 1 - alpha);
    avg = _foreach_addcmul(square_avgs, grad_avgs, grad_avgs, -1);
    _foreach_sqrt_(avg);
    _foreach_add_(avg, eps);
  } else {
    avg = _foreach_sqrt(square_avgs);
    _foreach_add_(avg, eps);
  }
  if (momentum > 0) {
    _foreach_mul_(momentum_buffer_list, momentum);
    _foreach_addcdiv_scalar_(momentum_buffer_list, grads, avg);
    _foreach_add_(params, momentum_buffer_list, -lr);
  } else {
    _foreach_addcdiv_scalar_(params, grads, avg, -lr);
  }
}

function _single_tensor_rmsprop(
  params: Tensor[], grads: Tensor[], square_avgs: Tensor[], grad_avgs: Tensor[], momentum_buffer_list: Tensor[],
  { lr, alpha, eps, weight_decay, momentum, centered, maximize, differentiable }: RMSpropArgs,
): void {
  params.forEach((param: any, i) => {
    let grad: any = grads[i];
    grad = !maximize ? grad : grad.neg();
    const square_avg: any = square_avgs[i];
    if (weight_decay !== 0) grad = grad.add(param, { alpha: weight_decay });
    square_avg.mul_(alpha).addcmul_(grad, grad, { value: 1 - alpha });
    let avg: any;
    if (centered) {
      const grad_avg: any = grad_avgs[i];
      grad_avg.mul_(alpha).add_(grad, { alpha: 1 - alpha });
      avg = square_avg.addcmul(grad_avg, grad_avg, { value: -1 }).sqrt_();
    } else {
      avg = square_avg.sqrt();
    }
    avg = differentiable ? avg.add(eps) : avg.add_(eps);
    if (momentum > 0) {
      const buf: any = momentum_buffer_list[i];
      buf.mul_(momentum).addcdiv_(grad, avg);
      param.add_(buf, { alpha: -lr });
    } else {
      param.addcdiv_(grad, avg, { value: -lr });
    }
  });
}
