// torch.optim.AdamW (torch/optim/adamw.py, 1.13): decoupled weight decay (the parameter is scaled by
// 1 - lr * weight_decay before the Adam update; default weight_decay 1e-2), AMSGrad, maximize. The
// update is _single_tensor_adamw's for-loop, op for op; step runs under no_grad.

import { Tensor } from "../aten/core/Tensor.js";
import * as T from "../generated/torch_functions.js";
import { RuntimeError } from "../c10/Errors.js";
import { no_grad } from "../autograd/grad_mode.js";
import { pyPow } from "./_utils.js";
import { Optimizer, runClosure, type Params } from "./optimizer.js";
import { assertion, checkAdamArgs, item, collectAdamState, stepsToTensors, _multi_tensor_adam_family, type AdamArgs } from "./adam.js";

export interface AdamWOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weight_decay?: number;
  amsgrad?: boolean;
  maximize?: boolean;
  foreach?: boolean | null;
  capturable?: boolean;
}

export class AdamW extends Optimizer {
  constructor(params: Params, options: AdamWOptions = {}) {
    const { lr = 1e-3, betas = [0.9, 0.999], eps = 1e-8, weight_decay = 1e-2, amsgrad = false, maximize = false, foreach = null, capturable = false } = options;
    checkAdamArgs(lr, betas, eps, weight_decay);
    super(params, { lr, betas, eps, weight_decay, amsgrad, foreach, maximize, capturable });
  }

  override __setstate__(state: Parameters<Optimizer["__setstate__"]>[0]): void {
    super.__setstate__(state);
    for (const group of this.param_groups) {
      group.amsgrad ??= false;
      group.maximize ??= false;
      if (!("foreach" in group)) group.foreach = null;
      group.capturable ??= false;
    }
    stepsToTensors(this);
  }

  override step(closure?: (() => any) | null): any {
    return no_grad(() => {
      const loss = runClosure(closure);
      for (const group of this.param_groups) {
        const l = collectAdamState(this, group, "AdamW does not support sparse gradients");
        if (group.capturable && l.params_with_grad.length) throw assertion("If capturable=True, params and state_steps must be CUDA tensors.");
        const [beta1, beta2] = group.betas;
        adamw(l.params_with_grad, l.grads, l.exp_avgs, l.exp_avg_sqs, l.max_exp_avg_sqs, l.state_steps, {
          amsgrad: group.amsgrad, beta1, beta2, lr: group.lr, weight_decay: group.weight_decay, eps: group.eps, maximize: group.maximize,
          foreach: group.foreach,
        });
      }
      return loss;
    });
  }
}

/** torch.optim._functional.adamw. */
export function adamw(
  params: Tensor[], grads: Tensor[], exp_avgs: Tensor[], exp_avg_sqs: Tensor[], max_exp_avg_sqs: Tensor[], state_steps: Tensor[], o: AdamArgs,
): void {
  if (!state_steps.every((t) => t instanceof Tensor)) {
    throw new RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors");
  }
  if (o.foreach) _multi_tensor_adam_family(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, o, true);
  else _single_tensor_adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, o);
}

function _single_tensor_adamw(
  params: Tensor[], grads: Tensor[], exp_avgs: Tensor[], exp_avg_sqs: Tensor[], max_exp_avg_sqs: Tensor[], state_steps: Tensor[],
  { amsgrad, beta1, beta2, lr, weight_decay, eps, maximize }: AdamArgs,
): void {
  params.forEach((param: any, i) => {
    const grad: any = !maximize ? grads[i] : (grads[i] as any).neg();
    const exp_avg: any = exp_avgs[i];
    const exp_avg_sq: any = exp_avg_sqs[i];
    const step_t: any = state_steps[i];
    // update step
    step_t.add_(1);
    // perform stepweight decay
    param.mul_(1 - lr * weight_decay);
    // decay the first and second moment running average coefficient
    exp_avg.mul_(beta1).add_(grad, { alpha: 1 - beta1 });
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, { value: 1 - beta2 });

    const step: number = item(step_t);
    const bias_correction1 = 1 - pyPow(beta1, step);
    const bias_correction2 = 1 - pyPow(beta2, step);
    const step_size = lr / bias_correction1;
    const bias_correction2_sqrt = Math.sqrt(bias_correction2);
    let denom: any;
    if (amsgrad) {
      T.maximum(max_exp_avg_sqs[i], exp_avg_sq, { out: max_exp_avg_sqs[i] });
      denom = (max_exp_avg_sqs[i] as any).sqrt().div(bias_correction2_sqrt).add_(eps);
    } else {
      denom = exp_avg_sq.sqrt().div(bias_correction2_sqrt).add_(eps);
    }
    param.addcdiv_(exp_avg, denom, { value: -step_size });
  });
}
