import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture, outcome } from "../support/fixtures.js";

const F = loadFixture("core.json").factories;
const errors = loadFixture("core.json").errors;
const dt = (name: string | null) => (name ? { dtype: (torch as any)[name] as torch.dtype } : undefined);

describe("arange matches PyTorch element for element", () => {
  for (const c of F.arange) {
    it(`arange(${c.args.join(", ")}${c.dtype ? ", " + c.dtype : ""})`, () => {
      const t = torch.arange(...c.args, dt(c.dtype));
      expect(t.dtype.name).toBe(c.result_dtype);
      expect(t.tolist()).toEqual(c.values);
    });
  }
});

describe("linspace matches PyTorch element for element", () => {
  for (const c of F.linspace) {
    it(`linspace(${c.args.join(", ")}${c.dtype ? ", " + c.dtype : ""})`, () => {
      expect(torch.linspace(c.args[0], c.args[1], c.args[2], dt(c.dtype)).tolist()).toEqual(c.values);
    });
  }
});

describe("logspace matches PyTorch element for element", () => {
  for (const c of F.logspace) {
    it(`logspace(${c.args.join(", ")}, base=${c.base ?? 10}${c.dtype ? ", " + c.dtype : ""})`, () => {
      const t = torch.logspace(c.args[0], c.args[1], c.args[2], c.base ?? 10, dt(c.dtype));
      if (c.dtype !== "float64") return expect(t.tolist()).toEqual(c.values);
      // float64: glibc's pow is correctly rounded, V8's Math.pow is within 1 ulp of it
      const got = t.tolist() as number[];
      got.forEach((v, i) => expect(Math.abs(v - c.values[i])).toBeLessThanOrEqual(Math.abs(c.values[i]) * 2 ** -52));
    });
  }
});

describe("range factories reject bad input with PyTorch's errors", () => {
  it("zero step", () => expect(outcome(() => torch.arange(0, 10, 0))).toEqual(errors.arange_zero_step));
  it("inconsistent sign", () => expect(outcome(() => torch.arange(10, 0))).toEqual(errors.arange_bad_sign));
  it("infinite bound", () => expect(outcome(() => torch.arange(0, Infinity))).toEqual(errors.arange_inf));
  it("negative steps", () => expect(outcome(() => torch.linspace(0, 1, -1))).toEqual(errors.linspace_negative));
  it("non-integer steps is a TypeError", () => expect(() => torch.linspace(0, 1, 2.5)).toThrow(torch.TypeError));
});
