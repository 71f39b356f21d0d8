// Storage (c10/core/StorageImpl.h): untyped bytes on a device, shared by every view of a tensor.
// The dtype lives on the TensorImpl, not here: one Storage can be read as float32 by one view and int32 by another.

import type { Allocator, DataPtr } from "./Allocator.js";
import type { device } from "./Device.js";
import { RuntimeError } from "./Errors.js";
import type { TypedView } from "./ElementAccess.js";

export class Storage {
  private dataPtr_: DataPtr;
  private nbytes_: number;
  /** The last typed view made of these bytes (ElementAccess.typedView), so kernels do not rebuild it. */
  viewCache: { type: number; view: TypedView } | null = null;

  constructor(
    nbytes: number,
    readonly allocator: Allocator,
    readonly device: device,
    readonly resizable = true,
  ) {
    this.nbytes_ = nbytes;
    this.dataPtr_ = allocator.allocate(nbytes);
  }

  nbytes(): number {
    return this.nbytes_;
  }

  /** The raw bytes; throws for meta storage, which has none. */
  buffer(): ArrayBuffer {
    const b = this.dataPtr_.buffer;
    if (b === null) throw new RuntimeError(`Cannot access data pointer of Tensor that doesn't have storage`);
    return b;
  }

  hasData(): boolean {
    return this.dataPtr_.buffer !== null;
  }

  /** Whether the allocation started zeroed (valid until the first write). */
  allocatedZeroed(): boolean {
    return this.dataPtr_.zeroed === true;
  }

  /** The allocation's address, like StorageImpl::data() cast to an integer. */
  address(): number {
    return this.dataPtr_.address;
  }

  /** Grows the storage in place (resize_), keeping its bytes; every view sees the new memory. */
  resize(nbytes: number): void {
    if (!this.resizable) throw new RuntimeError("Trying to resize storage that is not resizable");
    if (nbytes === this.nbytes_) return;
    const fresh = this.allocator.allocate(nbytes);
    if (fresh.buffer && this.dataPtr_.buffer) {
      const n = Math.min(nbytes, this.nbytes_);
      new Uint8Array(fresh.buffer).set(new Uint8Array(this.dataPtr_.buffer, 0, n));
    }
    this.dataPtr_ = fresh;
    this.nbytes_ = nbytes;
  }
}
