// Storage (c10/core/StorageImpl.h): untyped bytes on a device, shared by every view of a tensor.
// The dtype lives on the TensorImpl, not here: one Storage can be read as float32 by one view and int32 by another.

import type { Allocator, DataPtr } from "./Allocator.js";
import type { device } from "./Device.js";
import { RuntimeError } from "./Errors.js";
import type { TypedView } from "./ElementAccess.js";
import type { dtype } from "./ScalarType.js";

/** Storages made so far: each Storage's serial number (the autograd engine's "born during this backward"). */
let storagesAllocated = 0;

export function storage_serial_now(): number {
  return storagesAllocated;
}

/** Where new storages are recorded while a backward Node runs (the engine frees its formula's temporaries). */
let birthScope: Storage[] | null = null;

/** Starts (or ends, with null) recording every Storage created; returns the previous recorder. */
export function _set_storage_birth_scope(scope: Storage[] | null): Storage[] | null {
  const old = birthScope;
  birthScope = scope;
  return old;
}

const STORAGE_RELEASED =
  "glasstorch: this tensor's storage was freed by the engine (it held the last reference); reading it is a use after free, please report it";

export class Storage {
  private dataPtr_: DataPtr;
  private nbytes_: number;
  private released_ = false;
  /** The order of creation: larger is younger (see storage_serial_now). */
  readonly serial: number;
  /**
   * Set once user code may hold this memory through a path the engine cannot see (a hook saw it, it
   * became a .grad, autograd.grad returned it, a custom Function's backward got it): the engine then
   * never frees it early, whatever its own references say.
   */
  exposed = false;
  /**
   * Who can read these bytes, for Tensor.dispose() (c10/Dispose.ts): every TensorImpl made over this
   * storage, plus the engine's holders of a user's handle. Disposing gives a share up; the collector never
   * does, so a storage anything undisposed reads stays alive.
   */
  owners = 0;
  /** The last typed view made of these bytes (ElementAccess.typedView), so kernels do not rebuild it. */
  viewCache: { type: number; view: TypedView } | null = null;

  constructor(
    nbytes: number,
    readonly allocator: Allocator,
    readonly device: device,
    readonly resizable = true,
    uninitialized = false,
    /** the dtype the storage is made for: a small one may then live on V8's heap as that typed array */
    dt?: dtype,
    /** where in its 4 KiB page the data should start (colour_away_from), for an allocator that places blocks */
    colour?: number,
  ) {
    this.nbytes_ = nbytes;
    this.dataPtr_ = allocator.allocate(nbytes, uninitialized, dt, colour);
    const heap = this.dataPtr_.heap;
    if (heap !== undefined && dt !== undefined) this.viewCache = { type: dt.scalarType, view: heap };
    this.serial = ++storagesAllocated;
    if (birthScope !== null) birthScope.push(this);
  }

  nbytes(): number {
    return this.nbytes_;
  }

  /** The raw bytes; throws for meta storage, which has none. */
  buffer(): ArrayBuffer {
    const b = this.dataPtr_.buffer;
    if (this.released_) throw new RuntimeError(STORAGE_RELEASED);
    if (b !== null) return b;
    // a heap storage's bytes: V8 moves them into an ArrayBuffer, which the typed array then uses too
    const heap = this.dataPtr_.heap;
    if (heap !== undefined) return (this.dataPtr_.buffer = heap.buffer as ArrayBuffer);
    throw new RuntimeError(`Cannot access data pointer of Tensor that doesn't have storage`);
  }

  hasData(): boolean {
    // a released storage had data: kernels must reach buffer() and throw, not take it for meta
    return this.dataPtr_.buffer !== null || this.dataPtr_.heap !== undefined || this.released_;
  }

  /**
   * Frees the memory now (StorageImpl's last reference going away in PyTorch). Only for a storage the
   * caller provably owns alone: every tensor over it becomes unusable (buffer() throws), and the native
   * allocator detaches the ArrayBuffer, so a stale typed array sees length 0, never reused memory.
   * Returns false when there was nothing to free (meta, or already released).
   */
  release(): boolean {
    if (this.released_ || !this.hasData()) return false;
    const dataPtr = this.dataPtr_;
    this.released_ = true;
    this.viewCache = null;
    this.dataPtr_ = { buffer: null, address: dataPtr.address };
    this.allocator.free?.(dataPtr);
    return true;
  }

  /** Whether release() freed this storage. */
  is_released(): boolean {
    return this.released_;
  }

  /** Whether the allocation started zeroed (valid until the first write). */
  allocatedZeroed(): boolean {
    return this.dataPtr_.zeroed === true;
  }

  /** Where the data starts in its 4 KiB page, when the allocator placed it (DataPtr.colour). */
  colour(): number | undefined {
    return this.dataPtr_.colour;
  }

  /** The allocation's address, like StorageImpl::data() cast to an integer. */
  address(): number {
    return this.dataPtr_.address;
  }

  /**
   * Grows the storage in place (resize_), keeping its bytes; every view sees the new memory. The bytes
   * past the old ones are undefined, as in PyTorch; an empty storage (at::empty({0}) that an out=
   * kernel resizes: abs, logical_not, every functional op written through its .out) gets
   * uninitialised memory, as its output would from the TensorIterator: zeroing a fresh 4 MB block
   * made abs of 2^20 floats 0.69 ms against neg's 0.17.
   */
  resize(nbytes: number): void {
    if (this.released_) throw new RuntimeError(STORAGE_RELEASED);
    if (!this.resizable) throw new RuntimeError("Trying to resize storage that is not resizable");
    if (nbytes === this.nbytes_) return;
    const fresh = this.allocator.allocate(nbytes, this.nbytes_ === 0);
    const n = Math.min(nbytes, this.nbytes_);
    // (nothing to keep from an empty storage: asking a heap storage for its buffer() makes V8 move its
    // bytes into an ArrayBuffer, which was a third of a small index_select's time)
    if (n > 0 && fresh.buffer && this.hasData()) new Uint8Array(fresh.buffer).set(new Uint8Array(this.buffer(), 0, n));
    this.dataPtr_ = fresh;
    this.viewCache = null; // views of the old memory
    this.nbytes_ = nbytes;
  }
}
