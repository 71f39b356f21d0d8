// OperatorEntry (aten/src/ATen/core/dispatch/OperatorEntry.h/.cpp): everything the dispatcher knows about
// one operator.
//   kernels_        what was registered, per key (runtime or alias), newest first; older ones stay so that
//                   deregistering the newest brings the previous one back
//   dispatchTable_  what a call runs: one kernel per runtime slot, derived from kernels_ and the
//                   dispatcher's backend fallbacks by computeDispatchTableEntryWithDebug
// The table is recomputed in full after every (de)registration. (PyTorch refreshes only the slots it
// thinks are affected, which can leave a stale entry, e.g. AutogradCPU keeps a CompositeImplicitAutograd
// kernel after a CompositeExplicitAutograd one is added; the dump then disagrees with what runs.)

import {
  DispatchKey,
  dispatchKeyName,
  EndOfAliasKeys,
  isAliasDispatchKey,
} from "../c10/DispatchKey.js";
import {
  DispatchKeySet,
  autogradother_backends,
  getBackendKeySetFromAutograd,
  getDispatchTableIndexForDispatchKey,
  isIncludedInAlias,
  numRuntimeEntries,
} from "../c10/DispatchKeySet.js";
import { NotImplementedError } from "../c10/Errors.js";
import { DispatchKeyExtractor } from "./DispatchKeyExtractor.js";
import type { KernelDebugInfo } from "./DispatchObserver.js";
import {
  AnnotatedKernel,
  KernelFunction,
  ambiguousAutogradOtherAnnotatedKernel,
  missingAnnotatedKernel,
} from "./KernelFunction.js";
import { operatorNameToString, type OperatorName, type OperatorSchema } from "./OperatorSchema.js";

/** The part of the Dispatcher an entry reads: one backend fallback (or null) per runtime slot. */
export interface BackendFallbackTable {
  readonly backendFallbackKernels_: readonly (AnnotatedKernel | null)[];
}

/** Undefined first, then every runtime key lowest priority first: the order the dumps use. */
const runtimeKeys: readonly DispatchKey[] = [DispatchKey.Undefined, ...DispatchKeySet.full()];

export class OperatorEntry {
  schema_: { schema: OperatorSchema; debug: string } | null = null;
  readonly dispatchKeyExtractor_ = DispatchKeyExtractor.makeUninitialized();
  /** Registered kernels per key, newest first. A key with no kernels has no entry. */
  private readonly kernels_ = new Map<DispatchKey, AnnotatedKernel[]>();
  /** The runtime table, indexed by DispatchKeySet.getDispatchTableIndexForDispatchKeySet(). */
  readonly dispatchTable_: KernelFunction[] = new Array(numRuntimeEntries);
  /** What the trace reports for each slot (same index). */
  readonly dispatchTableDebug_: KernelDebugInfo[] = new Array(numRuntimeEntries);

  constructor(
    readonly name_: OperatorName,
    private readonly dispatcher: BackendFallbackTable,
  ) {
    // Pick up the backend fallbacks registered before this operator existed.
    this.updateDispatchTableFull_();
  }

  // ---- schema ----

  registerSchema(schema: OperatorSchema, debug: string): void {
    this.dispatchKeyExtractor_.registerSchema(schema);
    this.schema_ = { schema, debug };
  }

  deregisterSchema(): void {
    this.schema_ = null;
    this.dispatchKeyExtractor_.deregisterSchema();
  }

  /** 'registered at file:line' of the def, or 'no debug info'. */
  debug(): string {
    return this.schema_?.debug ?? "no debug info";
  }

  // ---- kernels ----

  /** Adds a kernel in front of the key's list (it becomes the active one) and recomputes the table.
   * Returns the previous active kernel, if any, so the caller can warn about the override. */
  registerKernel(key: DispatchKey, kernel: AnnotatedKernel): AnnotatedKernel | undefined {
    const list = this.kernels_.get(key);
    const previous = list?.[0];
    if (list) list.unshift(kernel);
    else this.kernels_.set(key, [kernel]);
    this.updateDispatchTableFull_();
    return previous;
  }

  deregisterKernel_(key: DispatchKey, kernel: AnnotatedKernel): void {
    const list = this.kernels_.get(key);
    const i = list ? list.indexOf(kernel) : -1;
    if (!list || i < 0) return;
    list.splice(i, 1);
    if (list.length === 0) this.kernels_.delete(key); // invariant: no empty lists
    this.updateDispatchTableFull_();
  }

  /** A backend fallback was (de)registered. */
  updateFallback(): void {
    this.updateDispatchTableFull_();
  }

  /** The active (newest) kernel registered directly to this key, runtime or alias. */
  getKernelForDispatchKey(k: DispatchKey): AnnotatedKernel | undefined {
    return this.kernels_.get(k)?.[0];
  }

  hasKernelForDispatchKey(k: DispatchKey): boolean {
    return this.kernels_.has(k);
  }

  /** Any non-alias key in ks with a kernel registered directly to it. */
  hasKernelForAnyDispatchKey(ks: DispatchKeySet): boolean {
    for (const k of this.kernels_.keys()) if (!isAliasDispatchKey(k) && ks.has(k)) return true;
    return false;
  }

  /** Does the runtime table have a usable entry for this runtime key? */
  hasComputedKernelForDispatchKey(k: DispatchKey): boolean {
    return this.dispatchTable_[getDispatchTableIndexForDispatchKey(k)].isValid();
  }

  // ---- the runtime table ----

  /**
   * Which kernel a runtime key gets, and why. The first rule that applies wins:
   *   1. a kernel registered directly to the key                                  "kernel"
   *   2. alias kernels, if the key is in the alias (Undefined counts for the three Composite aliases):
   *      2.1 CompositeExplicitAutogradNonFunctional                               "default backend kernel"
   *      2.2 CompositeExplicitAutograd                                            "default backend kernel"
   *      2.3 CompositeImplicitAutograd                                            "math kernel"
   *          but not for Autograd<B> when B has its own kernel or a CompositeExplicitAutograd kernel
   *          exists; and AutogradOther is "ambiguous autogradother" when an AutogradOther backend
   *          (FPGA here) has its own kernel
   *      2.4 Autograd                                                             "autograd kernel"
   *   3. the dispatcher's backend fallback for the key                            "backend fallback"
   *   4. nothing: calling it raises the missing-kernel error                      "missing"
   */
  computeDispatchTableEntryWithDebug(k: DispatchKey): [AnnotatedKernel, string] {
    // 1. Operator registration
    const direct = this.getKernelForDispatchKey(k);
    if (direct) return [direct, "kernel"];

    const isUndefined = k === DispatchKey.Undefined;

    // 2.1 CompositeExplicitAutogradNonFunctional
    if (isUndefined || isIncludedInAlias(k, DispatchKey.CompositeExplicitAutogradNonFunctional)) {
      const ceanf = this.getKernelForDispatchKey(DispatchKey.CompositeExplicitAutogradNonFunctional);
      if (ceanf) return [ceanf, "default backend kernel"];
    }

    // 2.2 CompositeExplicitAutograd
    if (isUndefined || isIncludedInAlias(k, DispatchKey.CompositeExplicitAutograd)) {
      const cea = this.getKernelForDispatchKey(DispatchKey.CompositeExplicitAutograd);
      if (cea) return [cea, "default backend kernel"];
    }

    // For an autograd key: does its backend have a real kernel? Then the math kernel must not hide it.
    const hasBackendKernel =
      this.hasKernelForAnyDispatchKey(getBackendKeySetFromAutograd(k)) ||
      this.hasKernelForDispatchKey(DispatchKey.CompositeExplicitAutograd);

    // 2.3 CompositeImplicitAutograd
    if (isUndefined || isIncludedInAlias(k, DispatchKey.CompositeImplicitAutograd)) {
      const math = this.getKernelForDispatchKey(DispatchKey.CompositeImplicitAutograd);
      if (math) {
        if (k === DispatchKey.AutogradOther && this.hasKernelForAnyDispatchKey(autogradother_backends)) {
          return [ambiguousAutogradOtherAnnotatedKernel, "ambiguous autogradother"];
        } else if (!hasBackendKernel) {
          return [math, "math kernel"];
        }
      }
    }

    // 2.4 Autograd
    if (isIncludedInAlias(k, DispatchKey.Autograd)) {
      const autograd = this.getKernelForDispatchKey(DispatchKey.Autograd);
      if (autograd) return [autograd, "autograd kernel"];
    }

    // 3. Backend fallback
    const fallback = this.dispatcher.backendFallbackKernels_[getDispatchTableIndexForDispatchKey(k)];
    if (fallback) return [fallback, "backend fallback"];

    // 4. Default to error
    return [missingAnnotatedKernel, "missing"];
  }

  /** Recomputes every slot and, with it, which keys are fallthrough for this operator. */
  private updateDispatchTableFull_(): void {
    for (const k of runtimeKeys) {
      const [annotated, provenance] = this.computeDispatchTableEntryWithDebug(k);
      const idx = getDispatchTableIndexForDispatchKey(k);
      this.dispatchTable_[idx] = annotated.kernel;
      this.dispatchTableDebug_[idx] = {
        name: annotated.name,
        provenance,
        registeredAt: annotated.registeredAt,
        kind: annotated.kernel.isFallthrough() ? "fallthrough" : provenance === "backend fallback" ? "fallback" : "kernel",
        ...(annotated.generatedAt ? { generatedAt: annotated.generatedAt } : {}),
      };
      this.dispatchKeyExtractor_.setOperatorHasFallthroughForKey(k, annotated.kernel.isFallthrough());
    }
  }

  // ---- introspection (torch._C._dispatch_dump / _dispatch_dump_table) and errors ----

  /** The runtime keys with a usable entry, e.g. '[CPU, BackendSelect, ADInplaceOrView]' (Undefined not listed). */
  listAllDispatchKeys(): string {
    const keys = runtimeKeys.filter((k) => k !== DispatchKey.Undefined && this.hasComputedKernelForDispatchKey(k));
    return `[${keys.map(dispatchKeyName).join(", ")}]`;
  }

  /** One line per runtime key with a usable entry: '<Key>: [fallthrough ]<debug> [<provenance>]'. */
  dumpComputedTable(): string {
    let out = "";
    for (const k of runtimeKeys) {
      const [annotated, provenance] = this.computeDispatchTableEntryWithDebug(k);
      if (!annotated.kernel.isValid()) continue;
      const fallthrough = annotated.kernel.isFallthrough() ? "fallthrough " : "";
      out += `${dispatchKeyName(k)}: ${fallthrough}${annotated.debug} [${provenance}]\n`;
    }
    return out;
  }

  /** The registrations themselves, alias keys included, fallbacks not: '<Key>[alias][ (inactive)]: <debug> :: <signature> [ <flags>]'. */
  dumpState(): string {
    let out = `name: ${operatorNameToString(this.name_)}\n`;
    if (this.schema_) {
      out += `schema: ${this.schema_.schema.toString()}\n`;
      out += `debug: ${this.schema_.debug}\n`;
      out += "alias analysis kind: FROM_SCHEMA\n";
    } else {
      out += "schema: (none)\n";
    }
    // Walk the enum, not the map, so the order is stable: runtime keys, then alias keys.
    for (let k = 0; k <= EndOfAliasKeys; k++) {
      const list = this.kernels_.get(k);
      if (!list) continue;
      list.forEach((jt, i) => {
        out +=
          dispatchKeyName(k) +
          (isAliasDispatchKey(k) ? "[alias]" : "") +
          (i > 0 ? " (inactive)" : "") +
          `: ${jt.debug} :: ${jt.inferred_function_schema ?? "(none)"} [ ${jt.kernel.dumpState()}]\n`;
      });
    }
    return out;
  }

  /** OperatorEntry::reportError: PyTorch's text for a call that reached a slot with no kernel. */
  reportError(k: DispatchKey): never {
    const name = operatorNameToString(this.name_);
    if (k === DispatchKey.Undefined) {
      throw new NotImplementedError(
        "There were no tensor arguments to this function (e.g., you passed an " +
          `empty list of Tensors), but no fallback function is registered for schema ${name}` +
          ".  This usually means that this function requires a non-empty list of Tensors, " +
          "or that you (the operator writer) forgot to register a fallback function.  " +
          `Available functions are ${this.listAllDispatchKeys()}.\n\n${this.dumpComputedTable()}`,
        { op: name },
      );
    }
    throw new NotImplementedError(
      `Could not run '${name}' with arguments from the '${dispatchKeyName(k)}' backend. This could be because ` +
        "the operator doesn't exist for this backend, or was omitted during " +
        "the selective/custom build process (if using custom build). If you are a " +
        "Facebook employee using PyTorch on mobile, please visit " +
        `https://fburl.com/ptmfixes for possible resolutions. '${name}' is only available for these backends: ` +
        `${this.listAllDispatchKeys()}.\n\n${this.dumpComputedTable()}`,
      { op: name },
    );
  }
}
