// The pooling family (max_pool1d/2d with and without indices, avg_pool1d/2d, adaptive_avg_pool2d,
// _adaptive_avg_pool2d, adaptive_max_pool2d) through torch.nn.functional against PyTorch 1.13
// (fixtures/pooling.json, written by fixtures/gen_pooling.py): values and indices, sizes, strides,
// dtype, meta results, error texts, and the aten ops each call runs (profiler tree vs dispatch trace).
// Values are exact for every dtype: max pooling copies elements, and the averages repeat PyTorch's
// accumulation (float32 steps for float32 and bfloat16, double for float64, int64 division); the one
// exception is a 1x1 adaptive average, which is torch.mean (the reduction family's summation order),
// checked within the default tolerance.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { itMatchesPyTorchTrees } from "../../support/call_tree.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeNnCases } from "../../support/nn_layer_cases.js";

const F = loadFixture("pooling.json");
const nnf = torch.nn.functional as any;
const exact = { rtol: 0, atol: 0 };

describeNnCases("pooling ops match PyTorch (values, indices, sizes, strides, dtype, meta, errors)", F, {
  tolerance: { float32: exact, float64: exact, bfloat16: exact },
  loose: new Set(["adaptive_avg_pool2d_1x1"]),
});

describe("pooling runs the aten ops PyTorch's does (profiler tree vs dispatch trace)", () => {
  const x = () => torch.ones(2, 3, 6, 6);
  const x1 = () => torch.ones(2, 3, 8);
  const calls: Record<string, () => () => unknown> = {
    max_pool2d: () => { const a = x(); return () => nnf.max_pool2d(a, 2); },
    max_pool2d_indices: () => { const a = x(); return () => nnf.max_pool2d(a, 2, { return_indices: true }); },
    max_pool1d: () => { const a = x1(); return () => nnf.max_pool1d(a, 2); },
    max_pool1d_indices: () => { const a = x1(); return () => nnf.max_pool1d(a, 2, { return_indices: true }); },
    avg_pool2d: () => { const a = x(); return () => nnf.avg_pool2d(a, 2); },
    avg_pool1d: () => { const a = x1(); return () => nnf.avg_pool1d(a, 2); },
    adaptive_avg_pool2d: () => { const a = x(); return () => nnf.adaptive_avg_pool2d(a, 3); },
    adaptive_avg_pool2d_1x1: () => { const a = x(); return () => nnf.adaptive_avg_pool2d(a, 1); },
    adaptive_max_pool2d: () => { const a = x(); return () => nnf.adaptive_max_pool2d(a, 3); },
  };
  // _adaptive_avg_pool2d's empty/resize_ are internal allocations here, and mean belongs to the
  // reduction family: trees are compared down to those ops
  const leaves = new Set(["aten::_adaptive_avg_pool2d", "aten::mean"]);
  const prune = (nodes: any[]): any[] => nodes.map((n) => ({ op: n.op, children: leaves.has(n.op) ? [] : prune(n.children) }));
  itMatchesPyTorchTrees(F.trees, calls, prune);
});
