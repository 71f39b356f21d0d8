import { describe, it, expect } from "vitest";
import { computeContiguous, contiguousStrides } from "../../engine/c10/Contiguity.js";
import { loadFixture } from "../support/fixtures.js";

const core = loadFixture("core.json");

describe("contiguity follows PyTorch's rules", () => {
  for (const c of core.metadata.strides) {
    it(`${c.name}: sizes ${JSON.stringify(c.sizes)} strides ${JSON.stringify(c.strides)} -> ${c.contiguous}`, () => {
      expect(computeContiguous(c.sizes, c.strides)).toBe(c.contiguous);
    });
  }
  it("default strides skip zero sizes with max(size, 1)", () => {
    expect(contiguousStrides([2, 0, 3])).toEqual([3, 3, 1]);
    expect(contiguousStrides([])).toEqual([]);
    expect(contiguousStrides([2, 3, 4])).toEqual([12, 4, 1]);
  });
});
