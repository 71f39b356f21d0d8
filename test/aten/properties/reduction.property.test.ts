// Property tests (fast-check) for reductions: on random shapes, dtypes and layouts, a reduction over one dim
// with keepdim is the same reduction squeezed, reducing dim by dim gives the full reduction, the input's layout
// does not change the result (values are quarters, so float sums are exact in any order), max/argmax/amax agree
// with each other and bound every element, and meta tensors get the CPU result's sizes, strides and dtype.
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import * as torch from "../../../engine/index.js";
import type { Tensor } from "../../../engine/aten/core/Tensor.js";
import { arbSpec, arbShape, build, runs, type DtypeName } from "../../support/arbitrary.js";
import type { WindowSpec } from "../../support/windows.js";

const T = torch as any;

/** A tensor spec of at least one dim, and a dim of it (negative half the time). */
const arbWithDim = (dtypes: DtypeName[], nonEmptyDim = false): fc.Arbitrary<[WindowSpec, number]> =>
  fc.tuple(arbShape(4, 4).filter((s) => s.length > 0), fc.constantFrom(...dtypes), fc.nat(3), fc.boolean())
    .chain(([sizes, dt, d, neg]) => {
      const dim = d % sizes.length;
      const sz = nonEmptyDim ? sizes.map((s) => Math.max(s, 1)) : sizes;
      return fc.tuple(arbSpec(sz, dt), fc.constant(neg ? dim - sizes.length : dim));
    });

const flat = (t: Tensor) => t.reshape(-1).tolist() as number[];
const summary = (t: Tensor) => ({ sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name });

describe("sum, prod, amax, amin, mean over one dim", () => {
  for (const op of ["sum", "prod", "amax", "amin", "mean"]) {
    const dtypes: DtypeName[] = op === "mean" ? ["float32", "float64"] : ["float32", "float64", "int32", "int64"];
    it(`${op}(x, d, keepdim=True).squeeze(d) = ${op}(x, d), whatever x's layout`, () => {
      fc.assert(fc.property(arbWithDim(dtypes, op === "amax" || op === "amin"), ([spec, d]) => {
        const x = build(spec);
        const r = T[op](x, d) as Tensor;
        const k = T[op](x, d, { keepdim: true }) as Tensor;
        expect(k.dim()).toBe(x.dim());
        expect(k.squeeze(d).tolist()).toEqual(r.tolist());
        expect(r.tolist()).toEqual((T[op](x.contiguous(), d) as Tensor).tolist());
      }), runs);
    });
  }
  it("sum over every dim in turn is the full sum, and the full sum is the sum of the elements", () => {
    fc.assert(fc.property(arbWithDim(["float32", "int64"]), ([spec]) => {
      const x = build(spec);
      let r: Tensor = x;
      while (r.dim() > 0) r = torch.sum(r, 0);
      expect(r.item()).toBe(torch.sum(x).item());
      expect(torch.sum(x).item()).toBe(flat(x).reduce((a, b) => a + b, 0));
    }), runs);
  });
});

describe("max, argmax and amax agree", () => {
  it("max(x, d) gives amax's values and the first index where each is attained", () => {
    fc.assert(fc.property(arbWithDim(["float32", "int64"], true), ([spec, d]) => {
      const x = build(spec);
      const [values, indices] = torch.max(x, d) as unknown as [Tensor, Tensor];
      expect(values.tolist()).toEqual(torch.amax(x, d).tolist());
      expect(indices.tolist()).toEqual(torch.argmax(x, d).tolist());
      // every element along d is <= the max, and the index points at the first maximum
      const xd = torch.movedim(x, d, -1).contiguous();
      const rows = xd.reshape(-1, xd.shape[xd.dim() - 1]).tolist() as number[][];
      const vs = flat(values), is = flat(indices).map(Number);
      rows.forEach((row, i) => {
        expect(Math.max(...row)).toBe(vs[i]);
        expect(row.indexOf(vs[i])).toBe(is[i]);
      });
    }), runs);
  });
});

describe("boolean reductions", () => {
  it("all(x) = not any(not x); count_nonzero(x) = sum(x != 0)", () => {
    fc.assert(fc.property(arbWithDim(["bool", "float32", "int64"]), ([spec, d]) => {
      const x = build(spec);
      expect(torch.all(x, d).tolist()).toEqual(torch.logical_not(torch.any(torch.logical_not(x), d)).tolist());
      expect(torch.count_nonzero(x, d).tolist()).toEqual(torch.sum(torch.ne(x, 0), d).tolist());
    }), runs);
  });
});

describe("var and std", () => {
  it("var(x, d, correction=0) = mean((x - mean(x, d))^2, d) >= 0, and std = sqrt(var)", () => {
    fc.assert(fc.property(arbWithDim(["float64"], true), ([spec, d]) => {
      const x = build(spec);
      const v = flat(torch.var(x, d, { correction: 0 }));
      const m = torch.mean(x, d, { keepdim: true });
      const want = flat(torch.mean(torch.square(torch.sub(x, m)), d));
      v.forEach((vi, i) => {
        expect(vi).toBeGreaterThanOrEqual(0);
        expect(vi).toBeCloseTo(want[i], 12);
      });
      flat(torch.std(x, d, { correction: 0 })).forEach((s, i) => expect(s).toBeCloseTo(Math.sqrt(v[i]), 12));
    }), runs);
  });
});

describe("on meta: the CPU result's sizes, strides and dtype", () => {
  it("for sum, amax, mean, var, argmax over a dim, with and without keepdim", () => {
    fc.assert(fc.property(arbWithDim(["float32", "float64"], true), fc.constantFrom("sum", "amax", "mean", "var", "argmax"), fc.boolean(), ([spec, d], op, keepdim) => {
      const cpu = T[op](build(spec), d, { keepdim }) as Tensor;
      const m = T[op](build(spec, "meta"), d, { keepdim }) as Tensor;
      expect(summary(m)).toEqual(summary(cpu));
    }), runs);
  });
});
