// The runtime table: which kernel each runtime key gets, by PyTorch's precedence
// (OperatorEntry::computeDispatchTableEntryWithDebug), and how (de)registration keeps it up to date.
import { describe, it, expect } from "vitest";
import { DispatchKey } from "../../engine/c10/DispatchKey.js";
import { KernelFunction, type OperatorHandle } from "../../engine/dispatcher/index.js";
import { cpuTensor, fpgaTensor, freshDispatcher, installStandardFallthroughs, schema } from "./helpers.js";

const K = DispatchKey;

/** A boxed kernel named `tag` that returns its tag, so tests see which one ran. */
const tagged = (tag: string) => KernelFunction.makeFromBoxedFunction(Object.defineProperty(() => tag, "name", { value: tag }));

/** 'tag [provenance]' of a runtime key's computed entry. */
function slot(op: OperatorHandle, k: DispatchKey): string {
  const [annotated, provenance] = op.entry.computeDispatchTableEntryWithDebug(k);
  return `${annotated.name} [${provenance}]`;
}

function setup(impls: [DispatchKey | string, string][]) {
  const d = freshDispatcher();
  d.registerDef(schema("t::op(Tensor x) -> Tensor"));
  const handles = impls.map(([key, tag]) => d.registerImpl("t::op", key, tagged(tag)));
  return { d, op: d.findOp("t::op")!, handles };
}

describe("computeDispatchTableEntryWithDebug precedence", () => {
  it("1. a kernel registered directly to the key wins over every alias and fallback", () => {
    const { d, op } = setup([
      [K.CompositeImplicitAutograd, "cia"],
      [K.CompositeExplicitAutograd, "cea"],
      [K.CompositeExplicitAutogradNonFunctional, "ceanf"],
      [K.CPU, "cpu"],
    ]);
    d.registerFallback(K.CPU, tagged("fallback"));
    expect(slot(op, K.CPU)).toBe("cpu [kernel]");
    expect(slot(op, K.CUDA)).toBe("ceanf [default backend kernel]");
  });

  it("2.1 CompositeExplicitAutogradNonFunctional beats CompositeExplicitAutograd, also on Undefined", () => {
    const { op } = setup([
      [K.CompositeExplicitAutograd, "cea"],
      [K.CompositeExplicitAutogradNonFunctional, "ceanf"],
    ]);
    for (const k of [K.CPU, K.CUDA, K.Meta, K.FPGA, K.Undefined]) expect(slot(op, k)).toBe("ceanf [default backend kernel]");
  });

  it("2.2 CompositeExplicitAutograd fills backends and Undefined, and blocks the math kernel on autograd keys", () => {
    const { op } = setup([
      [K.CompositeImplicitAutograd, "cia"],
      [K.CompositeExplicitAutograd, "cea"],
    ]);
    for (const k of [K.CPU, K.CUDA, K.Meta, K.FPGA, K.Undefined]) expect(slot(op, k)).toBe("cea [default backend kernel]");
    for (const k of [K.AutogradCPU, K.AutogradCUDA, K.AutogradMeta, K.AutogradOther]) expect(slot(op, k)).toBe("missing [missing]");
    // The explicit kernel does not cover layer keys.
    expect(slot(op, K.BackendSelect)).toBe("missing [missing]");
  });

  it("2.3 CompositeImplicitAutograd fills every backend key, every autograd key and Undefined", () => {
    const { op } = setup([[K.CompositeImplicitAutograd, "cia"]]);
    const keys = [K.Undefined, K.CPU, K.CUDA, K.Meta, K.FPGA, K.AutogradOther, K.AutogradCPU, K.AutogradCUDA, K.AutogradMeta];
    for (const k of keys) expect(slot(op, k)).toBe("cia [math kernel]");
    for (const k of [K.BackendSelect, K.Python, K.ADInplaceOrView, K.AutocastCPU, K.PythonTLSSnapshot, K.PythonDispatcher]) {
      expect(slot(op, k)).toBe("missing [missing]");
    }
  });

  it("2.3 the math kernel does not fill Autograd<B> when B has its own kernel (the backend kernel must stay reachable)", () => {
    const { op } = setup([
      [K.CPU, "cpu"],
      [K.CompositeImplicitAutograd, "cia"],
    ]);
    expect(slot(op, K.CPU)).toBe("cpu [kernel]");
    expect(slot(op, K.AutogradCPU)).toBe("missing [missing]");
    expect(slot(op, K.AutogradCUDA)).toBe("cia [math kernel]");
    expect(slot(op, K.AutogradMeta)).toBe("cia [math kernel]");
    expect(slot(op, K.AutogradOther)).toBe("cia [math kernel]"); // a CPU kernel is no AutogradOther backend
  });

  it("2.3 AutogradOther is ambiguous when an AutogradOther backend (FPGA) has a kernel next to the math kernel", () => {
    const { d, op } = setup([
      [K.CompositeImplicitAutograd, "cia"],
      [K.FPGA, "fpga"],
    ]);
    expect(slot(op, K.AutogradOther)).toBe("ambiguous_autogradother [ambiguous autogradother]");
    expect(slot(op, K.AutogradCPU)).toBe("cia [math kernel]");
    expect(slot(op, K.FPGA)).toBe("fpga [kernel]");
    expect(() => d.call(op, fpgaTensor())).toThrow(
      "t::op has kernels registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther.",
    );
  });

  it("2.3 without a math kernel, an FPGA kernel leaves AutogradOther to the fallback", () => {
    const { d, op } = setup([[K.FPGA, "fpga"]]);
    expect(slot(op, K.AutogradOther)).toBe("missing [missing]");
    installStandardFallthroughs(d);
    expect(slot(op, K.AutogradOther)).toBe("fallthrough [backend fallback]");
    expect(d.call(op, fpgaTensor())).toBe("fpga");
  });

  it("2.4 the Autograd alias fills every autograd key, below the math kernel", () => {
    const { op } = setup([[K.Autograd, "autograd"]]);
    for (const k of [K.AutogradOther, K.AutogradCPU, K.AutogradCUDA, K.AutogradMeta]) expect(slot(op, k)).toBe("autograd [autograd kernel]");
    expect(slot(op, K.CPU)).toBe("missing [missing]");
    expect(slot(op, K.Undefined)).toBe("missing [missing]");

    const both = setup([
      [K.Autograd, "autograd"],
      [K.CompositeImplicitAutograd, "cia"],
    ]);
    expect(slot(both.op, K.AutogradCPU)).toBe("cia [math kernel]");
    const withCpu = setup([
      [K.Autograd, "autograd"],
      [K.CompositeImplicitAutograd, "cia"],
      [K.CPU, "cpu"],
    ]);
    expect(slot(withCpu.op, K.AutogradCPU)).toBe("autograd [autograd kernel]");
    expect(slot(withCpu.op, K.AutogradCUDA)).toBe("cia [math kernel]");
  });

  it("a direct Autograd<B> kernel beats the math kernel on that key only", () => {
    const { op } = setup([
      [K.AutogradCPU, "agcpu"],
      [K.CompositeImplicitAutograd, "cia"],
    ]);
    expect(slot(op, K.AutogradCPU)).toBe("agcpu [kernel]");
    expect(slot(op, K.AutogradCUDA)).toBe("cia [math kernel]");
  });

  it("3. a backend fallback fills what no kernel covers; 4. otherwise the slot is missing", () => {
    const { d, op } = setup([[K.CPU, "cpu"]]);
    expect(slot(op, K.Python)).toBe("missing [missing]");
    const h = d.registerFallback(K.Python, tagged("python"));
    expect(slot(op, K.Python)).toBe("python [backend fallback]");
    expect(op.hasComputedKernelForDispatchKey(K.Python)).toBe(true);
    h.deregister();
    expect(slot(op, K.Python)).toBe("missing [missing]");
    expect(op.hasComputedKernelForDispatchKey(K.Python)).toBe(false);
  });

  it("an alias kernel beats a backend fallback; Undefined takes the Composite aliases only", () => {
    const { d, op } = setup([[K.Autograd, "autograd"]]);
    d.registerFallback(K.AutogradCPU, KernelFunction.makeFallthrough());
    expect(slot(op, K.AutogradCPU)).toBe("autograd [autograd kernel]");
    expect(slot(op, K.Undefined)).toBe("missing [missing]");
    const cpuOnly = setup([[K.CPU, "cpu"]]);
    expect(slot(cpuOnly.op, K.Undefined)).toBe("missing [missing]");
  });
});

describe("keeping the table current", () => {
  it("the newest kernel on a key is active; deregistering it brings the previous one back", () => {
    const warnings: string[] = [];
    const { d, op, handles } = setup([
      [K.CPU, "first"],
      [K.CPU, "second"],
    ]);
    installStandardFallthroughs(d);
    expect(d.call(op, cpuTensor())).toBe("second");
    expect(op.dumpState()).toMatch(/\nCPU: registered at .* \[ boxed \]\nCPU \(inactive\): registered at /);
    d.warn = (m) => warnings.push(m);
    const third = d.registerImpl("t::op", "CPU", tagged("third"));
    expect(warnings[0]).toMatch(/^Overriding a previously registered kernel for the same operator and the same dispatch key\n  operator: t::op\(Tensor x\) -> Tensor\n/);
    expect(warnings[0]).toContain("\n  dispatch key: CPU\n");
    third.deregister();
    handles[1].deregister();
    expect(d.call(op, cpuTensor())).toBe("first");
    handles[0].deregister();
    expect(op.hasKernelForDispatchKey(K.CPU)).toBe(false);
    expect(() => d.call(op, cpuTensor())).toThrow("Could not run 't::op' with arguments from the 'CPU' backend");
  });

  it("deregistering an older kernel leaves the newest active", () => {
    const { d, op, handles } = setup([
      [K.CPU, "first"],
      [K.CPU, "second"],
    ]);
    installStandardFallthroughs(d);
    handles[0].deregister();
    handles[0].deregister(); // harmless twice
    expect(d.call(op, cpuTensor())).toBe("second");
    expect(op.dumpState()).not.toContain("inactive");
  });

  it("the whole table is recomputed, so adding CompositeExplicitAutograd after CompositeImplicitAutograd updates AutogradCPU", () => {
    // PyTorch 1.13 refreshes only the slots it expects to change: there AutogradCPU keeps running the
    // math kernel although its own dump says otherwise (fixture: stale_autograd_cpu_ran = ['cia']).
    const { d, op } = setup([
      [K.CompositeImplicitAutograd, "cia"],
      [K.CompositeExplicitAutograd, "cea"],
    ]);
    installStandardFallthroughs(d);
    expect(slot(op, K.AutogradCPU)).toBe("fallthrough [backend fallback]");
    expect(d.call(op, cpuTensor())).toBe("cea");
  });

  it("a fallback registered before the operator existed is picked up", () => {
    const d = freshDispatcher();
    d.registerFallback(K.Python, tagged("python"));
    d.registerDef(schema("t::late(Tensor x) -> Tensor"));
    expect(slot(d.findOp("t::late")!, K.Python)).toBe("python [backend fallback]");
  });

  it("an operator disappears when its def and all its kernels are gone; impl may come before def", () => {
    const d = freshDispatcher();
    const impl = d.registerImpl("t::x.out", "CPU", tagged("cpu"));
    expect(d.findOp("t::x.out")).toBeDefined();
    expect(d.findSchema({ name: "t::x", overload_name: "out" })).toBeUndefined();
    expect(d._dispatch_dump("t::x.out")).toBe(
      "name: t::x.out\nschema: (none)\nCPU: registered at " + d.findOp("t::x.out")!.entry.getKernelForDispatchKey(K.CPU)!.registeredAt + " :: (none) [ boxed ]\n",
    );
    const def = d.registerDef(schema("t::x.out(Tensor x) -> Tensor"));
    expect(d.findSchema({ name: "t::x", overload_name: "out" })?.operator_name()).toBe("t::x.out");
    expect(d.getAllOpNames()).toEqual(["t::x.out"]);
    def.deregister();
    expect(d.findOp("t::x.out")).toBeDefined();
    impl.deregister();
    expect(d.findOp("t::x.out")).toBeUndefined();
    expect(d.getAllOpNames()).toEqual([]);
  });

  it("registration sites default to the caller's file:line", () => {
    const { op } = setup([[K.CPU, "cpu"]]);
    const at = op.entry.getKernelForDispatchKey(K.CPU)!.registeredAt;
    expect(at).toMatch(/^test\/dispatcher\/DispatchTable\.test\.ts:\d+$/);
    expect(op.entry.debug()).toMatch(/^registered at test\/dispatcher\/DispatchTable\.test\.ts:\d+$/);
  });

  it("kernels register only to runtime or alias keys; fallbacks only to runtime keys and must be boxed", () => {
    const d = freshDispatcher();
    expect(() => d.registerImpl("t::y", "Undefined", tagged("u"))).toThrow("Cannot register a kernel to dispatch key Undefined");
    expect(() => d.registerImpl("t::y", "Dense", tagged("u"))).toThrow("Cannot register a kernel to dispatch key Dense");
    expect(() => d.registerImpl("t::y", "Nope", tagged("u"))).toThrow("could not parse dispatch key: Nope");
    expect(() => d.registerFallback("CompositeImplicitAutograd", tagged("u"))).toThrow("not a runtime key");
    expect(() => d.registerFallback("CPU", KernelFunction.makeFromUnboxedFunction(() => 1))).toThrow("must be a boxed kernel");
    expect(d.findOp("t::y")).toBeUndefined();
  });
});
