// Moving tensors between the main thread and DataLoader worker threads. PyTorch pickles a batch's
// tensors into shared memory (default_collate even stacks straight into a shared-memory storage, so
// no copy is made); here a tensor travels as its dtype, shape and its contiguous bytes in an
// ArrayBuffer that postMessage transfers (moves, not copies):
//   - a tensor whose storage the sender owns outright (`owned`: the worker passes the storages that
//     default_collate created for this batch, nothing else can hold them) and that covers all of it
//     sends the storage's own buffer: no copy at all. The sender's storage is left detached, which is
//     why only storages nobody else can reach qualify;
//   - any other tensor (a view, a dataset's own tensor, whatever a user collate_fn returned and might
//     keep) is copied into a fresh buffer first, so the sender's data stays intact.
// The receiver adopts the buffer as the new tensor's storage (no second copy); it owns it alone, so
// freeing or reusing it on the main thread cannot touch the worker, nor the reverse.

import { Tensor } from "../aten/core/Tensor.js";
import { TensorImpl } from "../c10/TensorImpl.js";
import { Storage } from "../c10/Storage.js";
import { GetAllocator, type Allocator, type DataPtr } from "../c10/Allocator.js";
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

/**
 * Encodes `t`. With `owned` (storages the caller alone can reach) a tensor covering the whole of such a
 * storage gives up the storage's buffer (it is removed from `owned`, so a second tensor over it copies).
 */
export function encodeTensor(t: Tensor, owned?: Set<Storage>): EncodedTensor {
  if (t.device.type !== "cpu") throw new TypeError(`only CPU tensors can be sent to or from DataLoader workers, got ${t.device.type}`);
  const storage = t._impl.storage;
  const itemsize = t.dtype.itemsize;
  const nbytes = t.numel() * itemsize;
  if (owned?.has(storage) && t.is_contiguous() && t.storage_offset() === 0 && storage.nbytes() === nbytes && nbytes > 0) {
    owned.delete(storage);
    storage.viewCache = null;
    return { __tensor__: true, dtype: t.dtype.name, shape: [...t.shape], bytes: storage.buffer() };
  }
  const c = t.is_contiguous() ? t : t.contiguous();
  const start = c.storage_offset() * itemsize;
  const bytes = c._impl.storage.buffer().slice(start, start + nbytes);
  return { __tensor__: true, dtype: c.dtype.name, shape: [...c.shape], bytes };
}

/**
 * The allocator of an adopted storage: its first allocation is the received buffer, with an address
 * from a counter of its own; later ones (resize_, deepcopy's new Storage) and free() go to the CPU
 * allocator.
 */
let nextAdoptedAddress = 2 ** 50; // apart from the CPU allocators' range, so data_ptr()s never overlap
class AdoptingAllocator implements Allocator {
  constructor(private buffer: ArrayBuffer | null) {}
  allocate(nbytes: number): DataPtr {
    const b = this.buffer;
    if (b !== null && b.byteLength === nbytes) {
      this.buffer = null;
      const address = nextAdoptedAddress;
      nextAdoptedAddress += Math.ceil(Math.max(nbytes, 1) / 64) * 64;
      return { buffer: b, address };
    }
    return GetAllocator("cpu").allocate(nbytes);
  }
  free(dataPtr: DataPtr): void {
    GetAllocator("cpu").free?.(dataPtr);
  }
}

/** A tensor over the received bytes, which it takes as its storage (the sender no longer has them). */
export function decodeTensor(e: EncodedTensor): Tensor {
  const dt = DTYPES[e.dtype];
  const storage = new Storage(e.bytes.byteLength, new AdoptingAllocator(e.bytes), toDevice("cpu"));
  return new Tensor(new TensorImpl(storage, dt, e.shape));
}

/**
 * Encodes every tensor inside arrays and plain objects; other values must be structured-clonable.
 * Buffers to transfer are pushed on `transfer`; `owned` as in encodeTensor.
 */
export function encodeTree(x: unknown, transfer?: ArrayBuffer[], owned?: Set<Storage>): unknown {
  if (x instanceof Tensor) {
    const e = encodeTensor(x, owned);
    transfer?.push(e.bytes);
    return e;
  }
  if (Array.isArray(x)) return x.map((v) => encodeTree(v, transfer, owned));
  if (x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = encodeTree(v, transfer, owned);
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
