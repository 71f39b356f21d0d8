import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { DispatchStub, set_cpu_capability, set_native_backend } from "../../../engine/aten/native/DispatchStub.js";
import { TensorImpl } from "../../../engine/c10/TensorImpl.js";

afterEach(() => set_cpu_capability(null));

const status = torch._C._native_status();

describe("DispatchStub", () => {
  it("runs the native kernel when the addon is loaded, the TypeScript one otherwise, and the trace says which", () => {
    const a = torch.ones(64);
    const { events } = torch.trace.record(() => a.add(a));
    const k = events.find((e: any) => e.type === "kernel") as any;
    if (status.loaded) expect(k).toMatchObject({ stub: "add_stub", impl: "native", capability: status.addon!.capability, forced: false });
    else expect(k).toMatchObject({ stub: "add_stub", impl: "ts", capability: "DEFAULT", forced: false });
    expect(k.pytorchRef).toBe("aten/src/ATen/native/cpu/BinaryOpsKernel.cpp");
  });
  it("chooses by size: an operand under nativeSizePolicy.minNumel elements runs the TypeScript kernel, unforced", () => {
    const a = torch.ones(2);
    const { events } = torch.trace.record(() => a.add(a));
    expect(events.find((e: any) => e.type === "kernel")).toMatchObject({ stub: "add_stub", impl: "ts", forced: false });
  });
  it("a forced TypeScript capability runs the TypeScript kernel, marked forced", () => {
    set_cpu_capability("ts");
    const a = torch.ones(2);
    const { events } = torch.trace.record(() => a.add(a));
    expect(events.find((e: any) => e.type === "kernel")).toMatchObject({ stub: "add_stub", impl: "ts", capability: "DEFAULT", forced: true });
  });
  it("prefers a registered native kernel, and a forced capability overrides it", () => {
    const stub = new DispatchStub<(out: string[]) => void>("test_stub", "x.cpp");
    stub.register("ts", (out) => out.push("ts"));
    stub.register("native", (out) => void out.push("native"));
    const ran: string[] = [];
    stub.call("cpu", ran);
    set_cpu_capability("ts");
    stub.call("cpu", ran);
    expect(ran).toEqual(["native", "ts"]);
  });
  it("a native kernel that declines its arguments (returns false) hands them to the TypeScript kernel, and the trace names it", () => {
    const stub = new DispatchStub<(out: string[], n: number) => void>("test_stub", "x.cpp");
    stub.register("ts", (out) => out.push("ts"));
    stub.register("native", (out, n) => (n > 1 ? void out.push("native") : false));
    const ran: string[] = [];
    const { events } = torch.trace.record(() => {
      stub.call("cpu", ran, 2);
      stub.call("cpu", ran, 1);
    });
    expect(ran).toEqual(["native", "ts"]);
    expect(events.filter((e: any) => e.type === "kernel").map((e: any) => e.impl)).toEqual(["native", "ts"]);
  });
  it("a forced implementation that is missing is an error naming the stub", () => {
    const stub = new DispatchStub<(out: string[]) => void>("test_stub", "x.cpp");
    stub.register("native", (out) => void out.push("native"));
    set_cpu_capability("ts");
    expect(() => stub.call("cpu", [])).toThrow("test_stub: no ts kernel is registered (GLASSTORCH_CPU_CAPABILITY=ts)");
  });
  it("forcing native while the addon is not loaded is an error naming the stub", () => {
    const saved = status.loaded ? { capability: torch.backends.cpu.get_cpu_capability() } : null;
    set_native_backend(null);
    try {
      set_cpu_capability("native");
      expect(() => torch.add(torch.ones(1), torch.ones(1))).toThrow(
        "add_stub: GLASSTORCH_CPU_CAPABILITY=native, but the native CPU backend is not loaded (see torch._C._native_status())",
      );
    } finally {
      set_native_backend(saved);
    }
  });
  it("meta tensors never reach the stub", () => {
    set_native_backend(null);
    try {
      set_cpu_capability("native"); // would throw if the stub ran
      expect(torch.add(torch.ones(2, { device: "meta" }), 1).shape).toEqual([2]);
    } finally {
      set_native_backend(status.loaded ? { capability: status.addon!.capability } : null);
    }
  });
});

describe("TensorIterator overlap checks", () => {
  // windows onto one tensor's storage, as view ops (expand, slicing) will build them
  const windowOf = (base: torch.Tensor, sizes: number[], strides: number[], offset: number) =>
    new torch.Tensor(new TensorImpl(base._impl.storage, base.dtype, sizes, strides, offset, base._impl.version_counter));

  it("refuses writing into an expanded tensor", () => {
    const expanded = windowOf(torch.ones(1), [3], [0], 0);
    expect(() => expanded.add_(1)).toThrow(
      "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.",
    );
  });
  it("refuses out= that partly overlaps an input, allows the exact same memory", () => {
    const base = torch.ones(4);
    expect(() => torch.add(base, 1, { out: base })).not.toThrow();
    const head = windowOf(base, [3], [1], 0);
    const tail = windowOf(base, [3], [1], 1);
    expect(() => torch.add(head, 1, { out: tail })).toThrow(
      "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.",
    );
  });
});
