import { describe, it, expect } from "vitest";
import {
  CPUGeneratorImpl,
  default_rng_seed_val,
  getDefaultCPUGenerator,
  CPU_GENERATOR_STATE_SIZE,
} from "../../../engine/aten/core/CPUGeneratorImpl.js";
import { uniform_, normal_ } from "../../../engine/aten/cpu/DistributionKernels.js";
import { loadFixture, outcome } from "../../support/fixtures.js";

const fx = loadFixture("random.json");

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

function fromHex(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, "hex"));
}

describe("CPUGeneratorImpl seeds", () => {
  it("a new generator starts at PyTorch's default seed, with PyTorch's first draws", () => {
    const f = fx.fresh_generator;
    const g = new CPUGeneratorImpl();
    expect(g.initial_seed()).toBe(default_rng_seed_val);
    expect(String(g.initial_seed())).toBe(f.initial_seed);
    expect(hex(g.get_state())).toBe(f.state);
    expect(Array.from(uniform_(g, 5, "float32"))).toEqual(f.rand5);
    expect(Array.from(normal_(g, 5, "float32"))).toEqual(f.randn5);
  });

  it("the default generator is seeded from the OS, like PyTorch's in every process", () => {
    expect(fx.fresh_generator.default_generator_seeds_differ_between_processes).toBe(true);
    const g = getDefaultCPUGenerator();
    expect(getDefaultCPUGenerator()).toBe(g);
    expect(g.initial_seed()).not.toBe(default_rng_seed_val); // 1 chance in 2^64 of a false failure
  });

  it("seed() reseeds non-deterministically and returns the new 64-bit seed", () => {
    const g = new CPUGeneratorImpl(1n);
    const s1 = g.seed();
    expect(g.initial_seed()).toBe(s1);
    const s2 = g.seed();
    expect(s2).not.toBe(s1);
    expect(s1 >= 0n && s1 < 1n << 64n).toBe(true);
  });

  it("manual_seed takes Python ints: negatives wrap to uint64, out-of-range ones overflow", () => {
    const e = fx.errors;
    const g = new CPUGeneratorImpl();
    g.manual_seed(-1);
    expect(String(g.initial_seed())).toBe(e.manual_seed_minus_one_initial_seed);
    expect(outcome(() => g.manual_seed(2n ** 64n))).toEqual(e.manual_seed_overflow);
    expect(outcome(() => g.manual_seed(-(2n ** 63n) - 1n))).toEqual(e.manual_seed_underflow);
    g.manual_seed(2 ** 40 + 7);
    expect(g.initial_seed()).toBe(2n ** 40n + 7n);
  });

  it("manual_seed drops the cached normal sample", () => {
    const g = new CPUGeneratorImpl(0n);
    normal_(g, 1, "float64");
    expect(g.next_double_normal_sample()).not.toBeUndefined();
    g.manual_seed(0);
    expect(g.next_double_normal_sample()).toBeUndefined();
    const h = new CPUGeneratorImpl(0n);
    expect(Array.from(normal_(g, 3, "float64"))).toEqual(Array.from(normal_(h, 3, "float64")));
  });

  it("random64 is the first word in the high half and the second in the low half", () => {
    const a = new CPUGeneratorImpl(9n);
    const b = new CPUGeneratorImpl(9n);
    const hi = BigInt(b.random());
    const lo = BigInt(b.random());
    expect(a.random64()).toBe((hi << 32n) | lo);
  });

  it("clone() copies the engine and the cache", () => {
    const a = new CPUGeneratorImpl(5n);
    normal_(a, 1, "float64");
    const b = a.clone();
    expect(Array.from(normal_(b, 4, "float64"))).toEqual(Array.from(normal_(a, 4, "float64")));
  });
});

describe("get_state / set_state use torch.get_rng_state()'s bytes", () => {
  it(`get_state is ${CPU_GENERATOR_STATE_SIZE} bytes equal to PyTorch's after a seed, after draws, with a cached normal`, () => {
    for (const s of fx.states) {
      const g = new CPUGeneratorImpl(BigInt(s.seed));
      expect(hex(g.get_state())).toBe(s.after_seed);
      uniform_(g, 700, "float32");
      expect(hex(g.get_state())).toBe(s.after_rand700);
      normal_(g, 3, "float64"); // n < 16: per-element Box-Muller, leaves one normal cached
      expect(hex(g.get_state())).toBe(s.after_randn3_float64);
    }
  });

  it("a state saved by PyTorch restores here, cached normal included", () => {
    for (const s of fx.states) {
      const g = new CPUGeneratorImpl();
      g.set_state(fromHex(s.after_randn3_float64));
      const got = Array.from(normal_(g, 4, "float64"));
      // float64 normals go through glibc log/sin/cos: see DistributionKernels.test.ts for the bound.
      got.forEach((v, i) => expect(Math.abs(v - s.then_randn4_float64[i])).toBeLessThanOrEqual(4 * 2 ** -52 * Math.abs(v)));
      // The first value is the cached sample itself: bit-exact.
      expect(got[0]).toBe(s.then_randn4_float64[0]);
    }
  });

  it("a legacy 5048-byte state rebuilds its cached normal from normal_x and normal_rho", () => {
    const g = new CPUGeneratorImpl();
    g.set_state(fromHex(fx.legacy_state.bytes));
    const got = normal_(g, 3, "float64");
    const want = fx.legacy_state.then_randn3_float64;
    got.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(4 * 2 ** -52 * Math.abs(want[i])));
  });

  it("rejects states of the wrong size or with an invalid engine, with PyTorch's messages", () => {
    const g = new CPUGeneratorImpl();
    expect(outcome(() => g.set_state(new Uint8Array(10)))).toEqual({ ...fx.errors.set_state_size });
    expect(outcome(() => g.set_state(new Uint8Array(CPU_GENERATOR_STATE_SIZE)))).toEqual(fx.errors.set_state_invalid);
  });

  it("set_state(get_state()) continues the same stream", () => {
    const a = new CPUGeneratorImpl(123n);
    uniform_(a, 1000, "float32");
    normal_(a, 1, "float64");
    const b = new CPUGeneratorImpl();
    b.set_state(a.get_state());
    expect(Array.from(uniform_(b, 50, "float64"))).toEqual(Array.from(uniform_(a, 50, "float64")));
    expect(b.initial_seed()).toBe(123n);
  });
});
