// The pad family against PyTorch 1.13 (fixtures/pad.json, written by fixtures/gen_pad.py): constant_pad_nd
// (negative pads crop), reflection_pad1d/2d/3d and replication_pad1d/2d/3d (torch._C._nn, out=),
// _pad_circular, _pad_enum and torch.nn.functional.pad in every mode — values, dtypes, sizes, strides,
// meta results, PyTorch's error texts (including the C++ tensor print some of them embed), and the aten
// ops each decomposition runs.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { itMatchesPyTorchTrees } from "../../support/call_tree.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";

const F = loadFixture("pad.json");

describeOpCases("pad ops match PyTorch (sizes, strides, dtype, values, out=, meta, errors)", F);

/**
 * Call trees: the ops the composite kernels (pad, _pad_enum, constant_pad_nd, _pad_circular) call, nested;
 * what a backend or view kernel does inside is cut. Glasstorch has no aten::new_empty yet, so
 * _pad_circular calls aten::empty, the op PyTorch's new_empty calls: PyTorch's new_empty node is compared
 * as that empty.
 */
const COMPOSITE = new Set(["aten::pad", "aten::_pad_enum", "aten::constant_pad_nd", "aten::_pad_circular", "aten::clone"]);
type Node = { op: string; children: Node[] };
const prune = (nodes: Node[]): Node[] =>
  nodes.flatMap((n) => (n.op === "aten::new_empty" ? n.children : [n])).map((n) => ({ op: n.op, children: COMPOSITE.has(n.op) ? prune(n.children) : [] }));

describe("decompositions run the ops PyTorch's do, nested the same way (profiler tree vs dispatch trace)", () => {
  const Fn = torch.nn.functional as any;
  const x3 = () => torch.arange(24, { dtype: torch.float32 }).view(2, 3, 4);
  const x4 = () => torch.arange(24, { dtype: torch.float32 }).view(1, 2, 3, 4);
  const calls: Record<string, () => () => unknown> = {
    constant: () => { const x = x3(); return () => Fn.pad(x, [1, 1]); },
    constant_crop: () => { const x = x3(); return () => Fn.pad(x, [-1, 1, 0, 1]); },
    constant_crop_only: () => { const x = x3(); return () => (torch as any).constant_pad_nd(x, [-1, 0]); },
    reflect: () => { const x = x3(); return () => Fn.pad(x, [1, 1], { mode: "reflect" }); },
    replicate_4d: () => { const x = x4(); return () => Fn.pad(x, [1, 1, 1, 1], { mode: "replicate" }); },
    circular: () => { const x = x3(); return () => Fn.pad(x, [1, 2], { mode: "circular" }); },
    circular_negative: () => { const x = x3(); return () => Fn.pad(x, [-1, 2], { mode: "circular" }); },
    pad_enum: () => { const x = x3(); return () => (torch._C._nn as any)._pad_enum(x, [1, 1], 0, null); },
  };
  itMatchesPyTorchTrees(F.trees, calls, prune);
});

describe("torch.nn.functional.pad is the aten::pad binding", () => {
  it("F.pad(x, pad, {mode, value}) and torch._C._nn.pad are one function", () => {
    expect((torch.nn.functional as any).pad).toBe((torch._C._nn as any).pad);
  });
  it("a constant pad never aliases its input; a pure crop returns a copy", () => {
    const x = torch.arange(6, { dtype: torch.float32 }).view(2, 3);
    const crop = (torch as any).constant_pad_nd(x, [-1, 0]);
    expect(crop._impl.storage).not.toBe(x._impl.storage);
    expect(crop.tolist()).toEqual([[1, 2], [4, 5]]);
  });
});
