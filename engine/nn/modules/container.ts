// torch/nn/modules/container.py: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict.
// Python's indexing is get/set/del methods here (seq.get(-1), seq.get("1:3") for a slice); registered
// children are also plain properties, so seq[0] works for a non-negative index. len() is `.length`.

import { Tensor } from "../../aten/core/Tensor.js";
import { IndexError, KeyError, TypeError_ } from "../../c10/Errors.js";
import { Parameter } from "../parameter.js";
import { Module } from "./module.js";

/** A Python slice "start:stop:step" applied to a list. */
function applySlice<T>(xs: T[], s: string): T[] {
  const parts = s.split(":").map((p) => (p.trim() === "" ? null : Number(p)));
  const n = xs.length;
  const step = parts[2] ?? 1;
  const norm = (v: number | null, def: number, lo: number, hi: number) => {
    if (v === null) return def;
    if (v < 0) v += n;
    return Math.min(Math.max(v, lo), hi);
  };
  const out: T[] = [];
  if (step > 0) {
    const start = norm(parts[0], 0, 0, n);
    const stop = norm(parts[1] ?? null, n, 0, n);
    for (let i = start; i < stop; i += step) out.push(xs[i]);
  } else {
    const start = norm(parts[0], n - 1, -1, n - 1);
    const stop = norm(parts[1] ?? null, -1, -1, n - 1);
    for (let i = start; i > stop; i += step) out.push(xs[i]);
  }
  return out;
}

const isSlice = (idx: unknown): idx is string => typeof idx === "string" && idx.includes(":");

export class Sequential extends Module {
  constructor(...args: (Module | Map<string, Module>)[]) {
    super();
    if (args.length === 1 && args[0] instanceof Map) {
      for (const [key, module] of args[0]) this.add_module(key, module);
    } else args.forEach((module, idx) => this.add_module(String(idx), module as Module));
  }

  private _get_item_by_idx<T>(items: T[], idx: number): T {
    const size = this.length;
    if (!(-size <= idx && idx < size)) throw new IndexError(`index ${idx} is out of range`);
    return items[((idx % size) + size) % size];
  }

  /** seq[idx]; a slice string gives a new Sequential of those modules. */
  get(idx: number | string): Module {
    if (isSlice(idx)) return new (this.constructor as typeof Sequential)(new Map(applySlice(Object.entries(this._modules) as [string, Module][], idx)));
    return this._get_item_by_idx(Object.values(this._modules) as Module[], idx as number);
  }

  set(idx: number, module: Module): void {
    const key = this._get_item_by_idx(Object.keys(this._modules), idx);
    (this as any)[key] = module;
  }

  del(idx: number | string): void {
    const keys = isSlice(idx) ? applySlice(Object.keys(this._modules), idx) : [this._get_item_by_idx(Object.keys(this._modules), idx as number)];
    for (const key of keys) delete (this as any)[key];
  }

  override get length(): number {
    return Object.keys(this._modules).length;
  }

  __len__(): number {
    return this.length;
  }

  *[Symbol.iterator](): Iterator<Module> {
    yield* Object.values(this._modules) as Module[];
  }

  append(module: Module): this {
    this.add_module(String(this.length), module);
    return this;
  }

  override forward(input: any): any {
    for (const module of this) input = module(input);
    return input;
  }
}

export class ModuleList extends Module {
  constructor(modules: Iterable<Module> | null = null) {
    super();
    if (modules !== null && modules !== undefined) this.extend(modules);
  }

  private _get_abs_string_index(idx: number): string {
    if (!(-this.length <= idx && idx < this.length)) throw new IndexError(`index ${idx} is out of range`);
    if (idx < 0) idx += this.length;
    return String(idx);
  }

  get(idx: number | string): Module {
    if (isSlice(idx)) return new (this.constructor as typeof ModuleList)(applySlice(Object.values(this._modules) as Module[], idx));
    return this._modules[this._get_abs_string_index(idx as number)] as Module;
  }

  set(idx: number, module: Module): void {
    (this as any)[this._get_abs_string_index(idx)] = module;
  }

  del(idx: number | string): void {
    if (isSlice(idx)) for (const k of applySlice(Object.keys(this._modules), idx)) delete (this as any)[k];
    else delete (this as any)[this._get_abs_string_index(idx as number)];
    // renumber: the remaining children become "0", "1", ... in order
    const values = Object.values(this._modules);
    for (const k of Object.keys(this._modules)) delete (this as any)[k];
    values.forEach((m, i) => this.add_module(String(i), m));
  }

  override get length(): number {
    return Object.keys(this._modules).length;
  }

  __len__(): number {
    return this.length;
  }

  *[Symbol.iterator](): Iterator<Module> {
    yield* Object.values(this._modules) as Module[];
  }

  insert(index: number, module: Module): void {
    const n = this.length;
    const mods = Object.values(this._modules) as Module[];
    if (index < 0) index = Math.max(0, n + index);
    index = Math.min(index, n);
    mods.splice(index, 0, module);
    mods.forEach((m, i) => (i < n ? (this._modules[String(i)] = m) : this.add_module(String(i), m)));
  }

  append(module: Module): this {
    this.add_module(String(this.length), module);
    return this;
  }

  pop(key: number): Module {
    const v = this.get(key);
    this.del(key);
    return v;
  }

  extend(modules: Iterable<Module>): this {
    if (modules === null || typeof (modules as any)[Symbol.iterator] !== "function") {
      throw new TypeError_(`ModuleList.extend should be called with an iterable, but got ${modules === null ? "NoneType" : (modules as object).constructor.name}`);
    }
    const offset = this.length;
    let i = 0;
    for (const module of modules) this.add_module(String(offset + i++), module);
    return this;
  }

  /** ModuleList.__add__: a new ModuleList of both. */
  __add__(other: Iterable<Module>): ModuleList {
    const combined = new ModuleList();
    let i = 0;
    for (const m of [...this, ...other]) combined.add_module(String(i++), m);
    return combined;
  }
}

export class ModuleDict extends Module {
  constructor(modules: Map<string, Module> | Record<string, Module> | Iterable<[string, Module]> | null = null) {
    super();
    if (modules !== null && modules !== undefined) this.update(modules);
  }

  get(key: string): Module {
    if (!(key in this._modules)) throw new KeyError(`'${key}'`);
    return this._modules[key] as Module;
  }

  set(key: string, module: Module): void {
    this.add_module(key, module);
  }

  del(key: string): void {
    delete (this as any)[key];
  }

  override get length(): number {
    return Object.keys(this._modules).length;
  }

  __len__(): number {
    return this.length;
  }

  *[Symbol.iterator](): Iterator<string> {
    yield* Object.keys(this._modules);
  }

  has(key: string): boolean {
    return key in this._modules;
  }

  clear(): void {
    for (const k of Object.keys(this._modules)) delete (this as any)[k];
  }

  pop(key: string): Module {
    const v = this.get(key);
    this.del(key);
    return v;
  }

  keys(): string[] {
    return Object.keys(this._modules);
  }

  items(): [string, Module][] {
    return Object.entries(this._modules) as [string, Module][];
  }

  values(): Module[] {
    return Object.values(this._modules) as Module[];
  }

  update(modules: Map<string, Module> | Record<string, Module> | Iterable<[string, Module]>): void {
    const entries: Iterable<[string, Module]> =
      modules instanceof Map || typeof (modules as any)[Symbol.iterator] === "function" ? (modules as Iterable<[string, Module]>) : Object.entries(modules);
    for (const [k, m] of entries) this.set(k, m);
  }
}

/** "Parameter containing: [torch.float32 of size 2x3]": ParameterList/Dict's extra_repr line. */
function paramStr(p: unknown): string {
  if (p instanceof Tensor) {
    const kind = p instanceof Parameter ? "Parameter" : "Tensor";
    return `${kind} containing: [torch.${p.dtype.name} of size ${[...p.shape].join("x")}]`;
  }
  return `Object of type: ${(p as object)?.constructor?.name ?? "NoneType"}`;
}

export class ParameterList extends Module {
  declare _size: number;

  constructor(values: Iterable<Tensor> | null = null) {
    super();
    this._size = 0;
    if (values !== null && values !== undefined) this.extend(values);
  }

  private _get_abs_string_index(idx: number): string {
    if (!(-this.length <= idx && idx < this.length)) throw new IndexError(`index ${idx} is out of range`);
    if (idx < 0) idx += this.length;
    return String(idx);
  }

  get(idx: number): Tensor {
    return (this as any)[this._get_abs_string_index(idx)];
  }

  set(idx: number, param: Tensor): void {
    const key = this._get_abs_string_index(idx);
    if (param instanceof Tensor && !(param instanceof Parameter)) param = new Parameter(param);
    (this as any)[key] = param;
  }

  override get length(): number {
    return this._size;
  }

  __len__(): number {
    return this._size;
  }

  *[Symbol.iterator](): Iterator<Tensor> {
    for (let i = 0; i < this._size; i++) yield this.get(i);
  }

  append(value: Tensor): this {
    const new_idx = this._size;
    this._size += 1;
    this.set(new_idx, value);
    return this;
  }

  extend(values: Iterable<Tensor>): this {
    for (const v of values) this.append(v);
    return this;
  }

  override extra_repr(): string {
    return [...this].map((p, k) => `  (${k}): ${paramStr(p)}`).join("\n");
  }
}

export class ParameterDict extends Module {
  declare _keys: Map<string, null>;

  constructor(parameters: Map<string, Tensor> | Record<string, Tensor> | null = null) {
    super();
    this._keys = new Map();
    if (parameters !== null && parameters !== undefined) this.update(parameters);
  }

  get(key: string): Tensor {
    if (!this._keys.has(key)) throw new KeyError(`'${key}'`);
    return (this as any)[key];
  }

  set(key: string, value: Tensor): void {
    this._keys.set(key, null);
    if (value instanceof Tensor && !(value instanceof Parameter)) value = new Parameter(value);
    (this as any)[key] = value;
  }

  del(key: string): void {
    this._keys.delete(key);
    delete (this as any)[key];
  }

  override get length(): number {
    return this._keys.size;
  }

  *[Symbol.iterator](): Iterator<string> {
    yield* this._keys.keys();
  }

  has(key: string): boolean {
    return this._keys.has(key);
  }

  keys(): string[] {
    return [...this._keys.keys()];
  }

  items(): [string, Tensor][] {
    return this.keys().map((k) => [k, this.get(k)]);
  }

  values(): Tensor[] {
    return this.keys().map((k) => this.get(k));
  }

  update(parameters: Map<string, Tensor> | Record<string, Tensor>): void {
    const entries = parameters instanceof Map ? [...parameters] : Object.entries(parameters);
    for (const [k, v] of entries) this.set(k, v);
  }

  override extra_repr(): string {
    return this.items().map(([k, p]) => `  (${k}): ${paramStr(p)}`).join("\n");
  }
}
