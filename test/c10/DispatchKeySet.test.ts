import { describe, it, expect } from "vitest";
import { BackendComponent, DispatchKey } from "../../engine/c10/DispatchKey.js";
import { DispatchKeySet, tensorKeySetFor } from "../../engine/c10/DispatchKeySet.js";
import { loadFixture } from "../support/fixtures.js";

const core = loadFixture("core.json");

describe("DispatchKeySet", () => {
  it("a CPU tensor carries CPU, ADInplaceOrView, AutogradCPU, AutocastCPU (as PyTorch prints it)", () => {
    expect(String(tensorKeySetFor(BackendComponent.CPUBit))).toBe(core.metadata.cpu_keys);
  });
  it("a meta tensor has no autocast key", () => {
    expect(String(tensorKeySetFor(BackendComponent.MetaBit))).toBe(core.metadata.meta_keys);
  });
  it("inference tensors carry no autograd keys", () => {
    expect(String(tensorKeySetFor(BackendComponent.CPUBit, true))).toBe("DispatchKeySet(CPU, AutocastCPU)");
  });
  it("runtime keys are functionality bit + backend bit, so {CPU, AutogradCUDA} == {CUDA, AutogradCPU}", () => {
    const a = DispatchKeySet.of(DispatchKey.CPU, DispatchKey.AutogradCUDA);
    const b = DispatchKeySet.of(DispatchKey.CUDA, DispatchKey.AutogradCPU);
    expect(a.equals(b)).toBe(true);
    expect(a.has(DispatchKey.AutogradCPU)).toBe(true);
  });
  it("the highest key combines the top functionality with the top backend", () => {
    const ks = DispatchKeySet.of(DispatchKey.CPU, DispatchKey.AutogradCPU, DispatchKey.CUDA);
    expect(DispatchKey[ks.highestPriorityTypeId()]).toBe("AutogradCUDA");
    expect(DispatchKey[ks.remove(DispatchKey.AutogradFunctionality).highestPriorityTypeId()]).toBe("CUDA");
  });
  it("remove keeps backend bits; minus keeps the left side's backend bits", () => {
    const ks = tensorKeySetFor(BackendComponent.CPUBit);
    const noAutograd = ks.remove(DispatchKey.AutogradCPU);
    expect(String(noAutograd)).toBe("DispatchKeySet(CPU, ADInplaceOrView, AutocastCPU)");
    expect(noAutograd.hasBackend(BackendComponent.CPUBit)).toBe(true);
    const diff = ks.minus(DispatchKeySet.of(DispatchKey.AutogradCPU));
    expect(String(diff)).toBe("DispatchKeySet(CPU, ADInplaceOrView, AutocastCPU)");
  });
  it("the empty set's highest key is Undefined", () => {
    expect(new DispatchKeySet().highestPriorityTypeId()).toBe(DispatchKey.Undefined);
  });
});
