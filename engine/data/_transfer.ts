// Moving tensors between the main thread and DataLoader worker threads. PyTorch pickles tensors into
// shared memory; here a tensor travels as its dtype, shape and a copy of its contiguous bytes (the
// ArrayBuffer is transferred, not copied again, when it is posted). Nested arrays/objects are walked.

import { Tensor } from "../aten/core/Tensor.js";
import { empty_impl, wrap } from "../aten/core/empty.js";
import { toDevice } from "../c10/Device.js";
import * as ST from "../c10/ScalarType.js";
import type { dtype } from "../c10/ScalarType.js";

export interface EncodedTensor {
  __tensor__: true;
  dtype: string;
  shape: number[];
  bytes: ArrayBuffer;
}

const DTYPES: Record<string, dtype> = {};
for (const v of Object.values(ST)) {
  if (v instanceof ST.dtype) DTYPES[v.name] = v;
}

export function encodeTensor(t: Tensor): EncodedTensor {
  if (t.device.type !== "cpu") throw new TypeError(`only CPU tensors can be sent to or from DataLoader workers, got ${t.device.type}`);
  const c = t.is_contiguous() ? t : t.contiguous();
  const itemsize = c.dtype.itemsize;
  const start = c.storage_offset() * itemsize;
  const bytes = c._impl.storage.buffer().slice(start, start + c.numel() * itemsize);
  return { __tensor__: true, dtype: c.dtype.name, shape: [...c.shape], bytes };
}

export function decodeTensor(e: EncodedTensor): Tensor {
  const dt = DTYPES[e.dtype];
  const t = wrap(empty_impl(e.shape, dt, toDevice("cpu")));
  new Uint8Array(t._impl.storage.buffer()).set(new Uint8Array(e.bytes));
  t._impl.storage.viewCache = null;
  return t;
}

/** Encodes every tensor inside arrays and plain objects; other values must be structured-clonable. */
export function encodeTree(x: unknown, transfer?: ArrayBuffer[]): unknown {
  if (x instanceof Tensor) {
    const e = encodeTensor(x);
    transfer?.push(e.bytes);
    return e;
  }
  if (Array.isArray(x)) return x.map((v) => encodeTree(v, transfer));
  if (x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = encodeTree(v, transfer);
    return out;
  }
  return x;
}

export function decodeTree(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(decodeTree);
  if (x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
    if ((x as EncodedTensor).__tensor__ === true) return decodeTensor(x as EncodedTensor);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = decodeTree(v);
    return out;
  }
  return x;
}
