// DispatchKeySet (c10/core/DispatchKeySet.h): a bitset of backend bits and functionality bits.
// A runtime key like AutogradCUDA is two bits: the AutogradFunctionality bit and the CUDA backend bit.
// With 3 backends and 9 functionality keys everything fits in one 32-bit integer.

import {
  BackendComponent,
  DispatchKey,
  numBackends,
  numFunctionalityKeys,
  isAliasDispatchKey,
  isPerBackendFunctionalityKey,
  toBackendComponent,
  toFunctionalityKey,
  toRuntimePerBackendFunctionalityKey,
  dispatchKeyName,
  getAutogradKeyFromBackend,
  getAutocastKeyFromBackend,
} from "./DispatchKey.js";

const backendMask = (1 << numBackends) - 1;

function functionalityBit(k: DispatchKey): number {
  return 1 << (numBackends + k - 1);
}

function backendBit(b: BackendComponent): number {
  return 1 << (b - 1);
}

export class DispatchKeySet {
  /** The raw bits: backend bits low, functionality bits above them. */
  readonly repr: number;

  constructor(repr = 0) {
    this.repr = repr >>> 0;
  }

  static of(...keys: DispatchKey[]): DispatchKeySet {
    let repr = 0;
    for (const k of keys) repr |= DispatchKeySet.bitsOf(k);
    return new DispatchKeySet(repr);
  }

  static fromBackend(b: BackendComponent): DispatchKeySet {
    return new DispatchKeySet(b === BackendComponent.InvalidBit ? 0 : backendBit(b));
  }

  /** The bits a single key occupies (alias keys occupy none, as in PyTorch). */
  private static bitsOf(k: DispatchKey): number {
    if (k === DispatchKey.Undefined || isAliasDispatchKey(k)) return 0;
    if (k < DispatchKey.EndOfFunctionalityKeys) return functionalityBit(k);
    const functionality = toFunctionalityKey(k);
    const backend = toBackendComponent(k);
    return functionalityBit(functionality) | (backend === BackendComponent.InvalidBit ? 0 : backendBit(backend));
  }

  /** has(k): for a runtime per-backend key, both its functionality bit and backend bit must be set. */
  has(k: DispatchKey): boolean {
    const bits = DispatchKeySet.bitsOf(k);
    return bits !== 0 && (this.repr & bits) === bits;
  }

  hasBackend(b: BackendComponent): boolean {
    return (this.repr & backendBit(b)) !== 0;
  }

  add(k: DispatchKey): DispatchKeySet {
    return new DispatchKeySet(this.repr | DispatchKeySet.bitsOf(k));
  }

  /** Removes only the functionality bit: backend bits are shared by every functionality and stay. */
  remove(k: DispatchKey): DispatchKeySet {
    const f = toFunctionalityKey(k);
    if (f === DispatchKey.Undefined) return this;
    return new DispatchKeySet(this.repr & ~functionalityBit(f));
  }

  or(other: DispatchKeySet): DispatchKeySet {
    return new DispatchKeySet(this.repr | other.repr);
  }

  and(other: DispatchKeySet): DispatchKeySet {
    return new DispatchKeySet(this.repr & other.repr);
  }

  /** Set difference; like PyTorch's operator-, it keeps all of this set's backend bits. */
  minus(other: DispatchKeySet): DispatchKeySet {
    return new DispatchKeySet(this.repr & ~(other.repr & ~backendMask));
  }

  isEmpty(): boolean {
    return this.repr === 0;
  }

  equals(other: DispatchKeySet): boolean {
    return this.repr === other.repr;
  }

  highestFunctionalityKey(): DispatchKey {
    const functionalityBits = this.repr >>> numBackends;
    if (functionalityBits === 0) return DispatchKey.Undefined;
    return (32 - Math.clz32(functionalityBits)) as DispatchKey;
  }

  highestBackendKey(): BackendComponent {
    const b = this.repr & backendMask;
    return (b === 0 ? 0 : 32 - Math.clz32(b)) as BackendComponent;
  }

  /** The runtime key the dispatcher runs first (highestPriorityTypeId in PyTorch). */
  highestPriorityTypeId(): DispatchKey {
    const f = this.highestFunctionalityKey();
    if (isPerBackendFunctionalityKey(f)) return toRuntimePerBackendFunctionalityKey(f, this.highestBackendKey());
    return f;
  }

  /** Runtime keys lowest priority first; a per-backend functionality yields one key per backend bit. */
  *[Symbol.iterator](): IterableIterator<DispatchKey> {
    for (let f = 1; f < numFunctionalityKeys; f++) {
      if (!(this.repr & functionalityBit(f))) continue;
      if (isPerBackendFunctionalityKey(f)) {
        for (let b = 1; b <= numBackends; b++) {
          if (this.repr & backendBit(b)) yield toRuntimePerBackendFunctionalityKey(f, b);
        }
      } else {
        yield f;
      }
    }
  }

  /** Printed as PyTorch prints it: DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU) */
  toString(): string {
    return `DispatchKeySet(${[...this].map(dispatchKeyName).join(", ")})`;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** Every key a fresh tensor on this backend carries (TensorImpl.cpp): the backend's Dense key plus
 * ADInplaceOrView, Autograd<backend> and Autocast<backend>, whether or not it requires grad. */
export function tensorKeySetFor(b: BackendComponent, inferenceMode = false): DispatchKeySet {
  let ks = DispatchKeySet.of(toRuntimePerBackendFunctionalityKey(DispatchKey.Dense, b));
  const autocast = getAutocastKeyFromBackend(b);
  if (autocast !== undefined) ks = ks.add(autocast);
  if (!inferenceMode) ks = ks.add(DispatchKey.ADInplaceOrView).add(getAutogradKeyFromBackend(b));
  return ks;
}
