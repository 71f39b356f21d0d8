// Turns the unpickled Python values into what torch.load returns (the mapping is described in py_types.ts).
// Shared objects stay shared and cycles stay cycles: each Python object converts once.

import { Tensor } from "../aten/core/Tensor.js";
import { Size } from "../aten/core/Size.js";
import { RuntimeError } from "../c10/Errors.js";
import { PyCallable, PyDict, PySet } from "./unpickler.js";
import { StorageType, TypedStorageRef } from "./storage_types.js";
import { restoredAttrs } from "./rebuild.js";
import { OrderedDict, defineKey, markTuple, isTuple } from "./py_types.js";

const MAX_DEPTH = 1000;

/**
 * Whether a plain object would list these keys in this order. JavaScript puts integer-like keys ("0", "12")
 * first, in numeric order; a dict whose order that would change becomes a Map, which keeps Python's order.
 */
function keepsOrder(keys: string[]): boolean {
  const probe: Record<string, null> = {};
  for (const k of keys) defineKey(probe, k, null);
  const got = Object.keys(probe);
  return got.every((k, i) => k === keys[i]);
}

export function toJS(root: unknown): unknown {
  const done = new Map<object, unknown>();

  const convert = (v: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new RuntimeError(`torch.load: containers nest deeper than ${MAX_DEPTH} levels`);
    if (v === null || typeof v !== "object") return v;
    if (done.has(v)) return done.get(v);
    if (v instanceof PyDict) {
      const keys = [...v.entries.keys()];
      if (keys.every((k) => typeof k === "string") && keepsOrder(keys as string[])) {
        const obj: Record<string, unknown> = {};
        done.set(v, obj);
        for (const [k, val] of v.entries) defineKey(obj, k as string, convert(val, depth + 1));
        finish(v, obj, depth);
        return obj;
      }
      const m = new Map<unknown, unknown>();
      done.set(v, m);
      for (const [k, val] of v.entries) m.set(convert(k, depth + 1), convert(val, depth + 1));
      finish(v, m, depth);
      return m;
    }
    if (v instanceof PySet) {
      const s = new Set<unknown>();
      done.set(v, s);
      for (const it of v.items) s.add(convert(it, depth + 1));
      return s;
    }
    if (v instanceof Size) return v; // torch.Size: a frozen array of ints, already built
    if (Array.isArray(v)) {
      done.set(v, v);
      for (let i = 0; i < v.length; i++) v[i] = convert(v[i], depth + 1);
      if (isTuple(v)) markTuple(v);
      return v;
    }
    if (v instanceof Tensor) {
      done.set(v, v);
      // Python attributes restored on the tensor (_rebuild_from_type_v2) are values too
      for (const k of restoredAttrs.get(v) ?? []) {
        (v as unknown as Record<string, unknown>)[k] = convert((v as unknown as Record<string, unknown>)[k], depth + 1);
      }
      return v;
    }
    if (v instanceof TypedStorageRef) {
      throw new RuntimeError("torch.load: the checkpoint holds a bare storage; Glasstorch loads storages only as the data of tensors");
    }
    if (v instanceof PyCallable || v instanceof StorageType) {
      throw new RuntimeError(`torch.load: the checkpoint holds the Python class or function ${v.fullName} as a value, which Glasstorch cannot return`);
    }
    return v; // dtype, device, torch.Size, Uint8Array
  };

  const finish = (d: PyDict, out: object, depth: number): void => {
    if (d.ordered) OrderedDict(out);
    for (const [k, val] of d.attrs) {
      Object.defineProperty(out, k, { value: convert(val, depth + 1), enumerable: false, writable: true, configurable: true });
    }
  };

  return convert(root, 0);
}
