// DispatchStub (aten/src/ATen/native/DispatchStub.h): the last step of a CPU/CUDA kernel. An op's
// kernel (add_out) does the shared work — shapes, dtypes, output — then calls add_stub, which picks
// the implementation for the device: the TypeScript reference kernel, a native C++ kernel when the
// addon provides one, or a CUDA kernel. PyTorch picks by CPU capability (ATEN_CPU_CAPABILITY);
// GLASSTORCH_CPU_CAPABILITY=ts|native forces the choice here, so a cell can be run on each and compared.

import { RuntimeError } from "../../c10/Errors.js";
import { isTracing, recorder } from "../../trace/session.js";

export type StubImpl = "ts" | "native" | "cuda";

/** The forced CPU implementation, from the environment or set_cpu_capability(). */
let forcedCpu: StubImpl | null = parseCapability(typeof process !== "undefined" ? process.env.GLASSTORCH_CPU_CAPABILITY : undefined);

function parseCapability(v: string | undefined): StubImpl | null {
  if (v === undefined || v === "") return null;
  if (v === "ts" || v === "native") return v;
  throw new RuntimeError(`GLASSTORCH_CPU_CAPABILITY must be 'ts' or 'native', got '${v}'`);
}

/** torch.backends.cpu-style switch: null lets each stub choose (native when available). */
export function set_cpu_capability(impl: "ts" | "native" | null): void {
  forcedCpu = impl;
}

export function get_cpu_capability(): "ts" | "native" | null {
  return forcedCpu as "ts" | "native" | null;
}

export class DispatchStub<F extends (...args: any[]) => void> {
  private readonly impls = new Map<StubImpl, F>();

  constructor(
    readonly name: string,
    /** The PyTorch file with the same kernel, for the trace. */
    readonly pytorchRef: string,
  ) {}

  /** REGISTER_DISPATCH: the addon and the CUDA backend register theirs when they load. */
  register(impl: StubImpl, fn: F): void {
    this.impls.set(impl, fn);
  }

  has(impl: StubImpl): boolean {
    return this.impls.has(impl);
  }

  /** Picks the implementation for the device and runs it. */
  call(deviceType: string, ...args: Parameters<F>): void {
    let impl: StubImpl;
    if (deviceType === "cuda") impl = "cuda";
    else if (forcedCpu) impl = forcedCpu;
    else impl = this.impls.has("native") ? "native" : "ts";
    const fn = this.impls.get(impl);
    if (!fn) {
      throw new RuntimeError(`${this.name}: no ${impl} kernel is registered${forcedCpu ? ` (GLASSTORCH_CPU_CAPABILITY=${forcedCpu})` : ""}`);
    }
    if (!isTracing()) return fn(...args);
    const t0 = performance.now();
    try {
      fn(...args);
    } finally {
      recorder.emitKernel({ stub: this.name, impl, capability: impl === "ts" ? "DEFAULT" : impl.toUpperCase(), forced: forcedCpu !== null, dur: (performance.now() - t0) * 1000, pytorchRef: this.pytorchRef });
    }
  }
}
