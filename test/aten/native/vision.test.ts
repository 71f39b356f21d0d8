// The vision family (upsample_nearest1d/2d and upsample_bilinear2d with their .vec overloads as
// F.interpolate calls them, pixel_shuffle / pixel_unshuffle, im2col / col2im under F.unfold / F.fold)
// against PyTorch 1.13 (fixtures/vision.json, written by fixtures/gen_vision.py): values, sizes, strides
// (channels-last inputs keep their layout), dtype, meta results, error texts, and the aten ops each call
// runs (profiler tree vs dispatch trace). Values are exact for nearest, pixel shuffles, unfold and fold
// (elements copied, or summed in the output dtype in PyTorch's order); bilinear results are checked
// within the default tolerance (float64 1e-12, float32 2e-5, bfloat16 one ulp): they differ from PyTorch
// in the last bit on some elements, through fused multiply-adds.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { itMatchesPyTorchTrees } from "../../support/call_tree.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeNnCases } from "../../support/nn_layer_cases.js";

const F = loadFixture("vision.json");
const nnf = torch.nn.functional as any;
const exact = { rtol: 0, atol: 0 };

describeNnCases("vision ops match PyTorch (values, sizes, strides, dtype, meta, errors)", F, {
  tolerance: { float32: exact, float64: exact, bfloat16: exact, float16: exact },
  loose: new Set(F.cases.map((c: any) => c.name).filter((n: string) => n.includes("bilinear"))),
});

describe("vision ops run the aten ops PyTorch's do (profiler tree vs dispatch trace)", () => {
  const x = () => torch.ones(2, 3, 4, 4);
  const calls: Record<string, () => () => unknown> = {
    interp_nearest: () => { const a = x(); return () => nnf.interpolate(a, { scale_factor: 2 }); },
    interp_nearest_1d: () => { const a = torch.ones(2, 3, 5); return () => nnf.interpolate(a, { scale_factor: 2.5 }); },
    interp_bilinear: () => { const a = x(); return () => nnf.interpolate(a, { size: 6, mode: "bilinear", align_corners: true }); },
    interp_area: () => { const a = x(); return () => nnf.interpolate(a, { size: 3, mode: "area" }); },
    pixel_shuffle: () => { const a = torch.ones(1, 8, 2, 2); return () => nnf.pixel_shuffle(a, 2); },
    pixel_unshuffle: () => { const a = torch.ones(1, 2, 4, 4); return () => nnf.pixel_unshuffle(a, 2); },
    unfold: () => { const a = x(); return () => nnf.unfold(a, 2); },
    fold: () => { const a = torch.ones(2, 12, 9); return () => nnf.fold(a, [4, 4], 2); },
  };
  // the kernels' own allocations and index tensors (empty, ones, resize_, select ...) are internal here:
  // trees are compared down to the kernel ops
  const leaves = new Set(["aten::pixel_shuffle", "aten::pixel_unshuffle", "aten::im2col", "aten::col2im", "aten::_adaptive_avg_pool2d"]);
  const prune = (nodes: any[], parent = ""): any[] =>
    nodes.map((n) => ({ op: n.op, children: leaves.has(n.op) || (n.op === parent && n.op.startsWith("aten::upsample")) ? [] : prune(n.children, n.op) }));
  itMatchesPyTorchTrees(F.trees, calls, prune);
});
