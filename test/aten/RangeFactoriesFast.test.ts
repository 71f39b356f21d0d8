// arange / linspace on float32 and float64 take loops that write the tensor's array directly
// (RangeFactoriesKernel.ts arange_float_into / linspace_float_into); these cases pin them to PyTorch
// 1.13 bit for bit (test/fixtures/gen_range_fast.py): integral bounds past 2^24, where float32 rounds
// the vector base, the exact-integer shortcut's edges, fractional steps, chunk-edge sizes.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";

const F = loadFixture("range_fast.json");

function bits(t: torch.Tensor): string[] {
  const impl = t._impl;
  const buf = impl.storage.buffer();
  if (t.dtype === torch.float32) return Array.from(new Uint32Array(buf, impl.storage_offset() * 4, t.numel()), String);
  return Array.from(new BigUint64Array(buf, impl.storage_offset() * 8, t.numel()), String);
}

describe("float arange / linspace match PyTorch bit for bit", () => {
  for (const c of F.cases) {
    it(`${c.op}(${c.args.join(", ")}, ${c.dtype})`, () => {
      const dtype = (torch as any)[c.dtype];
      const t = c.op === "arange" ? torch.arange(...(c.args as [number, number, number]), { dtype }) : torch.linspace(c.args[0], c.args[1], c.args[2], { dtype });
      expect(t.numel()).toBe(c.n);
      expect(bits(t)).toEqual(c.bits);
    });
  }
});
