// DispatchStub (aten/src/ATen/native/DispatchStub.h): the last step of a CPU/CUDA kernel. An op's
// kernel (add_out) does the shared work — shapes, dtypes, output — then calls add_stub, which picks
// the implementation for the device: the TypeScript reference kernel, a native C++ kernel when the
// addon provides one, or a CUDA kernel. PyTorch picks by CPU capability (ATEN_CPU_CAPABILITY);
// GLASSTORCH_CPU_CAPABILITY=ts|native forces the choice here, so a cell can be run on each and compared.
//
// A native kernel covers what it can (some dtypes, some layouts) and returns false for the rest: the
// stub then runs the TypeScript kernel, and the trace names the kernel that actually ran. Forcing
// "native" therefore means "the native kernel wherever one takes these arguments", so a whole test
// suite can run that way; forcing it while the addon is not loaded is an error.

import { RuntimeError } from "../../c10/Errors.js";
import { isTracing, recorder } from "../../trace/session.js";

export type StubImpl = "ts" | "native" | "cuda";

/** What the native CPU backend reports once loaded: its capability names the native kernels in traces. */
let nativeBackend: { capability: string } | null = null;

/** Called by the native CPU backend (cpu_native/) when it has loaded, with its capability ("AVX512"). */
export function set_native_backend(info: { capability: string } | null): void {
  nativeBackend = info;
}

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

/** A native kernel may decline arguments it does not cover by returning false. */
type Impl<F extends (...args: any[]) => void> = (...args: Parameters<F>) => void | boolean;

export class DispatchStub<F extends (...args: any[]) => void> {
  private readonly impls = new Map<StubImpl, Impl<F>>();

  constructor(
    readonly name: string,
    /** The PyTorch file with the same kernel, for the trace. */
    readonly pytorchRef: string,
  ) {}

  /**
   * REGISTER_DISPATCH: the addon and the CUDA backend register theirs when they load. A native
   * kernel returns false for arguments it does not cover (a dtype, a layout): the TypeScript kernel runs.
   */
  register(impl: StubImpl, fn: Impl<F>): void {
    this.impls.set(impl, fn);
    if (impl === "ts") this.tsImpl = fn;
    else if (impl === "native") this.nativeImpl = fn;
  }

  /** The two CPU implementations, read by call() without a map lookup. */
  private tsImpl: Impl<F> | null = null;
  private nativeImpl: Impl<F> | null = null;

  has(impl: StubImpl): boolean {
    return this.impls.has(impl);
  }

  /** Picks the implementation for the device and runs it. */
  call(deviceType: string, ...args: Parameters<F>): void {
    // the common case first: a CPU call, nothing forced, no trace — native if registered and it accepts, else TypeScript
    if (forcedCpu === null && deviceType === "cpu" && !isTracing()) {
      const native = this.nativeImpl, ts = this.tsImpl;
      if (native !== null) {
        if (native(...args) !== false) return;
      }
      if (ts !== null) {
        ts(...args);
        return;
      }
    }
    let impl: StubImpl;
    if (deviceType === "cuda") impl = "cuda";
    else if (forcedCpu === "ts") impl = "ts";
    else {
      if (forcedCpu === "native" && nativeBackend === null) {
        throw new RuntimeError(`${this.name}: GLASSTORCH_CPU_CAPABILITY=native, but the native CPU backend is not loaded (see torch._C._native_status())`);
      }
      impl = this.impls.has("native") ? "native" : "ts";
    }
    const fn = this.impls.get(impl);
    if (!fn) {
      throw new RuntimeError(`${this.name}: no ${impl} kernel is registered${forcedCpu ? ` (GLASSTORCH_CPU_CAPABILITY=${forcedCpu})` : ""}`);
    }
    if (!isTracing()) {
      if (fn(...args) === false) this.impls.get("ts")!(...args);
      return;
    }
    const t0 = performance.now();
    try {
      if (fn(...args) === false) {
        impl = "ts";
        this.impls.get("ts")!(...args);
      }
    } finally {
      const capability = impl === "native" ? nativeBackend?.capability ?? "NATIVE" : impl === "ts" ? "DEFAULT" : impl.toUpperCase();
      recorder.emitKernel({ stub: this.name, impl, capability, forced: forcedCpu !== null, dur: (performance.now() - t0) * 1000, pytorchRef: this.pytorchRef });
    }
  }
}
