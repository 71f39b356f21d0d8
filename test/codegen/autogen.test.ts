// autogen: overloads (engine/codegen/autogen.ts): every schema PyTorch 1.13 derives from an `autogen:` line is
// derived the same way here (autogen.json lists all 459 with PyTorch's registered schema), and the derived
// kernels run: out= copies the functional result into out, the functional form of an in-place op leaves self alone.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { autogenSchema } from "../../engine/codegen/autogen.js";
import { parseSchema } from "../../engine/dispatcher/schema/SchemaParser.js";
import type { NativeFunction } from "../../engine/codegen/model.js";
import { loadFixture } from "../support/fixtures.js";

const fixture = loadFixture("autogen.json");

function entry(funcText: string): NativeFunction {
  return { func: parseSchema(funcText), funcText } as NativeFunction;
}

describe("autogen schemas match PyTorch's registered ones", () => {
  for (const c of fixture.cases) {
    it(`${c.target} from ${c.from.split("(")[0]}`, () => {
      const g = autogenSchema(entry(c.from), c.target);
      expect(g && `aten::${g.text}`).toBe(c.schema);
    });
  }
});

describe("autogen kernels", () => {
  it("flip.out copies the flipped tensor into out, resizing an empty out", () => {
    const out = torch.empty(0);
    const r = torch.ops.aten.flip.out.call(torch.arange(4.0), [0], { out });
    expect(r).toBe(out);
    expect(out.tolist()).toEqual([3, 2, 1, 0]);
  });
  it("zero (the functional form of zero_) returns zeros and leaves self unchanged", () => {
    const x = torch.arange(3.0);
    expect(torch.ops.aten.zero.default.call(x).tolist()).toEqual([0, 0, 0]);
    expect(x.tolist()).toEqual([0, 1, 2]);
  });
  it("var_mean.correction_out fills both outs", () => {
    const a = torch.empty(0), b = torch.empty(0);
    torch.ops.aten.var_mean.correction_out.call(torch.tensor([1, 2, 3], { dtype: torch.float32 }), null, { correction: 1, out0: a, out1: b });
    expect([a.item(), b.item()]).toEqual([1, 2]);
  });
  it("copy.out: copy_ has no functional form declared, so the in-place op runs on a clone", () => {
    const self = torch.zeros(2), out = torch.empty(0);
    torch.ops.aten.copy.out.call(self, torch.tensor([5.0, 6.0]), false, { out });
    expect(out.tolist()).toEqual([5, 6]);
    expect(self.tolist()).toEqual([0, 0]);
  });
  it("empty_like.out takes out's dtype, since out= schemas drop the TensorOptions", () => {
    const out = torch.empty(0, { dtype: torch.int32 });
    torch.ops.aten.empty_like.out.call(torch.ones(2, 2), { out });
    expect([...out.shape]).toEqual([2, 2]);
    expect(out.dtype).toBe(torch.int32);
  });
  it("autogen'd overloads get no torch.* binding, as in PyTorch (torch.flip(..., out=) is a TypeError)", () => {
    expect(() => (torch as any).flip(torch.arange(2.0), [0], { out: torch.empty(0) })).toThrow(/unexpected keyword argument 'out'/);
  });
});
