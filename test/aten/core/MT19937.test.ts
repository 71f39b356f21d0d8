import { describe, it, expect } from "vitest";
import { createHash } from "node:crypto";
import { mt19937, MERSENNE_STATE_N } from "../../../engine/aten/core/MT19937.js";
import { loadFixture } from "../../support/fixtures.js";

const fx = loadFixture("random.json");

function words(e: mt19937, n: number): number[] {
  return Array.from({ length: n }, () => e.random());
}

describe("mt19937", () => {
  it("is the standard Mersenne Twister (C++ std::mt19937 reference values)", () => {
    // Default seed 5489: the first output, and the 10000th (required by the C++ standard).
    const e = new mt19937();
    const w = words(e, 10000);
    expect(w[0]).toBe(3499211612);
    expect(w[9999]).toBe(4123659995);
  });

  it("produces PyTorch's raw 32-bit words after torch.manual_seed", () => {
    for (const rec of fx.mt19937) {
      const e = new mt19937(BigInt(rec.seed));
      const w = words(e, 5000);
      expect(w.slice(0, 20)).toEqual(rec.first);
      expect(w.slice(620, 630)).toEqual(rec.around_624); // crosses the first regeneration of the state
      expect(w.slice(-5)).toEqual(rec.last);
      const bytes = new Uint8Array(Uint32Array.from(w).buffer);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(rec.sha256_5000);
    }
  });

  it("seeds from the low 32 bits of a 64-bit seed but remembers all of it", () => {
    const big = (1n << 40n) + 7n;
    const a = new mt19937(big);
    const b = new mt19937(7n);
    expect(words(a, 700)).toEqual(words(b, 700));
    expect(a.seed()).toBe(big);
  });

  it("round-trips its data (the basis of get_state / set_state)", () => {
    const a = new mt19937(42n);
    words(a, 1000);
    const d = a.data();
    expect(d.state_.length).toBe(MERSENNE_STATE_N);
    // Draw 625 regenerated the block (left_ = 624); 375 more draws leave 249.
    expect(d.left_).toBe(249);
    expect(d.next_).toBe(1000 - MERSENNE_STATE_N);
    const b = new mt19937();
    b.set_data(d);
    expect(words(b, 2000)).toEqual(words(a, 2000));
  });

  it("checks its state like PyTorch's is_valid", () => {
    const e = new mt19937(1n);
    expect(e.is_valid()).toBe(true);
    const d = e.data();
    e.set_data({ ...d, left_: 0 });
    expect(e.is_valid()).toBe(false);
    e.set_data({ ...d, next_: MERSENNE_STATE_N + 1 });
    expect(e.is_valid()).toBe(false);
    e.set_data({ ...d, seeded_: false });
    expect(e.is_valid()).toBe(false);
  });
});
