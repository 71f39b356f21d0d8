// torch.optim.lr_scheduler (torch/optim/lr_scheduler.py, 1.13): the chainable schedulers (each step
// derives the new lr from the group's current one, as 1.13 does; step(epoch) uses the closed form where
// there is one, with PyTorch's deprecation warning), the initial step in the constructor, the counter
// wrapped around optimizer.step() that drives the "lr_scheduler.step() before optimizer.step()"
// warning, and ReduceLROnPlateau.
//
// JavaScript has no keyword arguments: the required arguments come positionally (as Python allows)
// and the rest as a final options object, or positionally in Python's order.

import { Tensor } from "../aten/core/Tensor.js";
import { TypeError_, ValueError } from "../c10/Errors.js";
import { formatExponent, formatFixed } from "../aten/core/pyformat.js";
import { Optimizer } from "./optimizer.js";
import { KeyError, isDict, pyCos, pyPow, pyRepr, typename, warn } from "./_utils.js";

const EPOCH_DEPRECATION_WARNING =
  "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. " +
  "Please use `scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, " +
  "the closed form is used instead of the new chainable form, where available. Please open an issue if you are " +
  "unable to replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.";

const GET_LR_WARNING = "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.";

/**
 * Python's argument binding for a constructor: positional values fill `names` in order, a final plain
 * object gives the rest by name, and missing ones take `defaults` (a name without a default is required).
 */
function bind(fname: string, names: string[], defaults: Record<string, unknown>, args: unknown[]): Record<string, any> {
  const out: Record<string, any> = {};
  let kw: Record<string, unknown> = {};
  const positional = [...args];
  const last = positional[positional.length - 1];
  if (positional.length > 0 && isDict(last) && !("__call__" in last) && positional.length <= names.length) {
    kw = positional.pop() as Record<string, unknown>;
  }
  if (positional.length > names.length) {
    throw new TypeError_(`${fname}() takes from 2 to ${names.length + 1} positional arguments but ${positional.length + 1} were given`);
  }
  positional.forEach((v, i) => (out[names[i]] = v));
  for (const [k, v] of Object.entries(kw)) {
    if (!names.includes(k)) throw new TypeError_(`${fname}() got an unexpected keyword argument '${k}'`);
    if (k in out) throw new TypeError_(`${fname}() got multiple values for argument '${k}'`);
    out[k] = v;
  }
  const missing = names.filter((n) => !(n in out) && !(n in defaults));
  if (missing.length > 0) {
    throw new TypeError_(`${fname}() missing ${missing.length} required positional argument${missing.length > 1 ? "s" : ""}: ${missing.map((m) => `'${m}'`).join(" and ")}`);
  }
  for (const n of names) if (!(n in out) || out[n] === undefined) out[n] = defaults[n];
  return out;
}

/** "%.5d" % epoch for an int, "%.2f" % epoch for a float (JavaScript: a non-integral number). */
function epochStr(epoch: number): string {
  if (Number.isInteger(epoch)) return (epoch < 0 ? "-" : "") + String(Math.abs(epoch)).padStart(5, "0");
  return formatFixed(epoch, 2);
}

/** The optimizer.step wrapper that counts calls (with_counter in _LRScheduler.__init__). */
type CountedStep = ((...args: any[]) => any) & { _with_counter?: boolean };

function with_counter(optimizer: Optimizer, method: CountedStep): CountedStep {
  if (method._with_counter) return method; // already wrapped
  const wrapper: CountedStep = function (this: unknown, ...args: any[]) {
    optimizer._step_count = (optimizer._step_count ?? 0) + 1;
    return method.apply(optimizer, args);
  };
  wrapper._with_counter = true;
  return wrapper;
}

function checkOptimizer(optimizer: unknown): asserts optimizer is Optimizer {
  if (!(optimizer instanceof Optimizer)) throw new TypeError_(`${typename(optimizer)} is not an Optimizer`);
}

/** The base of the epoch-driven schedulers (torch.optim.lr_scheduler._LRScheduler). */
export class _LRScheduler {
  declare optimizer: Optimizer;
  declare base_lrs: number[];
  declare last_epoch: number;
  declare verbose: boolean;
  declare _step_count: number;
  declare _get_lr_called_within_step: boolean;
  declare _last_lr: number[];

  /** _LRScheduler.__init__: a subclass sets its own fields first, then calls this (Python's super().__init__). */
  protected _init(optimizer: Optimizer, last_epoch = -1, verbose = false): void {
    checkOptimizer(optimizer);
    Object.defineProperty(this, "optimizer", { value: optimizer, writable: true, configurable: true, enumerable: false });
    // initialize epoch and base learning rates
    if (last_epoch === -1) {
      for (const group of optimizer.param_groups) if (!("initial_lr" in group)) group.initial_lr = group.lr;
    } else {
      optimizer.param_groups.forEach((group, i) => {
        if (!("initial_lr" in group)) {
          throw new KeyError(`param 'initial_lr' is not specified in param_groups[${i}] when resuming an optimizer`);
        }
      });
    }
    this.base_lrs = optimizer.param_groups.map((g) => g.initial_lr);
    this.last_epoch = last_epoch;
    // count optimizer.step() calls, so that step() can tell when it is called first
    optimizer.step = with_counter(optimizer, optimizer.step as CountedStep);
    this.verbose = verbose;
    this._initial_step();
  }

  _initial_step(): void {
    this.optimizer._step_count = 0;
    this._step_count = 0;
    this.step();
  }

  /** The scheduler's fields, except the optimizer. */
  state_dict(): Record<string, any> {
    return Object.fromEntries(Object.entries(this).filter(([k]) => k !== "optimizer"));
  }

  load_state_dict(state_dict: Record<string, any>): void {
    Object.assign(this, state_dict);
  }

  /** The learning rates the last step() set. */
  get_last_lr(): number[] {
    return this._last_lr;
  }

  /** The chainable form of the schedule (called by step()). */
  get_lr(): number[] {
    throw new Error("NotImplementedError");
  }

  _get_closed_form_lr?(): number[];

  print_lr(is_verbose: boolean, group: number, lr: number, epoch: number | null = null): void {
    if (!is_verbose) return;
    if (epoch === null) console.log(`Adjusting learning rate of group ${group} to ${formatExponent(lr, 4)}.`);
    else console.log(`Epoch ${epochStr(epoch)}: adjusting learning rate of group ${group} to ${formatExponent(lr, 4)}.`);
  }

  step(epoch: number | null = null): void {
    // warn if the old pattern is detected (https://github.com/pytorch/pytorch/issues/20124)
    if (this._step_count === 1) {
      if (!(this.optimizer.step as CountedStep)._with_counter) {
        warn(
          "Seems like `optimizer.step()` has been overridden after learning rate scheduler initialization. Please, make sure to call " +
            "`optimizer.step()` before `lr_scheduler.step()`. See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
        );
      } else if ((this.optimizer._step_count ?? 0) < 1) {
        warn(
          "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call them in the opposite order: " +
            "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value of the learning rate schedule. " +
            "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
        );
      }
    }
    this._step_count += 1;
    let values: number[];
    this._get_lr_called_within_step = true;
    try {
      if (epoch === null || epoch === undefined) {
        this.last_epoch += 1;
        values = this.get_lr();
      } else {
        warn(EPOCH_DEPRECATION_WARNING);
        this.last_epoch = epoch;
        values = this._get_closed_form_lr ? this._get_closed_form_lr() : this.get_lr();
      }
    } finally {
      this._get_lr_called_within_step = false;
    }
    this.optimizer.param_groups.forEach((group, i) => {
      if (i >= values.length) return;
      group.lr = values[i];
      this.print_lr(this.verbose, i, values[i], epoch ?? null);
    });
    this._last_lr = this.optimizer.param_groups.map((g) => g.lr);
  }

  protected warnOutsideStep(): void {
    if (!this._get_lr_called_within_step) warn(GET_LR_WARNING);
  }
}

/** A callable lr_lambda: a function, or an object with __call__ (whose fields state_dict saves). */
export type LrLambda = ((epoch: number) => number) | { __call__(epoch: number): number; [k: string]: any };
const callLambda = (f: LrLambda, epoch: number) => (typeof f === "function" ? f(epoch) : f.__call__(epoch));

/** One lr_lambda per param group: a single one is shared, a list must have one per group. */
function perGroupLambdas(optimizer: Optimizer, lr_lambda: LrLambda | LrLambda[]): LrLambda[] {
  if (!Array.isArray(lr_lambda)) return optimizer.param_groups.map(() => lr_lambda);
  if (lr_lambda.length !== optimizer.param_groups.length) {
    throw new ValueError(`Expected ${optimizer.param_groups.length} lr_lambdas, but got ${lr_lambda.length}`);
  }
  return [...lr_lambda];
}

/** lr = initial lr times lr_lambda(epoch), per group. */
export class LambdaLR extends _LRScheduler {
  declare lr_lambdas: LrLambda[];
  constructor(optimizer: Optimizer, lr_lambda: LrLambda | LrLambda[], options?: { last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["lr_lambda", "last_epoch", "verbose"], { last_epoch: -1, verbose: false }, args);
    checkOptimizer(optimizer);
    this.lr_lambdas = perGroupLambdas(optimizer, a.lr_lambda);
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  /** Functions are saved as None; callable objects as a copy of their fields. */
  override state_dict(): Record<string, any> {
    const sd = Object.fromEntries(Object.entries(this).filter(([k]) => k !== "optimizer" && k !== "lr_lambdas"));
    sd.lr_lambdas = this.lr_lambdas.map((fn) => (typeof fn === "function" ? null : Object.fromEntries(Object.entries(fn).filter(([k]) => k !== "__call__"))));
    return sd;
  }

  override load_state_dict(state_dict: Record<string, any>): void {
    const { lr_lambdas, ...rest } = state_dict;
    Object.assign(this, rest);
    (lr_lambdas as (Record<string, any> | null)[]).forEach((fn, idx) => {
      if (fn !== null) Object.assign(this.lr_lambdas[idx], fn);
    });
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    return this.lr_lambdas.map((lmbda, i) => this.base_lrs[i] * callLambda(lmbda, this.last_epoch));
  }
}

/** Multiplies the lr by lr_lambda(epoch) each epoch (after the first). */
export class MultiplicativeLR extends _LRScheduler {
  declare lr_lambdas: LrLambda[];
  constructor(optimizer: Optimizer, lr_lambda: LrLambda | LrLambda[], options?: { last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["lr_lambda", "last_epoch", "verbose"], { last_epoch: -1, verbose: false }, args);
    checkOptimizer(optimizer);
    this.lr_lambdas = perGroupLambdas(optimizer, a.lr_lambda);
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  override state_dict(): Record<string, any> {
    return LambdaLR.prototype.state_dict.call(this);
  }

  override load_state_dict(state_dict: Record<string, any>): void {
    LambdaLR.prototype.load_state_dict.call(this, state_dict);
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const groups = this.optimizer.param_groups;
    if (this.last_epoch > 0) return groups.map((g, i) => g.lr * callLambda(this.lr_lambdas[i], this.last_epoch));
    return groups.map((g) => g.lr);
  }
}

/** Multiplies the lr by a constant factor until total_iters epochs have passed. */
export class ConstantLR extends _LRScheduler {
  declare factor: number;
  declare total_iters: number;
  constructor(optimizer: Optimizer, options?: { factor?: number; total_iters?: number; last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["factor", "total_iters", "last_epoch", "verbose"], { factor: 1.0 / 3, total_iters: 5, last_epoch: -1, verbose: false }, args);
    if (a.factor > 1.0 || a.factor < 0) throw new ValueError("Constant multiplicative factor expected to be between 0 and 1.");
    this.factor = a.factor;
    this.total_iters = a.total_iters;
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const groups = this.optimizer.param_groups;
    if (this.last_epoch === 0) return groups.map((g) => g.lr * this.factor);
    if (this.last_epoch > this.total_iters || this.last_epoch !== this.total_iters) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * (1.0 / this.factor));
  }

  override _get_closed_form_lr(): number[] {
    return this.base_lrs.map((base_lr) => base_lr * (this.factor + Number(this.last_epoch >= this.total_iters) * (1 - this.factor)));
  }
}

/** Moves the lr's multiplicative factor linearly from start_factor to end_factor over total_iters epochs. */
export class LinearLR extends _LRScheduler {
  declare start_factor: number;
  declare end_factor: number;
  declare total_iters: number;
  constructor(optimizer: Optimizer, options?: { start_factor?: number; end_factor?: number; total_iters?: number; last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["start_factor", "end_factor", "total_iters", "last_epoch", "verbose"],
      { start_factor: 1.0 / 3, end_factor: 1.0, total_iters: 5, last_epoch: -1, verbose: false }, args);
    if (a.start_factor > 1.0 || a.start_factor < 0) throw new ValueError("Starting multiplicative factor expected to be between 0 and 1.");
    if (a.end_factor > 1.0 || a.end_factor < 0) throw new ValueError("Ending multiplicative factor expected to be between 0 and 1.");
    this.start_factor = a.start_factor;
    this.end_factor = a.end_factor;
    this.total_iters = a.total_iters;
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const groups = this.optimizer.param_groups;
    const { start_factor: s, end_factor: e, total_iters: n } = this;
    if (this.last_epoch === 0) return groups.map((g) => g.lr * s);
    if (this.last_epoch > n) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * (1.0 + (e - s) / (n * s + (this.last_epoch - 1) * (e - s))));
  }

  override _get_closed_form_lr(): number[] {
    const { start_factor: s, end_factor: e, total_iters: n } = this;
    return this.base_lrs.map((base_lr) => base_lr * (s + ((e - s) * Math.min(n, this.last_epoch)) / n));
  }
}

/** Decays the lr by a polynomial of the given power over total_iters epochs. */
export class PolynomialLR extends _LRScheduler {
  declare total_iters: number;
  declare power: number;
  constructor(optimizer: Optimizer, options?: { total_iters?: number; power?: number; last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["total_iters", "power", "last_epoch", "verbose"], { total_iters: 5, power: 1.0, last_epoch: -1, verbose: false }, args);
    this.total_iters = a.total_iters;
    this.power = a.power;
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const groups = this.optimizer.param_groups;
    if (this.last_epoch === 0 || this.last_epoch > this.total_iters) return groups.map((g) => g.lr);
    const n = this.total_iters;
    const decay_factor = pyPow((1.0 - this.last_epoch / n) / (1.0 - (this.last_epoch - 1) / n), this.power);
    return groups.map((g) => g.lr * decay_factor);
  }

  override _get_closed_form_lr(): number[] {
    return this.base_lrs.map((base_lr) => base_lr * pyPow(1.0 - Math.min(this.total_iters, this.last_epoch) / this.total_iters, this.power));
  }
}

/** Multiplies the lr by gamma every step_size epochs. */
export class StepLR extends _LRScheduler {
  declare step_size: number;
  declare gamma: number;
  constructor(optimizer: Optimizer, step_size: number, options?: { gamma?: number; last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["step_size", "gamma", "last_epoch", "verbose"], { gamma: 0.1, last_epoch: -1, verbose: false }, args);
    this.step_size = a.step_size;
    this.gamma = a.gamma;
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const groups = this.optimizer.param_groups;
    if (this.last_epoch === 0 || pyMod(this.last_epoch, this.step_size) !== 0) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * this.gamma);
  }

  override _get_closed_form_lr(): number[] {
    return this.base_lrs.map((base_lr) => base_lr * pyPow(this.gamma, Math.floor(this.last_epoch / this.step_size)));
  }
}

/** Python's % (the sign of the divisor). */
function pyMod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

/** Multiplies the lr by gamma at each milestone (by gamma^k for a milestone listed k times). */
export class MultiStepLR extends _LRScheduler {
  /** collections.Counter(milestones): epoch -> how many times it is listed. */
  declare milestones: Record<number, number>;
  declare gamma: number;
  constructor(optimizer: Optimizer, milestones: Iterable<number>, options?: { gamma?: number; last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["milestones", "gamma", "last_epoch", "verbose"], { gamma: 0.1, last_epoch: -1, verbose: false }, args);
    const counter: Record<number, number> = {};
    for (const m of a.milestones as Iterable<number>) counter[m] = (counter[m] ?? 0) + 1;
    this.milestones = counter;
    this.gamma = a.gamma;
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const groups = this.optimizer.param_groups;
    if (!Object.prototype.hasOwnProperty.call(this.milestones, this.last_epoch)) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * pyPow(this.gamma, this.milestones[this.last_epoch]));
  }

  override _get_closed_form_lr(): number[] {
    const milestones = Object.entries(this.milestones).flatMap(([m, n]) => Array(n).fill(Number(m)) as number[]).sort((x, y) => x - y);
    const passed = milestones.filter((m) => m <= this.last_epoch).length; // bisect_right
    return this.base_lrs.map((base_lr) => base_lr * pyPow(this.gamma, passed));
  }
}

/** Multiplies the lr by gamma every epoch. */
export class ExponentialLR extends _LRScheduler {
  declare gamma: number;
  constructor(optimizer: Optimizer, gamma: number, options?: { last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["gamma", "last_epoch", "verbose"], { last_epoch: -1, verbose: false }, args);
    this.gamma = a.gamma;
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const groups = this.optimizer.param_groups;
    if (this.last_epoch === 0) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * this.gamma);
  }

  override _get_closed_form_lr(): number[] {
    return this.base_lrs.map((base_lr) => base_lr * pyPow(this.gamma, this.last_epoch));
  }
}

/**
 * Cosine annealing from the initial lr to eta_min over T_max epochs, in 1.13's recursive form (each lr
 * from the previous one, so it composes with other changes to the lr), back up after T_max.
 */
export class CosineAnnealingLR extends _LRScheduler {
  declare T_max: number;
  declare eta_min: number;
  constructor(optimizer: Optimizer, T_max: number, options?: { eta_min?: number; last_epoch?: number; verbose?: boolean });
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const a = bind("__init__", ["T_max", "eta_min", "last_epoch", "verbose"], { eta_min: 0, last_epoch: -1, verbose: false }, args);
    this.T_max = a.T_max;
    this.eta_min = a.eta_min;
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const groups = this.optimizer.param_groups;
    const { eta_min, T_max, last_epoch } = this;
    if (last_epoch === 0) return groups.map((g) => g.lr);
    if (this._step_count === 1 && last_epoch > 0) {
      return this.base_lrs.map((base_lr) => eta_min + ((base_lr - eta_min) * (1 + pyCos((last_epoch * Math.PI) / T_max))) / 2);
    }
    if (pyMod(last_epoch - 1 - T_max, 2 * T_max) === 0) {
      return groups.map((g, i) => g.lr + ((this.base_lrs[i] - eta_min) * (1 - pyCos(Math.PI / T_max))) / 2);
    }
    return groups.map(
      (g) => ((1 + pyCos((Math.PI * last_epoch) / T_max)) / (1 + pyCos((Math.PI * (last_epoch - 1)) / T_max))) * (g.lr - eta_min) + eta_min,
    );
  }

  override _get_closed_form_lr(): number[] {
    return this.base_lrs.map((base_lr) => this.eta_min + ((base_lr - this.eta_min) * (1 + pyCos((Math.PI * this.last_epoch) / this.T_max))) / 2);
  }
}

interface OneCyclePhase {
  end_step: number;
  start_lr: string;
  end_lr: string;
  start_momentum: string;
  end_momentum: string;
}

export interface OneCycleLROptions {
  total_steps?: number | null;
  epochs?: number | null;
  steps_per_epoch?: number | null;
  pct_start?: number;
  anneal_strategy?: "cos" | "linear";
  cycle_momentum?: boolean;
  base_momentum?: number | number[];
  max_momentum?: number | number[];
  div_factor?: number;
  final_div_factor?: number;
  three_phase?: boolean;
  last_epoch?: number;
  verbose?: boolean;
}

/**
 * The 1cycle policy: the lr rises from max_lr/div_factor to max_lr over pct_start of the steps and
 * anneals (cos or linear) to initial_lr/final_div_factor, momentum (or Adam's beta1) moving inversely;
 * three_phase anneals back to initial_lr before the final decay. Stepped once per batch.
 */
export class OneCycleLR extends _LRScheduler {
  declare total_steps: number;
  declare _schedule_phases: OneCyclePhase[];
  declare anneal_func: (start: number, end: number, pct: number) => number;
  declare cycle_momentum: boolean;
  declare use_beta1: boolean;
  constructor(optimizer: Optimizer, max_lr: number | number[], options?: OneCycleLROptions);
  constructor(optimizer: Optimizer, ...args: any[]) {
    super();
    const names = ["max_lr", "total_steps", "epochs", "steps_per_epoch", "pct_start", "anneal_strategy", "cycle_momentum", "base_momentum",
      "max_momentum", "div_factor", "final_div_factor", "three_phase", "last_epoch", "verbose"];
    const a = bind("__init__", names, {
      total_steps: null, epochs: null, steps_per_epoch: null, pct_start: 0.3, anneal_strategy: "cos", cycle_momentum: true, base_momentum: 0.85,
      max_momentum: 0.95, div_factor: 25.0, final_div_factor: 1e4, three_phase: false, last_epoch: -1, verbose: false,
    }, args);
    checkOptimizer(optimizer);
    const { total_steps, epochs, steps_per_epoch, pct_start } = a;
    // validate total_steps
    if (total_steps === null && epochs === null && steps_per_epoch === null) {
      throw new ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)");
    } else if (total_steps !== null) {
      if (total_steps <= 0 || !Number.isInteger(total_steps)) throw new ValueError(`Expected positive integer total_steps, but got ${pyRepr(total_steps)}`);
      this.total_steps = total_steps;
    } else {
      if (epochs <= 0 || !Number.isInteger(epochs)) throw new ValueError(`Expected positive integer epochs, but got ${pyRepr(epochs)}`);
      if (steps_per_epoch <= 0 || !Number.isInteger(steps_per_epoch)) {
        throw new ValueError(`Expected positive integer steps_per_epoch, but got ${pyRepr(steps_per_epoch)}`);
      }
      this.total_steps = epochs * steps_per_epoch;
    }
    const n = this.total_steps;
    this._schedule_phases = a.three_phase
      ? [
          { end_step: pct_start * n - 1, start_lr: "initial_lr", end_lr: "max_lr", start_momentum: "max_momentum", end_momentum: "base_momentum" },
          { end_step: 2 * pct_start * n - 2, start_lr: "max_lr", end_lr: "initial_lr", start_momentum: "base_momentum", end_momentum: "max_momentum" },
          { end_step: n - 1, start_lr: "initial_lr", end_lr: "min_lr", start_momentum: "max_momentum", end_momentum: "max_momentum" },
        ]
      : [
          { end_step: pct_start * n - 1, start_lr: "initial_lr", end_lr: "max_lr", start_momentum: "max_momentum", end_momentum: "base_momentum" },
          { end_step: n - 1, start_lr: "max_lr", end_lr: "min_lr", start_momentum: "base_momentum", end_momentum: "max_momentum" },
        ];
    // validate pct_start (JavaScript cannot tell an int 0 or 1 from a float: both are accepted)
    if (typeof pct_start !== "number" || pct_start < 0 || pct_start > 1) {
      throw new ValueError(`Expected float between 0 and 1 pct_start, but got ${pyRepr(pct_start)}`);
    }
    // validate anneal_strategy
    if (a.anneal_strategy !== "cos" && a.anneal_strategy !== "linear") {
      throw new ValueError(`anneal_strategy must by one of 'cos' or 'linear', instead got ${a.anneal_strategy}`);
    }
    this.anneal_func = a.anneal_strategy === "cos" ? this._annealing_cos : this._annealing_linear;
    // initialize learning rate variables
    const max_lrs = this._format_param("max_lr", optimizer, a.max_lr);
    if (a.last_epoch === -1) {
      optimizer.param_groups.forEach((group, idx) => {
        group.initial_lr = max_lrs[idx] / a.div_factor;
        group.max_lr = max_lrs[idx];
        group.min_lr = group.initial_lr / a.final_div_factor;
      });
    }
    // initialize momentum variables
    this.cycle_momentum = a.cycle_momentum;
    if (this.cycle_momentum) {
      if (!("momentum" in optimizer.defaults) && !("betas" in optimizer.defaults)) {
        throw new ValueError("optimizer must support momentum with `cycle_momentum` option enabled");
      }
      this.use_beta1 = "betas" in optimizer.defaults;
      const max_momentums = this._format_param("max_momentum", optimizer, a.max_momentum);
      const base_momentums = this._format_param("base_momentum", optimizer, a.base_momentum);
      if (a.last_epoch === -1) {
        optimizer.param_groups.forEach((group, i) => {
          if (this.use_beta1) group.betas = [max_momentums[i], ...group.betas.slice(1)];
          else group.momentum = max_momentums[i];
          group.max_momentum = max_momentums[i];
          group.base_momentum = base_momentums[i];
        });
      }
    }
    this._init(optimizer, a.last_epoch, a.verbose);
  }

  _format_param(name: string, optimizer: Optimizer, param: number | number[]): number[] {
    if (Array.isArray(param)) {
      if (param.length !== optimizer.param_groups.length) {
        throw new ValueError(`expected ${optimizer.param_groups.length} values for ${name}, got ${param.length}`);
      }
      return param;
    }
    return optimizer.param_groups.map(() => param);
  }

  /** Cosine anneal from `start` to `end` as pct goes from 0.0 to 1.0. */
  _annealing_cos(start: number, end: number, pct: number): number {
    const cos_out = pyCos(Math.PI * pct) + 1;
    return end + ((start - end) / 2.0) * cos_out;
  }

  /** Linearly anneal from `start` to `end` as pct goes from 0.0 to 1.0. */
  _annealing_linear(start: number, end: number, pct: number): number {
    return (end - start) * pct + start;
  }

  override get_lr(): number[] {
    this.warnOutsideStep();
    const lrs: number[] = [];
    const step_num = this.last_epoch;
    if (step_num > this.total_steps) {
      throw new ValueError(`Tried to step ${step_num + 1} times. The specified number of total steps is ${this.total_steps}`);
    }
    for (const group of this.optimizer.param_groups) {
      let start_step = 0;
      let computed_lr = 0, computed_momentum = 0;
      const phases = this._schedule_phases;
      for (let i = 0; i < phases.length; i++) {
        const phase = phases[i];
        const end_step = phase.end_step;
        if (step_num <= end_step || i === phases.length - 1) {
          const pct = (step_num - start_step) / (end_step - start_step);
          computed_lr = this.anneal_func(group[phase.start_lr], group[phase.end_lr], pct);
          if (this.cycle_momentum) computed_momentum = this.anneal_func(group[phase.start_momentum], group[phase.end_momentum], pct);
          break;
        }
        start_step = phase.end_step;
      }
      lrs.push(computed_lr);
      if (this.cycle_momentum) {
        if (this.use_beta1) group.betas = [computed_momentum, ...group.betas.slice(1)];
        else group.momentum = computed_momentum;
      }
    }
    return lrs;
  }
}

export interface ReduceLROnPlateauOptions {
  mode?: "min" | "max";
  factor?: number;
  patience?: number;
  threshold?: number;
  threshold_mode?: "rel" | "abs";
  cooldown?: number;
  min_lr?: number | number[];
  eps?: number;
  verbose?: boolean;
}

/**
 * Reduces the lr by `factor` when a metric has stopped improving for `patience` epochs (then waits
 * `cooldown` epochs); improvement is relative or absolute to `threshold`; an lr change smaller than
 * eps is skipped; each group's lr stays at least its min_lr.
 */
export class ReduceLROnPlateau {
  declare optimizer: Optimizer;
  declare factor: number;
  declare min_lrs: number[];
  declare patience: number;
  declare verbose: boolean;
  declare cooldown: number;
  declare cooldown_counter: number;
  declare mode: "min" | "max";
  declare threshold: number;
  declare threshold_mode: "rel" | "abs";
  declare best: number;
  declare num_bad_epochs: number;
  declare mode_worse: number;
  declare eps: number;
  declare last_epoch: number;
  declare _last_lr: number[];

  constructor(optimizer: Optimizer, options?: ReduceLROnPlateauOptions);
  constructor(optimizer: Optimizer, ...args: any[]) {
    const names = ["mode", "factor", "patience", "threshold", "threshold_mode", "cooldown", "min_lr", "eps", "verbose"];
    const a = bind("__init__", names, {
      mode: "min", factor: 0.1, patience: 10, threshold: 1e-4, threshold_mode: "rel", cooldown: 0, min_lr: 0, eps: 1e-8, verbose: false,
    }, args);
    if (a.factor >= 1.0) throw new ValueError("Factor should be < 1.0.");
    this.factor = a.factor;
    checkOptimizer(optimizer);
    Object.defineProperty(this, "optimizer", { value: optimizer, writable: true, configurable: true, enumerable: false });
    if (Array.isArray(a.min_lr)) {
      if (a.min_lr.length !== optimizer.param_groups.length) {
        throw new ValueError(`expected ${optimizer.param_groups.length} min_lrs, got ${a.min_lr.length}`);
      }
      this.min_lrs = [...a.min_lr];
    } else {
      this.min_lrs = optimizer.param_groups.map(() => a.min_lr);
    }
    this.patience = a.patience;
    this.verbose = a.verbose;
    this.cooldown = a.cooldown;
    this.cooldown_counter = 0;
    this.mode = a.mode;
    this.threshold = a.threshold;
    this.threshold_mode = a.threshold_mode;
    this.best = NaN;
    this.num_bad_epochs = 0;
    this.mode_worse = NaN; // the worse value for the chosen mode
    this.eps = a.eps;
    this.last_epoch = 0;
    this._init_is_better(a.mode, a.threshold, a.threshold_mode);
    this._reset();
  }

  /** Resets the bad-epoch counter and the cooldown. */
  _reset(): void {
    this.best = this.mode_worse;
    this.cooldown_counter = 0;
    this.num_bad_epochs = 0;
  }

  /** One epoch's metric (a number, or a 0-d tensor). */
  step(metrics: number | Tensor, epoch: number | null = null): void {
    const current = metrics instanceof Tensor ? Number((metrics as any).item()) : Number(metrics);
    if (epoch === null || epoch === undefined) epoch = this.last_epoch + 1;
    else warn(EPOCH_DEPRECATION_WARNING);
    this.last_epoch = epoch;
    if (this.is_better(current, this.best)) {
      this.best = current;
      this.num_bad_epochs = 0;
    } else {
      this.num_bad_epochs += 1;
    }
    if (this.in_cooldown) {
      this.cooldown_counter -= 1;
      this.num_bad_epochs = 0; // ignore any bad epochs in cooldown
    }
    if (this.num_bad_epochs > this.patience) {
      this._reduce_lr(epoch);
      this.cooldown_counter = this.cooldown;
      this.num_bad_epochs = 0;
    }
    this._last_lr = this.optimizer.param_groups.map((g) => g.lr);
  }

  _reduce_lr(epoch: number): void {
    this.optimizer.param_groups.forEach((param_group, i) => {
      const old_lr = Number(param_group.lr);
      const new_lr = Math.max(old_lr * this.factor, this.min_lrs[i]);
      if (old_lr - new_lr > this.eps) {
        param_group.lr = new_lr;
        if (this.verbose) console.log(`Epoch ${epochStr(epoch)}: reducing learning rate of group ${i} to ${formatExponent(new_lr, 4)}.`);
      }
    });
  }

  get in_cooldown(): boolean {
    return this.cooldown_counter > 0;
  }

  is_better(a: number, best: number): boolean {
    if (this.mode === "min" && this.threshold_mode === "rel") return a < best * (1 - this.threshold);
    if (this.mode === "min" && this.threshold_mode === "abs") return a < best - this.threshold;
    if (this.mode === "max" && this.threshold_mode === "rel") return a > best * (this.threshold + 1);
    return a > best + this.threshold; // mode == 'max' and threshold_mode == 'abs'
  }

  _init_is_better(mode: string, threshold: number, threshold_mode: string): void {
    if (mode !== "min" && mode !== "max") throw new ValueError("mode " + mode + " is unknown!");
    if (threshold_mode !== "rel" && threshold_mode !== "abs") throw new ValueError("threshold mode " + threshold_mode + " is unknown!");
    this.mode_worse = mode === "min" ? Infinity : -Infinity;
    this.mode = mode;
    this.threshold = threshold;
    this.threshold_mode = threshold_mode;
  }

  state_dict(): Record<string, any> {
    return Object.fromEntries(Object.entries(this).filter(([k]) => k !== "optimizer"));
  }

  load_state_dict(state_dict: Record<string, any>): void {
    Object.assign(this, state_dict);
    this._init_is_better(this.mode, this.threshold, this.threshold_mode);
  }
}
