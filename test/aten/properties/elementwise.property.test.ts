// Property tests (fast-check) for elementwise ops: on random shapes, dtypes and layouts (transposed, stepped,
// offset, broadcast and overlapping views), results do not depend on the inputs' layout, broadcast and promote
// as PyTorch's rules say, keep a dense input's layout, agree with their in-place and meta forms, and obey
// the algebra each op promises.
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import * as torch from "../../../engine/index.js";
import type { Tensor } from "../../../engine/aten/core/Tensor.js";
import { arbBroadcastPair, arbTensorSpec, build, runs, type DtypeName } from "../../support/arbitrary.js";
import { is_non_overlapping_and_dense } from "../../../engine/aten/native/OutputLayout.js";

const T = torch as any;
const numeric: DtypeName[] = ["float32", "float64", "int32", "int64"];
/** The values in row-major order, -0 read as 0 (x - y and -(y - x) differ only in the sign of zero). */
const flat = (t: Tensor) => (t.reshape(-1).tolist() as number[]).map((v) => (typeof v === "number" ? v + 0 : v));
const meta = (t: Tensor) => ({ sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name });

describe("unary ops do not depend on the input's layout", () => {
  const floatOps = ["neg", "abs", "sign", "exp", "sin", "tanh", "sigmoid", "sqrt", "floor", "ceil", "trunc", "frac", "square", "reciprocal", "isnan"];
  for (const op of floatOps) {
    it(`${op}(x) equals ${op}(x.contiguous()) and has x's shape`, () => {
      fc.assert(fc.property(arbTensorSpec(op === "frac" ? ["float32", "float64"] : numeric), (spec) => {
        const x = build(spec);
        const r = T[op](x) as Tensor;
        expect([...r.shape]).toEqual(spec.sizes);
        expect(r.tolist()).toEqual((T[op](x.contiguous()) as Tensor).tolist());
      }), runs);
    });
  }
  it("a non-overlapping, dense input's layout is kept (exp(x.t()) is transposed like x.t())", () => {
    fc.assert(fc.property(arbTensorSpec(["float32", "int64"], false), (spec) => {
      const x = build(spec);
      // (size-0 and size-1 dims make a layout contiguous in PyTorch's sense, and then the result is C-ordered)
      fc.pre(spec.sizes.every((s) => s > 1) && is_non_overlapping_and_dense(x._impl.sizes(), x._impl.strides()));
      expect(torch.neg(x).stride()).toEqual(x.stride());
    }), runs);
  });
});

describe("binary ops broadcast, promote and ignore layout", () => {
  const ops: [string, boolean][] = [["add", true], ["sub", false], ["mul", true], ["maximum", true], ["minimum", true], ["eq", true], ["lt", false], ["logical_and", true]];
  for (const [op, commutative] of ops) {
    it(`${op}: shape = broadcast_shapes, dtype = result_type, values independent of layout${commutative ? ", commutes" : ""}`, () => {
      fc.assert(fc.property(arbBroadcastPair(numeric), ([sa, sb]) => {
        const a = build(sa), b = build(sb);
        const r = T[op](a, b) as Tensor;
        expect([...r.shape]).toEqual([...torch.broadcast_shapes(a.shape, b.shape)]);
        const boolResult = ["eq", "lt", "logical_and"].includes(op);
        expect(r.dtype).toBe(boolResult ? torch.bool : torch.result_type(a, b));
        expect(r.tolist()).toEqual((T[op](a.contiguous(), b.contiguous()) as Tensor).tolist());
        if (commutative) expect((T[op](b, a) as Tensor).tolist()).toEqual(r.tolist());
      }), runs);
    });
  }
  it("sub(a, b) = neg(sub(b, a)) and lt(a, b) = gt(b, a)", () => {
    fc.assert(fc.property(arbBroadcastPair(["float32", "float64", "int64"]), ([sa, sb]) => {
      const a = build(sa), b = build(sb);
      expect(flat(torch.sub(a, b))).toEqual(flat(torch.neg(torch.sub(b, a))));
      expect(torch.lt(a, b).tolist()).toEqual(torch.gt(b, a).tolist());
    }), runs);
  });
  it("the in-place form writes what the functional form returns", () => {
    fc.assert(fc.property(arbBroadcastPair(["float32", "float64"]), ([sa, sb]) => {
      const a = build(sa), b = build(sb);
      const shape = [...torch.broadcast_shapes(a.shape, b.shape)];
      fc.pre(shape.length === a.dim() && shape.every((s, i) => s === a.shape[i]) && torch.can_cast(torch.result_type(a, b), a.dtype));
      const want = torch.mul(a, b).tolist();
      const self = a.contiguous().clone();
      self.mul_(b);
      expect(self.tolist()).toEqual(want);
    }), runs);
  });
  it("on meta: the same sizes, strides and dtype as on CPU", () => {
    fc.assert(fc.property(arbBroadcastPair(numeric), fc.constantFrom("add", "mul", "div", "eq", "atan2"), ([sa, sb], op) => {
      const cpu = T[op](build(sa), build(sb)) as Tensor;
      const m = T[op](build(sa, "meta"), build(sb, "meta")) as Tensor;
      expect(meta(m)).toEqual(meta(cpu));
    }), runs);
  });
});

describe("ops that promise bounds", () => {
  it("clamp(x, lo, hi) lies in [lo, hi] and equals x there", () => {
    fc.assert(fc.property(arbTensorSpec(["float32", "int64"]), fc.integer({ min: -3, max: 0 }), fc.integer({ min: 0, max: 3 }), (spec, lo, hi) => {
      const x = build(spec);
      const r = (torch.clamp(x, lo, hi).reshape(-1).tolist() as number[]);
      const xs = x.reshape(-1).tolist() as number[];
      r.forEach((v, i) => expect(v).toBe(Math.min(Math.max(xs[i], lo), hi)));
    }), runs);
  });
  it("where(c, a, b) takes a where c holds and b elsewhere", () => {
    fc.assert(fc.property(arbTensorSpec(["float32"]), (spec) => {
      const a = build(spec);
      const c = torch.gt(a, 0);
      expect(flat(torch.where(c, a, torch.neg(a)))).toEqual(flat(torch.abs(a)));
    }), runs);
  });
});
