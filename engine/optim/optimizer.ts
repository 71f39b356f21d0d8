// torch.optim.Optimizer (torch/optim/optimizer.py, 1.13): parameter groups filled from the defaults,
// per-parameter state keyed by the parameter itself, zero_grad, and state_dict / load_state_dict in
// PyTorch's packed format (parameters replaced by their index in group order).

import { Tensor } from "../aten/core/Tensor.js";
import { NotImplementedError, TypeError_, ValueError } from "../c10/Errors.js";
import { GradMode } from "../c10/GradMode.js";
import { enable_grad } from "../autograd/grad_mode.js";
import { deepcopy, isDict, pyRepr, typename, warn } from "./_utils.js";

/** The marker of an option with no default (torch.optim.optimizer.required): a group must give it. */
export const required: { toString(): string } = Object.freeze({ toString: () => "<required parameter>" });

/** A parameter group: its parameters and its options (lr, momentum, ...), as a Python dict. */
export interface ParamGroup {
  params: Tensor[];
  [option: string]: any;
}

/** One parameter's state (momentum_buffer, exp_avg, step, ...). */
export type ParamState = Record<string, any>;

/**
 * Optimizer.state: a defaultdict(dict) keyed by parameter. `get(p)` is Python's `state[p]`: it makes
 * the empty entry when there is none.
 */
export class OptimizerState extends Map<unknown, ParamState> {
  override get(key: unknown): ParamState {
    let s = super.get(key);
    if (s === undefined) {
      s = {};
      this.set(key, s);
    }
    return s;
  }
}

/** Optimizer.state_dict(): `state` keyed by parameter index, `param_groups` with `params` as index lists. */
export interface OptimizerStateDict {
  state: Record<number | string, ParamState> | Map<number | string, ParamState>;
  param_groups: Record<string, any>[];
}

export type Params = Iterable<Tensor> | Iterable<Partial<ParamGroup> & { params: Iterable<Tensor> | Tensor }>;

export class Optimizer {
  defaults: Record<string, any>;
  state: OptimizerState;
  param_groups: ParamGroup[];
  /** Counted by an LR scheduler's wrapper of step() (see lr_scheduler.ts). */
  _step_count?: number;

  constructor(params: Params, defaults: Record<string, any>) {
    this.defaults = defaults;
    if (params instanceof Tensor) {
      throw new TypeError_("params argument given to the optimizer should be an iterable of Tensors or dicts, but got " + typename(params));
    }
    this.state = new OptimizerState();
    this.param_groups = [];
    let param_groups: any[] = [...(params as Iterable<unknown>)];
    if (param_groups.length === 0) throw new ValueError("optimizer got an empty parameter list");
    if (!isDict(param_groups[0])) param_groups = [{ params: param_groups }];
    for (const param_group of param_groups) this.add_param_group(param_group);
  }

  /** __repr__: the class name and each group's options, sorted by name. */
  toString(): string {
    let s = this.constructor.name + " (";
    this.param_groups.forEach((group, i) => {
      s += "\n" + `Parameter Group ${i}\n`;
      for (const key of Object.keys(group).sort()) {
        if (key !== "params") s += `    ${key}: ${pyRepr(group[key])}\n`;
      }
    });
    return s + ")";
  }

  /** The state of the optimizer: `state` (per parameter index) and `param_groups` (options, parameter indices). */
  state_dict(): OptimizerStateDict {
    // save order indices instead of tensors
    const param_mappings = new Map<Tensor, number>();
    let start_index = 0;
    const pack_group = (group: ParamGroup) => {
      const packed: Record<string, any> = {};
      for (const [k, v] of Object.entries(group)) if (k !== "params") packed[k] = v;
      group.params.forEach((p, i) => {
        if (!param_mappings.has(p)) param_mappings.set(p, start_index + i);
      });
      packed.params = group.params.map((p) => param_mappings.get(p)!);
      start_index += packed.params.length;
      return packed;
    };
    const param_groups = this.param_groups.map(pack_group);
    // remap state to use order indices as keys
    const packed_state: Record<number | string, ParamState> = {};
    for (const [k, v] of this.state) {
      packed_state[k instanceof Tensor ? param_mappings.get(k)! : (k as string)] = v;
    }
    return { state: packed_state, param_groups };
  }

  /** Loads a state_dict() (this optimizer's or PyTorch's packed format): a deep copy, tensors cast to each parameter. */
  load_state_dict(state_dict: OptimizerStateDict): void {
    state_dict = deepcopy(state_dict);
    const groups = this.param_groups;
    const saved_groups = state_dict.param_groups;
    if (groups.length !== saved_groups.length) {
      throw new ValueError("loaded state dict has a different number of parameter groups");
    }
    if (groups.some((g, i) => g.params.length !== saved_groups[i].params.length)) {
      throw new ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's group");
    }
    // update the state: saved index -> parameter
    const id_map = new Map<string, Tensor>();
    const saved_ids = saved_groups.flatMap((g) => g.params as unknown[]);
    const params = groups.flatMap((g) => g.params);
    saved_ids.forEach((id, i) => {
      if (i < params.length) id_map.set(String(id), params[i]);
    });

    // a deep copy of value, floating-point tensors cast to the parameter's dtype (except `step`) and device
    const cast = (param: Tensor, value: any, key: string | null = null): any => {
      if (value instanceof Tensor) {
        if (key !== "step") {
          if ((param as any).is_floating_point()) value = (value as any).to(param.dtype);
          value = (value as any).to(param.device);
        }
        return value;
      }
      if (isDict(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cast(param, v, k)]));
      if (Array.isArray(value)) return value.map((v) => cast(param, v));
      return value;
    };

    // state assigned to params is copied and cast; other state is kept as is
    const state = new OptimizerState();
    const entries: [unknown, any][] = state_dict.state instanceof Map ? [...state_dict.state] : Object.entries(state_dict.state);
    for (const [k, v] of entries) {
      const param = id_map.get(String(k));
      if (param !== undefined) state.set(param, cast(param, v));
      else state.set(k, v);
    }
    // the saved groups, holding this optimizer's parameters
    const param_groups = groups.map((g, i) => {
      const ng = saved_groups[i] as ParamGroup;
      ng.params = g.params;
      return ng;
    });
    this.__setstate__({ state, param_groups });
  }

  /** __setstate__: what loading (and unpickling) restores; subclasses fill in options older versions lacked. */
  __setstate__(state: { state: OptimizerState; param_groups: ParamGroup[] }): void {
    this.state = state.state;
    this.param_groups = state.param_groups;
    if (!("differentiable" in this.defaults)) this.defaults.differentiable = false;
  }

  /**
   * Sets the gradients of all optimized tensors to zero (PyTorch 1.13's default), or to None with
   * `set_to_none: true` (then an optimizer skips a parameter whose .grad stays None).
   */
  zero_grad(set_to_none: boolean | { set_to_none?: boolean } = false): void {
    const toNone = typeof set_to_none === "object" ? (set_to_none.set_to_none ?? false) : set_to_none;
    for (const group of this.param_groups) {
      for (const p of group.params) {
        const g = p.grad as any;
        if (g === null) continue;
        if (toNone) {
          p.grad = null;
        } else {
          if (g.grad_fn !== null) g.detach_();
          else g.requires_grad_(false);
          g.zero_();
        }
      }
    }
  }

  /** One optimization step; `closure` re-evaluates the loss (run with grad enabled) and its value is returned. */
  step(closure?: (() => any) | null): any {
    void closure;
    throw new NotImplementedError("");
  }

  /** Adds a group (a dict with `params`, and options that override the defaults). */
  add_param_group(param_group: Partial<ParamGroup> & { params: Iterable<Tensor> | Tensor }): void {
    if (!isDict(param_group)) throw Object.assign(new Error("param group must be a dict"), { name: "AssertionError" });
    const params = param_group.params as unknown;
    if (params instanceof Tensor) param_group.params = [params];
    else if (params instanceof Set) {
      throw new TypeError_(
        "optimizer parameters need to be organized in ordered collections, but the ordering of tensors in sets will change between runs. Please use a list instead.",
      );
    } else param_group.params = [...(params as Iterable<Tensor>)];
    const group = param_group as ParamGroup;

    for (const param of group.params) {
      if (!(param instanceof Tensor)) throw new TypeError_("optimizer can only optimize Tensors, but one of the params is " + typename(param));
      if (!this.defaults.differentiable && !(param.is_leaf || param.retains_grad)) throw new ValueError("can't optimize a non-leaf Tensor");
    }

    for (const [name, dflt] of Object.entries(this.defaults)) {
      if (dflt === required && !(name in group)) {
        throw new ValueError("parameter group didn't specify a value of required optimization parameter " + name);
      }
      if (!(name in group)) group[name] = dflt;
    }

    if (group.params.length !== new Set(group.params).size) {
      warn(
        "optimizer contains a parameter group with duplicate parameters; in future, this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
      );
    }
    const param_set = new Set<Tensor>(this.param_groups.flatMap((g) => g.params));
    if (group.params.some((p) => param_set.has(p))) throw new ValueError("some parameters appear in more than one parameter group");
    this.param_groups.push(group);
  }
}

/** Runs the step's loss closure with grad enabled (`with torch.enable_grad(): loss = closure()`). */
export function runClosure(closure: (() => any) | null | undefined): any {
  return closure ? enable_grad(closure) : null;
}

/** _use_grad_for_differentiable: the step runs with grad mode = defaults.differentiable (off by default). */
export function withGradFor<R>(differentiable: boolean, fn: () => R): R {
  const prev = GradMode.is_enabled();
  try {
    GradMode.set_enabled(Boolean(differentiable));
    return fn();
  } finally {
    GradMode.set_enabled(prev);
  }
}

