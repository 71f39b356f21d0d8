// torch.nn.Module (torch/nn/modules/module.py, PyTorch 1.13): the base class of every layer.
//
// Python's Module intercepts attribute assignment (__setattr__) to register Parameters, Modules and
// buffers in _parameters/_modules/_buffers, and finds them again in __getattr__. A JavaScript class cannot
// intercept `this.weight = ...`, so the Module constructor returns a Proxy of the instance:
//   - its `set` and `defineProperty` traps run __setattr__'s rules (TypeScript class fields define
//     properties, so both are routed; a field declared without a value does not clear a registered name);
//   - its `deleteProperty` trap is __delattr__;
//   - there is NO `get` trap: a registered name gets an accessor property on the instance that reads the
//     dicts (as __getattr__ does), so `this.weight` in forward costs one proxy hop and one getter call
//     (measured in test/nn/module.test.ts's README note: tens of nanoseconds, nothing next to an op);
//   - the proxied object is a function whose prototype is the class's, so a module is callable like in
//     Python: `model(x)` runs __call__ (_call_impl: forward pre-hooks, forward, forward hooks, full
//     backward hooks). `model.forward(x)` skips the hooks, as in Python. `typeof model` is "function".

import { Tensor } from "../../aten/core/Tensor.js";
import { AttributeError, KeyError, RuntimeError, TypeError_, ValueError } from "../../c10/Errors.js";
import { hold_storage } from "../../c10/Dispose.js";
import { bfloat16, float16, float32, float64, type dtype } from "../../c10/ScalarType.js";
import { AutoGradMode, GradMode } from "../../c10/GradMode.js";
import { RemovableHandle } from "../../autograd/function.js";
import { Function as AutogradFunction, type FunctionCtx } from "../../autograd/custom_function.js";
import { Parameter, typename } from "../parameter.js";
import { deepcopy } from "../copy.js";

export type StateDict = Record<string, Tensor> & { _metadata?: Record<string, { version: number }> };
export interface IncompatibleKeys {
  missing_keys: string[];
  unexpected_keys: string[];
}
type Hook = (...args: any[]) => any;

let nextHookId = 0;
const EXTRA_STATE_KEY_SUFFIX = "_extra_state";

/** _addindent: indents every line but the first by numSpaces. */
export function _addindent(s_: string, numSpaces: number): string {
  const s = s_.split("\n");
  if (s.length === 1) return s_;
  const first = s.shift()!;
  return first + "\n" + s.map((line) => " ".repeat(numSpaces) + line).join("\n");
}

/** A registry of hooks by id, as the OrderedDicts Module keeps, with RemovableHandle removal. */
class HookDict extends Map<number, Hook> {
  add(hook: Hook): RemovableHandle {
    const id = nextHookId++;
    this.set(id, hook);
    return new RemovableHandle(() => this.delete(id));
  }
}

/** BackwardHookFunction (torch/nn/modules/_functions.py): identity whose backward Node the hooks watch. */
class BackwardHookFunction extends AutogradFunction {
  static override forward(ctx: FunctionCtx, ...args: Tensor[]): Tensor[] {
    ctx.mark_non_differentiable(...args.filter((a) => !a.requires_grad));
    return args;
  }
  static override backward(_ctx: FunctionCtx, ...args: (Tensor | null)[]): (Tensor | null)[] {
    return args;
  }
}

/** torch.utils.hooks.BackwardHook: a module's full backward hooks, run once its input gradients are known. */
class BackwardHook {
  private grad_outputs: (Tensor | null)[] | null = null;
  private n_outputs = -1;
  private output_tensors_index: number[] | null = null;
  private n_inputs = -1;
  private input_tensors_index: number[] | null = null;

  constructor(private readonly module: Module, private readonly user_hooks: Hook[]) {}

  private _pack_with_none(indices: number[], values: readonly (Tensor | null)[], size: number): (Tensor | null)[] {
    const res: (Tensor | null)[] = new Array(size).fill(null);
    indices.forEach((idx, i) => (res[idx] = values[i] ?? null));
    return res;
  }

  private _unpack_none(indices: number[], values: readonly (Tensor | null)[]): (Tensor | null)[] {
    return indices.map((idx) => values[idx] ?? null);
  }

  private _set_user_hook(grad_fn: any): void {
    grad_fn.register_hook((grad_input: (Tensor | null)[]) => {
      if (this.grad_outputs === null) return undefined; // gradient reached the input without the output (double backward)
      let res = this._pack_with_none(this.input_tensors_index!, grad_input, this.n_inputs);
      for (const hook of this.user_hooks) {
        const out = hook(this.module, res, this.grad_outputs);
        if (out === null || out === undefined) continue;
        if (out.length !== res.length) {
          throw new RuntimeError(`Backward hook returned an invalid number of grad_input, got ${out.length}, but expected ${res.length}`);
        }
        res = out;
      }
      this.grad_outputs = null;
      return this._unpack_none(this.input_tensors_index!, res);
    });
  }

  private _apply_on_tensors(fn: (grad_fn: any) => void, args: unknown[]): [unknown[], number[] | null] {
    const tensors_idx: number[] = [];
    const tensors: Tensor[] = [];
    let requires_grad = false;
    args.forEach((arg, i) => {
      if (arg instanceof Tensor) {
        tensors_idx.push(i);
        tensors.push(arg);
        requires_grad ||= arg.requires_grad;
      }
    });
    if (!(requires_grad && GradMode.is_enabled())) return [args, null];
    const raw = BackwardHookFunction.apply(...tensors) as Tensor | Tensor[];
    const new_tensors = Array.isArray(raw) ? raw : [raw];
    if (new_tensors.length === 0) throw new RuntimeError("Cannot set Module backward hook for a Module with no input Tensors.");
    const grad_fns = new_tensors.map((t) => t.grad_fn).filter((g) => g !== null && g.name() === "BackwardHookFunctionBackward");
    if (grad_fns.length === 0) {
      throw new RuntimeError("Error while setting up backward hooks. Please open an issue with a code sample to reproduce this.");
    }
    fn(grad_fns[0]);
    const arg_list = [...args];
    tensors_idx.forEach((idx, i) => (arg_list[idx] = new_tensors[i]));
    return [arg_list, tensors_idx];
  }

  setup_input_hook(args: unknown[]): unknown[] {
    const [res, input_idx] = this._apply_on_tensors((g) => this._set_user_hook(g), args);
    this.n_inputs = args.length;
    this.input_tensors_index = input_idx;
    return res;
  }

  setup_output_hook(result: unknown): unknown {
    const fn = (grad_fn: any) => {
      grad_fn.register_hook((_: unknown, grad_output: (Tensor | null)[]) => {
        this.grad_outputs = this._pack_with_none(this.output_tensors_index!, grad_output, this.n_outputs);
        // no input required gradients: the user hooks run here, with no grad_input
        if (this.input_tensors_index === null) {
          const grad_inputs = this._pack_with_none([], [], this.n_inputs);
          for (const user_hook of this.user_hooks) {
            const res = user_hook(this.module, grad_inputs, this.grad_outputs);
            if (res !== null && res !== undefined && !(Array.isArray(res) && res.every((el) => el === null || el === undefined))) {
              throw new RuntimeError("Backward hook for Modules where no input requires gradient should always return None or None for all gradients.");
            }
          }
          this.grad_outputs = null;
        }
        return undefined;
      });
    };
    const is_tuple = Array.isArray(result);
    const args = is_tuple ? (result as unknown[]) : [result];
    const [res, output_idx] = this._apply_on_tensors(fn, args);
    this.n_outputs = args.length;
    this.output_tensors_index = output_idx;
    return is_tuple ? res : res[0];
  }
}

// The Proxy's traps: __setattr__ / __delattr__ for every Module.
const handler: ProxyHandler<any> = {
  set(target, name, value, receiver) {
    if (typeof name === "symbol") return Reflect.set(target, name, value);
    (target as Module).__setattr__.call(receiver, name, value);
    return true;
  },
  defineProperty(target, name, desc) {
    if (typeof name === "symbol" || !("value" in desc) || desc.get || desc.set) return Reflect.defineProperty(target, name, desc);
    const m = target as Module;
    // a TypeScript field declared without a value (`weight!: Parameter`) leaves a registered name alone
    if (desc.value === undefined && m._parameters && (name in m._parameters || name in m._buffers || name in m._modules)) return true;
    m.__setattr__.call(proxyOf.get(target), name, desc.value);
    return true;
  },
  deleteProperty(target, name) {
    if (typeof name === "symbol") return Reflect.deleteProperty(target, name);
    (target as Module).__delattr__.call(proxyOf.get(target), name);
    return true;
  },
  apply(target, _this, args) {
    return proxyOf.get(target)._call_impl(...args);
  },
};
const proxyOf = new WeakMap<object, any>();
// the proxy -> its target, so writes that must not re-enter the traps reach the object itself
const targetOf = new WeakMap<object, any>();

/** The accessor a registered name gets: __getattr__'s lookup in _parameters, _buffers, _modules (of the target, no proxy hop). */
function attrAccessor(name: string, t: any): PropertyDescriptor {
  return {
    configurable: true,
    enumerable: true,
    get() {
      const p = t._parameters;
      if (name in p) return p[name];
      const b = t._buffers;
      if (name in b) return b[name];
      return t._modules[name];
    },
  };
}

export interface Module {
  /** Module.__call__: `model(x)` runs forward with the module's hooks. */
  (...args: any[]): any;
}

export class Module {
  /** Module._version: the state_dict metadata version (BatchNorm bumps it). */
  static _version = 1;
  declare training: boolean;
  declare _parameters: Record<string, Parameter | null>;
  declare _buffers: Record<string, Tensor | null>;
  declare _non_persistent_buffers_set: Set<string>;
  declare _modules: Record<string, Module | null>;
  declare _forward_hooks: HookDict;
  declare _forward_pre_hooks: HookDict;
  declare _backward_hooks: HookDict;
  declare _is_full_backward_hook: boolean | null;
  declare _state_dict_hooks: HookDict;
  declare _load_state_dict_pre_hooks: HookDict;
  declare _load_state_dict_post_hooks: HookDict;

  constructor() {
    const target = (() => undefined) as any;
    delete target.name;
    delete target.length;
    Object.setPrototypeOf(target, new.target.prototype);
    target.training = true;
    target._parameters = Object.create(null);
    target._buffers = Object.create(null);
    target._non_persistent_buffers_set = new Set();
    target._backward_hooks = new HookDict();
    target._is_full_backward_hook = null;
    target._forward_hooks = new HookDict();
    target._forward_pre_hooks = new HookDict();
    target._state_dict_hooks = new HookDict();
    target._load_state_dict_pre_hooks = new HookDict();
    target._load_state_dict_post_hooks = new HookDict();
    target._modules = Object.create(null);
    const proxy = new Proxy(target, handler);
    proxyOf.set(target, proxy);
    targetOf.set(proxy, target);
    return proxy;
  }

  forward(..._args: any[]): any {
    throw new Error(`Module [${this._get_name()}] is missing the required "forward" function`);
  }

  /**
   * copy.deepcopy(module) (torch.copy.deepcopy): what Python's default deepcopy does to a Module — a new
   * instance of the class, no __init__ run, its __dict__ deep-copied with the shared memo: _parameters
   * (Parameter.__deepcopy__: cloned data, same requires_grad, no grad), _buffers (Tensor.__deepcopy__),
   * _modules (recursively), the hook dicts (the same hook functions), training and every other attribute.
   * Objects shared inside the module stay shared in the copy (tied weights); nothing is drawn from the RNG.
   */
  __deepcopy__(memo: Map<unknown, unknown> = new Map()): this {
    const src = targetOf.get(this) ?? this;
    const dst: any = new Module();
    Object.setPrototypeOf(dst, Object.getPrototypeOf(this));
    memo.set(this, dst);
    const t = targetOf.get(dst);
    for (const key of Object.keys(src)) {
      const d = Object.getOwnPropertyDescriptor(src, key);
      if (!d || d.get || d.set) continue; // a registered name's accessor: re-made below over the copied dicts
      t[key] = deepcopy(d.value, memo);
    }
    for (const dict of [t._parameters, t._buffers, t._modules]) for (const name of Object.keys(dict)) Object.defineProperty(t, name, attrAccessor(name, t));
    return dst;
  }

  // ---- attribute routing (__setattr__ / __delattr__) ----

  /** Module.__setattr__'s rules (the Proxy's set trap calls this with `this` the module). */
  __setattr__(name: string, value: unknown): void {
    const removeFrom = (...ds: (Record<string, unknown> | Set<string>)[]) => {
      for (const d of ds) {
        if (d instanceof Set) d.delete(name);
        else if (name in d) delete d[name];
      }
    };
    const params = this._parameters;
    if (value instanceof Parameter) {
      if (params === undefined) throw new AttributeError("cannot assign parameters before Module.__init__() call");
      this._forget(name);
      removeFrom(this._buffers, this._modules, this._non_persistent_buffers_set);
      this.register_parameter(name, value);
    } else if (params !== undefined && name in params) {
      if (value !== null && value !== undefined) {
        throw new TypeError_(`cannot assign '${typename(value)}' as parameter '${name}' (torch.nn.Parameter or None expected)`);
      }
      this.register_parameter(name, null);
    } else if (value instanceof Module) {
      const modules = this._modules;
      if (modules === undefined) throw new AttributeError("cannot assign module before Module.__init__() call");
      this._forget(name);
      removeFrom(this._parameters, this._buffers, this._non_persistent_buffers_set);
      modules[name] = value;
      this._defineAttr(name);
    } else if (this._modules !== undefined && name in this._modules) {
      if (value !== null && value !== undefined) {
        throw new TypeError_(`cannot assign '${typename(value)}' as child module '${name}' (torch.nn.Module or None expected)`);
      }
      this._modules[name] = null;
    } else if (this._buffers !== undefined && name in this._buffers) {
      if (value !== null && value !== undefined && !(value instanceof Tensor)) {
        throw new TypeError_(`cannot assign '${typename(value)}' as buffer '${name}' (torch.Tensor or None expected)`);
      }
      this._buffers[name] = (value ?? null) as Tensor | null;
      if (value instanceof Tensor) hold_storage(value._impl.storage);
    } else {
      Reflect.defineProperty(this._target(), name, { value, writable: true, enumerable: true, configurable: true });
    }
  }

  /** Module.__delattr__. */
  __delattr__(name: string): void {
    const target = this._target();
    if (name in this._parameters) delete this._parameters[name];
    else if (name in this._buffers) {
      delete this._buffers[name];
      this._non_persistent_buffers_set.delete(name);
    } else if (name in this._modules) delete this._modules[name];
    else {
      Reflect.deleteProperty(target, name);
      return;
    }
    Reflect.deleteProperty(target, name);
  }

  _target(): any {
    // the proxied function itself: Reflect on the proxy would re-enter the traps
    return targetOf.get(this) ?? this;
  }

  /** remove_from(self.__dict__, ...): the plain attribute or the accessor of another registry goes. */
  _forget(name: string): void {
    Reflect.deleteProperty(this._target(), name);
  }

  _defineAttr(name: string): void {
    const t = this._target();
    const d = Object.getOwnPropertyDescriptor(t, name);
    if (!d || "value" in d) Reflect.defineProperty(t, name, attrAccessor(name, t));
  }

  /** hasattr(self, name) as register_* checks it. */
  _hasattr(name: string): boolean {
    return name in this._target();
  }

  // ---- registration ----

  register_buffer(name: string, tensor: Tensor | null, opts: { persistent?: boolean } | boolean = {}): void {
    const persistent = typeof opts === "boolean" ? opts : (opts.persistent ?? true);
    if (this._buffers === undefined) throw new AttributeError("cannot assign buffer before Module.__init__() call");
    if (typeof name !== "string") throw new TypeError_(`buffer name should be a string. Got ${typename(name)}`);
    if (name.includes(".")) throw new KeyError('buffer name can\'t contain "."');
    if (name === "") throw new KeyError('buffer name can\'t be empty string ""');
    if (this._hasattr(name) && !(name in this._buffers)) throw new KeyError(`attribute '${name}' already exists`);
    if (tensor !== null && tensor !== undefined && !(tensor instanceof Tensor)) {
      throw new TypeError_(`cannot assign '${typename(tensor)}' object to buffer '${name}' (torch Tensor or None required)`);
    }
    this._buffers[name] = tensor ?? null;
    // the module reads its buffers and parameters for good: disposing the user's handle never frees them (c10/Dispose.ts)
    if (tensor) hold_storage(tensor._impl.storage);
    if (persistent) this._non_persistent_buffers_set.delete(name);
    else this._non_persistent_buffers_set.add(name);
    this._defineAttr(name);
  }

  register_parameter(name: string, param: Parameter | null): void {
    if (this._parameters === undefined) throw new AttributeError("cannot assign parameter before Module.__init__() call");
    if (typeof name !== "string") throw new TypeError_(`parameter name should be a string. Got ${typename(name)}`);
    if (name.includes(".")) throw new KeyError('parameter name can\'t contain "."');
    if (name === "") throw new KeyError('parameter name can\'t be empty string ""');
    if (this._hasattr(name) && !(name in this._parameters)) throw new KeyError(`attribute '${name}' already exists`);
    if (param === null || param === undefined) this._parameters[name] = null;
    else if (!(param instanceof Parameter)) {
      throw new TypeError_(`cannot assign '${typename(param)}' object to parameter '${name}' (torch.nn.Parameter or None required)`);
    } else if (param.grad_fn) {
      throw new ValueError(
        `Cannot assign non-leaf Tensor to parameter '${name}'. Model parameters must be created explicitly. To express '${name}' as a function of another Tensor, compute the value in the forward() method.`,
      );
    } else {
      this._parameters[name] = param;
      hold_storage(param._impl.storage);
    }
    this._defineAttr(name);
  }

  add_module(name: string, module: Module | null): void {
    if (!(module instanceof Module) && module !== null && module !== undefined) throw new TypeError_(`${typename(module)} is not a Module subclass`);
    if (typeof name !== "string") throw new TypeError_(`module name should be a string. Got ${typename(name)}`);
    if (this._hasattr(name) && !(name in this._modules)) throw new KeyError(`attribute '${name}' already exists`);
    if (name.includes(".")) throw new KeyError(`module name can't contain ".", got: ${name}`);
    if (name === "") throw new KeyError('module name can\'t be empty string ""');
    this._modules[name] = module ?? null;
    this._defineAttr(name);
  }

  register_module(name: string, module: Module | null): void {
    this.add_module(name, module);
  }

  get_submodule(target: string): Module {
    if (target === "") return this;
    let mod: Module = this;
    for (const item of target.split(".")) {
      if (!(item in mod._modules) && !mod._hasattr(item)) throw new AttributeError(`${mod._get_name()} has no attribute \`${item}\``);
      const next = (mod as any)[item];
      if (!(next instanceof Module)) throw new AttributeError(`\`${item}\` is not an nn.Module`);
      mod = next;
    }
    return mod;
  }

  get_parameter(target: string): Parameter {
    const i = target.lastIndexOf(".");
    const [modPath, name] = i < 0 ? ["", target] : [target.slice(0, i), target.slice(i + 1)];
    const mod = this.get_submodule(modPath);
    if (!mod._hasattr(name)) throw new AttributeError(`${mod._get_name()} has no attribute \`${name}\``);
    const p = (mod as any)[name];
    if (!(p instanceof Parameter)) throw new AttributeError(`\`${name}\` is not an nn.Parameter`);
    return p;
  }

  // ---- iteration ----

  /** _named_members: (name, value) pairs of every module's members, each value once. */
  *_named_members(get: (m: Module) => Iterable<[string, any]>, prefix = "", recurse = true, remove_duplicate = true): Generator<[string, any]> {
    const memo = new Set<unknown>();
    const modules: Iterable<[string, Module]> = recurse ? this.named_modules({ prefix, remove_duplicate }) : [[prefix, this]];
    for (const [module_prefix, module] of modules) {
      for (const [k, v] of get(module)) {
        if (v === null || v === undefined || memo.has(v)) continue;
        if (remove_duplicate) memo.add(v);
        yield [module_prefix + (module_prefix ? "." : "") + k, v];
      }
    }
  }

  *parameters(opts: { recurse?: boolean } | boolean = {}): Generator<Parameter> {
    const recurse = typeof opts === "boolean" ? opts : (opts.recurse ?? true);
    for (const [, p] of this.named_parameters({ recurse })) yield p;
  }

  named_parameters(opts: { prefix?: string; recurse?: boolean; remove_duplicate?: boolean } = {}): Generator<[string, Parameter]> {
    return this._named_members((m) => Object.entries(m._parameters), opts.prefix ?? "", opts.recurse ?? true, opts.remove_duplicate ?? true);
  }

  *buffers(opts: { recurse?: boolean } | boolean = {}): Generator<Tensor> {
    const recurse = typeof opts === "boolean" ? opts : (opts.recurse ?? true);
    for (const [, b] of this.named_buffers({ recurse })) yield b;
  }

  named_buffers(opts: { prefix?: string; recurse?: boolean; remove_duplicate?: boolean } = {}): Generator<[string, Tensor]> {
    return this._named_members((m) => Object.entries(m._buffers), opts.prefix ?? "", opts.recurse ?? true, opts.remove_duplicate ?? true);
  }

  *children(): Generator<Module> {
    for (const [, m] of this.named_children()) yield m;
  }

  *named_children(): Generator<[string, Module]> {
    const memo = new Set<Module>();
    for (const [name, module] of Object.entries(this._modules)) {
      if (module !== null && !memo.has(module)) {
        memo.add(module);
        yield [name, module];
      }
    }
  }

  *modules(): Generator<Module> {
    for (const [, m] of this.named_modules()) yield m;
  }

  *named_modules(opts: { memo?: Set<Module>; prefix?: string; remove_duplicate?: boolean } = {}): Generator<[string, Module]> {
    const memo = opts.memo ?? new Set<Module>();
    const prefix = opts.prefix ?? "";
    const remove_duplicate = opts.remove_duplicate ?? true;
    if (memo.has(this)) return;
    if (remove_duplicate) memo.add(this);
    yield [prefix, this];
    for (const [name, module] of Object.entries(this._modules)) {
      if (module === null) continue;
      const submodule_prefix = prefix + (prefix ? "." : "") + name;
      yield* module.named_modules({ memo, prefix: submodule_prefix, remove_duplicate });
    }
  }

  // ---- modes and gradients ----

  train(mode = true): this {
    if (typeof mode !== "boolean") throw new ValueError("training mode is expected to be boolean");
    this.training = mode;
    for (const module of this.children()) module.train(mode);
    return this;
  }

  eval(): this {
    return this.train(false);
  }

  requires_grad_(requires_grad = true): this {
    for (const p of this.parameters()) p.requires_grad_(requires_grad);
    return this;
  }

  /** zero_grad(set_to_none=False) — 1.13's default keeps the .grad tensors and zeroes them. */
  zero_grad(opts: { set_to_none?: boolean } | boolean = {}): void {
    const set_to_none = typeof opts === "boolean" ? opts : (opts.set_to_none ?? false);
    for (const p of this.parameters()) {
      if (p.grad === null) continue;
      if (set_to_none) p.grad = null;
      else {
        if (p.grad.grad_fn !== null) p.grad = p.grad.detach() as Tensor;
        else p.grad.requires_grad_(false);
        p.grad.zero_();
      }
    }
  }

  apply(fn: (m: Module) => void): this {
    for (const module of this.children()) module.apply(fn);
    fn(this);
    return this;
  }

  /**
   * _apply(fn): fn on every parameter, its .grad and every buffer. A converted parameter is a new
   * Parameter in _parameters (PyTorch's `param.data = fn(param)` keeps the Python object; Glasstorch's
   * Tensor has no settable .data, so code holding the old Parameter object must re-read it).
   */
  _apply(fn: (t: Tensor) => Tensor): this {
    for (const module of this.children()) module._apply(fn);
    for (const [key, param] of Object.entries(this._parameters)) {
      if (param === null) continue;
      let param_applied: Tensor;
      {
        using _g = new AutoGradMode(false);
        param_applied = fn(param);
      }
      let out: Parameter = param;
      if (param_applied !== param && param_applied._impl !== param._impl) {
        out = new Parameter(param_applied, param.requires_grad);
        this._parameters[key] = out;
      }
      if (param.grad !== null) {
        let grad_applied: Tensor;
        {
          using _g = new AutoGradMode(false);
          grad_applied = fn(param.grad);
        }
        out.grad = grad_applied.requires_grad_(param.grad.requires_grad);
      }
    }
    for (const [key, buf] of Object.entries(this._buffers)) if (buf !== null) this._buffers[key] = fn(buf);
    return this;
  }

  /** to(device), to(dtype), to(tensor), to(device, dtype): floating-point parameters and buffers take the dtype. */
  to(...args: any[]): this {
    let device: any = null;
    let dt: dtype | null = null;
    for (const a of args) {
      if (a instanceof Tensor) [device, dt] = [a.device, a.dtype];
      else if (a && typeof a === "object" && "is_floating_point" in a) dt = a as dtype;
      else if (typeof a === "string" || (a && typeof a === "object" && "type" in a && !("dtype" in a) && !("device" in a))) device = a;
      else if (a && typeof a === "object") {
        if (a.device !== undefined) device = a.device;
        if (a.dtype !== undefined) dt = a.dtype;
      }
    }
    if (dt !== null && !(dt.is_floating_point || dt.is_complex)) {
      throw new TypeError_(`nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=${dt}`);
    }
    return this._apply((t) => {
      const target = t.is_floating_point() || t.is_complex() ? dt : null;
      const opts: Record<string, unknown> = {};
      if (device !== null) opts.device = device;
      if (target !== null) opts.dtype = target;
      return Object.keys(opts).length ? ((t as any).to(opts) as Tensor) : t;
    });
  }

  float(): this {
    return this._apply((t) => (t.is_floating_point() ? ((t as any).to(float32) as Tensor) : t));
  }

  double(): this {
    return this._apply((t) => (t.is_floating_point() ? ((t as any).to(float64) as Tensor) : t));
  }

  half(): this {
    return this._apply((t) => (t.is_floating_point() ? ((t as any).to(float16) as Tensor) : t));
  }

  bfloat16(): this {
    return this._apply((t) => (t.is_floating_point() ? ((t as any).to(bfloat16) as Tensor) : t));
  }

  cpu(): this {
    return this._apply((t) => (t as any).to("cpu") as Tensor);
  }

  // ---- hooks and __call__ ----

  register_forward_pre_hook(hook: (module: Module, input: any[]) => any): RemovableHandle {
    return this._forward_pre_hooks.add(hook);
  }

  register_forward_hook(hook: (module: Module, input: any[], output: any) => any): RemovableHandle {
    return this._forward_hooks.add(hook);
  }

  register_full_backward_hook(hook: (module: Module, grad_input: (Tensor | null)[], grad_output: (Tensor | null)[]) => any): RemovableHandle {
    if (this._is_full_backward_hook === false) {
      throw new RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. Please use only one of them.");
    }
    this._is_full_backward_hook = true;
    return this._backward_hooks.add(hook);
  }

  /** Module.__call__ (_call_impl): pre-hooks (may replace the input), forward, forward hooks (may replace the output), full backward hooks. */
  _call_impl(...input: any[]): any {
    if (this._backward_hooks.size === 0 && this._forward_hooks.size === 0 && this._forward_pre_hooks.size === 0) return this.forward(...input);
    const full_backward_hooks = this._is_full_backward_hook ? [...this._backward_hooks.values()] : [];
    for (const hook of [...this._forward_pre_hooks.values()]) {
      const result = hook(this, input);
      if (result !== null && result !== undefined) input = Array.isArray(result) ? result : [result];
    }
    let bw_hook: BackwardHook | null = null;
    if (full_backward_hooks.length) {
      bw_hook = new BackwardHook(this, full_backward_hooks);
      input = bw_hook.setup_input_hook(input);
    }
    let result = this.forward(...input);
    for (const hook of [...this._forward_hooks.values()]) {
      const hook_result = hook(this, input, result);
      if (hook_result !== null && hook_result !== undefined) result = hook_result;
    }
    if (bw_hook) result = bw_hook.setup_output_hook(result);
    return result;
  }

  /** `model.__call__(x)`, the same as `model(x)`. */
  __call__(...input: any[]): any {
    return this._call_impl(...input);
  }

  // ---- state_dict ----

  _save_to_state_dict(destination: StateDict, prefix: string, keep_vars: boolean): void {
    for (const [name, param] of Object.entries(this._parameters)) {
      if (param !== null) destination[prefix + name] = keep_vars ? param : (param.detach() as Tensor);
    }
    for (const [name, buf] of Object.entries(this._buffers)) {
      if (buf !== null && !this._non_persistent_buffers_set.has(name)) destination[prefix + name] = keep_vars ? buf : (buf.detach() as Tensor);
    }
  }

  /**
   * state_dict({prefix, keep_vars}): an ordered plain object of name -> Tensor (detached unless keep_vars),
   * with PyTorch's key names and a non-enumerable `_metadata` ({"": {version: 1}, "fc": {version: 1}, ...}).
   */
  state_dict(opts: { destination?: StateDict; prefix?: string; keep_vars?: boolean } = {}): StateDict {
    let destination = opts.destination;
    const prefix = opts.prefix ?? "";
    const keep_vars = opts.keep_vars ?? false;
    if (destination === undefined) {
      destination = {} as StateDict;
      Object.defineProperty(destination, "_metadata", { value: {}, enumerable: false, writable: true, configurable: true });
    }
    if (destination._metadata) destination._metadata[prefix.slice(0, -1)] = { version: (this.constructor as typeof Module)._version };
    this._save_to_state_dict(destination, prefix, keep_vars);
    for (const [name, module] of Object.entries(this._modules)) {
      if (module !== null) module.state_dict({ destination, prefix: prefix + name + ".", keep_vars });
    }
    return destination;
  }

  _load_from_state_dict(
    state_dict: Map<string, any>,
    prefix: string,
    _local_metadata: { version?: number },
    strict: boolean,
    missing_keys: string[],
    unexpected_keys: string[],
    error_msgs: string[],
  ): void {
    const local_state = new Map<string, Tensor>();
    for (const [k, v] of Object.entries(this._parameters)) if (v !== null) local_state.set(k, v);
    for (const [k, v] of Object.entries(this._buffers)) if (v !== null && !this._non_persistent_buffers_set.has(k)) local_state.set(k, v);
    for (const [name, param] of local_state) {
      const key = prefix + name;
      if (state_dict.has(key)) {
        let input_param = state_dict.get(key);
        if (!(input_param instanceof Tensor)) {
          error_msgs.push(`While copying the parameter named "${key}", expected torch.Tensor or Tensor-like object from checkpoint but received <class '${typename(input_param)}'>`);
          continue;
        }
        if (param.shape.length === 0 && input_param.shape.length === 1) input_param = (input_param as any).get(0) as Tensor;
        if (!sameShape(input_param.shape, param.shape)) {
          error_msgs.push(`size mismatch for ${key}: copying a param with shape ${input_param.shape} from checkpoint, the shape in current model is ${param.shape}.`);
          continue;
        }
        try {
          using _g = new AutoGradMode(false);
          (param as any).copy_(input_param);
        } catch (ex) {
          error_msgs.push(
            `While copying the parameter named "${key}", whose dimensions in the model are ${param.shape} and whose dimensions in the checkpoint are ${input_param.shape}, an exception occurred : ('${(ex as Error).message}',).`,
          );
        }
      } else if (strict) missing_keys.push(key);
    }
    if (strict) {
      for (const key of state_dict.keys()) {
        if (key.startsWith(prefix) && key !== prefix + EXTRA_STATE_KEY_SUFFIX) {
          const input_name = key.slice(prefix.length).split(".")[0];
          if (!(input_name in this._modules) && !local_state.has(input_name)) unexpected_keys.push(key);
        }
      }
    }
  }

  /** load_state_dict(state_dict, {strict}): copies in place; returns {missing_keys, unexpected_keys}, or raises 1.13's error text. */
  load_state_dict(state_dict: Record<string, any> | Map<string, any>, opts: { strict?: boolean } | boolean = {}): IncompatibleKeys {
    const strict = typeof opts === "boolean" ? opts : (opts.strict ?? true);
    if (state_dict === null || typeof state_dict !== "object" || state_dict instanceof Tensor) {
      throw new TypeError_(`Expected state_dict to be dict-like, got <class '${typename(state_dict)}'>.`);
    }
    const metadata = (state_dict as StateDict)._metadata;
    const sd = state_dict instanceof Map ? new Map(state_dict) : new Map(Object.entries(state_dict));
    const missing_keys: string[] = [];
    const unexpected_keys: string[] = [];
    const error_msgs: string[] = [];
    const load = (module: Module, local: Map<string, any>, prefix = "") => {
      const local_metadata = metadata?.[prefix.slice(0, -1)] ?? {};
      module._load_from_state_dict(local, prefix, local_metadata, true, missing_keys, unexpected_keys, error_msgs);
      for (const [name, child] of Object.entries(module._modules)) {
        if (child === null) continue;
        const child_prefix = prefix + name + ".";
        const child_sd = new Map([...local].filter(([k]) => k.startsWith(child_prefix)));
        load(child, child_sd, child_prefix);
      }
    };
    load(this, sd);
    if (strict) {
      if (unexpected_keys.length) error_msgs.unshift(`Unexpected key(s) in state_dict: ${unexpected_keys.map((k) => `"${k}"`).join(", ")}. `);
      if (missing_keys.length) error_msgs.unshift(`Missing key(s) in state_dict: ${missing_keys.map((k) => `"${k}"`).join(", ")}. `);
    }
    if (error_msgs.length) throw new RuntimeError(`Error(s) in loading state_dict for ${this.constructor.name}:\n\t${error_msgs.join("\n\t")}`);
    return { missing_keys, unexpected_keys };
  }

  // ---- printing ----

  _get_name(): string {
    return this.constructor.name;
  }

  extra_repr(): string {
    return "";
  }

  /** Module.__repr__: the class name, extra_repr, and each child indented as `(name): ...`. */
  __repr__(): string {
    const extra = this.extra_repr();
    const extra_lines = extra ? extra.split("\n") : [];
    const child_lines: string[] = [];
    for (const [key, module] of Object.entries(this._modules)) {
      const mod_str = _addindent(module === null ? "None" : module.__repr__(), 2);
      child_lines.push("(" + key + "): " + mod_str);
    }
    const lines = [...extra_lines, ...child_lines];
    let main_str = this._get_name() + "(";
    if (lines.length) {
      if (extra_lines.length === 1 && child_lines.length === 0) main_str += extra_lines[0];
      else main_str += "\n  " + lines.join("\n  ") + "\n";
    }
    return main_str + ")";
  }

  toString(): string {
    return this.__repr__();
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.__repr__();
  }
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
