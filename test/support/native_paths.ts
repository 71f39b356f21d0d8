// What the native-vs-TypeScript tests share (test/aten/native/cpu_native*.test.ts): whether the addon is
// loaded and which units it runs, putting the defaults back after a test, running a call on the
// TypeScript kernels, and reading which kernels a call ran from its trace.
import { it } from "vitest";
import * as torch from "../../engine/index.js";
import { set_cpu_capability } from "../../engine/aten/native/DispatchStub.js";
import { _set_native_isa, _set_native_blas } from "../../engine/aten/native/cpu_native/NativeBackend.js";

/** f() with every DispatchStub forced to its TypeScript kernel (the reference), then back to the default. */
export function underTs<T>(f: () => T): T {
  set_cpu_capability("ts");
  try {
    return f();
  } finally {
    set_cpu_capability(null);
  }
}

/** The kernels a call ran, as "stub:impl" (impl: native or ts), from its trace. */
export function kernelsRan(f: () => unknown): string[] {
  return torch.trace.record(f).events.filter((e: any) => e.type === "kernel").map((e: any) => `${e.stub}:${e.impl}`);
}

/** The addon's status at import: whether native tests run, and the unit this CPU runs best. */
export const nativeStatus = torch._C._native_status();
/** `it` when the addon is loaded, else `it.skip` (the TypeScript-only engine has no native path to test). */
export const nativeIt = nativeStatus.loaded ? it : it.skip;
export const bestIsa = nativeStatus.loaded ? nativeStatus.addon!.best_capability : "DEFAULT";
const defaultThreads = torch.get_num_threads();
const defaultBlas = nativeStatus.loaded ? nativeStatus.addon!.blas : "own";

/** The instruction-set units this CPU can run (_set_native_isa refuses the others); leaves the best one set. */
export function runnableIsas(): ("DEFAULT" | "AVX2" | "AVX512")[] {
  if (!nativeStatus.loaded) return [];
  const isas = (["DEFAULT", "AVX2", "AVX512"] as const).filter((isa) => _set_native_isa(isa));
  _set_native_isa(bestIsa as any);
  return isas;
}

/** What a test may have changed, back to the defaults (an afterEach): the kernel choice, threads, unit, BLAS. */
export function restoreNativeDefaults(): void {
  set_cpu_capability(null);
  torch.set_num_threads(defaultThreads);
  if (nativeStatus.loaded) {
    _set_native_isa(bestIsa as any);
    _set_native_blas(defaultBlas);
  }
}
