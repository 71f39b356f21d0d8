import { describe, it, expect } from "vitest";
import { device } from "../../engine/c10/Device.js";
import { loadFixture, outcome } from "../support/fixtures.js";

const core = loadFixture("core.json");

describe("torch.device", () => {
  for (const p of core.devices.parse) {
    it(`parses '${p.spec}' as PyTorch does`, () => {
      const d = new device(p.spec);
      expect(String(d)).toBe(p.str);
      expect(d.repr()).toBe(p.repr);
      expect(d.type).toBe(p.type);
      expect(d.index).toBe(p.index);
    });
  }
  for (const [a, b, eq] of core.devices.equal) {
    it(`${a} == ${b} is ${eq}`, () => expect(new device(a).equals(b)).toBe(eq));
  }
  it("takes an explicit index", () => expect(new device("cuda", 1).repr()).toBe("device(type='cuda', index=1)"));

  const errorCases: Record<string, () => unknown> = {
    device_unknown: () => new device("foo"),
    device_bad_index: () => new device("cuda:a"),
    device_negative_index: () => new device("cuda:-1"),
    device_empty: () => new device(""),
    device_explicit_twice: () => new device("cuda:1", 2),
    device_negative_arg: () => new device("cpu", -1),
  };
  for (const [name, fn] of Object.entries(errorCases)) {
    it(`rejects bad input with PyTorch's error (${name})`, () => expect(outcome(fn)).toEqual(core.errors[name]));
  }
});
