// Deterministic freeing (issue #8): Tensor.dispose() / `using t = ...` ([Symbol.dispose]).
// PyTorch frees a result the moment its last reference goes (refcounting), so the next op reuses the same
// cache-hot block; in JavaScript a dropped tensor's block only comes back at garbage collection. dispose()
// says "this handle is done"; the memory goes back at once only when no one else can read it:
//
//  - every TensorImpl made over a Storage is an owner of it (TensorImpl's constructor counts it: views,
//    detach, aliases, .data, Parameter's alias ...); disposing a tensor's handle gives up its impl's share;
//  - the engine's holders that keep the very same handle count too: a SavedVariable keeping its input
//    (saved_variable.ts), a Module's registered parameters and buffers (nn/modules/module.ts);
//  - an owner dropped by the garbage collector never gives up its share, so whatever is not disposed keeps
//    the block until the collector frees it, as before: leaving a tensor undisposed is always safe;
//  - a storage the autograd engine marked `exposed` (it became a .grad, a hook or autograd.grad saw it:
//    grad_ownership.ts) may be held through paths no one counted, so dispose never frees it;
//  - only blocks the allocator takes back (the native allocator's, >= 4 KiB) are freed: a small V8
//    ArrayBuffer, a meta tensor, or the TypeScript allocator's storage is left to the collector.
//
// A disposed handle keeps its metadata (shape, dtype, device, requires_grad, grad_fn) but every use of
// its data throws: its impl is swapped for one over a DisposedStorage, whose key set throws in the
// dispatcher (so any op names itself: "add: tensor was disposed") and whose buffer() throws for code that
// reads storage directly. The engine's holders keep the original impl, so a disposed tensor that was saved
// for backward still backpropagates. Storage.release() detaches the buffer, so even a miscount could only
// throw, never read reused memory.

import { RuntimeError } from "./Errors.js";
import { Storage } from "./Storage.js";
import { TensorImpl } from "./TensorImpl.js";
import type { Allocator } from "./Allocator.js";

const DISPOSED = "tensor was disposed (by dispose() or the end of its `using` block); it cannot be used any more";

/** Use of a disposed tensor. The dispatcher prefixes the operator's name ("add: tensor was disposed ..."). */
export class TensorDisposedError extends RuntimeError {
  readonly tensor_disposed = true;
  constructor(what?: string) {
    super(what ? `${what}: ${DISPOSED}` : DISPOSED, what ? { op: what } : undefined);
  }
}

/** The dispatcher's error path: names the operator a disposed tensor was passed to. */
export function name_disposed_use(err: unknown, opName: string): void {
  if (err instanceof TensorDisposedError && err.op === undefined) {
    // 'aten::add.Tensor' -> 'add'
    const name = opName.replace(/^aten::/, "").replace(/\..*$/, "");
    err.message = `${name}: ${err.message}`;
  }
}

const NO_DATA = Object.freeze({ buffer: null, address: 0 });
const noMemory: Allocator = { allocate: () => NO_DATA };

/**
 * A disposed handle's storage: the old one's size, address and device, no bytes; reading it throws. It
 * keeps no reference to the old storage, so a disposed handle never keeps memory alive.
 */
export class DisposedStorage extends Storage {
  private readonly nbytesWas: number;
  private readonly addressWas: number;
  constructor(was: Storage) {
    super(0, noMemory, was.device, false);
    this.nbytesWas = was.nbytes();
    this.addressWas = was.address();
  }
  override nbytes(): number {
    return this.nbytesWas;
  }
  override buffer(): ArrayBuffer {
    throw new TensorDisposedError();
  }
  override hasData(): boolean {
    return this.device.type !== "meta";
  }
  override address(): number {
    return this.addressWas;
  }
  override resize(): void {
    throw new TensorDisposedError();
  }
}

let disposedFrees = 0;
let disposedBytes = 0;

/** Storages dispose() gave back to the allocator so far, and their bytes (tests read this). */
export function _dispose_stats(): { storages: number; bytes: number } {
  return { storages: disposedFrees, bytes: disposedBytes };
}

export function is_disposed(impl: TensorImpl): boolean {
  return impl.storage instanceof DisposedStorage;
}

/** Throws if t's handle was disposed; `what` names the use (item, tolist, backward ...). */
export function check_not_disposed(impl: TensorImpl, what: string): void {
  if (impl.storage instanceof DisposedStorage) throw new TensorDisposedError(what);
}

/** An engine holder keeping a handle the user may dispose (a SavedVariable, a Module): one more owner. */
export function hold_storage(s: Storage): void {
  s.owners++;
}

/** That holder let go. Never frees by itself (the holder may have passed the tensor on); the next dispose can. */
export function drop_storage(s: Storage): void {
  s.owners--;
}

/**
 * An impl made for a moment under another's share: it owns nothing itself. SavedVariable.unpack's copy, and
 * an op's temporary windows of its own result (cat's slices), which PyTorch frees when the op returns: a
 * window that kept its share would keep result.dispose() from freeing the block.
 */
export function borrow(impl: TensorImpl): void {
  if (impl.owns_storage) {
    impl.owns_storage = false;
    impl.storage.owners--;
  }
}

/** A tensor handle as this file sees it (aten's Tensor). */
interface Handle {
  _impl: TensorImpl;
  dispose(): void;
}

/**
 * The end of a composite op: the tensors it made on the way die, as PyTorch's temporaries do when the op
 * returns. One over a result's storage (the intermediate a returned view was made from, a window of it) gives up
 * its share and stays usable (a view's _base); any other is disposed, so its block is freed now unless something else holds it (the
 * caller's tensor it is a view of, a saved variable). The results and the op's inputs are left alone.
 */
export function end_composite(made: readonly (Handle | null)[], results: readonly Handle[], inputs: readonly (Handle | null)[] = []): void {
  for (const t of new Set(made)) {
    if (t === null || results.includes(t) || inputs.includes(t)) continue;
    if (results.some((r) => r._impl.storage === t._impl.storage)) borrow(t._impl);
    else t.dispose();
  }
}

/** Gives up impl's share of its storage, and frees the storage if that was the last owner (see above). */
function give_up(impl: TensorImpl): void {
  if (!impl.owns_storage) return;
  impl.owns_storage = false;
  const s = impl.storage;
  if (--s.owners > 0 || s.exposed || s.is_released()) return;
  const bytes = s.nbytes();
  if (s.allocator.reclaims?.(bytes) !== true) return;
  if (s.release()) {
    disposedFrees++;
    disposedBytes += bytes;
  }
}

/**
 * What a disposed handle's impl is made from: TensorImpl's methods, with a key set that throws. The
 * dead impl gets the live one's fields copied onto an object of this prototype rather than a new
 * TensorImpl with the accessor defined on it (Object.defineProperty on an instance turns it into a
 * dictionary: ~1 µs of a dispose that costs ~1.5 µs in all, measured on 4 KiB results).
 */
const DisposedImplPrototype: TensorImpl = Object.create(TensorImpl.prototype, {
  key_set: {
    get(): never {
      throw new TensorDisposedError();
    },
  },
});

/**
 * Tensor.dispose(): returns the impl the handle holds from now on (same metadata, no data, a key set that
 * throws) and gives up the old impl's share of its storage. The old impl stays intact for the engine's holders.
 */
export function dispose_impl(impl: TensorImpl): TensorImpl {
  const dead = impl._copy_onto(DisposedImplPrototype, new DisposedStorage(impl.storage));
  give_up(impl);
  return dead;
}
