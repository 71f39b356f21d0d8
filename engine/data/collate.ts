// torch/utils/data/_utils/collate.py: default_collate and default_convert.
// JS has one number type, so Python's int/float split is read from the values: a batch of numbers
// that are all integers collates to int64 (Python ints), otherwise to float64 (Python floats);
// booleans to bool. Arrays play Python lists and tuples (both come back as arrays), plain objects dicts.

import { Tensor } from "../aten/core/Tensor.js";
import { tensor } from "../aten/tensor_new.js";
import { float64, int64 } from "../c10/ScalarType.js";
import { RuntimeError, TypeError_ } from "../c10/Errors.js";
import { stack } from "../generated/torch_functions.js";

function classRepr(x: unknown): string {
  if (x === null || x === undefined) return "<class 'NoneType'>";
  const t = typeof x;
  if (t === "number") return Number.isInteger(x) ? "<class 'int'>" : "<class 'float'>";
  if (t === "bigint") return "<class 'int'>";
  if (t === "function") return "<class 'function'>";
  return `<class '${(x as object).constructor?.name ?? t}'>`;
}

const ERR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found ";

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== "object") return false;
  const p = Object.getPrototypeOf(x);
  return p === Object.prototype || p === null;
}

/** Stacks tensors, turns numbers into tensors, recurses into objects and arrays, keeps strings. */
export function default_collate(batch: unknown[]): unknown {
  const elem = batch[0];
  if (elem instanceof Tensor) return stack(batch as Tensor[], 0);
  if (typeof elem === "number" || typeof elem === "bigint") {
    if (batch.every((b) => typeof b === "bigint" || (typeof b === "number" && Number.isInteger(b)))) {
      return tensor(batch.map((b) => (typeof b === "bigint" ? Number(b) : b)) as number[], { dtype: int64 });
    }
    return tensor(batch as number[], { dtype: float64 });
  }
  if (typeof elem === "boolean") return tensor(batch as boolean[]);
  if (typeof elem === "string") return batch;
  if (isPlainObject(elem)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(elem)) out[key] = default_collate(batch.map((d) => (d as Record<string, unknown>)[key]));
    return out;
  }
  if (Array.isArray(elem)) {
    const size = elem.length;
    if (!batch.every((b) => (b as unknown[]).length === size)) throw new RuntimeError("each element in list of batch should be of equal size");
    const out: unknown[] = [];
    for (let i = 0; i < size; i++) out.push(default_collate(batch.map((b) => (b as unknown[])[i])));
    return out;
  }
  throw new TypeError_(ERR + classRepr(elem));
}

/** batch_size=None: samples pass through unchanged, containers walked (no numbers turned to tensors). */
export function default_convert(data: unknown): unknown {
  if (data instanceof Tensor) return data;
  if (isPlainObject(data)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(data)) out[k] = default_convert(v);
    return out;
  }
  if (Array.isArray(data)) return data.map(default_convert);
  return data;
}
