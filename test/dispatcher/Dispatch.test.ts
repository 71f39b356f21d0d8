// Calls through the dispatcher: key extraction, fallthrough masks, boxed fallbacks, redispatch with masks,
// BackendSelect for factories, and the observer events the trace records.
import { describe, it, expect, afterEach } from "vitest";
import { BackendComponent, DispatchKey } from "../../engine/c10/DispatchKey.js";
import {
  DispatchKeySet,
  after_ADInplaceOrView_keyset,
  after_autograd_keyset,
  tensorKeySetFor,
} from "../../engine/c10/DispatchKeySet.js";
import {
  AutoDispatchBelowADInplaceOrView,
  IncludeDispatchKeyGuard,
  tls_set_dispatch_key_excluded,
} from "../../engine/c10/impl/LocalDispatchKeySet.js";
import {
  Dispatcher,
  KernelFunction,
  setDispatchObserver,
  type DispatchEvent,
  type OperatorHandle,
} from "../../engine/dispatcher/index.js";
import {
  cpuTensor,
  cudaTensor,
  freshDispatcher,
  installStandardFallthroughs,
  metaTensor,
  schema,
  tensorWith,
} from "./helpers.js";

const K = DispatchKey;

afterEach(() => setDispatchObserver(null));

/** A dispatcher with PyTorch's layer fallthroughs and one defined op. */
function withOp(text: string) {
  const d = freshDispatcher();
  installStandardFallthroughs(d);
  d.registerDef(schema(text));
  const name = text.slice(0, text.indexOf("("));
  const op = d.findOp(name)!;
  return { d, op, name };
}

/** Records every dispatch as 'key kernelName [provenance]' (+ ' redispatch', ' masked'). */
function record(): string[] {
  const log: string[] = [];
  let n = 0;
  setDispatchObserver({
    onDispatch(e: DispatchEvent) {
      log.push(
        `${K[e.key]} ${e.kernel.name} [${e.kernel.provenance}]` +
          (e.redispatch ? " redispatch" : "") +
          (e.mask ? " masked" : ""),
      );
      return n++;
    },
    onReturn() {},
  });
  return log;
}

describe("the key set of a call", () => {
  it("is (tensor keys | TLS include) - TLS exclude, masked by the op's non-fallthrough keys; the kernel receives it", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    let seen: DispatchKeySet | undefined;
    d.registerImpl(name, "CPU", (ks: DispatchKeySet) => {
      seen = ks;
      return "cpu";
    });
    // {CPU, ADInplaceOrView, AutogradCPU, AutocastCPU} | {BackendSelect, ADInplaceOrView} - {Autocast*}
    // & non-fallthrough (BackendSelect, ADInplaceOrView, AutogradCPU are fallthrough) = {CPU}
    expect(d.call(op, cpuTensor())).toBe("cpu");
    expect(String(seen)).toBe("DispatchKeySet(CPU)");
    expect(String(op.entry.dispatchKeyExtractor_.nonFallthroughKeys())).not.toContain("ADInplaceOrView");
  });

  it("ORs every Tensor, Tensor?, Tensor[] and Tensor?[] argument; null/undefined tensors add nothing", () => {
    const { d, op, name } = withOp("t::g(Tensor a, Tensor? b, Tensor[] c, Tensor?[] e, int n) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu");
    d.registerImpl(name, "CUDA", () => "cuda");
    expect(op.entry.dispatchKeyExtractor_.tensorArgumentPositions()).toEqual([0, 1, 2, 3]);
    expect(d.call(op, cpuTensor(), null, [], [null], 1)).toBe("cpu");
    expect(d.call(op, cpuTensor(), cudaTensor(), [], [], 1)).toBe("cuda");
    expect(d.call(op, cpuTensor(), undefined, [cpuTensor(), cudaTensor()], [], 1)).toBe("cuda");
    expect(d.call(op, cpuTensor(), null, [], [null, cudaTensor()], 1)).toBe("cuda");
    // An int argument is never read for keys, even if it looks like a tensor.
    expect(d.call(op, cpuTensor(), null, [], [], cudaTensor())).toBe("cpu");
  });

  it("with no tensors at all only TLS contributes, and an op without BackendSelect kernel lands on Undefined", () => {
    const { d, op, name } = withOp("t::h(int n) -> Tensor");
    expect(() => d.call(op, 1)).toThrow("There were no tensor arguments to this function");
    d.registerImpl(name, "CompositeExplicitAutograd", () => "undefined slot");
    expect(d.call(op, 1)).toBe("undefined slot");
  });

  it("highest backend wins: a CPU and a CUDA tensor run CUDA's kernels", () => {
    const { d, op, name } = withOp("t::k(Tensor a, Tensor b) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu");
    d.registerImpl(name, "CUDA", () => "cuda");
    d.registerImpl(name, "AutogradCUDA", () => "autograd cuda");
    expect(d.call(op, cpuTensor(), cudaTensor())).toBe("autograd cuda");
  });
});

describe("fallthrough", () => {
  it("a fallthrough fallback is skipped at no cost: the key is masked out before lookup", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", function f_cpu() {
      return "cpu";
    });
    const log = record();
    d.call(op, cpuTensor());
    expect(log).toEqual(["CPU f_cpu [kernel]"]); // one event: the chosen kernel, not the skipped keys
  });

  it("an Autocast fallthrough fallback: with autocast on and no autocast kernel, the call goes on below", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu");
    tls_set_dispatch_key_excluded(K.AutocastCPU, false); // what torch.autocast("cpu") does
    try {
      expect(d.call(op, cpuTensor())).toBe("cpu");
      d.registerImpl(name, "AutocastCPU", () => "autocast");
      expect(d.call(op, cpuTensor())).toBe("autocast");
    } finally {
      tls_set_dispatch_key_excluded(K.AutocastCPU, true);
    }
    expect(d.call(op, cpuTensor())).toBe("cpu");
  });

  it("a per-op fallthrough kernel skips a key even where a real fallback exists", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu");
    const python = tensorWith(tensorKeySetFor(BackendComponent.CPUBit).add(K.Python));
    d.registerFallback("Python", (o: OperatorHandle) => `python fallback for ${o.operator_name()}`);
    expect(d.call(op, python)).toBe("python fallback for t::f");
    const h = d.registerImpl(name, "Python", KernelFunction.makeFallthrough());
    expect(d.call(op, python)).toBe("cpu");
    expect(op.dumpComputedTable()).toContain("Python: fallthrough registered at ");
    h.deregister();
    expect(d.call(op, python)).toBe("python fallback for t::f");
  });

  it("per-backend fallthrough: AutogradCPU skipped, AutogradMeta not (no fallback there, as in 1.13)", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu");
    d.registerImpl(name, "Meta", () => "meta");
    const extractor = op.entry.dispatchKeyExtractor_;
    expect(extractor.requiresBitsetPerBackend()).toBe(true);
    expect(extractor.nonFallthroughKeys(0).has(K.AutogradCPU)).toBe(false);
    expect(extractor.nonFallthroughKeys(2).has(K.AutogradMeta)).toBe(true);
    expect(d.call(op, cpuTensor())).toBe("cpu");
    expect(() => d.call(op, metaTensor())).toThrow("Could not run 't::f' with arguments from the 'AutogradMeta' backend");
    d.registerFallback("AutogradMeta", KernelFunction.makeFallthrough());
    expect(extractor.requiresBitsetPerBackend()).toBe(false);
    expect(d.call(op, metaTensor())).toBe("meta");
  });

  it("a fallthrough reached through an explicit redispatch raises PyTorch's internal error", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu");
    expect(() => d.redispatch(op, DispatchKeySet.of(K.AutogradCPU), cpuTensor())).toThrow(
      "fallthrough_kernel was executed but it should have been short-circuited by the dispatcher.",
    );
  });
});

describe("redispatch", () => {
  /** AutogradCPU -> ADInplaceOrView -> CPU, as for an in-place op like add_. */
  function inplaceOp() {
    const { d, op, name } = withOp("t::add_(Tensor(a!) self, Tensor other) -> Tensor(a!)");
    const seen: string[] = [];
    d.registerImpl(name, "AutogradCPU", (ks: DispatchKeySet, self: unknown, other: unknown) => {
      seen.push(`autograd ${ks}`);
      using _below = new AutoDispatchBelowADInplaceOrView(); // for fresh calls inside the kernels below
      return d.redispatchWithMask(op, ks, after_autograd_keyset, self, other);
    });
    d.registerImpl(name, "ADInplaceOrView", (ks: DispatchKeySet, self: unknown, other: unknown) => {
      seen.push(`inplace ${ks}`);
      return d.redispatch(op, ks.and(after_ADInplaceOrView_keyset), self, other);
    });
    d.registerImpl(name, "CPU", (ks: DispatchKeySet) => {
      seen.push(`cpu ${ks}`);
      return "done";
    });
    return { d, op, seen };
  }

  it("each layer masks the incoming set and passes it on: AutogradCPU -> ADInplaceOrView -> CPU", () => {
    const { d, op, seen } = inplaceOp();
    expect(d.call(op, cpuTensor(), cpuTensor())).toBe("done");
    expect(seen).toEqual([
      "autograd DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)",
      "inplace DispatchKeySet(CPU, ADInplaceOrView)",
      "cpu DispatchKeySet(CPU)",
    ]);
  });

  it("the observer sees one event per call and per redispatch, with the mask", () => {
    const { d, op } = inplaceOp();
    const events: DispatchEvent[] = [];
    const returns: [number, unknown][] = [];
    setDispatchObserver({
      onDispatch: (e) => events.push(e) - 1,
      onReturn: (id, result) => void returns.push([id, result]),
    });
    d.call(op, cpuTensor(), cpuTensor());
    expect(events.map((e) => [K[e.key], e.redispatch, e.mask === undefined ? null : String(e.mask)])).toEqual([
      ["AutogradCPU", false, null],
      ["ADInplaceOrView", true, String(after_autograd_keyset)],
      ["CPU", true, null],
    ]);
    expect(returns).toEqual([
      [2, "done"],
      [1, "done"],
      [0, "done"],
    ]);
    // TLS at each step: the autograd kernel's guard shows in the later events.
    expect(String(events[0].tlsExcluded)).toBe("DispatchKeySet(AutocastCPU, AutocastCUDA)");
    expect(events[1].tlsExcluded.has(K.ADInplaceOrView)).toBe(true);
    expect(events[0].kernel.kind).toBe("kernel");
    expect(events[0].kernel.registeredAt).toMatch(/^test\/dispatcher\/Dispatch\.test\.ts:\d+$/);
    expect(events[0].op).toBe(op);
  });

  it("never recomputes from the arguments: the given set decides, even against the tensors", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu");
    d.registerImpl(name, "CUDA", () => "cuda");
    expect(d.redispatch(op, DispatchKeySet.of(K.CUDA), cpuTensor())).toBe("cuda");
  });

  it("never reads TLS: a guard set inside a kernel changes fresh calls only", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "AutogradCPU", (ks: DispatchKeySet, x: unknown) => {
      using _below = new AutoDispatchBelowADInplaceOrView();
      using _mode = new IncludeDispatchKeyGuard(K.Python);
      return [d.call(op, x), d.redispatch(op, ks.and(after_autograd_keyset), x)];
    });
    d.registerImpl(name, "Python", () => "python");
    d.registerImpl(name, "CPU", () => "cpu");
    // The fresh call sees the guards (no autograd, Python included); the redispatch only sees ks.
    expect(d.call(op, cpuTensor())).toEqual(["python", "cpu"]);
  });

  it("FULL_AFTER keeps PythonDispatcher: a boxed fallback can pass the call on below itself", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu", { name: "cpu" });
    const calls: string[] = [];
    d.registerFallback("Python", (o: OperatorHandle, ks: DispatchKeySet, args: unknown[]) => {
      calls.push(`${o.schema().toString()} with ${args.length} arg(s)`);
      return d.redispatchBoxed(o, ks.and(DispatchKeySet.fullAfter(K.Python)), args);
    });
    expect(DispatchKeySet.fullAfter(K.Python).has(K.PythonDispatcher)).toBe(true);
    const python = tensorWith(tensorKeySetFor(BackendComponent.CPUBit).add(K.Python));
    const log = record();
    expect(d.call(op, python)).toBe("cpu");
    expect(calls).toEqual(["t::f(Tensor x) -> Tensor with 1 arg(s)"]);
    expect(log[0]).toMatch(/^Python \S+ \[backend fallback\]$/);
    expect(log[1]).toBe("CPU cpu [kernel] redispatch");
  });
});

describe("BackendSelect", () => {
  it("a factory op (no tensor args) reaches its BackendSelect kernel via the TLS include and redispatches to the chosen backend", () => {
    const { d, op, name } = withOp("t::ones(int n, *, Device? device=None) -> Tensor");
    d.registerImpl(name, "BackendSelect", (_ks: DispatchKeySet, n: number, device: string | null) => {
      const backend = device === "cuda" ? K.CUDA : device === "meta" ? K.Meta : K.CPU;
      return d.redispatch(op, DispatchKeySet.of(backend), n, device);
    });
    d.registerImpl(name, "CPU", (_ks: DispatchKeySet, n: number) => `cpu ${n}`);
    d.registerImpl(name, "CUDA", (_ks: DispatchKeySet, n: number) => `cuda ${n}`);
    d.registerImpl(name, "Meta", (_ks: DispatchKeySet, n: number) => `meta ${n}`);
    const log = record();
    expect(d.call(op, 3, null)).toBe("cpu 3");
    expect(d.call(op, 2, "cuda")).toBe("cuda 2");
    expect(d.call(op, 1, "meta")).toBe("meta 1");
    expect(log.slice(0, 2)).toEqual(["BackendSelect (anonymous) [kernel]", "CPU (anonymous) [kernel] redispatch"]);
  });
});

describe("boxed and unboxed", () => {
  it("an unboxed kernel gets positional args; a boxed one gets (op, ks, args); either is callable both ways", () => {
    const { d, op, name } = withOp("t::f(Tensor x, int n) -> Tensor");
    d.registerImpl(name, "CPU", (_ks: DispatchKeySet, _x: unknown, n: number) => n + 1);
    expect(d.call(op, cpuTensor(), 1)).toBe(2);
    expect(d.callBoxed(op, [cpuTensor(), 2])).toBe(3);
    expect(op.call(cpuTensor(), 3)).toBe(4);
    d.registerImpl(name, "CUDA", KernelFunction.makeFromBoxedFunction((_o, _ks, args) => (args[1] as number) * 10));
    expect(d.call(op, cudaTensor(), 5)).toBe(50);
    expect(op.dumpState()).toContain("CPU: registered at ");
    expect(op.dumpState()).toMatch(/CPU: .* :: \(none\) \[ boxed unboxed \]\nCUDA: .* :: \(none\) \[ boxed \]\n/);
  });

  it("an error in the kernel reaches the observer's onReturn and propagates", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", () => {
      throw new Error("kernel failed");
    });
    const errors: unknown[] = [];
    setDispatchObserver({ onDispatch: () => 7, onReturn: (id, _r, e) => void errors.push([id, (e as Error).message]) });
    expect(() => d.call(op, cpuTensor())).toThrow("kernel failed");
    expect(errors).toEqual([[7, "kernel failed"]]);
  });

  it("a missing kernel is reported to the observer with provenance 'missing', then raises", () => {
    const { d, op } = withOp("t::f(Tensor x) -> Tensor");
    const log = record();
    expect(() => d.call(op, cpuTensor())).toThrow("Could not run 't::f' with arguments from the 'CPU' backend");
    expect(log).toEqual(["CPU missing [missing]"]);
  });

  it("without an observer no events are produced", () => {
    const { d, op, name } = withOp("t::f(Tensor x) -> Tensor");
    d.registerImpl(name, "CPU", () => "cpu");
    const log = record();
    setDispatchObserver(null);
    d.call(op, cpuTensor());
    expect(log).toEqual([]);
  });
});

describe("the singleton", () => {
  it("is one instance; ops registered there are found by name and schema", () => {
    const d = Dispatcher.singleton();
    expect(Dispatcher.singleton()).toBe(d);
    const def = d.registerDef(schema("glasstorch_test::s.int(Tensor x, int n) -> Tensor"));
    const impl = d.registerImpl("glasstorch_test::s.int", "CompositeImplicitAutograd", (_ks: DispatchKeySet, _x: unknown, n: number) => n);
    try {
      const op = d.findSchemaOrThrow("glasstorch_test::s", "int");
      expect(op).toBe(d.findOp("glasstorch_test::s.int"));
      expect(d.getAllOpNames()).toContain("glasstorch_test::s.int");
      expect(op.call(cpuTensor(), 5)).toBe(5);
    } finally {
      impl.deregister();
      def.deregister();
    }
    expect(d.findOp("glasstorch_test::s.int")).toBeUndefined();
    expect(() => d.findSchemaOrThrow("glasstorch_test::s", "int")).toThrow("Could not find schema for glasstorch_test::s.int");
  });
});
