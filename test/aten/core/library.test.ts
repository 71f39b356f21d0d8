// torch.library and torch.ops: user operators registered and dispatched like ATen's own.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";

describe("torch.library.Library", () => {
  it("defines an op, gives it a CPU kernel, and calls it through torch.ops", () => {
    using lib = new torch.library.Library("gt_test", "DEF");
    lib.define("double_it(Tensor x) -> Tensor");
    lib.impl("double_it", (x: torch.Tensor) => torch.add(x, x), "CPU");
    const y = torch.ops.gt_test.double_it.default.call(torch.ones(2)) as torch.Tensor;
    expect(y.tolist()).toEqual([2, 2]);
    expect(String(torch.ops.gt_test.double_it.default._schema)).toBe("gt_test::double_it(Tensor x) -> Tensor");
    // registrations are reported at the user's line, as PyTorch reports the TORCH_LIBRARY block
    expect(torch._C._dispatch_dump("gt_test::double_it")).toMatch(/CPU: registered at .*library\.test\.ts:\d+/);
  });

  it("user ops are traced like built-ins, and missing kernels get PyTorch's error", () => {
    using lib = new torch.library.Library("gt_test2", "DEF");
    lib.define("f(Tensor x) -> Tensor");
    lib.impl("f", (x: torch.Tensor) => x, "CPU");
    const x = torch.ones(1);
    const { events } = torch.trace.record(() => torch.ops.gt_test2.f.default.call(x));
    const keys = events.filter((e: any) => e.type === "dispatch").map((e: any) => e.key);
    expect(keys).toEqual(["CPU"]); // AutogradCPU is a fallthrough for an op without an autograd kernel
    expect(() => torch.ops.gt_test2.f.default.call(torch.ones(1, { device: "meta" }))).toThrow(
      /Could not run 'gt_test2::f' with arguments from the 'AutogradMeta' backend/,
    );
  });

  it("a fallthrough kernel skips its key; deregistering restores the table", () => {
    const lib = new torch.library.Library("gt_test3", "DEF");
    lib.define("g(Tensor x) -> Tensor");
    lib.impl("g", (x: torch.Tensor) => torch.mul(x, 3), "CompositeExplicitAutograd");
    lib.impl("g", torch.library.fallthrough_kernel, "AutogradCPU");
    expect((torch.ops.gt_test3.g.default.call(torch.ones(1)) as torch.Tensor).tolist()).toEqual([3]);
    expect(torch._C._dispatch_dump_table("gt_test3::g")).toMatch(/AutogradCPU: fallthrough registered at .* \[kernel\]/);
    lib._destroy();
    expect(() => torch.ops.gt_test3.g).toThrow("No such operator gt_test3::g");
  });

  it("a second DEF library for a namespace is refused, as TORCH_LIBRARY refuses it", () => {
    using lib = new torch.library.Library("gt_test4", "DEF");
    expect(() => new torch.library.Library("gt_test4", "DEF")).toThrow(/Only a single TORCH_LIBRARY can be used to register the namespace gt_test4/);
    void lib;
  });
});

describe("torch.ops.aten", () => {
  it("has the generated overloads with their schemas, callable with defaults", () => {
    const add = torch.ops.aten.add;
    expect(Object.keys(add).sort()).toEqual(["Tensor", "out"]);
    expect(String(add.Tensor._schema)).toBe("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    expect((add.Tensor.call(torch.ones(2), torch.ones(2), { alpha: 3 }) as torch.Tensor).tolist()).toEqual([4, 4]);
    expect(String(add.Tensor)).toBe("aten.add.Tensor");
  });
  it("_dispatch_dump shows the registrations", () => {
    const dump = torch._C._dispatch_dump("aten::add.Tensor");
    expect(dump).toContain("schema: aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    expect(dump).toMatch(/CPU: .*registered at engine\/ops\/native_functions\.yaml:\d+/);
  });
});
