import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { DispatchStub, set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { add_stub } from "../../../engine/aten/native/BinaryOps.js";
import { TensorImpl } from "../../../engine/c10/TensorImpl.js";

afterEach(() => set_cpu_capability(null));

describe("DispatchStub", () => {
  it("runs the TypeScript kernel when no native one is registered, and the trace says so", () => {
    const a = torch.ones(2);
    const { events } = torch.trace.record(() => a.add(a));
    const k = events.find((e: any) => e.type === "kernel") as any;
    expect(k).toMatchObject({ stub: "add_stub", impl: "ts", forced: false });
    expect(k.pytorchRef).toBe("aten/src/ATen/native/cpu/BinaryOpsKernel.cpp");
  });
  it("prefers a registered native kernel, and a forced capability overrides it", () => {
    const stub = new DispatchStub<(out: string[]) => void>("test_stub", "x.cpp");
    stub.register("ts", (out) => out.push("ts"));
    stub.register("native", (out) => out.push("native"));
    const ran: string[] = [];
    stub.call("cpu", ran);
    set_cpu_capability("ts");
    stub.call("cpu", ran);
    expect(ran).toEqual(["native", "ts"]);
  });
  it("a forced implementation that is missing is an error naming the stub", () => {
    set_cpu_capability("native");
    expect(add_stub.has("native")).toBe(false);
    expect(() => torch.add(torch.ones(1), torch.ones(1))).toThrow("add_stub: no native kernel is registered (GLASSTORCH_CPU_CAPABILITY=native)");
  });
  it("meta tensors never reach the stub", () => {
    set_cpu_capability("native"); // would throw if the stub ran
    expect(torch.add(torch.ones(2, { device: "meta" }), 1).shape).toEqual([2]);
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
