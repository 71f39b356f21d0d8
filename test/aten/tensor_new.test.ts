import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture, outcome } from "../support/fixtures.js";

const core = loadFixture("core.json");

describe("torch.tensor infers dtype and shape like PyTorch", () => {
  for (const c of core.factories.tensor) {
    it(JSON.stringify(c.data), () => {
      const t = torch.tensor(c.data);
      expect(t.dtype.name).toBe(c.dtype);
      expect([...t.shape]).toEqual(c.shape);
      expect(t.tolist()).toEqual(c.values);
    });
  }
  it("typed arrays bring their own dtype, like NumPy arrays", () => {
    expect(torch.tensor(new Float64Array([1, 2])).dtype).toBe(torch.float64);
    expect(torch.tensor(new Int32Array([1, 2])).dtype).toBe(torch.int32);
  });
  it("casts to a requested dtype with C++ conversion rules", () => {
    expect(torch.tensor([1.7, -1.7], { dtype: torch.int32 }).tolist()).toEqual([1, -1]);
    expect(torch.tensor([-1], { dtype: torch.uint8 }).tolist()).toEqual([255]);
    expect(torch.tensor([0.1], { dtype: torch.float16 }).tolist()).toEqual([0.0999755859375]);
    expect(torch.tensor([1e40], { dtype: torch.float16 }).tolist()).toEqual([Infinity]);
  });
});

describe("torch.tensor rejects bad data with PyTorch's errors", () => {
  const cases: Record<string, () => unknown> = {
    tensor_ragged: () => torch.tensor([[1, 2], [3]]),
    tensor_not_sequence: () => torch.tensor([[1, 2], 3] as any),
    tensor_str: () => torch.tensor([1, "a"] as any),
    tensor_none: () => torch.tensor([1, null] as any),
    tensor_uint8_overflow: () => torch.tensor(300, { dtype: torch.uint8 }),
  };
  for (const [name, fn] of Object.entries(cases)) {
    it(name, () => expect(outcome(fn)).toEqual(core.errors[name]));
  }
  it("errors are typed", () => {
    expect(() => torch.tensor([[1, 2], [3]])).toThrow(torch.ValueError);
    expect(() => torch.tensor([1, "a"] as any)).toThrow(torch.TypeError);
  });
});

describe("nested number arrays (the one-pass path) give what the general path gives", () => {
  it("int64 values, negative and past 2^32, exactly", () => {
    const t = torch.tensor([[-3, 2 ** 40 + 5], [-(2 ** 52), 7]]);
    expect(t.dtype).toBe(torch.int64);
    expect(t.tolist()).toEqual([[-3, 2 ** 40 + 5], [-(2 ** 52), 7]]);
    expect(torch.tensor([[2 ** 60]]).tolist()).toEqual([[2 ** 60]]); // beyond 2^53: the BigInt conversion
  });
  it("fractions into an explicit int64 truncate toward zero; floats infer the default dtype", () => {
    expect(torch.tensor([[1.5, -1.5], [-2.7, 0]], { dtype: torch.int64 }).tolist()).toEqual([[1, -1], [-2, 0]]);
    const f = torch.tensor([[1, 0.5], [2, 3]]);
    expect(f.dtype).toBe(torch.float32);
    expect(f.tolist()).toEqual([[1, 0.5], [2, 3]]);
    expect(torch.tensor([[0.1, NaN]], { dtype: torch.float64 }).tolist()).toEqual([[0.1, NaN]]);
  });
  it("mixed booleans, ragged rows and overflow keep the general path's answers", () => {
    expect(torch.tensor([[true, 1]]).dtype).toBe(torch.int64);
    expect(torch.tensor([[true, false]]).dtype).toBe(torch.bool);
    expect(() => torch.tensor([[1, 2], [3, 4, 5]])).toThrow(torch.ValueError);
    expect(() => torch.tensor([[300]], { dtype: torch.int8 })).toThrow("value cannot be converted to type int8 without overflow");
    expect(torch.tensor([[-1]], { dtype: torch.uint8 }).tolist()).toEqual([[255]]);
  });
});
