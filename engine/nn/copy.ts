// Python's copy.deepcopy for what a model is made of (exported as torch.copy.deepcopy). One memo per call
// maps each original object to its copy, so what is shared in the original is shared in the copy (tied
// weights, a module used twice, views of one storage) and cycles end.
//   - an object with a __deepcopy__(memo) method: that method (Module has one, below in module.ts' terms:
//     Module.prototype.__deepcopy__; user classes may define their own);
//   - nn.Parameter: Parameter.__deepcopy__: Parameter(self.data.clone(), self.requires_grad) — no grad;
//   - Tensor: Tensor.__deepcopy__: leaves only ("Only Tensors created explicitly by the user (graph leaves)
//     support the deepcopy protocol at the moment"), the storage copied once per memo and the tensor
//     re-made over it with its offset, sizes and strides; requires_grad and a deep copy of .grad kept;
//   - arrays, plain objects, Map and Set: copied element by element;
//   - anything else (numbers, strings, functions, dtypes, devices, other class instances): itself, as
//     deepcopy treats functions and classes atomically. (Python would rebuild arbitrary instances through
//     __reduce_ex__; give a class __deepcopy__ to get that.)

import { Tensor } from "../aten/core/Tensor.js";
import { wrap } from "../aten/core/empty.js";
import { Storage } from "../c10/Storage.js";
import { TensorImpl } from "../c10/TensorImpl.js";
import { RuntimeError } from "../c10/Errors.js";
import { AutoGradMode } from "../c10/GradMode.js";
import { preserve_format } from "../c10/MemoryFormat.js";
import { Parameter } from "./parameter.js";

export type Memo = Map<unknown, unknown>;

/** copy.deepcopy(x, memo). */
export function deepcopy<T>(x: T, memo: Memo = new Map()): T {
  if (x === null || (typeof x !== "object" && typeof x !== "function")) return x;
  if (memo.has(x)) return memo.get(x) as T;
  const custom = (x as { __deepcopy__?: unknown }).__deepcopy__;
  if (typeof custom === "function") return custom.call(x, memo) as T;
  if (x instanceof Parameter) return parameterDeepcopy(x, memo) as T;
  if (x instanceof Tensor) return tensorDeepcopy(x, memo) as T;
  if (Array.isArray(x)) {
    const out: unknown[] = [];
    memo.set(x, out);
    for (const v of x) out.push(deepcopy(v, memo));
    return out as T;
  }
  if (x instanceof Map) {
    const out = new (x.constructor as MapConstructor)();
    memo.set(x, out);
    for (const [k, v] of x) out.set(deepcopy(k, memo), deepcopy(v, memo));
    return out as T;
  }
  if (x instanceof Set) {
    const out = new (x.constructor as SetConstructor)();
    memo.set(x, out);
    for (const v of x) out.add(deepcopy(v, memo));
    return out as T;
  }
  const proto = Object.getPrototypeOf(x);
  if (typeof x === "object" && (proto === Object.prototype || proto === null)) {
    const out = Object.create(proto);
    memo.set(x, out);
    for (const k of Object.keys(x)) out[k] = deepcopy((x as Record<string, unknown>)[k], memo);
    return out;
  }
  return x;
}

/** Parameter.__deepcopy__: a new Parameter over a clone of the data, same requires_grad (the grad is not copied). */
function parameterDeepcopy(p: Parameter, memo: Memo): Parameter {
  const result = new Parameter(((p as any).data as any).clone({ memory_format: preserve_format }) as Tensor, p.requires_grad);
  memo.set(p, result);
  return result;
}

/** Tensor.__deepcopy__ for a leaf: its storage deep-copied (once per memo), the same view over the copy. */
function tensorDeepcopy(t: Tensor, memo: Memo): Tensor {
  if (!(t as any).is_leaf) {
    throw new RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment");
  }
  using _g = new AutoGradMode(false);
  const impl = t._impl;
  let storage = memo.get(impl.storage) as Storage | undefined;
  if (storage === undefined) {
    const src = impl.storage;
    storage = new Storage(src.nbytes(), src.allocator, src.device, src.resizable);
    if (src.hasData()) new Uint8Array(storage.buffer()).set(new Uint8Array(src.buffer(), 0, src.nbytes()));
    memo.set(src, storage);
  }
  const copy = wrap(new TensorImpl(storage, impl.dtype, impl.sizes(), impl.strides(), impl.storage_offset()));
  if (t.requires_grad) copy.requires_grad_(true);
  const grad = (t as any).grad as Tensor | null;
  if (grad !== null && grad !== undefined) (copy as any).grad = deepcopy(grad, memo);
  memo.set(t, copy);
  return copy;
}
