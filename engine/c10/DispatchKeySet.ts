// DispatchKeySet (c10/core/DispatchKeySet.h): a bitset of backend bits and functionality bits.
// A runtime key like AutogradCUDA is two bits: the AutogradFunctionality bit and the CUDA backend bit.
// With 3 backends and 11 functionality keys everything fits in one 32-bit integer.

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
if (numBackends + numFunctionalityKeys - 1 > 31) throw new Error("DispatchKeySet: too many keys for a 32-bit set");

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

  /** Every backend bit and every functionality bit (DispatchKeySet::FULL). */
  static full(): DispatchKeySet {
    return new DispatchKeySet(fullRepr);
  }

  /**
   * DispatchKeySet(FULL_AFTER, k): every functionality strictly below k's functionality, every backend
   * bit, and always PythonDispatcher. Kernels redispatch with `ks & fullAfter(theirKey)`.
   */
  static fullAfter(k: DispatchKey): DispatchKeySet {
    const below = (1 << (numBackends + toFunctionalityKey(k) - 1)) - 1;
    return new DispatchKeySet(below | functionalityBit(DispatchKey.PythonDispatcher));
  }

  xor(other: DispatchKeySet): DispatchKeySet {
    return new DispatchKeySet(this.repr ^ other.repr);
  }

  removeBackend(b: BackendComponent): DispatchKeySet {
    return new DispatchKeySet(this.repr & ~backendBit(b));
  }

  /** True if any functionality bit of `other` is here (has_any; backend bits alone do not count). */
  hasAny(other: DispatchKeySet): boolean {
    return (this.repr & other.repr & ~backendMask) !== 0;
  }

  /** 0 for CPU, 1 for CUDA, ...: which per-backend slot the highest backend bit selects (getBackendIndex). */
  getBackendIndex(): number {
    return backendIndexOfRepr(this.repr);
  }

  /** The slot of the runtime table the highest key uses (getDispatchTableIndexForDispatchKeySet). */
  getDispatchTableIndexForDispatchKeySet(): number {
    return dispatchTableIndexOfRepr(this.repr);
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
  // every tensor asks this on creation; the answer per (backend, inference) never changes, so compute it once
  const cacheKey = b * 2 + (inferenceMode ? 1 : 0);
  let ks = tensorKeySetCache.get(cacheKey);
  if (ks) return ks;
  ks = DispatchKeySet.of(toRuntimePerBackendFunctionalityKey(DispatchKey.Dense, b));
  const autocast = getAutocastKeyFromBackend(b);
  if (autocast !== undefined) ks = ks.add(autocast);
  if (!inferenceMode) ks = ks.add(DispatchKey.ADInplaceOrView).add(getAutogradKeyFromBackend(b));
  tensorKeySetCache.set(cacheKey, ks);
  return ks;
}

const tensorKeySetCache = new Map<number, DispatchKeySet>();

// ---- the runtime table layout (DispatchKeySet.h: offsetsAndMasks) ----
// Slot 0 is Undefined; each functionality key gets one slot, a per-backend functionality one per backend.

const fullRepr = ((1 << (numBackends + numFunctionalityKeys - 1)) - 1) >>> 0;
const tableOffsets: number[] = [0];
const tableIsPerBackend: boolean[] = [false];
let nextSlot = 1;
for (let f = 1; f < numFunctionalityKeys; f++) {
  tableOffsets[f] = nextSlot;
  tableIsPerBackend[f] = isPerBackendFunctionalityKey(f);
  nextSlot += tableIsPerBackend[f] ? numBackends : 1;
}
/** Slots per operator: num_functionality_keys + per_backend_count * (num_backends - 1). */
export const numRuntimeEntries = nextSlot;

/** Index of the highest backend bit, 0-based (CPU = 0); 0 when there is none, as in PyTorch. */
export function backendIndexOfRepr(repr: number): number {
  return 32 - Math.clz32((repr & backendMask) >>> 1);
}

/** The hot-path lookup on raw bits: offset of the highest functionality, plus the backend index if per-backend. */
export function dispatchTableIndexOfRepr(repr: number): number {
  const f = 32 - Math.clz32(repr >>> numBackends);
  return tableIsPerBackend[f] ? tableOffsets[f] + backendIndexOfRepr(repr) : tableOffsets[f];
}

export function getDispatchTableIndexForDispatchKey(k: DispatchKey): number {
  return dispatchTableIndexOfRepr(DispatchKeySet.of(k).repr);
}

/** The bits of the backend mask (full_backend_mask): all backend bits, no functionality. */
export const full_backend_mask = backendMask;

// ---- named key sets (c10/core/DispatchKeySet.h) ----

const allBackends = new DispatchKeySet(backendMask);

/** Autograd functionality bits without backend bits: AutoDispatchBelowAutograd excludes this. */
export const autograd_dispatch_keyset = DispatchKeySet.of(DispatchKey.AutogradFunctionality, DispatchKey.AutogradOther);
export const autograd_dispatch_keyset_with_ADInplaceOrView = autograd_dispatch_keyset.add(DispatchKey.ADInplaceOrView);
export const autocast_dispatch_keyset = DispatchKeySet.of(DispatchKey.AutocastCPU, DispatchKey.AutocastCUDA);
export const python_ks = DispatchKeySet.of(DispatchKey.Python, DispatchKey.PythonTLSSnapshot);

/** Backends whose autograd is AutogradOther (with every backend bit, as PyTorch writes it). */
export const autogradother_backends = DispatchKeySet.of(DispatchKey.FPGA).or(allBackends);

/** Every backend runtime key: what CompositeExplicitAutograd covers. */
export const backend_dispatch_keyset = autogradother_backends.or(DispatchKeySet.of(DispatchKey.Dense));
/** CompositeExplicitAutogradNonFunctional: PyTorch also drops Sparse and the XLA/Lazy bits; we have none of those. */
export const non_functional_backend_dispatch_keyset = backend_dispatch_keyset;
/** CompositeImplicitAutograd ("math"): every backend key and every autograd key. */
export const math_dispatch_keyset = backend_dispatch_keyset.or(autograd_dispatch_keyset);

/** What VariableType kernels redispatch with: AutogradOther is the lowest autograd key. */
export const after_autograd_keyset = DispatchKeySet.fullAfter(DispatchKey.AutogradOther);
/** What ADInplaceOrView kernels redispatch with. */
export const after_ADInplaceOrView_keyset = DispatchKeySet.fullAfter(DispatchKey.ADInplaceOrView);

// ---- alias keys (c10/core/DispatchKeySet.cpp) ----

/** The runtime keys an alias stands for; a non-alias key stands for itself. */
export function getRuntimeDispatchKeySet(k: DispatchKey): DispatchKeySet {
  switch (k) {
    case DispatchKey.Autograd:
      return autograd_dispatch_keyset.or(allBackends);
    case DispatchKey.CompositeImplicitAutograd:
      return math_dispatch_keyset;
    case DispatchKey.CompositeExplicitAutograd:
      return backend_dispatch_keyset;
    case DispatchKey.CompositeExplicitAutogradNonFunctional:
      return non_functional_backend_dispatch_keyset;
    default:
      return DispatchKeySet.of(k);
  }
}

/** Is runtime key k covered by the alias? Undefined never is (it is not representable in a set). */
export function isIncludedInAlias(k: DispatchKey, alias: DispatchKey): boolean {
  return k !== DispatchKey.Undefined && getRuntimeDispatchKeySet(alias).has(k);
}

/** A backend runtime key (CPU, Meta, FPGA...), not an alias or a layer key. */
export function isBackendDispatchKey(k: DispatchKey): boolean {
  return k !== DispatchKey.Undefined && !isAliasDispatchKey(k) && backend_dispatch_keyset.has(k);
}

/** AutogradCPU -> {CPU}; AutogradOther -> autogradother_backends; anything else -> {}. */
export function getBackendKeySetFromAutograd(k: DispatchKey): DispatchKeySet {
  if (k === DispatchKey.AutogradOther) return autogradother_backends;
  if (toFunctionalityKey(k) === DispatchKey.AutogradFunctionality) {
    return DispatchKeySet.of(toRuntimePerBackendFunctionalityKey(DispatchKey.Dense, toBackendComponent(k)));
  }
  return new DispatchKeySet();
}

/** {ADInplaceOrView, Autograd<b>}: the keys a tensor on backend b gets for autograd. */
export function getAutogradRelatedKeySetFromBackend(b: BackendComponent): DispatchKeySet {
  return DispatchKeySet.of(DispatchKey.ADInplaceOrView, getAutogradKeyFromBackend(b));
}

export function getAutocastRelatedKeySetFromBackend(b: BackendComponent): DispatchKeySet {
  const k = getAutocastKeyFromBackend(b);
  return k === undefined ? new DispatchKeySet() : DispatchKeySet.of(k);
}
