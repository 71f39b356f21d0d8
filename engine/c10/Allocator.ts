// Allocators per device type (c10/core/Allocator.h, c10/core/CPUAllocator.cpp).
// A DataPtr carries the memory and a stable fake address, so data_ptr() can show aliasing the way PyTorch's pointers do.

import { RuntimeError } from "./Errors.js";
import type { DeviceType } from "./Device.js";
import { makeHeapView, type TypedView } from "./ElementAccess.js";
import type { dtype } from "./ScalarType.js";

export interface DataPtr {
  /** The bytes; null for meta tensors, which have no data. */
  buffer: ArrayBuffer | null;
  /** A unique address for this allocation (never reused), like a pointer value. */
  address: number;
  /** True when the allocator hands out zeroed memory (new ArrayBuffers are), so zeros() need not fill. */
  zeroed?: boolean;
  /**
   * A small storage's memory as a typed array of its dtype that owns it, kept on V8's heap (buffer is
   * null until someone asks Storage.buffer() for the bytes: smallHeapDataPtr).
   */
  heap?: TypedView;
  /**
   * Where the data starts in its 4 KiB page (its colour, a multiple of 64), for the blocks whose start
   * the allocator places (the native allocator's of COLOUR_MIN_BYTES and more); undefined for others.
   */
  colour?: number;
}

/** The smallest block whose colour the allocator places (native/cpu/Allocator.cc's kColourMin). */
export const COLOUR_MIN_BYTES = 64 << 10;

/**
 * A colour for a block a kernel streams through together with blocks at the colours `taken`: midway
 * along the widest gap between them on the 4 KiB circle. Operands whose i-th elements share their low
 * 12 address bits, or lie a little apart in them, slow each other down (a core matches loads against
 * the stores in flight by those bits, and they fall in the same L1 sets): an in-cache add of 1e6 floats
 * on two threads took 79 us with its operands' colours spread, 80-86 with two of them on one colour
 * (bench scan, issue #8).
 * Sorts `taken` in place.
 */
export function colour_away_from(taken: number[]): number {
  if (taken.length === 0) return -1;
  // sorted in place by insertion (the caller's scratch array: Array.prototype.sort's comparator and
  // work arrays cost more than the whole choice, which runs for every pointwise result of 64 KiB or more)
  const cs = taken;
  for (let i = 1; i < cs.length; i++) {
    const v = cs[i];
    let j = i - 1;
    for (; j >= 0 && cs[j] > v; j--) cs[j + 1] = cs[j];
    cs[j + 1] = v;
  }
  let best = 0, at = 0;
  for (let i = 0; i < cs.length; i++) {
    const next = i + 1 < cs.length ? cs[i + 1] : cs[0] + 4096;
    if (next - cs[i] > best) {
      best = next - cs[i];
      at = cs[i];
    }
  }
  return (Math.floor((at + best / 2) / 64) * 64) % 4096;
}

/** Storages of up to this many bytes (V8's typed_array_max_size_in_heap) may live on the JavaScript heap. */
export const HEAP_STORAGE_MAX_BYTES = 64;

/**
 * A CPU allocation of at most HEAP_STORAGE_MAX_BYTES for a tensor of `dt`: a zeroed typed array of dt
 * on V8's heap, no ArrayBuffer (the 1-element results of scalar arithmetic are most of the
 * allocations of a small model's step). null where that does not apply.
 */
export function smallHeapDataPtr(nbytes: number, dt: dtype | undefined, address: number): DataPtr | null {
  if (dt === undefined || nbytes > HEAP_STORAGE_MAX_BYTES || nbytes % dt.itemsize !== 0) return null;
  const heap = makeHeapView(dt.scalarType, nbytes / dt.itemsize);
  return heap === null ? null : { buffer: null, address, zeroed: true, heap };
}

export interface Allocator {
  /**
   * `uninitialized`: the caller writes every byte before reading any (torch.empty, a TensorIterator's
   * output), so the allocator may hand out a reused block without clearing it, as c10's never clears.
   * The DataPtr's `zeroed` says what the caller got.
   */
  allocate(nbytes: number, uninitialized?: boolean, dt?: dtype, colour?: number): DataPtr;
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
  allocate(nbytes: number, _uninitialized?: boolean, dt?: dtype): DataPtr {
    const address = nextAddress;
    nextAddress += Math.ceil(Math.max(nbytes, 1) / alignment) * alignment;
    return smallHeapDataPtr(nbytes, dt, address) ?? { buffer: new ArrayBuffer(nbytes), address, zeroed: true };
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
