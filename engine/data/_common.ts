// Shared helpers for torch.utils.data: Python's len(), the seed draws PyTorch makes with
// torch.empty((), dtype=torch.int64).random_(), and Python's repr of the values error texts show.

import { Tensor } from "../aten/core/Tensor.js";
import { empty_impl, wrap } from "../aten/core/empty.js";
import { random_ } from "../aten/Distributions.js";
import type { Generator } from "../aten/Generator.js";
import { int64 } from "../c10/ScalarType.js";
import { toDevice } from "../c10/Device.js";
import { typedView } from "../c10/ElementAccess.js";
import { TypeError_ } from "../c10/Errors.js";

/** Anything with a Python-style length: __len__(), a JS length, or a Tensor's first dimension. */
export interface Sized {
  __len__(): number;
}

/** Python's len(obj): __len__() first, then arrays' length. */
export function len(obj: unknown): number {
  if (obj !== null && typeof obj === "object") {
    const o = obj as { __len__?: () => number; length?: number };
    if (typeof o.__len__ === "function") return o.__len__();
    if (typeof o.length === "number") return o.length;
  }
  if (typeof obj === "string") return obj.length;
  throw new TypeError_(`object of type '${typeName(obj)}' has no len()`);
}

/** Python's obj[i] for the datasets and sequences the data utilities index. */
export function getitem<T = unknown>(obj: unknown, index: unknown): T {
  const o = obj as { __getitem__?: (i: unknown) => T };
  if (o !== null && typeof o === "object" && typeof o.__getitem__ === "function") return o.__getitem__(index);
  if (Array.isArray(obj) || ArrayBuffer.isView(obj)) {
    let i = index as number;
    const n = (obj as ArrayLike<T>).length;
    if (i < 0) i += n;
    if (!(i >= 0 && i < n)) throw new (class IndexError extends Error { override name = "IndexError"; })("list index out of range");
    return (obj as ArrayLike<T>)[i];
  }
  throw new TypeError_(`'${typeName(obj)}' object is not subscriptable`);
}

export function typeName(x: unknown): string {
  if (x === null || x === undefined) return "NoneType";
  if (typeof x === "number") return Number.isInteger(x) ? "int" : "float";
  if (typeof x === "boolean") return "bool";
  if (typeof x === "string") return "str";
  if (Array.isArray(x)) return "list";
  return (x as object).constructor?.name ?? "object";
}

/** Python's repr of the simple values the argument checks print (bools as True/False, None). */
export function pyRepr(x: unknown): string {
  if (x === null || x === undefined) return "None";
  if (typeof x === "boolean") return x ? "True" : "False";
  if (typeof x === "string") return `'${x}'`;
  if (Array.isArray(x)) return `[${x.map(pyRepr).join(", ")}]`;
  return String(x);
}

/**
 * int(torch.empty((), dtype=torch.int64).random_(generator=g).item()): one random64 draw from `g`
 * (the default generator when absent), returned exactly as a bigint (it can exceed 2^53).
 */
export function draw_int64_seed(generator?: Generator | null): bigint {
  const t = wrap(empty_impl([], int64, toDevice("cpu")));
  random_(t, { generator: generator ?? null });
  return (typedView(t._impl.storage, int64) as BigInt64Array)[t.storage_offset()];
}

export function isTensor(x: unknown): x is Tensor {
  return x instanceof Tensor;
}
