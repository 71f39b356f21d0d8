import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../engine/index.js";
import { promoteTypes, canCast } from "../../engine/c10/PromoteTypes.js";
import { ScalarType } from "../../engine/c10/ScalarType.js";
import { loadFixture } from "../support/fixtures.js";

const core = loadFixture("core.json");
const P = core.promotion;

const scalarTypeOf: Record<string, ScalarType> = {
  float32: ScalarType.Float, float64: ScalarType.Double, float16: ScalarType.Half, bfloat16: ScalarType.BFloat16,
  int8: ScalarType.Char, uint8: ScalarType.Byte, int16: ScalarType.Short, int32: ScalarType.Int, int64: ScalarType.Long,
  bool: ScalarType.Bool, complex32: ScalarType.ComplexHalf, complex64: ScalarType.ComplexFloat, complex128: ScalarType.ComplexDouble,
};
const dt = (name: string) => (torch as any)[name] as torch.dtype;

describe("promote_types: the full 13x13 table", () => {
  for (const a of Object.keys(P.promote_types)) {
    it(`row ${a}`, () => {
      for (const b of Object.keys(P.promote_types[a])) {
        expect(ScalarType[promoteTypes(scalarTypeOf[a], scalarTypeOf[b])], `${a} x ${b}`).toBe(ScalarType[scalarTypeOf[P.promote_types[a][b]]]);
      }
    });
  }
  it("torch.promote_types returns dtypes", () => {
    expect(torch.promote_types(torch.bfloat16, torch.float16)).toBe(torch.float32);
    expect(torch.promote_types(torch.int64, torch.float16)).toBe(torch.float16);
  });
});

describe("can_cast", () => {
  for (const a of Object.keys(P.can_cast)) {
    it(`from ${a}`, () => {
      for (const b of Object.keys(P.can_cast[a])) {
        expect(canCast(scalarTypeOf[a], scalarTypeOf[b]), `${a} -> ${b}`).toBe(P.can_cast[a][b]);
      }
    });
  }
});

describe("result_type: dimensioned > zero-dim > scalar", () => {
  afterEach(() => torch.set_default_dtype(torch.float32));
  const make = ([kind, name]: [string, string]) => {
    if (kind === "dim") return torch.zeros(2, { dtype: dt(name) });
    if (kind === "zero") return torch.tensor(0, { dtype: dt(name) });
    return ({ int: 2, float: 2.5, bool: true } as Record<string, number | boolean>)[name];
  };
  const groups = new Map<string, any[]>();
  for (const c of P.result_type) {
    const key = `default ${c.default}, ${c.a[0]} ${c.a[1]}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const [key, cases] of groups) {
    it(key, () => {
      torch.set_default_dtype(dt(cases[0].default));
      for (const c of cases) {
        const got = torch.result_type(make(c.a) as torch.Tensor, make(c.b) as any);
        expect(got.name, `${c.a.join(" ")} with ${c.b.join(" ")}`).toBe(c.result);
      }
    });
  }
});
