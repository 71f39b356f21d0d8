// The normalization family (batch_norm, _batch_norm_impl_index, native_batch_norm, instance_norm,
// layer_norm, native_layer_norm, group_norm, native_group_norm) through torch.nn.functional against
// PyTorch 1.13 (fixtures/normalization.json, written by fixtures/gen_normalization.py): outputs and saved
// statistics, running_mean / running_var after the call (updated in place), sizes, strides, dtype, meta
// results, error texts, and the aten ops each call runs (profiler tree vs dispatch trace).
// Tolerances: float64 1e-12 relative; float32 2e-5 (batch norm repeats the kernel's arithmetic, fused
// multiply-adds included, and matches bit for bit on most cases; layer/group norm's row moments are a
// double two-pass here, a vectorized float Welford in PyTorch); bfloat16 two ulps (statistics rounded
// to bfloat16 from those moments).
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { itMatchesPyTorchTrees } from "../../support/call_tree.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeNnCases } from "../../support/nn_layer_cases.js";

const F = loadFixture("normalization.json");
const nnf = torch.nn.functional as any;

describeNnCases("normalization ops match PyTorch (outputs, saved stats, running stats, meta, errors)", F, {
  tolerance: { bfloat16: { rtol: 1 / 64, atol: 2e-2 } },
});

describe("normalization runs the aten ops PyTorch's does (profiler tree vs dispatch trace)", () => {
  const x = () => torch.ones(2, 3, 4, 4);
  const stats = () => [torch.zeros(3), torch.ones(3), torch.ones(3), torch.zeros(3)];
  const calls: Record<string, () => () => unknown> = {
    batch_norm_train: () => { const a = x(), [rm, rv, w, b] = stats(); return () => nnf.batch_norm(a, rm, rv, w, b, { training: true }); },
    batch_norm_eval: () => { const a = x(), [rm, rv, w, b] = stats(); return () => nnf.batch_norm(a, rm, rv, w, b); },
    batch_norm_empty: () => { const a = torch.ones(0, 3, 4), [rm, rv, w, b] = stats(); return () => nnf.batch_norm(a, rm, rv, w, b, { training: true }); },
    layer_norm: () => { const a = x(); return () => nnf.layer_norm(a, [4, 4]); },
    group_norm: () => { const a = x(), [, , w, b] = stats(); return () => nnf.group_norm(a, 3, w, b); },
    instance_norm: () => { const a = x(), [rm, rv, w, b] = stats(); return () => nnf.instance_norm(a, rm, rv, w, b, { use_input_stats: true }); },
    instance_norm_nostats: () => { const a = x(); return () => nnf.instance_norm(a); },
  };
  // the native kernels' scratch allocations (empty, empty_like) are not dispatched here, and repeat and
  // mean belong to other families: trees are compared down to those ops
  const leaves = new Set(["aten::native_batch_norm", "aten::native_layer_norm", "aten::native_group_norm", "aten::repeat", "aten::mean", "aten::clone"]);
  const prune = (nodes: any[]): any[] => nodes.map((n) => ({ op: n.op, children: leaves.has(n.op) ? [] : prune(n.children) }));
  itMatchesPyTorchTrees(F.trees, calls, prune);
});
