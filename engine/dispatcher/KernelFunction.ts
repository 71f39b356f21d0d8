// KernelFunction: what sits in one slot of an operator's dispatch table (aten/src/ATen/core/boxing/KernelFunction.h).
// A kernel is one of:
//   unboxed      (ks, ...args) => result        args positional in schema order, defaults already filled
//   boxed        (op, ks, args[]) => result     one function can serve every operator (backend fallbacks)
//   fallthrough  a marker meaning "skip this key"; the dispatcher masks it out, it never runs
// Every kernel receives the DispatchKeySet it was dispatched with, so it can redispatch to the next key.
// AnnotatedKernel (OperatorEntry.h) adds where it was registered, for dumps and the trace.

import { RuntimeError } from "../c10/Errors.js";
import type { DispatchKeySet } from "../c10/DispatchKeySet.js";
import type { OperatorHandle } from "./Dispatcher.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UnboxedKernel = (ks: DispatchKeySet, ...args: any[]) => unknown;
export type BoxedKernel = (op: OperatorHandle, ks: DispatchKeySet, args: unknown[]) => unknown;
export type KernelKind = "unboxed" | "boxed" | "fallthrough" | "missing";

// The three special boxed functions, named as in KernelFunction.cpp.

/** A fallthrough is masked out of the key set before lookup; this only runs if a kernel redispatches
 * with a set that still holds the fallthrough key. */
function fallthrough_kernel(): never {
  throw new RuntimeError(
    "fallthrough_kernel was executed but it should have been short-circuited by the dispatcher. " +
      "This could occur if you registered a fallthrough kernel as a override for a specific operator " +
      "(as opposed to a backend fallback); this is NOT currently supported, and we do not intend to " +
      "add support for it in the near future.  If you do find yourself in need of this, " +
      "let us know in the bug tracker.",
  );
}

function ambiguous_autogradother_kernel(op: OperatorHandle): never {
  throw new RuntimeError(
    `${op.operator_name()} has kernels registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther. ` +
      "This makes the backend kernel unreachable; the dispatcher will always prefer the CompositeImplicitAutograd lowering " +
      "(see Note [Ambiguity in AutogradOther kernel]). " +
      "If you want to override CompositeImplicitAutograd, please open an issue to request a dedicated " +
      "Autograd dispatch key for the backend.\n" +
      "If you only want to run inference instead of training, add `c10::InferenceMode mode;` " +
      "before model.forward(). Note this guard is only available in C++ but not Python at present." +
      "\nCanonical state\n~~~~~~~~~~~\n" +
      op.dumpState() +
      "\n\n",
    { op: op.operator_name() },
  );
}

/** An empty slot: the op reports PyTorch's missing-kernel error for the key it was dispatched to. */
function missing_kernel(op: OperatorHandle, ks: DispatchKeySet): never {
  return op.reportError(ks.highestPriorityTypeId());
}

export class KernelFunction {
  private static readonly fallthrough_ = new KernelFunction("fallthrough", null, fallthrough_kernel);
  private static readonly ambiguousAutogradOther_ = new KernelFunction("boxed", null, ambiguous_autogradother_kernel);
  private static readonly missing_ = new KernelFunction("missing", null, missing_kernel);

  private constructor(
    readonly kind: KernelKind,
    /** The function a learner would step into: the unboxed one, or else the boxed one. */
    readonly unboxed: UnboxedKernel | null,
    readonly boxed: BoxedKernel | null,
  ) {}

  static makeFromUnboxedFunction(fn: UnboxedKernel): KernelFunction {
    return new KernelFunction("unboxed", fn, null);
  }

  static makeFromBoxedFunction(fn: BoxedKernel): KernelFunction {
    return new KernelFunction("boxed", null, fn);
  }

  /** The fallthrough marker (CppFunction::makeFallthrough, torch.library.fallthrough_kernel). */
  static makeFallthrough(): KernelFunction {
    return KernelFunction.fallthrough_;
  }

  /** What AutogradOther holds when it would be ambiguous (see OperatorEntry.computeDispatchTableEntryWithDebug). */
  static makeAmbiguousAutogradOther(): KernelFunction {
    return KernelFunction.ambiguousAutogradOther_;
  }

  /** An empty slot: invalid; calling it reports the missing-kernel error. */
  static missing(): KernelFunction {
    return KernelFunction.missing_;
  }

  isValid(): boolean {
    return this.kind !== "missing";
  }

  isFallthrough(): boolean {
    return this.kind === "fallthrough";
  }

  /** Calls the kernel with positional args; a boxed kernel gets them as one array. */
  call(op: OperatorHandle, ks: DispatchKeySet, args: unknown[]): unknown {
    const unboxed = this.unboxed;
    if (unboxed !== null) {
      // a call with a fixed argument count, not a spread: the engine's hot path (at most 6 is most ops)
      switch (args.length) {
        case 0: return unboxed(ks);
        case 1: return unboxed(ks, args[0]);
        case 2: return unboxed(ks, args[0], args[1]);
        case 3: return unboxed(ks, args[0], args[1], args[2]);
        case 4: return unboxed(ks, args[0], args[1], args[2], args[3]);
        case 5: return unboxed(ks, args[0], args[1], args[2], args[3], args[4]);
        case 6: return unboxed(ks, args[0], args[1], args[2], args[3], args[4], args[5]);
        default: return unboxed(ks, ...args);
      }
    }
    return this.boxed!(op, ks, args);
  }

  /** KernelFunction::dumpState. Our unboxed kernels can also be called boxed, as PyTorch's can. */
  dumpState(): string {
    if (this.kind === "missing") return "";
    return (this.kind === "fallthrough" ? "fallthrough " : "") + "boxed " + (this.kind === "unboxed" ? "unboxed " : "");
  }
}

// ---- AnnotatedKernel: a kernel plus where it came from ----

/** What a registration may say about its kernel; anything left out is filled in. */
export interface KernelRegistrationInfo {
  /** Shown in traces: defaults to the function's name. */
  name?: string;
  /** 'file:line'; defaults to the first caller outside engine/dispatcher/. */
  registeredAt?: string;
  /** The inferred signature PyTorch prints in _dispatch_dump ('(Tensor _0) -> Tensor _0'); '(none)' if absent. */
  signature?: string;
  /** 'file:line' of the generated code that registered it (engine/generated/...), for the trace. */
  generatedAt?: string;
}

export class AnnotatedKernel {
  constructor(
    readonly kernel: KernelFunction,
    /** Exactly what PyTorch prints: 'registered at file:line'. */
    readonly debug: string,
    readonly name: string,
    readonly registeredAt: string,
    readonly inferred_function_schema: string | null = null,
    readonly generatedAt: string | null = null,
  ) {}

  static fromRegistration(kernel: KernelFunction, info: KernelRegistrationInfo | string | undefined): AnnotatedKernel {
    const i: KernelRegistrationInfo = typeof info === "string" ? { registeredAt: info } : (info ?? {});
    const where = i.registeredAt ?? registrationSite();
    const fn = kernel.unboxed ?? kernel.boxed;
    const name = i.name ?? (kernel.isFallthrough() ? "fallthrough" : fn?.name || "(anonymous)");
    return new AnnotatedKernel(kernel, `registered at ${where}`, name, where, i.signature ?? null, i.generatedAt ?? null);
  }
}

export const missingAnnotatedKernel = new AnnotatedKernel(KernelFunction.missing(), "", "missing", "");
export const ambiguousAutogradOtherAnnotatedKernel = new AnnotatedKernel(
  KernelFunction.makeAmbiguousAutogradOther(),
  "ambiguous_autogradother",
  "ambiguous_autogradother",
  "",
);

// ---- where a registration came from ----

const dispatcherDir = decodeURIComponent(new URL(".", import.meta.url).pathname);

/**
 * 'file:line' of the first stack frame outside engine/dispatcher/ (and the `skip` patterns) (PyTorch records __FILE__:__LINE__ of
 * the TORCH_LIBRARY block). Relative to the working directory when it lies inside it.
 */
export function registrationSite(skip: readonly RegExp[] = []): string {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = saved;
  for (const line of stack.split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+):(\d+):\d+\)?\s*$/.exec(line);
    if (!m) continue;
    let file = m[1].startsWith("file://") ? decodeURIComponent(new URL(m[1]).pathname) : m[1];
    // Skip the dispatcher itself, compiled (dist/) or source-mapped (engine/dispatcher/*.ts).
    if (file.startsWith(dispatcherDir) || /\/engine\/dispatcher\/[^/]+\.[jt]s$/.test(file) || file.startsWith("node:")) continue;
    if (skip.some((re) => re.test(file))) continue; // e.g. torch.library's own file: report the user's line
    const cwd = typeof process !== "undefined" ? process.cwd() + "/" : "";
    if (cwd && file.startsWith(cwd)) file = file.slice(cwd.length);
    return `${file}:${m[2]}`;
  }
  return "(unknown):0";
}
