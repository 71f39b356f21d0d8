// The Dispatcher (aten/src/ATen/core/dispatch/Dispatcher.h/.cpp): the registry of operators and the
// function every operator call goes through.
//
//   call(op, ...args)
//     ks  = op's DispatchKeyExtractor: (OR of tensor key sets | TLS include) - TLS exclude, & non-fallthrough keys
//     idx = the slot of ks's highest key in op's runtime table
//     run op.dispatchTable_[idx] with (ks, ...args)
//
//   redispatch(op, ks, ...args)      a kernel passing the call on to the next key: looks up ks as given,
//                                    never recomputes it from the arguments or TLS
//
// Registration: registerDef (schema), registerImpl (kernel for one key of one op), registerFallback
// (one boxed kernel for one key of every op). Each returns a handle whose deregister() undoes it.

import { DispatchKey, dispatchKeyName, isAliasDispatchKey, parseDispatchKey } from "../c10/DispatchKey.js";
import {
  DispatchKeySet,
  dispatchTableIndexOfRepr,
  getDispatchTableIndexForDispatchKey,
  numRuntimeEntries,
} from "../c10/DispatchKeySet.js";
import { RuntimeError } from "../c10/Errors.js";
import { checkInterrupt, pendingInterrupt } from "../c10/Interrupt.js";
import { name_disposed_use } from "../c10/Dispose.js";
import { tls_local_dispatch_key_set } from "../c10/impl/LocalDispatchKeySet.js";
import { dispatchObserver, type DispatchEvent } from "./DispatchObserver.js";
import {
  AnnotatedKernel,
  KernelFunction,
  registrationSite,
  type BoxedKernel,
  type KernelRegistrationInfo,
  type UnboxedKernel,
} from "./KernelFunction.js";
import { OperatorEntry } from "./OperatorEntry.js";
import {
  operatorNameToString,
  parseOperatorName,
  type OperatorName,
  type OperatorSchema,
} from "./OperatorSchema.js";

/** How a registration names its source: 'file:line', or the fuller KernelRegistrationInfo. */
export type RegistrationDebug = string | KernelRegistrationInfo;

/** A handle to a registered operator (OperatorHandle in Dispatcher.h). Valid while the op is registered. */
export class OperatorHandle {
  /** How many def() / def()+impl() registrations keep this operator alive (OperatorDef in Dispatcher.h). */
  def_count = 0;
  def_and_impl_count = 0;

  constructor(
    readonly entry: OperatorEntry,
    readonly dispatcher: Dispatcher,
  ) {}

  /** 'aten::add.Tensor' */
  operator_name(): string {
    return operatorNameToString(this.entry.name_);
  }

  hasSchema(): boolean {
    return this.entry.schema_ !== null;
  }

  schema(): OperatorSchema {
    const s = this.entry.schema_;
    if (s === null) {
      throw new RuntimeError(`Tried to access the schema for ${this.operator_name()} which doesn't have a schema registered yet`);
    }
    return s.schema;
  }

  call(...args: unknown[]): unknown {
    return this.dispatcher.callBoxed(this, args);
  }

  redispatch(ks: DispatchKeySet, ...args: unknown[]): unknown {
    return this.dispatcher.redispatchBoxed(this, ks, args);
  }

  dumpState(): string {
    return this.entry.dumpState();
  }

  dumpComputedTable(): string {
    return this.entry.dumpComputedTable();
  }

  hasKernelForDispatchKey(k: DispatchKey): boolean {
    return this.entry.hasKernelForDispatchKey(k);
  }

  hasComputedKernelForDispatchKey(k: DispatchKey): boolean {
    return this.entry.hasComputedKernelForDispatchKey(k);
  }

  reportError(k: DispatchKey): never {
    return this.entry.reportError(k);
  }

  toString(): string {
    return this.operator_name();
  }
}

/** Undoes one registration (RegistrationHandleRAII); deregister() twice is harmless. Works with `using`. */
export class RegistrationHandleRAII implements Disposable {
  constructor(private onDestruction_: (() => void) | null) {}

  deregister(): void {
    const f = this.onDestruction_;
    this.onDestruction_ = null;
    f?.();
  }

  [Symbol.dispose](): void {
    this.deregister();
  }
}

/** Keys a kernel can be registered to: runtime keys and alias keys (not Undefined, not bare functionality bits). */
const registrableRuntimeKeys = new Set<DispatchKey>(DispatchKeySet.full());

function toDispatchKey(key: DispatchKey | string): DispatchKey {
  return typeof key === "string" ? parseDispatchKey(key) : key;
}

function siteOf(debug: RegistrationDebug | undefined): string {
  if (typeof debug === "string") return debug;
  return debug?.registeredAt ?? registrationSite();
}

export class Dispatcher {
  private static singleton_: Dispatcher | undefined;

  /** The one dispatcher the engine registers into (tests may build their own with `new Dispatcher()`). */
  static singleton(): Dispatcher {
    return (Dispatcher.singleton_ ??= new Dispatcher());
  }

  /** 'ns::name.overload' -> handle. */
  private readonly operatorLookupTable_ = new Map<string, OperatorHandle>();
  /** One boxed kernel (or fallthrough) per runtime slot, for ops that have nothing of their own there. */
  readonly backendFallbackKernels_: (AnnotatedKernel | null)[] = new Array(numRuntimeEntries).fill(null);
  /** Where TORCH_WARN-style messages go (e.g. overriding a kernel). */
  warn: (message: string) => void = (message) => {
    if (typeof process !== "undefined") process.emitWarning(message, "UserWarning");
  };

  // ---- finding operators ----

  /** The operator with this name, with or without a schema yet (findOp). */
  findOp(name: string | OperatorName): OperatorHandle | undefined {
    const full = typeof name === "string" ? name : operatorNameToString(name);
    return this.operatorLookupTable_.get(full);
  }

  /** The operator with this name, only once its schema is registered (findSchema). */
  findSchema(name: OperatorName): OperatorHandle | undefined {
    const op = this.findOp(name);
    return op?.hasSchema() ? op : undefined;
  }

  findSchemaOrThrow(name: string, overload_name: string): OperatorHandle {
    const op = this.findSchema({ name, overload_name });
    if (!op) throw new RuntimeError(`Could not find schema for ${operatorNameToString({ name, overload_name })}`);
    return op;
  }

  getAllOpNames(): string[] {
    return [...this.operatorLookupTable_.keys()];
  }

  allOperators(): OperatorHandle[] {
    return [...this.operatorLookupTable_.values()];
  }

  hasBackendFallbackForDispatchKey(key: DispatchKey | string): boolean {
    return this.backendFallbackKernels_[getDispatchTableIndexForDispatchKey(toDispatchKey(key))] !== null;
  }

  private findOrRegisterName_(name: OperatorName): OperatorHandle {
    const full = operatorNameToString(name);
    let op = this.operatorLookupTable_.get(full);
    if (!op) {
      op = new OperatorHandle(new OperatorEntry({ name: name.name, overload_name: name.overload_name }, this), this);
      this.operatorLookupTable_.set(full, op);
    }
    return op;
  }

  /** Forget an operator once nothing registers it any more (Dispatcher::cleanup). */
  private cleanup_(op: OperatorHandle): void {
    if (op.def_and_impl_count === 0) this.operatorLookupTable_.delete(op.operator_name());
  }

  // ---- registration ----

  /** Declares an operator (TORCH_LIBRARY's m.def, torch.library define). */
  registerDef(schema: OperatorSchema, debug?: RegistrationDebug): RegistrationHandleRAII {
    const debugStr = `registered at ${siteOf(debug)}`;
    const op = this.findOrRegisterName_({ name: schema.name, overload_name: schema.overload_name });
    if (op.def_count !== 0) {
      throw new RuntimeError(
        `Tried to register an operator (${schema.toString()}) with the same name and overload name multiple times.` +
          " Each overload's schema should only be registered with a single call to def()." +
          ` Duplicate registration: ${debugStr}. Original registration: ${op.entry.debug()}`,
      );
    }
    op.entry.registerSchema(schema, debugStr);
    op.def_count++;
    op.def_and_impl_count++;
    return new RegistrationHandleRAII(() => {
      op.entry.deregisterSchema();
      op.def_count--;
      op.def_and_impl_count--;
      this.cleanup_(op);
    });
  }

  /**
   * Registers a kernel for one key of one operator (m.impl). `key` null means catch-all, which PyTorch
   * files under CompositeImplicitAutograd. A plain function is taken as an unboxed kernel.
   */
  registerImpl(
    name: string | OperatorName,
    key: DispatchKey | string | null,
    kernel: KernelFunction | UnboxedKernel,
    debug?: RegistrationDebug,
  ): RegistrationHandleRAII {
    const opName = typeof name === "string" ? parseOperatorName(name) : name;
    const k = key === null ? DispatchKey.CompositeImplicitAutograd : toDispatchKey(key);
    if (!isAliasDispatchKey(k) && !registrableRuntimeKeys.has(k)) {
      throw new RuntimeError(`Cannot register a kernel to dispatch key ${dispatchKeyName(k)}: not a runtime or alias key`);
    }
    const fn = kernel instanceof KernelFunction ? kernel : KernelFunction.makeFromUnboxedFunction(kernel);
    const annotated = AnnotatedKernel.fromRegistration(fn, debug);
    const op = this.findOrRegisterName_(opName);

    const previous = op.entry.registerKernel(k, annotated);
    if (previous) {
      const schema = op.entry.schema_;
      this.warn(
        "Overriding a previously registered kernel for the same operator and the same dispatch key\n" +
          `  operator: ${schema ? schema.schema.toString() : op.operator_name()}\n` +
          `    ${op.entry.debug()}\n` +
          `  dispatch key: ${dispatchKeyName(k)}\n` +
          `  previous kernel: ${previous.debug}\n` +
          `       new kernel: ${annotated.debug}`,
      );
    }
    op.def_and_impl_count++;
    return new RegistrationHandleRAII(() => {
      op.entry.deregisterKernel_(k, annotated);
      op.def_and_impl_count--;
      this.cleanup_(op);
    });
  }

  /**
   * Registers the kernel one runtime key runs for every operator that has nothing of its own there
   * (TORCH_LIBRARY_IMPL(_, Key, m) { m.fallback(...) }). It must be boxed or a fallthrough; a plain
   * function is taken as boxed.
   */
  registerFallback(
    key: DispatchKey | string,
    kernel: KernelFunction | BoxedKernel,
    debug?: RegistrationDebug,
  ): RegistrationHandleRAII {
    const k = toDispatchKey(key);
    if (k !== DispatchKey.Undefined && !registrableRuntimeKeys.has(k)) {
      throw new RuntimeError(`Cannot register a backend fallback for dispatch key ${dispatchKeyName(k)}: not a runtime key`);
    }
    const fn = kernel instanceof KernelFunction ? kernel : KernelFunction.makeFromBoxedFunction(kernel);
    if (fn.kind === "unboxed") {
      throw new RuntimeError("A backend fallback serves every operator, so it must be a boxed kernel or a fallthrough");
    }
    const annotated = AnnotatedKernel.fromRegistration(fn, debug);
    const idx = getDispatchTableIndexForDispatchKey(k);
    const previous = this.backendFallbackKernels_[idx];
    if (previous) {
      throw new RuntimeError(
        `Tried to register multiple backend fallbacks for the same dispatch key ${dispatchKeyName(k)}; ` +
          `previous registration ${previous.debug}, new registration ${annotated.debug}`,
      );
    }
    this.backendFallbackKernels_[idx] = annotated;
    for (const op of this.operatorLookupTable_.values()) op.entry.updateFallback();
    return new RegistrationHandleRAII(() => {
      if (this.backendFallbackKernels_[idx] !== annotated) return;
      this.backendFallbackKernels_[idx] = null;
      for (const op of this.operatorLookupTable_.values()) op.entry.updateFallback();
    });
  }

  // ---- calling ----

  /** Dispatches a call: compute the key set from the arguments and TLS, run the highest key's kernel. */
  call(op: OperatorHandle, ...args: unknown[]): unknown {
    return this.callBoxed(op, args);
  }

  /** call() with the arguments as one array (schema order, defaults filled). */
  callBoxed(op: OperatorHandle, args: unknown[]): unknown {
    // An interrupt (Ctrl-C in a notebook) stops the program at its next op (c10/Interrupt.ts).
    if (pendingInterrupt !== null) checkInterrupt(op.operator_name());
    try {
      const entry = op.entry;
      const repr = entry.dispatchKeyExtractor_.getDispatchKeySetRepr(args);
      const idx = dispatchTableIndexOfRepr(repr);
      const ks = new DispatchKeySet(repr);
      if (dispatchObserver === null) return entry.dispatchTable_[idx].call(op, ks, args);
      return dispatchObserved(op, ks, idx, args, false, undefined);
    } catch (err) {
      throw withOperatorName(err, op);
    }
  }

  /** Passes a call on with the key set the kernel chose (usually `ks & someMask`). Nothing is recomputed. */
  redispatch(op: OperatorHandle, ks: DispatchKeySet, ...args: unknown[]): unknown {
    return this.redispatchBoxed(op, ks, args);
  }

  redispatchBoxed(op: OperatorHandle, ks: DispatchKeySet, args: unknown[]): unknown {
    const idx = dispatchTableIndexOfRepr(ks.repr);
    if (dispatchObserver === null) return op.entry.dispatchTable_[idx].call(op, ks, args);
    return dispatchObserved(op, ks, idx, args, true, undefined);
  }

  /**
   * redispatch(op, ks & mask, ...args), with the mask recorded in the trace. The masks generated code uses:
   * after_autograd_keyset, after_ADInplaceOrView_keyset, DispatchKeySet.fullAfter(key).
   */
  redispatchWithMask(op: OperatorHandle, ks: DispatchKeySet, mask: DispatchKeySet, ...args: unknown[]): unknown {
    const masked = ks.and(mask);
    const idx = dispatchTableIndexOfRepr(masked.repr);
    if (dispatchObserver === null) return op.entry.dispatchTable_[idx].call(op, masked, args);
    return dispatchObserved(op, masked, idx, args, true, mask);
  }

  // ---- introspection (torch._C._dispatch_dump, _dispatch_dump_table) ----

  /** The registrations of an operator ('' if there is no such operator). */
  _dispatch_dump(name: string): string {
    return this.findOp(parseOperatorName(name))?.dumpState() ?? "";
  }

  /** The computed runtime table of an operator ('' if there is no such operator). */
  _dispatch_dump_table(name: string): string {
    return this.findOp(parseOperatorName(name))?.dumpComputedTable() ?? "";
  }
}

/**
 * Names the operator an error came out of, when the kernel did not (`err.op`, as PyTorch's traceback
 * names the op): the innermost call sets it, outer calls leave it. A notebook reports it with the error.
 */
function withOperatorName(err: unknown, op: OperatorHandle): unknown {
  if (err instanceof Error && (err as { op?: unknown }).op === undefined) {
    name_disposed_use(err, op.operator_name()); // a disposed tensor's key set threw: say which op it was passed to
    (err as { op?: string }).op = op.operator_name();
  }
  return err;
}

/** The slow path, taken only while an observer is set: one event around the kernel. */
function dispatchObserved(
  op: OperatorHandle,
  ks: DispatchKeySet,
  idx: number,
  args: unknown[],
  redispatch: boolean,
  mask: DispatchKeySet | undefined,
): unknown {
  const observer = dispatchObserver!;
  const tls = tls_local_dispatch_key_set();
  const event: DispatchEvent = {
    op,
    args,
    keySet: ks,
    tlsIncluded: tls.included_,
    tlsExcluded: tls.excluded_,
    key: ks.highestPriorityTypeId(),
    kernel: op.entry.dispatchTableDebug_[idx],
    redispatch,
  };
  if (mask !== undefined) event.mask = mask;
  const id = observer.onDispatch(event);
  let result: unknown;
  try {
    result = op.entry.dispatchTable_[idx].call(op, ks, args);
  } catch (error) {
    observer.onReturn(id, undefined, error);
    throw error;
  }
  observer.onReturn(id, result);
  return result;
}
