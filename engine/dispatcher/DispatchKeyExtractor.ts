// DispatchKeyExtractor (aten/src/ATen/core/dispatch/DispatchKeyExtractor.h/.cpp): computes the key set of
// one call. From the schema it knows once which argument positions hold tensors; per call it does
//   ks = OR of those tensors' key sets          (a null/undefined tensor contributes nothing)
//   ks = ((ks | TLS included) - TLS excluded) & nonFallthroughKeys
// The last mask drops every key whose slot in this operator's table is a fallthrough, so skipping a
// fallthrough costs nothing at call time.

import { DispatchKey, isPerBackendFunctionalityKey, numBackends, toBackendComponent, toFunctionalityKey } from "../c10/DispatchKey.js";
import { DispatchKeySet, backendIndexOfRepr, full_backend_mask } from "../c10/DispatchKeySet.js";
import {
  default_excluded_repr,
  default_included_repr,
  raw_local_dispatch_key_set,
} from "../c10/impl/LocalDispatchKeySet.js";
import type { OperatorSchema } from "./OperatorSchema.js";

/** Anything with `_impl.key_set` is a tensor to the dispatcher (engine/aten/core/Tensor.ts; no import of aten here). */
export interface TensorLike {
  readonly _impl: { readonly key_set: DispatchKeySet };
}

export function isTensorLike(x: unknown): x is TensorLike {
  if (typeof x !== "object" || x === null) return false;
  const impl = (x as { _impl?: { key_set?: unknown } })._impl;
  return typeof impl === "object" && impl !== null && impl.key_set instanceof DispatchKeySet;
}

/** How an argument position contributes: one tensor (Tensor, Tensor?), or a list of them (Tensor[], Tensor?[]). */
const TensorArgKind = { Tensor: 0, List: 1 } as const;
type TensorArgKind = (typeof TensorArgKind)[keyof typeof TensorArgKind];

function tensorArgKind(type: string): TensorArgKind | null {
  if (type === "Tensor" || type === "Tensor?") return TensorArgKind.Tensor;
  if (type === "Tensor[]" || type === "Tensor?[]") return TensorArgKind.List;
  return null;
}

function keySetRepr(x: unknown): number {
  // Structural: an object without _impl (a stray non-tensor) contributes nothing.
  const impl = (x as Partial<TensorLike>)._impl;
  return impl === undefined ? 0 : impl.key_set.repr;
}

export class DispatchKeyExtractor {
  /** Positions of tensor-like arguments and their kinds (PyTorch keeps a reversed bitset). */
  private tensorArgPositions_: number[] = [];
  private tensorArgKinds_: TensorArgKind[] = [];
  /** Keys whose table entry is not a fallthrough; FULL until the table says otherwise. */
  private nonFallthroughKeys_ = DispatchKeySet.full().repr;
  /** The same per backend, needed when e.g. AutogradCPU is a fallthrough but AutogradMeta is not. */
  private readonly nonFallthroughKeysPerBackend_: number[] = new Array(numBackends).fill(DispatchKeySet.full().repr);
  private requiresBitsetPerBackend_ = false;

  static makeUninitialized(): DispatchKeyExtractor {
    return new DispatchKeyExtractor();
  }

  registerSchema(schema: OperatorSchema): void {
    this.tensorArgPositions_ = [];
    this.tensorArgKinds_ = [];
    schema.arguments.forEach((arg, i) => {
      const kind = tensorArgKind(arg.type.toString());
      if (kind === null) return;
      this.tensorArgPositions_.push(i);
      this.tensorArgKinds_.push(kind);
    });
  }

  deregisterSchema(): void {
    this.tensorArgPositions_ = [];
    this.tensorArgKinds_ = [];
  }

  /** The argument positions that carry dispatch keys, in schema order. */
  tensorArgumentPositions(): readonly number[] {
    return this.tensorArgPositions_;
  }

  /** The hot path: raw bits of the key set a call with these arguments dispatches on. */
  getDispatchKeySetRepr(args: readonly unknown[]): number {
    let ks = 0;
    const positions = this.tensorArgPositions_;
    for (let i = 0; i < positions.length; i++) {
      const a = args[positions[i]];
      if (a === null || a === undefined) continue;
      if (this.tensorArgKinds_[i] === TensorArgKind.Tensor) {
        ks |= keySetRepr(a);
      } else {
        for (const t of a as readonly unknown[]) if (t !== null && t !== undefined) ks |= keySetRepr(t);
      }
    }
    // The per-backend mask is chosen from the tensors' highest backend, before TLS (as in PyTorch).
    const mask = this.requiresBitsetPerBackend_
      ? this.nonFallthroughKeysPerBackend_[backendIndexOfRepr(ks)]
      : this.nonFallthroughKeys_;
    return computeDispatchKeySetRepr(ks, mask);
  }

  getDispatchKeySet(args: readonly unknown[]): DispatchKeySet {
    return new DispatchKeySet(this.getDispatchKeySetRepr(args));
  }

  /** Called for every runtime key when the operator's table is recomputed (setOperatorHasFallthroughForKey). */
  setOperatorHasFallthroughForKey(k: DispatchKey, hasFallthrough: boolean): void {
    const update = (set: number) => {
      const ks = new DispatchKeySet(set);
      return (hasFallthrough ? ks.remove(k) : ks.add(k)).repr;
    };
    this.nonFallthroughKeys_ = update(this.nonFallthroughKeys_);
    if (isPerBackendFunctionalityKey(toFunctionalityKey(k))) {
      // Only this backend's set changes; compare the sets to know whether one set still serves all.
      const b = toBackendComponent(k) - 1;
      this.nonFallthroughKeysPerBackend_[b] = update(this.nonFallthroughKeysPerBackend_[b]);
      const sets = this.nonFallthroughKeysPerBackend_;
      this.requiresBitsetPerBackend_ = sets.some((s) => s !== sets[0]);
    } else {
      for (let b = 0; b < numBackends; b++) this.nonFallthroughKeysPerBackend_[b] = update(this.nonFallthroughKeysPerBackend_[b]);
    }
  }

  /** The keys a call of this operator can land on (for a call whose tensors are on backend `backendIndex`). */
  nonFallthroughKeys(backendIndex = 0): DispatchKeySet {
    return new DispatchKeySet(
      this.requiresBitsetPerBackend_ ? this.nonFallthroughKeysPerBackend_[backendIndex] : this.nonFallthroughKeys_,
    );
  }

  requiresBitsetPerBackend(): boolean {
    return this.requiresBitsetPerBackend_;
  }
}

/** computeDispatchKeySet (DispatchKeyExtractor.h): ((ks | included) - excluded) & mask, on raw bits. */
export function computeDispatchKeySetRepr(ks: number, keyMask: number): number {
  const included = raw_local_dispatch_key_set.included_ ^ default_included_repr;
  // Set difference keeps the left side's backend bits, so only excluded functionality bits count.
  const excluded = (raw_local_dispatch_key_set.excluded_ ^ default_excluded_repr) & ~full_backend_mask;
  return ((ks | included) & ~excluded & keyMask) >>> 0;
}
