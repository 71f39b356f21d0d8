// The thread-local include/exclude key sets and their guards (c10/core/impl/LocalDispatchKeySet.h/.cpp).
// JavaScript runs one thread, so "thread-local" is plain module state. Every dispatcher call computes
//   ((OR of the tensors' key sets) | included) - excluded
// so a guard here changes which kernels the *next fresh call* reaches; redispatch never looks at it.

import { DispatchKey } from "../DispatchKey.js";
import {
  DispatchKeySet,
  autocast_dispatch_keyset,
  autograd_dispatch_keyset,
  autograd_dispatch_keyset_with_ADInplaceOrView,
  full_backend_mask,
} from "../DispatchKeySet.js";

// `using` needs Symbol.dispose; Node 20 may lack it. This is the one place that polyfills it, and it runs
// before any guard class below is defined (their [Symbol.dispose] keys are read at definition time).
(Symbol as { dispose?: symbol }).dispose ??= Symbol.for("Symbol.dispose");

/** Keys every call includes unless told otherwise: factories reach BackendSelect, views/in-place reach ADInplaceOrView. */
export const default_included_set = DispatchKeySet.of(DispatchKey.BackendSelect, DispatchKey.ADInplaceOrView);
/** Autocast is off until torch.autocast un-excludes its key. */
export const default_excluded_set = autocast_dispatch_keyset;

/**
 * The raw state (PODLocalDispatchKeySet), stored XOR-ed with the defaults so that all-zero means
 * "defaults", as PyTorch does to keep its thread-local zero-initialized. The dispatcher's hot path
 * reads these two numbers directly.
 */
export const raw_local_dispatch_key_set = { included_: 0, excluded_: 0 };
export const default_included_repr = default_included_set.repr;
export const default_excluded_repr = default_excluded_set.repr;

/** A snapshot of the two sets, already un-XOR-ed (LocalDispatchKeySet). */
export class LocalDispatchKeySet {
  constructor(
    readonly included_: DispatchKeySet,
    readonly excluded_: DispatchKeySet,
  ) {}
}

function included(): DispatchKeySet {
  return new DispatchKeySet(raw_local_dispatch_key_set.included_ ^ default_included_repr);
}
function excluded(): DispatchKeySet {
  return new DispatchKeySet(raw_local_dispatch_key_set.excluded_ ^ default_excluded_repr);
}
function setIncluded(ks: DispatchKeySet): void {
  raw_local_dispatch_key_set.included_ = (ks.repr ^ default_included_repr) >>> 0;
}
function setExcluded(ks: DispatchKeySet): void {
  raw_local_dispatch_key_set.excluded_ = (ks.repr ^ default_excluded_repr) >>> 0;
}

export function tls_local_dispatch_key_set(): LocalDispatchKeySet {
  return new LocalDispatchKeySet(included(), excluded());
}

/** Replace both sets at once (used to restore a snapshot, e.g. by the Python TLS snapshot key). */
export function _force_tls_local_dispatch_key_set(ks: LocalDispatchKeySet): void {
  setIncluded(ks.included_);
  setExcluded(ks.excluded_);
}

export function tls_is_dispatch_key_included(k: DispatchKey): boolean {
  return included().has(k);
}
export function tls_is_dispatch_key_excluded(k: DispatchKey): boolean {
  return excluded().has(k);
}
export function tls_set_dispatch_key_included(k: DispatchKey, desired: boolean): void {
  setIncluded(desired ? included().add(k) : included().remove(k));
}
export function tls_set_dispatch_key_excluded(k: DispatchKey, desired: boolean): void {
  setExcluded(desired ? excluded().add(k) : excluded().remove(k));
}

function asKeySet(ks: DispatchKeySet | DispatchKey): DispatchKeySet {
  return ks instanceof DispatchKeySet ? ks : DispatchKeySet.of(ks);
}

/**
 * Adds keys to the include set until disposed. It remembers only the keys it actually added, so nested
 * guards for the same key leave it in place until the outermost one ends. Use with `using`, or call
 * dispose() in a finally block.
 */
export class IncludeDispatchKeyGuard implements Disposable {
  private readonly include_: DispatchKeySet;
  private active = true;

  constructor(include: DispatchKeySet | DispatchKey) {
    // PyTorch's set difference keeps backend bits; mirrored, so a backend bit included here stays after exit.
    this.include_ = asKeySet(include).minus(included());
    if (!this.include_.isEmpty()) setIncluded(included().or(this.include_));
  }

  [Symbol.dispose](): void {
    if (!this.active) return;
    this.active = false;
    if (!this.include_.isEmpty()) setIncluded(included().minus(this.include_));
  }

  dispose(): void {
    this[Symbol.dispose]();
  }
}

/** Adds keys to the exclude set until disposed. Exclusion wins over inclusion. */
export class ExcludeDispatchKeyGuard implements Disposable {
  private readonly exclude_: DispatchKeySet;
  private active = true;

  constructor(exclude: DispatchKeySet | DispatchKey) {
    this.exclude_ = asKeySet(exclude).minus(excluded());
    if (!this.exclude_.isEmpty()) setExcluded(excluded().or(this.exclude_));
  }

  [Symbol.dispose](): void {
    if (!this.active) return;
    this.active = false;
    if (!this.exclude_.isEmpty()) setExcluded(excluded().minus(this.exclude_));
  }

  dispose(): void {
    this[Symbol.dispose]();
  }
}

/** Runs fn with keys added to the include set (the callback form of IncludeDispatchKeyGuard). */
export function withIncluded<T>(ks: DispatchKeySet | DispatchKey, fn: () => T): T {
  const guard = new IncludeDispatchKeyGuard(ks);
  try {
    return fn();
  } finally {
    guard.dispose();
  }
}

/**
 * Runs fn with keys added to the exclude set (the callback form of ExcludeDispatchKeyGuard). Every
 * autograd kernel runs its op through here, so it does the guard's set arithmetic on the raw bits
 * without allocating: add the keys not yet excluded, and afterwards remove only those (as dispose() does).
 */
export function withExcluded<T>(ks: DispatchKeySet | DispatchKey, fn: () => T): T {
  const want = ks instanceof DispatchKeySet ? ks.repr : DispatchKeySet.of(ks).repr;
  const current = raw_local_dispatch_key_set.excluded_ ^ default_excluded_repr;
  // exclude_ = ks.minus(excluded()): set difference keeps ks's backend bits
  const added = want & ~(current & ~full_backend_mask);
  if (added === 0) return fn();
  raw_local_dispatch_key_set.excluded_ = ((current | added) ^ default_excluded_repr) >>> 0;
  try {
    return fn();
  } finally {
    // excluded().minus(exclude_): a backend bit, once added, stays (as in the guard)
    const now = raw_local_dispatch_key_set.excluded_ ^ default_excluded_repr;
    raw_local_dispatch_key_set.excluded_ = ((now & ~(added & ~full_backend_mask)) ^ default_excluded_repr) >>> 0;
  }
}

/** Fresh calls skip every autograd key (AutoDispatchBelowAutograd, aten/src/ATen/core/LegacyTypeDispatch.h). */
export class AutoDispatchBelowAutograd extends ExcludeDispatchKeyGuard {
  constructor() {
    super(autograd_dispatch_keyset);
  }
}

/** Fresh calls skip autograd and ADInplaceOrView: what an autograd kernel holds while it runs the op below
 * (AutoDispatchBelowADInplaceOrView, LegacyTypeDispatch.h). */
export class AutoDispatchBelowADInplaceOrView extends ExcludeDispatchKeyGuard {
  constructor() {
    super(autograd_dispatch_keyset_with_ADInplaceOrView);
  }
}
