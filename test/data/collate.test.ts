// default_collate against PyTorch 1.13 (test/fixtures/data.json): dtypes, shapes and values of collated
// numbers, tensors and nested lists/dicts, and the error texts.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";

const F = loadFixture("data.json");
const D = torch.utils.data;

function describeValue(x: unknown): unknown {
  if (x instanceof torch.Tensor) return { tensor: true, dtype: x.dtype.name, shape: [...x.shape], values: x.tolist() };
  if (Array.isArray(x)) return { list: x.map(describeValue) };
  if (x !== null && typeof x === "object") return { dict: Object.fromEntries(Object.entries(x).map(([k, v]) => [k, describeValue(v)])) };
  return { value: x };
}

const cases: Record<string, () => unknown[]> = {
  ints: () => [1, 2, 3],
  floats: () => [1.5, 2.5, -0.25],
  bools: () => [true, false, true],
  strings: () => ["a", "bb", "c"],
  tensors_f32: () => [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.5])],
  tensors_i32: () => [torch.tensor([[1, 2]], { dtype: torch.int32 }), torch.tensor([[3, 4]], { dtype: torch.int32 })],
  tensors_0d: () => [torch.tensor(1.5, { dtype: torch.float64 }), torch.tensor(2.0, { dtype: torch.float64 })],
  tuples: () => [[torch.tensor([1, 2]), 0], [torch.tensor([3, 4]), 1]],
  lists: () => [[1, 2.5, "x"], [3, 4.5, "y"]],
  dicts: () => [{ a: 1, b: torch.tensor([1.0], { dtype: torch.float32 }), c: "s" }, { a: 2, b: torch.tensor([2.0], { dtype: torch.float32 }), c: "t" }],
  nested: () => [{ x: [1, { y: 2.5 }], z: [true, "q"] }, { x: [3, { y: 4.5 }], z: [false, "r"] }],
};

describe("default_collate", () => {
  for (const [name, make] of Object.entries(cases)) {
    it(name, () => {
      expect(describeValue(D.default_collate(make()))).toEqual(F.collate[name]);
    });
  }
  it("errors", () => {
    const e = F.collate_errors;
    expect(() => D.default_collate([[1, 2], [3]])).toThrow(e.uneven_lists.msg);
    expect(() => D.default_collate([torch.zeros(3), torch.zeros(2)])).toThrow(e.tensor_sizes.msg);
    let msg = "";
    try {
      D.default_collate([null, null]);
    } catch (err) {
      msg = (err as Error).message;
      expect(err).toBeInstanceOf(TypeError);
    }
    expect(msg).toBe(e.none.msg);
  });
  it("JS numbers: all-integer batches are Python ints (int64), any fraction makes float64", () => {
    expect(D.default_collate([2, 1.5]) as torch.Tensor).toMatchObject({ dtype: torch.float64 });
    expect((D.default_collate([2, 3]) as torch.Tensor).dtype).toBe(torch.int64);
  });
});
