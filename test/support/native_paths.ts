// What the native-vs-TypeScript tests share (test/aten/native/cpu_native*.test.ts): running a call on
// the TypeScript kernels, and reading which kernels a call ran from its trace.
import * as torch from "../../engine/index.js";
import { set_cpu_capability } from "../../engine/aten/native/DispatchStub.js";

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
