// Eager freeing of backward's intermediate gradients (issue #8): PyTorch frees a gradient the moment
// the engine drops its last reference (refcounting); JavaScript has no refcounts, so the engine counts
// the references it holds itself and frees only what it can prove no one else sees:
//
//  - the storage was allocated during this backward (its serial is above the one at the start), so
//    user code never had it: not an input, not a saved tensor, not a root gradient;
//  - no path out of the engine reached it: hooks (tensor, retain_grad, Node pre/post, a leaf's hooks),
//    a custom Function's backward (user code), becoming a .grad (AccumulateGrad stealing it), or being
//    returned by autograd.grad set Storage.exposed, for good;
//  - no InputBuffer slot still holds a tensor over it (counted per Storage, so views count too: a
//    Node returning grad.view(...) keeps grad's memory alive).
// Besides the gradients passed between Nodes, the temporaries a backward formula makes and drops
// (grad * (1 - y * y)'s intermediates) are freed too: every Storage created while a Node's apply runs
// is recorded (Storage.ts's birth scope), and those no slot holds are freed after it. Not for Nodes
// whose gradients user code sees (hooks, custom Functions), nor for AccumulateGrad (it makes .grad).
// Off under create_graph (the gradients are then part of a graph the user holds), while the trace
// observer records (it keeps the gradients it shows), and while a TorchDispatchMode is active (its
// __torch_dispatch__ sees, and may keep, every tensor; PyTorch's refcounts then see its references too,
// which is why its InputBuffer sums out of place under a mode). Storage.release() then gives the block back to
// the native allocator's cache and detaches the ArrayBuffer, so a bug here throws instead of reading
// reused memory.

import type { Tensor } from "../aten/core/Tensor.js";
import { storage_serial_now, type Storage } from "../c10/Storage.js";
import type { Grad } from "./function.js";
import { GradMode } from "../c10/GradMode.js";

let enabled = typeof process === "undefined" || process.env?.GLASSTORCH_EAGER_FREE !== "0";
let releasedStorages = 0;
let releasedBytes = 0;

/** Turns eager freeing (backward, optimizer steps) on or off (GLASSTORCH_EAGER_FREE=0 starts with it off); returns the old setting. */
export function _set_eager_free(on: boolean): boolean {
  const old = enabled;
  enabled = on;
  return old;
}

/** Storages freed early so far (backward, optimizer steps), and their bytes (tests and bench/soak_rss.mjs read this). */
export function _eager_free_stats(): { storages: number; bytes: number } {
  return { storages: releasedStorages, bytes: releasedBytes };
}

function released(s: Storage, bytes: number): void {
  releasedStorages++;
  releasedBytes += bytes;
}

/**
 * Frees a temporary its caller made and provably alone holds (an optimizer step's intermediate: made
 * by an out-of-place op under no_grad, never stored, never returned), unless it is one of `keep` (or
 * shares memory with one). For code that knows its temporaries; the engine's own bookkeeping is below.
 */
export function release_temporary(t: Tensor | null, ...keep: (Tensor | null)[]): void {
  // under grad mode the temporary may be saved by a graph (differentiable=True optimizers)
  if (!enabled || t === null || GradMode.is_enabled()) return;
  const s = t._impl.storage;
  if (s.exposed || keep.some((k) => k !== null && k._impl.storage === s)) return;
  const bytes = s.nbytes();
  if (s.release()) released(s, bytes);
}

/** Marks a tensor's memory as reachable by user code: the engine will never free it early. */
export function expose(t: Grad): void {
  if (t !== null) t._impl.storage.exposed = true;
}

/** One backward's bookkeeping: which storages its InputBuffers hold, and which it has let go of. */
export class GradOwnership {
  readonly active: boolean;
  private readonly bornAfter: number;
  private readonly refs = new Map<Storage, number>();
  private candidates: Storage[] = [];

  constructor(active: boolean) {
    this.active = active && enabled;
    this.bornAfter = storage_serial_now();
  }

  /** An InputBuffer slot now holds g. */
  hold(g: Grad): void {
    if (!this.active || g === null) return;
    const s = g._impl.storage;
    this.refs.set(s, (this.refs.get(s) ?? 0) + 1);
  }

  /** An InputBuffer slot let go of g (its Node ran, or the slot's gradients were summed). */
  drop(g: Grad): void {
    if (!this.active || g === null) return;
    const s = g._impl.storage;
    const n = (this.refs.get(s) ?? 0) - 1;
    if (n > 0) this.refs.set(s, n);
    else this.refs.delete(s);
    this.candidates.push(s);
  }

  /** A gradient the engine made and let go of without any slot holding it (replaced, or not routed). */
  discard(g: Grad): void {
    if (this.active && g !== null) this.candidates.push(g._impl.storage);
  }

  /** The storages a Node's formula made (outputs and temporaries alike): those no slot holds are freed at the next flush. */
  discardStorages(made: readonly Storage[]): void {
    if (this.active) for (const s of made) this.candidates.push(s);
  }

  /** Whether g's memory is the engine's alone: born in this backward, never exposed. */
  owns(g: Tensor): boolean {
    const s = g._impl.storage;
    return this.active && s.serial > this.bornAfter && !s.exposed && !s.is_released();
  }

  /** How many InputBuffer slots hold a tensor over g's storage. */
  holders(g: Tensor): number {
    return this.refs.get(g._impl.storage) ?? 0;
  }

  /** Frees every let-go storage that is owned and held by no slot. Call between Nodes. */
  flush(): void {
    if (!this.active || this.candidates.length === 0) return;
    const candidates = this.candidates;
    this.candidates = [];
    for (const s of candidates) {
      if (s.serial <= this.bornAfter || s.exposed || this.refs.has(s)) continue;
      const bytes = s.nbytes();
      if (s.release()) released(s, bytes);
    }
  }
}
