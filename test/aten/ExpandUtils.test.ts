import { describe, it, expect } from "vitest";
import { infer_size, broadcast_shapes } from "../../engine/aten/ExpandUtils.js";
import { loadFixture, outcome } from "../support/fixtures.js";

const core = loadFixture("core.json");

describe("broadcasting", () => {
  it("aligns from the right and stretches size-1 dims", () => {
    expect(infer_size([5, 1, 3], [4, 1])).toEqual([5, 4, 3]);
    expect(infer_size([], [2, 3])).toEqual([2, 3]);
    expect(infer_size([0], [1])).toEqual([0]);
    expect(broadcast_shapes([2, 1], [1, 3], 3)).toEqual([2, 3]);
  });
  it("infer_size reports the dimension of the result, as PyTorch does", () => {
    expect(outcome(() => infer_size([2, 3], [4, 3]))).toEqual(core.errors.infer_size_dim0);
    expect(outcome(() => infer_size([5, 1, 3], [2, 4]))).toEqual(core.errors.infer_size_dim2);
  });
  it("broadcast_shapes uses torch.functional's message", () => {
    expect(outcome(() => broadcast_shapes([2, 3], [4, 3]))).toEqual(core.errors.broadcast);
    expect(outcome(() => broadcast_shapes([5, 1, 3], [2, 4]))).toEqual(core.errors.broadcast_inner);
  });
});
