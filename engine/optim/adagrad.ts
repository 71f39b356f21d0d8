// torch.optim.Adagrad (torch/optim/adagrad.py, 1.13): lr_decay, initial_accumulator_value, L2 weight
// decay, maximize; the state (step tensor, `sum`) is made in the constructor for every parameter.
// The update is _single_tensor_adagrad's for-loop (dense gradients), op for op, or with foreach=True
// _multi_tensor_adagrad's phases over the whole list; step runs under no_grad.

import { Tensor } from "../aten/core/Tensor.js";
import * as T from "../generated/torch_functions.js";
import { preserve_format } from "../c10/MemoryFormat.js";
import { RuntimeError, ValueError } from "../c10/Errors.js";
import { no_grad } from "../autograd/grad_mode.js";
import { Optimizer, runClosure, type Params } from "./optimizer.js";
import { _foreach_add, _foreach_add_, _foreach_addcmul_, _foreach_div, _foreach_mul, _foreach_neg, _foreach_sqrt } from "./_foreach.js";
import { item, stepsToTensors, zeroStep } from "./adam.js";
import { pyRepr } from "./_utils.js";

export interface AdagradOptions {
  lr?: number;
  lr_decay?: number;
  weight_decay?: number;
  initial_accumulator_value?: number;
  eps?: number;
  foreach?: boolean | null;
  maximize?: boolean;
}

export class Adagrad extends Optimizer {
  constructor(params: Params, options: AdagradOptions = {}) {
    const { lr = 1e-2, lr_decay = 0, weight_decay = 0, initial_accumulator_value = 0, eps = 1e-10, foreach = null, maximize = false } = options;
    if (!(0.0 <= lr)) throw new ValueError(`Invalid learning rate: ${pyRepr(lr)}`);
    if (!(0.0 <= lr_decay)) throw new ValueError(`Invalid lr_decay value: ${pyRepr(lr_decay)}`);
    if (!(0.0 <= weight_decay)) throw new ValueError(`Invalid weight_decay value: ${pyRepr(weight_decay)}`);
    if (!(0.0 <= initial_accumulator_value)) throw new ValueError(`Invalid initial_accumulator_value value: ${pyRepr(initial_accumulator_value)}`);
    if (!(0.0 <= eps)) throw new ValueError(`Invalid epsilon value: ${pyRepr(eps)}`);
    super(params, { lr, lr_decay, eps, weight_decay, initial_accumulator_value, foreach, maximize });
    for (const group of this.param_groups) {
      for (const p of group.params) {
        const state = this.state.get(p);
        state.step = zeroStep();
        state.sum = T.full_like(p, initial_accumulator_value, { memory_format: preserve_format });
      }
    }
  }

  override __setstate__(state: Parameters<Optimizer["__setstate__"]>[0]): void {
    super.__setstate__(state);
    for (const group of this.param_groups) {
      if (!("foreach" in group)) group.foreach = null;
      group.maximize ??= false;
    }
    stepsToTensors(this);
  }

  override step(closure?: (() => any) | null): any {
    return no_grad(() => {
      const loss = runClosure(closure);
      for (const group of this.param_groups) {
        const params_with_grad: Tensor[] = [], grads: Tensor[] = [], state_sums: Tensor[] = [], state_steps: Tensor[] = [];
        for (const p of group.params) {
          if (p.grad === null) continue;
          params_with_grad.push(p);
          grads.push(p.grad);
          const state = this.state.get(p);
          state_sums.push(state.sum);
          state_steps.push(state.step);
        }
        adagrad(params_with_grad, grads, state_sums, state_steps, {
          lr: group.lr, weight_decay: group.weight_decay, lr_decay: group.lr_decay, eps: group.eps, maximize: group.maximize, foreach: group.foreach,
        });
      }
      return loss;
    });
  }
}

export interface AdagradArgs {
  lr: number;
  weight_decay: number;
  lr_decay: number;
  eps: number;
  maximize: boolean;
  /** foreach=True: _multi_tensor_adagrad (None means False in 1.13). */
  foreach?: boolean | null;
}

/** torch.optim._functional.adagrad. */
export function adagrad(params: Tensor[], grads: Tensor[], state_sums: Tensor[], state_steps: Tensor[], o: AdagradArgs): void {
  if (!state_steps.every((t) => t instanceof Tensor)) {
    throw new RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors");
  }
  if (o.foreach) _multi_tensor_adagrad(params, grads, state_sums, state_steps, o);
  else _single_tensor_adagrad(params, grads, state_sums, state_steps, o);
}

/**
 * _multi_tensor_adagrad (torch/optim/adagrad.py, 1.13), dense gradients, real dtypes. Unlike the
 * single-tensor loop, the clipped learning rate is computed on the float32 step tensor,
 * -lr / (1 + (step - 1) * lr_decay), i.e. Tensor.__rtruediv__: reciprocal() * -lr, and the update is
 * param += (grad * -clr) / std rather than param.addcdiv_(grad, std, value=-clr).
 */
function _multi_tensor_adagrad(
  params: Tensor[], gradsIn: Tensor[], state_sums: Tensor[], state_steps: Tensor[], { lr, weight_decay, lr_decay, eps, maximize }: AdagradArgs,
): void {
  if (params.length === 0) return;
  let grads = gradsIn;
  if (maximize) grads = _foreach_neg(grads);
  // update steps
  _foreach_add_(state_steps, 1);
  // into the gradient tensors themselves (the .grad of each parameter unless maximize made new ones)
  if (weight_decay !== 0) _foreach_add_(grads, params, weight_decay);
  const minus_clr = state_steps.map((step: any) => step.sub(1).mul(lr_decay).add(1).reciprocal().mul(-lr));
  _foreach_addcmul_(state_sums, grads, grads, 1);
  const std = _foreach_add(_foreach_sqrt(state_sums), eps);
  const toAdd = _foreach_div(_foreach_mul(grads, minus_clr), std);
  _foreach_add_(params, toAdd);
}

function _single_tensor_adagrad(
  params: Tensor[], grads: Tensor[], state_sums: Tensor[], state_steps: Tensor[], { lr, weight_decay, lr_decay, eps, maximize }: AdagradArgs,
): void {
  params.forEach((param: any, i) => {
    let grad: any = grads[i];
    const state_sum: any = state_sums[i];
    const step_t: any = state_steps[i];
    // update step
    step_t.add_(1);
    const step: number = item(step_t);
    grad = !maximize ? grad : grad.neg();
    if (weight_decay !== 0) grad = grad.add(param, { alpha: weight_decay });
    const clr = lr / (1 + (step - 1) * lr_decay);
    state_sum.addcmul_(grad, grad, { value: 1 });
    const std = state_sum.sqrt().add_(eps);
    param.addcdiv_(grad, std, { value: -clr });
  });
}
