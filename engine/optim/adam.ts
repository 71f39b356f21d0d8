// torch.optim.Adam (torch/optim/adam.py, 1.13): L2 weight decay added to the gradient, AMSGrad,
// maximize; the step count is a float32 0-d tensor in the state, as in 1.13. The update is
// _single_tensor_adam's for-loop (capturable=False), op for op.

import { Tensor } from "../aten/core/Tensor.js";
import * as T from "../generated/torch_functions.js";
import { tensor } from "../aten/tensor_new.js";
import { item_default } from "../generated/item.js";
import { lift_fresh_default } from "../generated/lift_fresh.js";
import { get_default_dtype } from "../c10/DefaultDtype.js";
import { preserve_format } from "../c10/MemoryFormat.js";
import { RuntimeError, ValueError } from "../c10/Errors.js";
import { Optimizer, runClosure, withGradFor, type Params } from "./optimizer.js";
import { _foreach_add, _foreach_add_, _foreach_addcdiv_, _foreach_addcmul_, _foreach_div_, _foreach_maximum_, _foreach_mul_, _foreach_neg, _foreach_sqrt } from "./_foreach.js";
import { pyPow, pyRepr } from "./_utils.js";
import { release_temporary } from "../autograd/grad_ownership.js";

export interface AdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weight_decay?: number;
  amsgrad?: boolean;
  foreach?: boolean | null;
  maximize?: boolean;
  capturable?: boolean;
  differentiable?: boolean;
  fused?: boolean;
}

/** The argument checks Adam and AdamW share. */
export function checkAdamArgs(lr: number, betas: [number, number], eps: number, weight_decay: number): void {
  if (!(0.0 <= lr)) throw new ValueError(`Invalid learning rate: ${pyRepr(lr)}`);
  if (!(0.0 <= eps)) throw new ValueError(`Invalid epsilon value: ${pyRepr(eps)}`);
  if (!(0.0 <= betas[0] && betas[0] < 1.0)) throw new ValueError(`Invalid beta parameter at index 0: ${pyRepr(betas[0])}`);
  if (!(0.0 <= betas[1] && betas[1] < 1.0)) throw new ValueError(`Invalid beta parameter at index 1: ${pyRepr(betas[1])}`);
  if (!(0.0 <= weight_decay)) throw new ValueError(`Invalid weight_decay value: ${pyRepr(weight_decay)}`);
}

/** `torch.tensor(0.)`: the step counter, a 0-d tensor of the default dtype (lifted as torch.tensor does). */
export const zeroStep = (): Tensor => lift_fresh_default.call(tensor(0, { dtype: get_default_dtype() })) as Tensor;

/** `t.item()` through the dispatcher (aten::item -> aten::_local_scalar_dense), as the Python binding calls it. */
export const item = (t: Tensor): number => item_default.call(t) as number;

/** Adam and AdamW (and Adagrad) turn a saved numeric step into a tensor when loading an old state dict. */
export function stepsToTensors(opt: Optimizer): void {
  const state_values = [...opt.state.values()];
  const step_is_tensor = state_values.length !== 0 && state_values[0].step instanceof Tensor;
  if (!step_is_tensor) for (const s of state_values) s.step = tensor(Number(s.step), { dtype: get_default_dtype() });
}

export class Adam extends Optimizer {
  constructor(params: Params, options: AdamOptions = {}) {
    const {
      lr = 1e-3, betas = [0.9, 0.999], eps = 1e-8, weight_decay = 0, amsgrad = false,
      foreach = null, maximize = false, capturable = false, differentiable = false, fused = false,
    } = options;
    checkAdamArgs(lr, betas, eps, weight_decay);
    const defaults = { lr, betas, eps, weight_decay, amsgrad, maximize, foreach, capturable, differentiable, fused };
    super(params, defaults);
    if (fused) {
      if (differentiable) throw new RuntimeError("`fused` cannot be `differentiable`");
      throw new RuntimeError("FusedAdam requires all the params to be CUDA, floating point");
    }
  }

  override __setstate__(state: Parameters<Optimizer["__setstate__"]>[0]): void {
    super.__setstate__(state);
    for (const group of this.param_groups) {
      group.amsgrad ??= false;
      group.maximize ??= false;
      if (!("foreach" in group)) group.foreach = null;
      group.capturable ??= false;
      group.differentiable ??= false;
      group.fused ??= false;
    }
    stepsToTensors(this);
  }

  override step(closure?: (() => any) | null): any {
    return withGradFor(this.defaults.differentiable, () => {
      const loss = runClosure(closure);
      for (const group of this.param_groups) {
        const lists = collectAdamState(this, group, "Adam does not support sparse gradients, please consider SparseAdam instead");
        if (group.capturable && lists.params_with_grad.length) throw assertion("If capturable=True, params and state_steps must be CUDA tensors.");
        const [beta1, beta2] = group.betas;
        adam(lists.params_with_grad, lists.grads, lists.exp_avgs, lists.exp_avg_sqs, lists.max_exp_avg_sqs, lists.state_steps, {
          amsgrad: group.amsgrad, beta1, beta2, lr: group.lr, weight_decay: group.weight_decay, eps: group.eps, maximize: group.maximize,
          differentiable: group.differentiable, foreach: group.foreach,
        });
      }
      return loss;
    });
  }
}

/** Python's AssertionError (an `assert` in the algorithm). */
export function assertion(message: string): Error {
  return Object.assign(new Error(message), { name: "AssertionError" });
}

/** The lists Adam's and AdamW's step gather, with the lazy state initialization. */
export function collectAdamState(opt: Optimizer, group: Record<string, any>, sparseMessage: string) {
  const out = {
    params_with_grad: [] as Tensor[], grads: [] as Tensor[], exp_avgs: [] as Tensor[], exp_avg_sqs: [] as Tensor[],
    max_exp_avg_sqs: [] as Tensor[], state_steps: [] as Tensor[],
  };
  void sparseMessage; // sparse gradients do not exist here
  for (const p of group.params as Tensor[]) {
    if (p.grad === null) continue;
    out.params_with_grad.push(p);
    out.grads.push(p.grad);
    const state = opt.state.get(p);
    if (Object.keys(state).length === 0) {
      state.step = zeroStep();
      // exponential moving averages of the gradient and of its square
      state.exp_avg = T.zeros_like(p, { memory_format: preserve_format });
      state.exp_avg_sq = T.zeros_like(p, { memory_format: preserve_format });
      // the maximum of all exp_avg_sq values so far
      if (group.amsgrad) state.max_exp_avg_sq = T.zeros_like(p, { memory_format: preserve_format });
    }
    out.exp_avgs.push(state.exp_avg);
    out.exp_avg_sqs.push(state.exp_avg_sq);
    if (group.amsgrad) out.max_exp_avg_sqs.push(state.max_exp_avg_sq);
    if (group.differentiable && state.step.requires_grad) throw new RuntimeError("`requires_grad` is not supported for `step` in differentiable mode");
    out.state_steps.push(state.step);
  }
  return out;
}

export interface AdamArgs {
  amsgrad: boolean;
  beta1: number;
  beta2: number;
  lr: number;
  weight_decay: number;
  eps: number;
  maximize: boolean;
  /** Adam's differentiable=True: the tensor form of the bias corrections (torch.pow on the step tensor). */
  differentiable?: boolean;
  /** foreach=True: the _multi_tensor_* implementation (None means False in 1.13). */
  foreach?: boolean | null;
}

/** torch.optim._functional.adam. */
export function adam(
  params: Tensor[], grads: Tensor[], exp_avgs: Tensor[], exp_avg_sqs: Tensor[], max_exp_avg_sqs: Tensor[], state_steps: Tensor[], o: AdamArgs,
): void {
  if (!state_steps.every((t) => t instanceof Tensor)) {
    throw new RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors");
  }
  if (o.foreach) _multi_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, o);
  else _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, o);
}

/**
 * _multi_tensor_adam and _multi_tensor_adamw (non-capturable): each phase over the whole list (_foreach_*),
 * with Python-float bias corrections per parameter (torch/optim/adam.py, adamw.py). AdamW decays the
 * parameters instead of adding weight_decay * param to the gradients.
 */
export function _multi_tensor_adam_family(
  params: Tensor[], gradsIn: Tensor[], exp_avgs: Tensor[], exp_avg_sqs: Tensor[], max_exp_avg_sqs: Tensor[], state_steps: Tensor[],
  { amsgrad, beta1, beta2, lr, weight_decay, eps, maximize, differentiable = false }: AdamArgs, decoupled: boolean,
): void {
  if (differentiable) throw assertion("_foreach ops don't support autograd");
  if (params.length === 0) return;
  let grads = gradsIn;
  if (maximize) grads = _foreach_neg(grads);
  // update steps
  _foreach_add_(state_steps, 1);
  if (decoupled) _foreach_mul_(params, 1 - lr * weight_decay);
  // 1.13's Adam adds the weight decay into the gradients in place (into the .grad tensors themselves
  // unless maximize made new ones), unlike its single-tensor loop and SGD's foreach path
  else if (weight_decay !== 0) _foreach_add_(grads, params, weight_decay);
  // decay the first and second moment running average coefficient
  _foreach_mul_(exp_avgs, beta1);
  _foreach_add_(exp_avgs, grads, 1 - beta1);
  _foreach_mul_(exp_avg_sqs, beta2);
  _foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2);
  const steps = state_steps.map((t) => item(t));
  const bias_correction1 = steps.map((step) => 1 - pyPow(beta1, step));
  const bias_correction2 = steps.map((step) => 1 - pyPow(beta2, step));
  const step_size = bias_correction1.map((bc) => (lr / bc) * -1);
  const bias_correction2_sqrt = bias_correction2.map((bc) => Math.sqrt(bc));
  let denom: Tensor[];
  if (amsgrad) {
    _foreach_maximum_(max_exp_avg_sqs, exp_avg_sqs);
    const max_exp_avg_sq_sqrt = _foreach_sqrt(max_exp_avg_sqs);
    _foreach_div_(max_exp_avg_sq_sqrt, bias_correction2_sqrt);
    denom = _foreach_add(max_exp_avg_sq_sqrt, eps);
  } else {
    const exp_avg_sq_sqrt = _foreach_sqrt(exp_avg_sqs);
    _foreach_div_(exp_avg_sq_sqrt, bias_correction2_sqrt);
    denom = _foreach_add(exp_avg_sq_sqrt, eps);
  }
  _foreach_addcdiv_(params, exp_avgs, denom, step_size);
}

function _multi_tensor_adam(
  params: Tensor[], grads: Tensor[], exp_avgs: Tensor[], exp_avg_sqs: Tensor[], max_exp_avg_sqs: Tensor[], state_steps: Tensor[], o: AdamArgs,
): void {
  _multi_tensor_adam_family(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, o, false);
}

function _single_tensor_adam(
  params: Tensor[], grads: Tensor[], exp_avgs: Tensor[], exp_avg_sqs: Tensor[], max_exp_avg_sqs: Tensor[], state_steps: Tensor[],
  { amsgrad, beta1, beta2, lr, weight_decay, eps, maximize, differentiable = false }: AdamArgs,
): void {
  params.forEach((param: any, i) => {
    // the step's temporaries (-grad, grad + wd * param, sqrt(v), denom) are freed once used (issue #8)
    const temps: Tensor[] = [];
    const temp = (t: Tensor): any => (temps.push(t), t);
    let grad: any = !maximize ? grads[i] : temp((grads[i] as any).neg());
    const exp_avg: any = exp_avgs[i];
    const exp_avg_sq: any = exp_avg_sqs[i];
    const step_t: any = state_steps[i];
    // update step
    step_t.add_(1);
    if (weight_decay !== 0) grad = temp(grad.add(param, { alpha: weight_decay }));
    // decay the first and second moment running average coefficient
    exp_avg.mul_(beta1).add_(grad, { alpha: 1 - beta1 });
    // grad.conj(): the tensor itself for real dtypes (Tensor::conj returns *this without dispatching)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, { value: 1 - beta2 });

    if (differentiable) {
      // the tensor form (as capturable/differentiable run it): bias corrections from the float32 step
      // tensor, so autograd sees the whole update
      const bias_correction1: any = T.rsub(T.pow(beta1, step_t), 1); // 1 - torch.pow(beta1, step)
      const bias_correction2: any = T.rsub(T.pow(beta2, step_t), 1);
      const step_size = bias_correction1.reciprocal().mul(lr); // lr / bias_correction1 (Tensor.__rtruediv__)
      const step_size_neg = step_size.neg();
      const bias_correction2_sqrt = bias_correction2.sqrt();
      const eps_term = step_size_neg.reciprocal().mul(eps); // eps / step_size_neg
      let denom: any;
      if (amsgrad) {
        const max_exp_avg_sqs_i = (max_exp_avg_sqs[i] as any).clone();
        (max_exp_avg_sqs[i] as any).copy_(T.maximum(max_exp_avg_sqs_i, exp_avg_sq));
        denom = (max_exp_avg_sqs[i] as any).sqrt().div(bias_correction2_sqrt.mul(step_size_neg)).add_(eps_term);
      } else {
        denom = exp_avg_sq.sqrt().div(bias_correction2_sqrt.mul(step_size_neg)).add_(eps_term);
      }
      param.addcdiv_(exp_avg, denom);
      return;
    }
    const step: number = item(step_t);
    const bias_correction1 = 1 - pyPow(beta1, step);
    const bias_correction2 = 1 - pyPow(beta2, step);
    const step_size = lr / bias_correction1;
    const bias_correction2_sqrt = Math.sqrt(bias_correction2);
    let denom: any;
    if (amsgrad) {
      // the maximum of all 2nd moment running averages so far normalizes the running average of the gradient
      T.maximum(max_exp_avg_sqs[i], exp_avg_sq, { out: max_exp_avg_sqs[i] });
      denom = temp(temp((max_exp_avg_sqs[i] as any).sqrt()).div(bias_correction2_sqrt)).add_(eps);
    } else {
      denom = temp(temp(exp_avg_sq.sqrt()).div(bias_correction2_sqrt)).add_(eps);
    }
    param.addcdiv_(exp_avg, denom, { value: -step_size });
    for (const t of temps) release_temporary(t, param, grads[i], exp_avg, exp_avg_sq, max_exp_avg_sqs[i] ?? null);
  });
}
