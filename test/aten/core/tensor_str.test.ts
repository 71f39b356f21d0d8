// repr(tensor) against real PyTorch 1.13: every case in test/fixtures/repr.json
// (made by test/fixtures/gen_repr.py) is rebuilt as a ReprInput and must print identically.

import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  PRINT_OPTS,
  set_printoptions,
  tensorRepr,
  type ReprDtype,
  type ReprInput,
} from "../../../engine/aten/core/tensor_str.js";
import { decodeValue, type EncodedValue } from "./fixture_values.js";

interface ReprCase {
  name: string;
  expr: string;
  print_options: Parameters<typeof set_printoptions>[0];
  default_dtype: ReprDtype;
  dtype: ReprDtype;
  sizes: number[];
  device: string;
  is_meta: boolean;
  requires_grad: boolean;
  grad_fn: string | null;
  is_parameter: boolean;
  values: EncodedValue[];
  repr: string;
}

interface ReprFixture {
  generator: string;
  performance: { expr: string; dtype: ReprDtype; sizes: number[]; repr: string };
  cases: ReprCase[];
}

const fixture = JSON.parse(readFileSync(new URL("../../fixtures/repr.json", import.meta.url), "utf8")) as ReprFixture;

function inputOf(c: ReprCase): ReprInput {
  const values = c.values.map((v) => decodeValue(v, c.dtype));
  return {
    sizes: c.sizes,
    dtype: c.dtype,
    get: (i) => {
      if (i < 0 || i >= values.length) throw new Error(`element ${i} out of range`);
      return values[i]!;
    },
    device: c.device,
    isMeta: c.is_meta,
    requiresGrad: c.requires_grad,
    gradFnName: c.grad_fn ?? undefined,
    isParameter: c.is_parameter,
  };
}

afterEach(() => set_printoptions({ profile: "default" }));

describe("tensor repr matches PyTorch 1.13", () => {
  it("has a corpus of cases", () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(60);
  });

  for (const c of fixture.cases) {
    it(`${c.name}: ${c.expr}`, () => {
      const numel = c.sizes.reduce((a, b) => a * b, 1);
      expect(c.values.length).toBe(c.is_meta ? 0 : numel);
      set_printoptions(c.print_options);
      expect(tensorRepr(inputOf(c), { defaultDtype: c.default_dtype })).toBe(c.repr);
    });
  }
});

describe("print options", () => {
  it("defaults to precision 4, threshold 1000, edgeitems 3, linewidth 80, automatic sci_mode", () => {
    expect(PRINT_OPTS).toEqual({ precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80, sci_mode: null });
  });

  it("profiles set all four numbers, and full means no threshold", () => {
    set_printoptions({ profile: "short" });
    expect(PRINT_OPTS).toEqual({ precision: 2, threshold: 1000, edgeitems: 2, linewidth: 80, sci_mode: null });
    set_printoptions({ profile: "full", precision: 3 });
    expect(PRINT_OPTS).toEqual({ precision: 3, threshold: Infinity, edgeitems: 3, linewidth: 80, sci_mode: null });
  });

  it("like PyTorch, a call without sci_mode resets it to automatic", () => {
    set_printoptions({ sci_mode: true });
    expect(PRINT_OPTS.sci_mode).toBe(true);
    set_printoptions({ precision: 4 });
    expect(PRINT_OPTS.sci_mode).toBe(null);
  });

  it("edgeitems=0 on a summarized 2-D tensor fails as torch.stack does", () => {
    set_printoptions({ threshold: 5, edgeitems: 0 });
    const t: ReprInput = {
      sizes: [2, 5],
      dtype: "int64",
      get: (i) => i,
      device: "cpu",
      isMeta: false,
      requiresGrad: false,
    };
    expect(() => tensorRepr(t, { defaultDtype: "float32" })).toThrow("stack expects a non-empty TensorList");
  });
});

describe("printing a large tensor", () => {
  it(`reads only the summarized elements (${fixture.performance.expr})`, () => {
    const { sizes, dtype, repr } = fixture.performance;
    let reads = 0;
    const t: ReprInput = {
      sizes,
      dtype,
      get: (i) => {
        reads++;
        return i; // torch.arange(n.): element i is i
      },
      device: "cpu",
      isMeta: false,
      requiresGrad: false,
    };
    expect(tensorRepr(t, { defaultDtype: "float32" })).toBe(repr);
    // 6 elements for the formatter, 6 more to print them.
    expect(reads).toBe(12);
  });

  it("prints a summarized 1000x1000 matrix reading only the elements it shows", () => {
    let reads = 0;
    const t: ReprInput = {
      sizes: [1000, 1000],
      dtype: "float32",
      get: (i) => (reads++, Math.fround(Math.sin(i))),
      device: "cpu",
      isMeta: false,
      requiresGrad: false,
    };
    const s = tensorRepr(t, { defaultDtype: "float32" });
    expect(s.split("\n")).toHaveLength(7);
    // the 6x6 corner values, read once to size the columns and once to print them
    expect(reads).toBeLessThanOrEqual(2 * 36);
  });
});
