// Tensor.to, bound by hand as PyTorch binds it (python_variable_methods.cpp), and the torch.layout /
// torch.memory_format values. Expected values were read from PyTorch 1.13 (comments show the Python).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";

describe("Tensor.to", () => {
  const x = torch.ones(2, 3);
  it("returns self when nothing changes (x.to('cpu') is x, x.to(torch.float32) is x)", () => {
    expect(x.to("cpu")).toBe(x);
    expect(x.to(torch.float32)).toBe(x);
    expect(x.to()).toBe(x);
  });
  it("copies when asked (x.to(torch.float32, copy=True) is not x)", () => {
    const y = x.to(torch.float32, false, true);
    expect(y).not.toBe(x);
    expect(y.tolist()).toEqual(x.tolist());
  });
  it("takes a device string, a device and dtype, keywords, or another tensor", () => {
    expect(String(x.to("meta").device)).toBe("meta");
    expect(x.to("meta", torch.float16).dtype).toBe(torch.float16);
    expect(x.to({ device: "meta", dtype: torch.int32 }).dtype).toBe(torch.int32);
    const other = torch.zeros(1, { dtype: torch.float16, device: "meta" });
    const y = x.to(other);
    expect([String(y.device), y.dtype]).toEqual(["meta", torch.float16]);
  });
  it("dispatches the aten overload PyTorch's dispatch_to picks", () => {
    const ops = (f: () => unknown) => torch.trace.record(f).events.filter((e: any) => e.type === "call" && e.depth === 0).map((e: any) => e.name);
    expect(ops(() => x.to(torch.float64))).toEqual(["aten::to.dtype"]);
    expect(ops(() => x.to("meta"))).toEqual(["aten::to.dtype_layout"]);
    expect(ops(() => x.to("meta", torch.float64))).toEqual(["aten::to.device"]);
  });
  it("refuses a layout where a memory format goes, with PyTorch's text", () => {
    expect(() => x.to("cpu", torch.float32, { memory_format: torch.strided as any })).toThrow(
      "to() received an invalid combination of arguments - got (str, torch.dtype, memory_format=torch.layout), but expected one of:\n" +
        " * (torch.device device, torch.dtype dtype, bool non_blocking, bool copy, *, torch.memory_format memory_format)\n" +
        " * (torch.dtype dtype, bool non_blocking, bool copy, *, torch.memory_format memory_format)\n" +
        " * (Tensor tensor, bool non_blocking, bool copy, *, torch.memory_format memory_format)\n",
    );
  });
});

describe("torch.layout and torch.memory_format", () => {
  it("print as PyTorch prints them", () => {
    expect([String(torch.strided), String(torch.sparse_coo), String(torch.contiguous_format), String(torch.channels_last)]).toEqual([
      "torch.strided", "torch.sparse_coo", "torch.contiguous_format", "torch.channels_last",
    ]);
    expect(torch.ones(1).layout).toBe(torch.strided);
  });
  it("are accepted where a schema takes Layout / MemoryFormat", () => {
    expect([...torch.empty(2, { layout: torch.strided }).shape]).toEqual([2]);
    const t = torch.ones(2, 3).t();
    expect(t.clone({ memory_format: torch.contiguous_format }).stride()).toEqual([2, 1]);
    expect(t.clone({ memory_format: torch.preserve_format }).stride()).toEqual([1, 3]);
  });
});
