// Argument and result summaries for trace events: metadata only, bounded in size.
// Tensors are recognized by shape (an object whose `_impl` has sizes()/strides()), not by class,
// so trace/ never imports aten/. Tensor data is never read or copied.

import { dispatchKeyName, type DispatchKey } from "../c10/DispatchKey.js";
import type { ErrorSummary, JsonNumber, TensorSummary, ValueSummary } from "./events.js";

export interface SummaryLimits {
  /** Items kept from a list (the rest are counted in `length` and flagged `truncated`). */
  maxListItems: number;
  /** Characters kept from a string. */
  maxStringLength: number;
  /** Fields kept from a plain object. */
  maxObjectFields: number;
  /** Nesting levels of lists/objects before values become {kind: "other"}. */
  maxDepth: number;
}

export const defaultSummaryLimits: SummaryLimits = {
  maxListItems: 16,
  maxStringLength: 256,
  maxObjectFields: 16,
  maxDepth: 3,
};

// Key names per key-set bit pattern: iterating a DispatchKeySet is the costly part of a summary.
const keyNameCache = new Map<number, string[]>();

/** A key set's runtime keys by name, lowest priority first (a fresh array each time). */
export function keyNamesOf(ks: Iterable<DispatchKey> & { repr?: number }): string[] {
  const repr = ks.repr;
  if (typeof repr !== "number") return [...ks].map(dispatchKeyName);
  let names = keyNameCache.get(repr);
  if (!names) {
    names = [...ks].map(dispatchKeyName);
    if (keyNameCache.size < 4096) keyNameCache.set(repr, names);
  }
  return names.slice();
}

/** The TensorImpl surface the summary reads. */
interface ImplLike {
  sizes(): readonly number[];
  strides(): readonly number[];
  dtype: { name: string };
  device: { toString(): string };
  key_set: Iterable<DispatchKey> & { repr?: number };
  requires_grad(): boolean;
  storage?: object;
  version_counter?: { version: number; enabled?: boolean };
  is_wrapped_number?: boolean;
  autograd_meta?: { grad_fn_name?(): string | undefined } | null;
}

function implOf(v: unknown): ImplLike | null {
  if (typeof v !== "object" || v === null) return null;
  const impl = (v as { _impl?: unknown })._impl;
  if (typeof impl !== "object" || impl === null) return null;
  const i = impl as Partial<ImplLike>;
  return typeof i.sizes === "function" && typeof i.strides === "function" && typeof i.requires_grad === "function"
    ? (impl as ImplLike)
    : null;
}

/** True for a Tensor handle (structurally). */
export function isTensorLike(v: unknown): boolean {
  return implOf(v) !== null;
}

function isDtypeLike(v: object): v is { name: string; itemsize: number } {
  const d = v as { name?: unknown; itemsize?: unknown };
  return typeof d.name === "string" && typeof d.itemsize === "number";
}

function isDeviceLike(v: object): boolean {
  const d = v as { type?: unknown; index?: unknown };
  return typeof d.type === "string" && (d.index === null || typeof d.index === "number") && Object.keys(d).length === 2;
}

export function jsonNumber(n: number): JsonNumber {
  if (Number.isNaN(n)) return "nan";
  if (n === Infinity) return "inf";
  if (n === -Infinity) return "-inf";
  return n;
}

export function summarizeError(e: unknown): ErrorSummary {
  if (e instanceof Error) {
    const op = (e as { op?: unknown }).op;
    const s: ErrorSummary = { name: e.name, message: cut(e.message, 4096) };
    if (typeof op === "string") s.op = op;
    return s;
  }
  return { name: typeof e, message: cut(safeString(e), 4096) };
}

function cut(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) : s;
}

function safeString(v: unknown): string {
  try {
    return String(v);
  } catch {
    return "<unprintable>";
  }
}

/**
 * Summarizes values for one recording. Keeps weak identities so the same tensor (or storage) gets
 * the same number in every event, without keeping anything alive.
 */
export class Summarizer {
  private tensorIds = new WeakMap<object, number>();
  private storageIds = new WeakMap<object, number>();
  private nextTensor = 1;
  private nextStorage = 1;

  constructor(readonly limits: SummaryLimits = defaultSummaryLimits) {}

  value(v: unknown, depth = 0): ValueSummary {
    switch (typeof v) {
      case "number":
        return { kind: "number", value: jsonNumber(v) };
      case "boolean":
        return { kind: "bool", value: v };
      case "string":
        return v.length > this.limits.maxStringLength
          ? { kind: "string", value: v.slice(0, this.limits.maxStringLength), truncated: true }
          : { kind: "string", value: v };
      case "bigint":
        return { kind: "bigint", value: v.toString() };
      case "undefined":
        return { kind: "none" };
      case "function":
        return { kind: "other", type: "function", repr: v.name || "<anonymous>" };
      case "symbol":
        return { kind: "other", type: "symbol", repr: v.toString() };
    }
    if (v === null) return { kind: "none" };
    const obj = v as object;
    const impl = implOf(obj);
    if (impl) return this.tensor(impl);
    if (Array.isArray(obj)) return this.list(obj, depth);
    if (isDtypeLike(obj)) return { kind: "dtype", name: obj.name };
    if (isDeviceLike(obj)) return { kind: "device", value: safeString(obj) };
    const type = obj.constructor?.name ?? "Object";
    if (depth >= this.limits.maxDepth) return { kind: "other", type, repr: "..." };
    if (type === "Object" || obj.constructor === undefined) return this.object(obj as Record<string, unknown>, depth);
    // A class instance we do not know (Generator, Storage): its name and toString only.
    const s = safeString(obj);
    return { kind: "other", type, repr: cut(s === "[object Object]" ? type : s, this.limits.maxStringLength) };
  }

  error(e: unknown): ErrorSummary {
    return summarizeError(e);
  }

  private tensor(impl: ImplLike): TensorSummary {
    const s: TensorSummary = {
      kind: "tensor",
      tid: this.idOf(this.tensorIds, impl, "tensor"),
      storage: impl.storage ? this.idOf(this.storageIds, impl.storage, "storage") : null,
      shape: [...impl.sizes()],
      strides: [...impl.strides()],
      dtype: impl.dtype.name,
      device: safeString(impl.device),
      requires_grad: impl.requires_grad(),
      keys: keyNamesOf(impl.key_set),
    };
    if (impl.version_counter && impl.version_counter.enabled !== false) s.version = impl.version_counter.version;
    const gradFn = impl.autograd_meta?.grad_fn_name?.();
    if (gradFn) s.grad_fn = gradFn;
    if (impl.is_wrapped_number) s.wrapped_number = true;
    return s;
  }

  private list(items: readonly unknown[], depth: number): ValueSummary {
    const n = Math.min(items.length, this.limits.maxListItems);
    const truncated = items.length > n;
    // Tensor[] / Tensor?[]: every present element is a tensor.
    if (items.length > 0 && items.every((x) => x === null || x === undefined || implOf(x) !== null) && items.some((x) => x != null)) {
      const out: (TensorSummary | { kind: "none" })[] = [];
      for (let i = 0; i < n; i++) {
        const impl = implOf(items[i]);
        out.push(impl ? this.tensor(impl) : { kind: "none" });
      }
      return { kind: "tensor_list", length: items.length, items: out, truncated };
    }
    if (depth >= this.limits.maxDepth) return { kind: "other", type: "Array", repr: `[${items.length} items]` };
    const out: ValueSummary[] = [];
    for (let i = 0; i < n; i++) out.push(this.value(items[i], depth + 1));
    return { kind: "list", length: items.length, items: out, truncated };
  }

  private object(obj: Record<string, unknown>, depth: number): ValueSummary {
    const fields: Record<string, ValueSummary> = {};
    const keys = Object.keys(obj);
    const n = Math.min(keys.length, this.limits.maxObjectFields);
    for (let i = 0; i < n; i++) fields[keys[i]] = this.value(obj[keys[i]], depth + 1);
    return { kind: "object", type: "Object", fields, truncated: keys.length > n };
  }

  private idOf(map: WeakMap<object, number>, o: object, which: "tensor" | "storage"): number {
    let id = map.get(o);
    if (id === undefined) {
      id = which === "tensor" ? this.nextTensor++ : this.nextStorage++;
      map.set(o, id);
    }
    return id;
  }
}
