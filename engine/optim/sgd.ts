// torch.optim.SGD (torch/optim/sgd.py, 1.13): momentum, dampening, Nesterov, L2 weight decay, maximize.
// The update is _single_tensor_sgd's for-loop, op for op; foreach=True runs _multi_tensor_sgd over the
// _foreach_* ops (_foreach.ts: PyTorch's CPU fallback, the same per-tensor arithmetic).

import type { Tensor } from "../aten/core/Tensor.js";
import * as T from "../generated/torch_functions.js";
import { ValueError } from "../c10/Errors.js";
import { Optimizer, required, runClosure, withGradFor, type Params } from "./optimizer.js";
import { _foreach_add, _foreach_add_, _foreach_mul_, _foreach_neg } from "./_foreach.js";
import { pyRepr } from "./_utils.js";
import { release_temporary } from "../autograd/grad_ownership.js";

export interface SGDOptions {
  lr?: number;
  momentum?: number;
  dampening?: number;
  weight_decay?: number;
  nesterov?: boolean;
  maximize?: boolean;
  foreach?: boolean | null;
  differentiable?: boolean;
}

export class SGD extends Optimizer {
  constructor(params: Params, options: SGDOptions = {}) {
    const { lr = required as any, momentum = 0, dampening = 0, weight_decay = 0, nesterov = false, maximize = false, foreach = null, differentiable = false } = options;
    if (lr !== required && lr < 0.0) throw new ValueError(`Invalid learning rate: ${pyRepr(lr)}`);
    if (momentum < 0.0) throw new ValueError(`Invalid momentum value: ${pyRepr(momentum)}`);
    if (weight_decay < 0.0) throw new ValueError(`Invalid weight_decay value: ${pyRepr(weight_decay)}`);
    const defaults = { lr, momentum, dampening, weight_decay, nesterov, maximize, foreach, differentiable };
    if (nesterov && (momentum <= 0 || dampening !== 0)) throw new ValueError("Nesterov momentum requires a momentum and zero dampening");
    super(params, defaults);
  }

  override __setstate__(state: Parameters<Optimizer["__setstate__"]>[0]): void {
    super.__setstate__(state);
    for (const group of this.param_groups) {
      group.nesterov ??= false;
      group.maximize ??= false;
      if (!("foreach" in group)) group.foreach = null;
      group.differentiable ??= false;
    }
  }

  override step(closure?: (() => any) | null): any {
    return withGradFor(this.defaults.differentiable, () => {
      const loss = runClosure(closure);
      for (const group of this.param_groups) {
        const params_with_grad: Tensor[] = [];
        const d_p_list: Tensor[] = [];
        const momentum_buffer_list: (Tensor | null)[] = [];
        for (const p of group.params) {
          if (p.grad === null) continue;
          params_with_grad.push(p);
          d_p_list.push(p.grad);
          const state = this.state.get(p);
          momentum_buffer_list.push("momentum_buffer" in state ? state.momentum_buffer : null);
        }
        sgd(params_with_grad, d_p_list, momentum_buffer_list, {
          weight_decay: group.weight_decay,
          momentum: group.momentum,
          lr: group.lr,
          dampening: group.dampening,
          nesterov: group.nesterov,
          maximize: group.maximize,
          foreach: group.foreach,
        });
        // update momentum_buffers in state (None where momentum is 0, as PyTorch stores it)
        params_with_grad.forEach((p, i) => {
          this.state.get(p).momentum_buffer = momentum_buffer_list[i];
        });
      }
      return loss;
    });
  }
}

/** torch.optim._functional.sgd: the update of a list of parameters (momentum_buffer_list filled in place). */
export function sgd(
  params: Tensor[],
  d_p_list: Tensor[],
  momentum_buffer_list: (Tensor | null)[],
  o: { weight_decay: number; momentum: number; lr: number; dampening: number; nesterov: boolean; maximize: boolean; foreach?: boolean | null },
): void {
  // foreach=None means False in 1.13
  if (o.foreach) _multi_tensor_sgd(params, d_p_list, momentum_buffer_list, o);
  else _single_tensor_sgd(params, d_p_list, momentum_buffer_list, o);
}

function _multi_tensor_sgd(
  params: Tensor[],
  gradsIn: Tensor[],
  momentum_buffer_list: (Tensor | null)[],
  { weight_decay, momentum, lr, dampening, nesterov, maximize }: { weight_decay: number; momentum: number; lr: number; dampening: number; nesterov: boolean; maximize: boolean },
): void {
  if (params.length === 0) return;
  let grads = gradsIn;
  if (maximize) grads = _foreach_neg(grads);
  if (weight_decay !== 0) grads = _foreach_add(grads, params, weight_decay);
  if (momentum !== 0) {
    let bufs: Tensor[] = [];
    const all_states_with_momentum_buffer = momentum_buffer_list.every((b) => b !== null);
    if (all_states_with_momentum_buffer) {
      bufs = momentum_buffer_list as Tensor[];
      _foreach_mul_(bufs, momentum);
      _foreach_add_(bufs, grads, 1 - dampening);
    } else {
      for (let i = 0; i < momentum_buffer_list.length; i++) {
        let buf: any = momentum_buffer_list[i];
        if (buf === null) {
          buf = momentum_buffer_list[i] = (T.clone(grads[i]) as any).detach();
        } else {
          buf.mul_(momentum).add_(grads[i], { alpha: 1 - dampening });
        }
        bufs.push(buf);
      }
    }
    // as in PyTorch, Nesterov's update adds into `grads` in place (the .grad tensors themselves when no
    // maximize/weight decay made new ones)
    if (nesterov) _foreach_add_(grads, bufs, momentum);
    else grads = bufs;
  }
  _foreach_add_(params, grads, -lr);
}

function _single_tensor_sgd(
  params: Tensor[],
  d_p_list: Tensor[],
  momentum_buffer_list: (Tensor | null)[],
  { weight_decay, momentum, lr, dampening, nesterov, maximize }: { weight_decay: number; momentum: number; lr: number; dampening: number; nesterov: boolean; maximize: boolean },
): void {
  params.forEach((param: any, i) => {
    // the step's temporaries (-grad, grad + wd * param, the nesterov sum) are freed once used (issue #8)
    const temps: Tensor[] = [];
    const temp = (t: Tensor): any => (temps.push(t), t);
    let d_p: any = !maximize ? d_p_list[i] : temp((d_p_list[i] as any).neg());
    if (weight_decay !== 0) d_p = temp(d_p.add(param, { alpha: weight_decay }));
    if (momentum !== 0) {
      let buf: any = momentum_buffer_list[i];
      if (buf === null) {
        buf = (T.clone(d_p) as any).detach();
        momentum_buffer_list[i] = buf;
      } else {
        buf.mul_(momentum).add_(d_p, { alpha: 1 - dampening });
      }
      if (nesterov) d_p = temp(d_p.add(buf, { alpha: momentum }));
      else d_p = buf;
    }
    param.add_(d_p, { alpha: -lr });
    for (const t of temps) release_temporary(t, param, d_p_list[i], momentum_buffer_list[i]);
  });
}
