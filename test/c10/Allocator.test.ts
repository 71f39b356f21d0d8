// colour_away_from (engine/c10/Allocator.ts): the colour a TensorIterator asks for its fresh output,
// midway along the widest gap between its inputs' colours on the 4 KiB circle.
import { describe, it, expect } from "vitest";
import { colour_away_from } from "../../engine/c10/Allocator.js";

describe("colour_away_from", () => {
  it("with nothing to avoid leaves the choice to the allocator", () => {
    expect(colour_away_from([])).toBe(-1);
  });
  it("takes the middle of the widest gap, on a cache-line boundary, across the page's end too", () => {
    expect(colour_away_from([0])).toBe(2048);
    expect(colour_away_from([1472, 0])).toBe(2752); // gaps 1472 and 2624: 1472 + 1280
    expect(colour_away_from([64, 4032])).toBe(2048); // the gap 64 -> 4032, not the 128 bytes across 0
    expect(colour_away_from([3072, 2048])).toBe(512); // the gap 3072 -> 2048 + 4096 is the widest: (3072 + 1536) % 4096
    expect(colour_away_from([96, 1000])).toBe(2560); // inputs off the line boundary (windows): 1000 + 1596, down to a line
    expect(colour_away_from([0, 2048])).toBe(1024); // equal gaps: the first
    expect(colour_away_from([512, 512, 512])).toBe(2560);
  });
  it("always answers a multiple of 64 below 4096", () => {
    for (let k = 0; k < 200; k++) {
      const taken = Array.from({ length: 1 + (k % 4) }, (_, i) => ((k * 977 + i * 1601) % 64) * 64);
      const c = colour_away_from(taken);
      expect(c % 64).toBe(0);
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThan(4096);
      const gap = (x: number) => Math.min(...taken.map((t) => Math.min((x - t + 4096) % 4096, (t - x + 4096) % 4096)));
      // no colour is more than a cache line further from the nearest taken one
      for (let x = 0; x < 4096; x += 64) expect(gap(c)).toBeGreaterThanOrEqual(gap(x) - 64);
    }
  });
});
