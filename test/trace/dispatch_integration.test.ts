// The trace of real dispatches: c = a.add(b) with a.requires_grad passes AutogradCPU, then CPU.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

describe("tracing c = a.add(b)", () => {
  it("shows AutogradCPU then CPU, with provenance, kernels, source locations and PyTorch files", () => {
    const a = torch.ones(2, 3, { requires_grad: true });
    const b = torch.ones(3);
    const { result, events } = torch.trace.record(() => a.add(b)); // <- the call site the trace must name
    expect((result as torch.Tensor).tolist()).toEqual([[2, 2, 2], [2, 2, 2]]);
    const calls = events.filter((e: any) => e.type === "call");
    const steps = events.filter((e: any) => e.type === "dispatch");
    expect(calls).toHaveLength(1);
    const call: any = calls[0];
    expect(call.op).toBe("aten::add");
    expect(call.overload).toBe("Tensor");
    expect(call.apiBinding).toBe("Tensor.add"); // the binding the user called
    expect(call.callSite.file).toMatch(/dispatch_integration\.test\.ts$/);
    expect(call.callSite.line).toBe(11);
    expect(steps.map((s: any) => s.key)).toEqual(["AutogradCPU", "CPU"]);
    const [autograd, cpu]: any[] = steps;
    expect(autograd.kernel.provenance).toBe("autograd kernel");
    expect(autograd.kernel.registeredAt).toMatch(/^engine\/ops\/native_functions\.yaml:\d+$/);
    expect(autograd.kernel.pytorchRef).toMatch(/VariableType/);
    expect(cpu.redispatch).toBe(true);
    expect(cpu.kernel.name).toBe("native.add_out");
    expect(cpu.kernel.provenance).toBe("kernel");
    expect(cpu.kernel.pytorchRef).toMatch(/BinaryOps/);
    // the generated line that registered the kernel: open it and find the registration there
    const [genFile, genLine] = cpu.kernel.generatedAt.split(":");
    const text = readFileSync(fileURLToPath(new URL(`../../${genFile}`, import.meta.url)), "utf8").split("\n");
    expect(text[Number(genLine) - 1]).toContain('registerKernel(add_Tensor, "CPU"');
  });

  it("prints in TORCH_SHOW_DISPATCH_TRACE's style", () => {
    const a = torch.ones(2);
    const { events } = torch.trace.record(() => a.add_(1));
    const text = torch.trace.formatTrace(events, 1);
    const lines = Array.isArray(text) ? text : String(text).split("\n");
    expect(lines.filter((l: string) => /\[(call|redispatch)\]/.test(l))).toEqual([
      "[call] op=[aten::add_.Tensor], key=[AutogradCPU]",
      " [redispatch] op=[aten::add_.Tensor], key=[ADInplaceOrView]",
      "  [redispatch] op=[aten::add_.Tensor], key=[CPU]",
    ]);
  });

  it("nests the ops a composite kernel calls: ones -> empty, fill_", () => {
    const { events } = torch.trace.record(() => torch.ones(2));
    const calls = events.filter((e: any) => e.type === "call") as any[];
    expect(calls.map((c) => `${c.op}.${c.overload}`)).toEqual(["aten::ones.", "aten::empty.memory_format", "aten::fill_.Scalar"]);
    expect(calls[1].parent).toBe(calls[0].id);
    expect(calls[2].parent).toBe(calls[0].id);
  });
});
