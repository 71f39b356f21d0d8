// torch.library.Library (torch/library.py over torch/library.h): users declare operators and give
// them kernels per dispatch key, exactly as ATen's own generated code does.
//   new Library("myops", "DEF")      a new namespace, which define()s operators
//   new Library("aten", "IMPL")      adds kernels to existing operators
//   new Library("myops", "FRAGMENT") adds more definitions to a namespace defined elsewhere

import { Dispatcher, KernelFunction, type RegistrationHandleRAII } from "../../dispatcher/index.js";
import type { DispatchKeySet } from "../../c10/DispatchKeySet.js";
import { parseSchema } from "../../dispatcher/schema/SchemaParser.js";
import { RuntimeError, ValueError } from "../../c10/Errors.js";
import { registrationSite } from "../../dispatcher/index.js";
import { OpOverload } from "./ops_namespace.js";

export type LibraryKind = "DEF" | "IMPL" | "FRAGMENT";

/** torch.library.fallthrough_kernel: register this to make a key skip to the next one. */
export const fallthrough_kernel = KernelFunction.makeFallthrough();

const definedNamespaces = new Set<string>(["aten"]);

// A registration is reported at the user's line, not at this file's (PyTorch shows the TORCH_LIBRARY block).
const userSite = () => registrationSite([/\/engine\/aten\/core\/library\.[jt]s$/]);

export class Library implements Disposable {
  private handles: RegistrationHandleRAII[] = [];

  constructor(readonly ns: string, readonly kind: LibraryKind, readonly dispatch_key = "") {
    if (!["DEF", "IMPL", "FRAGMENT"].includes(kind)) throw new ValueError(`Unsupported kind: ${kind}`);
    if (kind === "DEF") {
      if (definedNamespaces.has(ns)) {
        throw new RuntimeError(
          `Only a single TORCH_LIBRARY can be used to register the namespace ${ns}; please put all of your definitions in a single TORCH_LIBRARY block.`,
        );
      }
      definedNamespaces.add(ns);
    }
  }

  /** define("myop(Tensor x) -> Tensor"): declares ns::myop; returns its name. */
  define(schema: string): string {
    if (this.kind === "IMPL") throw new RuntimeError("define() is not allowed on an IMPL library");
    const s = parseSchema(schema.includes("::") ? schema : `${this.ns}::${schema}`);
    this.handles.push(Dispatcher.singleton().registerDef(s, userSite()));
    return s.fullName().split("::")[1];
  }

  /**
   * impl("myop", fn, "CPU"): the kernel for one key. `fn` receives the arguments in schema order
   * (Python's kernels do not see the key set); pass fallthrough_kernel to skip the key.
   */
  impl(opName: string | OpOverload, fn: ((...args: any[]) => unknown) | KernelFunction, dispatch_key = this.dispatch_key): void {
    const name = opName instanceof OpOverload ? opName._schema.fullName() : opName.includes("::") ? opName : `${this.ns}::${opName}`;
    const key = dispatch_key || "CompositeImplicitAutograd";
    const kernel = fn instanceof KernelFunction ? fn : KernelFunction.makeFromUnboxedFunction((_ks: DispatchKeySet, ...args: unknown[]) => fn(...args));
    this.handles.push(Dispatcher.singleton().registerImpl(name, key, kernel, { name: fn instanceof KernelFunction ? "fallthrough" : fn.name || name, registeredAt: userSite() }));
  }

  /** fallback(fn, "CPU"): one boxed kernel for every operator at this key; fn(op, keySet, args). */
  fallback(fn: ((op: unknown, ks: DispatchKeySet, args: unknown[]) => unknown) | KernelFunction, dispatch_key = this.dispatch_key): void {
    if (this.ns !== "_") throw new RuntimeError(`fallback() must be registered on the '_' namespace, got '${this.ns}'`);
    const kernel = fn instanceof KernelFunction ? fn : KernelFunction.makeFromBoxedFunction(fn as never);
    this.handles.push(Dispatcher.singleton().registerFallback(dispatch_key, kernel, userSite()));
  }

  /** Removes everything this library registered (Python's Library.__del__ / _destroy). */
  _destroy(): void {
    for (const h of this.handles.reverse()) h.deregister();
    this.handles = [];
    if (this.kind === "DEF") definedNamespaces.delete(this.ns);
  }

  [Symbol.dispose](): void {
    this._destroy();
  }
}
