import { describe, it, expect } from "vitest";
import { DispatchKey as K } from "../../engine/c10/DispatchKey.js";
import { DispatchKeySet } from "../../engine/c10/DispatchKeySet.js";
import { TraceRecorder, type CallEvent, type DispatchStepEvent, type ReturnEvent, type TraceEvent } from "../../engine/trace/index.js";
import { addOp, afterAutograd, autogradKernel, cpuKernel, dispatchAdd, dispatchMatmul, step, tensor } from "./fakes.js";

const calls = (ev: TraceEvent[]) => ev.filter((e): e is CallEvent => e.type === "call");
const steps = (ev: TraceEvent[]) => ev.filter((e): e is DispatchStepEvent => e.type === "dispatch");
const returns = (ev: TraceEvent[]) => ev.filter((e): e is ReturnEvent => e.type === "return");

describe("TraceRecorder", () => {
  it("a call and its redispatch: one call, two steps, the second marked redispatch with its mask", () => {
    const rec = new TraceRecorder({ callSites: false });
    const a = tensor([2, 3], { requiresGrad: true });
    const b = tensor([2, 3]);
    dispatchAdd(rec, a, b, tensor([2, 3]));
    const ev = rec.events();
    expect(ev.map((e) => e.type)).toEqual(["call", "dispatch", "dispatch", "step_end", "return"]);
    const [call] = calls(ev);
    expect(call).toMatchObject({ op: "aten::add", overload: "Tensor", name: "aten::add.Tensor", parent: null, depth: 0 });
    expect(call.schema).toBe("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    const [s1, s2] = steps(ev);
    expect(s1).toMatchObject({ call: call.id, redispatch: false, key: "AutogradCPU", keySet: ["CPU", "AutogradCPU"], mask: null });
    expect(s1.tlsIncluded).toEqual(["BackendSelect", "ADInplaceOrView"]);
    expect(s1.tlsExcluded).toEqual(["AutocastCPU", "AutocastCUDA"]);
    expect(s2).toMatchObject({ call: call.id, redispatch: true, key: "CPU", keySet: ["CPU"] });
    expect(s2.mask).toEqual([...afterAutograd].map((k) => K[k]));
    expect(ev[3]).toMatchObject({ type: "step_end", step: s2.id, call: call.id });
    expect(returns(ev)[0].call).toBe(call.id);
  });

  it("ids are the events' seq numbers, gap-free", () => {
    const rec = new TraceRecorder({ callSites: false });
    dispatchAdd(rec, tensor([1]), tensor([1]), tensor([1]));
    dispatchAdd(rec, tensor([1]), tensor([1]), tensor([1]));
    const ev = rec.events();
    expect(ev.map((e) => e.seq)).toEqual([...Array(10).keys()]);
    for (const e of ev) if (e.type === "call" || e.type === "dispatch") expect(e.id).toBe(e.seq);
  });

  it("argument summaries carry shape, dtype, device, requires_grad and each tensor's keys, labelled by schema names", () => {
    const rec = new TraceRecorder({ callSites: false });
    dispatchAdd(rec, tensor([2, 3], { requiresGrad: true }), tensor([3]), tensor([2, 3]));
    const [call] = calls(rec.events());
    expect(call.args.map((a) => a.name)).toEqual(["self", "other", "alpha"]);
    expect(call.args[0].value).toMatchObject({
      kind: "tensor",
      shape: [2, 3],
      strides: [3, 1],
      dtype: "float32",
      device: "cpu",
      requires_grad: true,
      keys: ["CPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"],
    });
    expect(call.args[1].value).toMatchObject({ kind: "tensor", shape: [3], requires_grad: false });
    expect(call.args[2].value).toEqual({ kind: "number", value: 1 });
    expect(returns(rec.events())[0].result).toMatchObject({ kind: "tensor", shape: [2, 3] });
  });

  it("a call made inside a kernel is a child of the step that made it", () => {
    const rec = new TraceRecorder({ callSites: false });
    dispatchMatmul(rec, tensor([2, 3]), tensor([3, 4]), tensor([2, 4]));
    const ev = rec.events();
    const [matmul, mm] = calls(ev);
    const [mStep, mmStep, mmCpu] = steps(ev);
    expect(matmul).toMatchObject({ name: "aten::matmul", parent: null, parentStep: null, depth: 0 });
    expect(mm).toMatchObject({ name: "aten::mm", parent: matmul.id, parentStep: mStep.id, depth: 1 });
    expect(mStep.call).toBe(matmul.id);
    expect(mmStep.call).toBe(mm.id);
    expect(mmCpu).toMatchObject({ call: mm.id, redispatch: true, key: "CPU" });
    // mm returns before matmul, and each return names its own call
    expect(returns(ev).map((r) => r.call)).toEqual([mm.id, matmul.id]);
    // after everything closed, a new call is top level again
    dispatchAdd(rec, tensor([1]), tensor([1]), tensor([1]));
    expect(calls(rec.events())[2]).toMatchObject({ parent: null, depth: 0 });
  });

  it("a redispatch after a nested call returned still belongs to the outer call", () => {
    const rec = new TraceRecorder({ callSites: false });
    const ks = DispatchKeySet.of(K.CPU, K.AutogradCPU);
    const outer = rec.onDispatch(step(addOp, [], K.AutogradCPU, ks, autogradKernel));
    const inner = rec.onDispatch(step(addOp, [], K.AutogradCPU, ks, autogradKernel));
    rec.onReturn(inner, null);
    const re = rec.onDispatch(step(addOp, [], K.CPU, DispatchKeySet.of(K.CPU), cpuKernel, true));
    rec.onReturn(re, null);
    rec.onReturn(outer, null);
    const [c1, c2] = calls(rec.events());
    expect(c2.parent).toBe(c1.id);
    expect(steps(rec.events())[2]).toMatchObject({ call: c1.id, redispatch: true });
  });

  it("an error closes the call with the error's name and message", () => {
    const rec = new TraceRecorder({ callSites: false });
    const ks = DispatchKeySet.of(K.CPU, K.AutogradCPU);
    const id = rec.onDispatch(step(addOp, [], K.AutogradCPU, ks, autogradKernel));
    const id2 = rec.onDispatch(step(addOp, [], K.CPU, DispatchKeySet.of(K.CPU), cpuKernel, true));
    const err = Object.assign(new RangeError("The size of tensor a (2) must match the size of tensor b (3)"), { op: "aten::add.Tensor" });
    rec.onReturn(id2, undefined, err);
    rec.onReturn(id, undefined, err);
    const ev = rec.events();
    expect(ev[3]).toMatchObject({ type: "step_end", error: { name: "RangeError" } });
    const ret = returns(ev)[0];
    expect(ret.error).toEqual({ name: "RangeError", message: "The size of tensor a (2) must match the size of tensor b (3)", op: "aten::add.Tensor" });
    expect(ret.result).toBeUndefined();
  });

  it("a call whose inner returns were lost is still closed, and the stack recovers", () => {
    const rec = new TraceRecorder({ callSites: false });
    const ks = DispatchKeySet.of(K.CPU, K.AutogradCPU);
    const outer = rec.onDispatch(step(addOp, [], K.AutogradCPU, ks, autogradKernel));
    rec.onDispatch(step(addOp, [], K.AutogradCPU, ks, autogradKernel)); // never returns
    rec.onReturn(outer, null);
    rec.onReturn(12345, null); // unknown id: ignored
    dispatchAdd(rec, null, null, null);
    expect(calls(rec.events())[2]).toMatchObject({ parent: null, depth: 0 });
    expect(rec.errors).toBe(0);
  });

  it("the ring buffer keeps the newest `capacity` events and counts the dropped ones", () => {
    const rec = new TraceRecorder({ capacity: 7, callSites: false });
    for (let i = 0; i < 3; i++) dispatchAdd(rec, tensor([1]), tensor([1]), tensor([1])); // 15 events
    const ev = rec.events();
    expect(ev.length).toBe(7);
    expect(rec.dropped).toBe(8);
    expect(ev.map((e) => e.seq)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect(rec.header()).toMatchObject({ capacity: 7, dropped: 8, schemaVersion: 1 });
    rec.clear();
    expect(rec.events()).toEqual([]);
    expect(rec.dropped).toBe(0);
    dispatchAdd(rec, null, null, null);
    expect(rec.events()[0].seq).toBe(15); // seq keeps counting across clear()
  });

  it("listeners see every event, even those the ring drops; unsubscribe stops them", () => {
    const rec = new TraceRecorder({ capacity: 2, callSites: false });
    const seen: string[] = [];
    const off = rec.subscribe((e) => seen.push(e.type));
    dispatchAdd(rec, null, null, null);
    off();
    dispatchAdd(rec, null, null, null);
    expect(seen).toEqual(["call", "dispatch", "dispatch", "step_end", "return"]);
  });

  it("kernel and autograd events attach to the step running now", () => {
    const rec = new TraceRecorder({ callSites: false });
    const ks = DispatchKeySet.of(K.CPU);
    const id = rec.onDispatch(step(addOp, [], K.CPU, ks, cpuKernel));
    const k = rec.emitKernel({ stub: "add_stub", impl: "ts", capability: "DEFAULT", forced: false, dur: 1.5 });
    rec.onReturn(id, null);
    expect(k).toMatchObject({ type: "kernel", call: id - 1, step: id, pytorchRef: null });
    const n = rec.emitAutograd({
      type: "autograd.node",
      node: { id: 1, name: "AddBackward0" },
      call: null,
      step: null,
      sequenceNr: 0,
      saved: [],
      nextEdges: [],
      pytorchRef: "torch/csrc/autograd/generated/Functions.h",
    });
    expect(n.seq).toBe(k.seq + 2);
  });

  it("each step names the PyTorch file where the same step lives", () => {
    const rec = new TraceRecorder({ callSites: false });
    dispatchAdd(rec, null, null, null);
    const ks = DispatchKeySet.of(K.BackendSelect);
    const fb = rec.onDispatch(step(addOp, [], K.Python, ks, { name: "python_fallback", provenance: "backend fallback", registeredAt: "x:1", kind: "fallback" }));
    rec.onReturn(fb, null);
    const bs = rec.onDispatch(step(addOp, [], K.BackendSelect, ks, { name: "ones", provenance: "kernel", registeredAt: "x:1", kind: "kernel" }));
    rec.onReturn(bs, null);
    const missing = rec.onDispatch(step(addOp, [], K.CPU, DispatchKeySet.of(K.CPU), { name: "missing", provenance: "missing", registeredAt: "", kind: "kernel" }));
    rec.onReturn(missing, undefined, new Error("Could not run"));
    const refs = steps(rec.events()).map((s) => s.kernel.pytorchRef);
    expect(refs).toEqual([
      "torch/csrc/autograd/generated/VariableType_*.cpp",
      "aten/src/ATen/native/BinaryOps.cpp",
      "aten/src/ATen/core/PythonFallbackKernel.cpp",
      "build/aten/src/ATen/RegisterBackendSelect.cpp",
      "aten/src/ATen/core/dispatch/OperatorEntry.cpp",
    ]);
  });

  it("reads the dispatcher's OperatorHandle shape too: schema() as a method, operator_name() without a schema", () => {
    const rec = new TraceRecorder({ callSites: false });
    const schema = { name: "aten::mul", overload_name: "Tensor", arguments: [{ name: "self" }, { name: "other" }], toString: () => "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor" };
    const handle = { schema: () => schema, hasSchema: () => true, operator_name: () => "aten::mul.Tensor" };
    const noSchema = { schema: (): never => { throw new Error("no schema"); }, hasSchema: () => false, operator_name: () => "myns::foo.bar" };
    for (const op of [handle, noSchema]) rec.onReturn(rec.onDispatch(step(op, [1, 2], K.CPU, DispatchKeySet.of(K.CPU), cpuKernel)), null);
    const [c1, c2] = calls(rec.events());
    expect(c1).toMatchObject({ op: "aten::mul", overload: "Tensor", name: "aten::mul.Tensor", schema: "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor" });
    expect(c1.args.map((a) => a.name)).toEqual(["self", "other"]);
    expect(c2).toMatchObject({ op: "myns::foo", overload: "bar", name: "myns::foo.bar", schema: "" });
    expect(c2.args[0].name).toBeUndefined();
    // a user's own operator has no PyTorch file; PyTorch's fallbacks serve it all the same
    expect(steps(rec.events()).map((s) => s.kernel.pytorchRef)).toEqual(["aten/src/ATen/native/BinaryOps.cpp", null]);
    expect(rec.errors).toBe(0);
  });

  it("the api binding noted just before a call is used by that call only", () => {
    const rec = new TraceRecorder({ callSites: false });
    rec.noteApiBinding("torch.add");
    dispatchAdd(rec, null, null, null);
    dispatchAdd(rec, null, null, null);
    expect(calls(rec.events()).map((c) => c.apiBinding)).toEqual(["torch.add", null]);
  });

  it("a failure inside the recorder never reaches the dispatcher", () => {
    const rec = new TraceRecorder({ callSites: false });
    const badOp = { schema: { name: "aten::bad", overload_name: "", toString: () => { throw new Error("boom"); } } };
    const prev = process.emitWarning;
    process.emitWarning = () => {};
    try {
      expect(() => rec.onDispatch(step(badOp, [], K.CPU, DispatchKeySet.of(K.CPU), cpuKernel))).not.toThrow();
    } finally {
      process.emitWarning = prev;
    }
    expect(rec.errors).toBe(1);
  });

  it("every event survives JSON unchanged (no classes, no NaN)", () => {
    const rec = new TraceRecorder();
    dispatchAdd(rec, tensor([2]), NaN, [Infinity, 1n]);
    const ev = rec.events();
    expect(JSON.parse(JSON.stringify(ev))).toEqual(ev);
  });
});
