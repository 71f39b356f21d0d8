import { describe, it, expect } from "vitest";
import { bfloat16BitsFromNumber, bfloat16BitsToNumber, halfBitsFromNumber, halfBitsToNumber } from "../../../engine/c10/util/Half.js";
import { loadFixture, dec } from "../../support/fixtures.js";

const core = loadFixture("core.json");

describe("float16 / bfloat16 conversions match PyTorch bit for bit", () => {
  for (const c of core.conversions) {
    const v = dec(c.value);
    it(`${c.value}`, () => {
      expect(halfBitsFromNumber(v)).toBe(c.half_bits);
      expect(bfloat16BitsFromNumber(v)).toBe(c.bf16_bits);
      expect(Object.is(halfBitsToNumber(c.half_bits), dec(c.half)) || (Number.isNaN(dec(c.half)) && Number.isNaN(halfBitsToNumber(c.half_bits)))).toBe(true);
      expect(Object.is(bfloat16BitsToNumber(c.bf16_bits), dec(c.bf16)) || (Number.isNaN(dec(c.bf16)) && Number.isNaN(bfloat16BitsToNumber(c.bf16_bits)))).toBe(true);
    });
  }

  it("round-trips every finite half bit pattern", () => {
    for (let h = 0; h < 0x10000; h++) {
      const v = halfBitsToNumber(h);
      if (Number.isNaN(v)) continue;
      expect(halfBitsFromNumber(v)).toBe(h);
    }
  });
});
