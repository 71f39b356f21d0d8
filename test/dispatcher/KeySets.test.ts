// The key-set pieces the dispatcher builds on (c10/core/DispatchKeySet.h): FULL_AFTER masks, alias
// expansion, the runtime table layout. Compared with PyTorch 1.13 where it prints them.
import { describe, it, expect } from "vitest";
import { BackendComponent, DispatchKey, parseDispatchKey } from "../../engine/c10/DispatchKey.js";
import {
  DispatchKeySet,
  after_ADInplaceOrView_keyset,
  after_autograd_keyset,
  getBackendKeySetFromAutograd,
  getDispatchTableIndexForDispatchKey,
  getRuntimeDispatchKeySet,
  isBackendDispatchKey,
  isIncludedInAlias,
  numRuntimeEntries,
  tensorKeySetFor,
} from "../../engine/c10/DispatchKeySet.js";
import { loadFixture } from "../support/fixtures.js";
import { normalizeDump } from "./helpers.js";

const K = DispatchKey;
const fx = loadFixture<{
  full_after: Record<string, string>;
  alias_members: Record<string, string[]>;
  cpu_tensor_keys: string;
}>("dispatch.json");

describe("FULL_AFTER", () => {
  for (const key of Object.keys(fx.full_after)) {
    it(`FULL_AFTER(${key}) matches PyTorch 1.13 (our keys only)`, () => {
      expect(String(DispatchKeySet.fullAfter(parseDispatchKey(key)))).toBe(normalizeDump(fx.full_after[key]));
    });
  }
  it("after_autograd_keyset drops every autograd key and everything above, but keeps the backend bits", () => {
    expect(String(after_autograd_keyset)).toBe("DispatchKeySet(CPU, CUDA, Meta, FPGA, BackendSelect, Python, ADInplaceOrView, PythonDispatcher)");
    expect(String(after_ADInplaceOrView_keyset)).toBe("DispatchKeySet(CPU, CUDA, Meta, FPGA, BackendSelect, Python, PythonDispatcher)");
    const ks = tensorKeySetFor(BackendComponent.CUDABit).and(after_autograd_keyset);
    expect(K[ks.highestPriorityTypeId()]).toBe("ADInplaceOrView");
    expect(ks.hasBackend(BackendComponent.CUDABit)).toBe(true);
  });
});

describe("alias keys", () => {
  const ours = [K.Undefined, ...DispatchKeySet.full()].map((k) => K[k]);
  for (const alias of Object.keys(fx.alias_members)) {
    it(`${alias} covers the same runtime keys as in PyTorch 1.13`, () => {
      const members = ours.filter((name) => isIncludedInAlias(parseDispatchKey(name), parseDispatchKey(alias)));
      expect(members).toEqual(fx.alias_members[alias]);
    });
  }
  it("getRuntimeDispatchKeySet expands an alias; a runtime key stands for itself", () => {
    expect(String(getRuntimeDispatchKeySet(K.Autograd))).toBe("DispatchKeySet(AutogradOther, AutogradCPU, AutogradCUDA, AutogradMeta)");
    expect(String(getRuntimeDispatchKeySet(K.CompositeExplicitAutograd))).toBe("DispatchKeySet(CPU, CUDA, Meta, FPGA)");
    expect(String(getRuntimeDispatchKeySet(K.AutogradCUDA))).toBe("DispatchKeySet(AutogradCUDA)");
  });
  it("autograd keys know their backends", () => {
    expect(String(getBackendKeySetFromAutograd(K.AutogradCPU))).toBe("DispatchKeySet(CPU)");
    expect(getBackendKeySetFromAutograd(K.AutogradOther).has(K.FPGA)).toBe(true);
    expect(getBackendKeySetFromAutograd(K.CPU).isEmpty()).toBe(true);
    expect([K.CPU, K.Meta, K.FPGA].every(isBackendDispatchKey)).toBe(true);
    expect([K.AutogradCPU, K.Python, K.CompositeExplicitAutograd, K.Undefined].some(isBackendDispatchKey)).toBe(false);
  });
});

describe("runtime table layout", () => {
  it("every runtime key has its own slot; Undefined is slot 0; per-backend blocks are contiguous", () => {
    const keys = [K.Undefined, ...DispatchKeySet.full()];
    const slots = keys.map(getDispatchTableIndexForDispatchKey);
    expect(new Set(slots).size).toBe(keys.length);
    expect(keys.length).toBe(numRuntimeEntries);
    expect(slots[0]).toBe(0);
    const [cpu, cuda, meta] = [K.CPU, K.CUDA, K.Meta].map(getDispatchTableIndexForDispatchKey);
    expect([cuda - cpu, meta - cpu]).toEqual([1, 2]);
  });
  it("a set's slot is its highest key's slot", () => {
    const ks = tensorKeySetFor(BackendComponent.MetaBit);
    expect(ks.getDispatchTableIndexForDispatchKeySet()).toBe(getDispatchTableIndexForDispatchKey(K.AutogradMeta));
    expect(new DispatchKeySet().getDispatchTableIndexForDispatchKeySet()).toBe(0);
  });
  it("a CPU tensor's keys print as in PyTorch 1.13", () => {
    expect(String(tensorKeySetFor(BackendComponent.CPUBit))).toBe(normalizeDump(fx.cpu_tensor_keys));
  });
});
