// The join family (cat, stack, hstack, vstack, dstack, atleast_Nd, flip, roll, tril, triu, repeat,
// tile) against PyTorch 1.13 (fixtures/join.json, written by fixtures/gen_join.py): sizes, strides,
// dtypes (promotion across inputs), values, out= results, meta results, error texts, and the ops each
// decomposition runs (PyTorch's profiler tree vs the dispatch trace).
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import * as G from "../../../engine/generated/index.js";
import { Tensor } from "../../../engine/aten/core/Tensor.js";
import { itMatchesPyTorchTrees } from "../../support/call_tree.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";

const F = loadFixture("join.json");
const fns = G as any;

describeOpCases("join ops match PyTorch (sizes, strides, dtype, values, out=, errors)", F);

describe("decompositions run the ops PyTorch's do, nested the same way (profiler tree vs dispatch trace)", () => {
  const a23 = () => torch.ones(2, 3);
  const calls: Record<string, () => () => unknown> = {
    hstack: () => { const a = a23(); return () => fns.hstack([a, a]); },
    vstack: () => { const a = a23(), b = torch.ones(3); return () => fns.vstack([b, a]); },
    dstack: () => { const a = a23(); return () => fns.dstack([a, a]); },
    stack: () => { const a = a23(); return () => fns.stack([a, a], 1); },
    stack_last: () => { const a = a23(); return () => fns.stack([a, a], 2); },
    tile: () => { const a = a23(); return () => fns.tile(a, [2]); },
    repeat: () => { const a = a23(); return () => (a as any).repeat(2, 2); },
    roll_multi: () => { const a = a23(); return () => fns.roll(a, [1, 1], [0, 1]); },
    roll_flat: () => { const a = a23(); return () => fns.roll(a, 1); },
  };
  itMatchesPyTorchTrees(F.trees, calls);
});

describe("in-place and aliasing behaviour", () => {
  it("tril_ and triu_ return self and bump its version", () => {
    const x = torch.ones(3, 3);
    const v = x._version;
    expect((x as any).tril_()).toBe(x);
    expect((x as any).triu_(1)).toBe(x);
    expect(x._version).toBeGreaterThan(v);
    expect(x.tolist()).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
  });
  it("cat's result never aliases its inputs", () => {
    const a = torch.ones(2);
    const r = fns.cat([a]) as Tensor;
    expect(r._impl.storage).not.toBe(a._impl.storage);
  });
});
