// Each Dispatch Trace row names PyTorch's file for the same step and links it on GitHub at v1.13.1;
// files that only a PyTorch build generates link to the template they are generated from.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../../../engine/trace/events.js";
import { bindingFile, isPyTorchPath, pytorchLink } from "../../../extension/src/views/pytorch_links.js";
import { buildRunTree, flattenSteps } from "../../../extension/src/views/trace/trace_model.js";

const fixture = JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures/trace_mul_sum_backward.json"), "utf8")) as { events: TraceEvent[] };
const tree = buildRunTree({ key: "r1", title: "Cell 1", cellUri: "vscode-notebook-cell:/w/s.nb.ts#W0" }, fixture.events);
const rows = flattenSteps([tree]);
const base = "https://github.com/pytorch/pytorch/blob/v1.13.1/";

describe("PyTorch source links", () => {
  it("links a source file to itself and a generated file to its template", () => {
    expect(pytorchLink("aten/src/ATen/native/BinaryOps.cpp")).toEqual({ file: "aten/src/ATen/native/BinaryOps.cpp", url: `${base}aten/src/ATen/native/BinaryOps.cpp` });
    expect(pytorchLink("torch/csrc/autograd/generated/VariableType_*.cpp")).toMatchObject({ url: `${base}tools/autograd/templates/VariableType.cpp`, template: "tools/autograd/templates/VariableType.cpp" });
    expect(pytorchLink("torch/csrc/autograd/generated/ADInplaceOrViewType_*.cpp").url).toBe(`${base}tools/autograd/templates/ADInplaceOrViewType.cpp`);
    expect(pytorchLink("torch/csrc/autograd/generated/Functions.h").url).toBe(`${base}tools/autograd/templates/Functions.h`);
    expect(pytorchLink("torch/csrc/autograd/generated/python_torch_functions_*.cpp").url).toBe(`${base}tools/autograd/templates/python_torch_functions.cpp`);
    expect(pytorchLink("build/aten/src/ATen/RegisterCPU.cpp").url).toBe(`${base}aten/src/ATen/templates/RegisterDispatchKey.cpp`);
    expect(pytorchLink("build/aten/src/ATen/RegisterCompositeImplicitAutograd.cpp").url).toBe(`${base}aten/src/ATen/templates/RegisterDispatchKey.cpp`);
    expect(pytorchLink("build/aten/src/ATen/RegisterBackendSelect.cpp").url).toBe(`${base}aten/src/ATen/templates/RegisterBackendSelect.cpp`);
  });

  it("names the binding's generated file by the API the user called", () => {
    expect(bindingFile("Tensor.mul")).toBe("torch/csrc/autograd/generated/python_variable_methods.cpp");
    expect(bindingFile("torch.mul")).toBe("torch/csrc/autograd/generated/python_torch_functions_*.cpp");
    expect(bindingFile("torch._C._nn.linear")).toBe("torch/csrc/autograd/generated/python_nn_functions.cpp");
    expect(bindingFile("torch.linalg.inv")).toBe("torch/csrc/autograd/generated/python_linalg_functions.cpp");
  });

  it("accepts only pytorch/pytorch paths from a link", () => {
    expect(isPyTorchPath("aten/src/ATen/native/cpu/BinaryOpsKernel.cpp")).toBe(true);
    expect(isPyTorchPath("torch/csrc/autograd/generated/VariableType_*.cpp")).toBe(true);
    for (const bad of ["../etc/passwd.h", "https://evil.example/x.cpp", "/abs/aten/x.cpp", "aten/x.sh", 42, undefined, "aten/../../x.cpp"]) {
      expect(isPyTorchPath(bad), String(bad)).toBe(false);
    }
  });

  it("gives every step of (a*b).sum().backward() its PyTorch file, except the user's own line", () => {
    const without = rows.filter((r) => !r.pytorchRef).map((r) => r.kind);
    expect([...new Set(without)].sort()).toEqual(["line", "run"]);
    for (const r of rows) if (r.pytorchRef) expect(isPyTorchPath(r.pytorchRef), `${r.label}: ${r.pytorchRef}`).toBe(true);
  });

  it("names the files of mul's steps: binding, Dispatcher, key set, VariableType, BinaryOps, the stub and its kernel", () => {
    const mul = tree.children[0];
    const ref = (label: string) => flattenSteps([mul]).find((r) => r.label.startsWith(label))!;
    expect(mul.pytorchRef).toBe("aten/src/ATen/core/dispatch/Dispatcher.h");
    expect(ref("binding Tensor.mul").pytorchRef).toBe("torch/csrc/autograd/generated/python_variable_methods.cpp");
    expect(ref("key set ->").pytorchRef).toBe("aten/src/ATen/core/dispatch/DispatchKeyExtractor.h");
    expect(ref("self:").pytorchRef).toBe("c10/core/TensorImpl.h");
    expect(ref("TLS include").pytorchRef).toBe("c10/core/impl/LocalDispatchKeySet.h");
    expect(ref("key set: CPU, AutogradCPU").pytorchRef).toBe("c10/core/DispatchKeySet.h");
    expect(ref("AutogradCPU ->").pytorchRef).toBe("torch/csrc/autograd/generated/VariableType_*.cpp");
    expect(ref("CPU -> native.mul_out").pytorchRef).toBe("aten/src/ATen/native/BinaryOps.cpp");
    const stub = ref("mul_stub");
    expect([stub.pytorchRef, ...(stub.morePytorchRefs ?? [])]).toEqual(["aten/src/ATen/native/cpu/BinaryOpsKernel.cpp", "aten/src/ATen/native/DispatchStub.h"]);
    expect(ref("created MulBackward0").pytorchRef).toBe("torch/csrc/autograd/generated/Functions.h");
  });
});
