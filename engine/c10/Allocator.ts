// Allocators per device type (c10/core/Allocator.h, c10/core/CPUAllocator.cpp).
// A DataPtr carries the memory and a stable fake address, so data_ptr() can show aliasing the way PyTorch's pointers do.

import { RuntimeError } from "./Errors.js";
import type { DeviceType } from "./Device.js";

export interface DataPtr {
  /** The bytes; null for meta tensors, which have no data. */
  buffer: ArrayBuffer | null;
  /** A unique address for this allocation (never reused), like a pointer value. */
  address: number;
  /** True when the allocator hands out zeroed memory (new ArrayBuffers are), so zeros() need not fill. */
  zeroed?: boolean;
}

export interface Allocator {
  /**
   * `uninitialized`: the caller writes every byte before reading any (torch.empty, a TensorIterator's
   * output), so the allocator may hand out a reused block without clearing it, as c10's never clears.
   * The DataPtr's `zeroed` says what the caller got.
   */
  allocate(nbytes: number, uninitialized?: boolean): DataPtr;
  /**
   * Gives the memory back now, not at the next garbage collection (Storage.release, when the engine
   * holds the last reference). The buffer is detached where the runtime allows it, so a stale view
   * reads nothing instead of reused memory. Allocators without it leave the buffer to the collector.
   */
  free?(dataPtr: DataPtr): void;
  /** Whether free() gives a block of this size back for reuse (Tensor.dispose frees only those). */
  reclaims?(nbytes: number): boolean;
}

const alignment = 64; // c10's gAlignment
let nextAddress = 0x7f0000000000 / 1024; // looks like a heap pointer, stays a safe integer

class CPUAllocator implements Allocator {
  allocate(nbytes: number): DataPtr {
    const address = nextAddress;
    nextAddress += Math.ceil(Math.max(nbytes, 1) / alignment) * alignment;
    return { buffer: new ArrayBuffer(nbytes), address, zeroed: true };
  }
}

/** Meta tensors carry shapes and dtypes only: data_ptr() is 0, as in PyTorch. */
class MetaAllocator implements Allocator {
  allocate(): DataPtr {
    return { buffer: null, address: 0 };
  }
}

const allocators = new Map<DeviceType, Allocator>([
  ["cpu", new CPUAllocator()],
  ["meta", new MetaAllocator()],
]);

/** Backends (the CUDA addon) install their allocator here when they load. */
export function SetAllocator(type: DeviceType, allocator: Allocator): void {
  allocators.set(type, allocator);
}

export function hasAllocator(type: DeviceType): boolean {
  return allocators.has(type);
}

export function GetAllocator(type: DeviceType): Allocator {
  const a = allocators.get(type);
  if (a) return a;
  if (type === "cuda") throw new RuntimeError("Torch not compiled with CUDA enabled");
  throw new RuntimeError(`Could not allocate memory on device type '${type}': no allocator is registered for it`);
}
