// Python's '{:.Nf}' / '{:.Ne}' formatting, against a table printed by Python itself
// (test/fixtures/pyformat.json, made by test/fixtures/gen_repr.py).

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatExponent, formatFixed } from "../../../engine/aten/core/pyformat.js";
import { floatFromHex } from "./fixture_values.js";

interface PyFormatRow {
  x: string;
  digits: number;
  f: string;
  e: string;
}

const rows = (JSON.parse(readFileSync(new URL("../../fixtures/pyformat.json", import.meta.url), "utf8")) as { cases: PyFormatRow[] })
  .cases;

describe("formatFixed matches '{:.Nf}'.format(x)", () => {
  for (const row of rows) {
    it(`'{:.${row.digits}f}'.format(float.fromhex('${row.x}')) == '${row.f}'`, () => {
      expect(formatFixed(floatFromHex(row.x), row.digits)).toBe(row.f);
    });
  }
});

describe("formatExponent matches '{:.Ne}'.format(x)", () => {
  for (const row of rows) {
    it(`'{:.${row.digits}e}'.format(float.fromhex('${row.x}')) == '${row.e}'`, () => {
      expect(formatExponent(floatFromHex(row.x), row.digits)).toBe(row.e);
    });
  }
});

describe("where Python and JavaScript disagree", () => {
  it("rounds exact ties to even, unlike toFixed", () => {
    expect(formatFixed(0.03125, 4)).toBe("0.0312");
    expect((0.03125).toFixed(4)).toBe("0.0313");
    expect(formatFixed(2.5, 0)).toBe("2");
    expect(formatFixed(3.5, 0)).toBe("4");
    expect(formatExponent(12344.5, 4)).toBe("1.2344e+04");
  });

  it("writes at least two exponent digits, with a sign", () => {
    expect(formatExponent(1e-5, 4)).toBe("1.0000e-05");
    expect(formatExponent(1, 4)).toBe("1.0000e+00");
    expect(formatExponent(1e100, 2)).toBe("1.00e+100");
  });

  it("keeps the sign of -0.0 and of negatives that round to zero", () => {
    expect(formatFixed(-0, 4)).toBe("-0.0000");
    expect(formatFixed(-0.00001, 4)).toBe("-0.0000");
    expect(formatExponent(-0, 2)).toBe("-0.00e+00");
  });

  it("writes nan and inf in lower case", () => {
    expect(formatFixed(NaN, 4)).toBe("nan");
    expect(formatFixed(-Infinity, 4)).toBe("-inf");
    expect(formatExponent(Infinity, 4)).toBe("inf");
  });

  it("prints every digit of large values instead of switching to exponent form", () => {
    expect(formatFixed(1e23, 0)).toBe("99999999999999991611392");
    expect((1e23).toFixed(0)).toBe("1e+23");
  });
});
