// The reduce3 family against PyTorch 1.13 (fixtures/reduce3.json, written by fixtures/gen_reduce3.py):
// scans, logsumexp, norms (torch.norm as torch/functional.py dispatches it), order statistics, counting,
// unique and searchsorted/bucketize — values, dtypes, sizes, strides, out= results, meta results (or
// PyTorch's "no Meta kernel" error), error texts, and the aten ops each decomposition runs.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { itMatchesPyTorchTrees } from "../../support/call_tree.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";

const F = loadFixture("reduce3.json");

/**
 * Tolerances (relative to max(|PyTorch's value|, 1)) where PyTorch's float arithmetic is not reproduced
 * bit for bit: norms accumulate in float (opmath) with vectorized partial sums for p=2, logsumexp sums
 * exp() in float, logcumsumexp uses logf/expf. Here these run in double and round once (logcumsumexp
 * per step). Everything else — cumsum/cumprod (PyTorch accumulates in double for float32, float for
 * half), order statistics, counting, histc, searchsorted — is exact.
 */
function tolerance(name: string, dtype: string): number {
  const inexact = /norm|logsumexp|logcumsumexp|pairwise_distance|cosine_similarity/.test(name);
  if (!inexact) return 0;
  return ({ float32: 1e-6, float64: 1e-12, float16: 1e-3, bfloat16: 1e-2, int64: 1e-6, mixed: 1e-6 } as Record<string, number>)[dtype] ?? 0;
}

/**
 * Known differences: nanmedian's out= form on meta hits a bug in PyTorch 1.13's Python meta function
 * (TypeError: meta_nanmedian_dim() got an unexpected keyword argument 'values'); here it gives the
 * result shapes.
 */
const known = { skipMeta: new Set(["nanmedian_out", "err_nanmedian_out_values_dtype", "err_nanmedian_out_indices_dtype"]) };

describeOpCases("reduce3 ops match PyTorch (sizes, strides, dtype, values, out=, meta, errors)", F, { ...known, tolerance });

/**
 * The call trees compared: the ops a composite (CompositeImplicit/ExplicitAutograd) kernel calls, nested;
 * what a backend kernel does inside (PyTorch's TensorIterator restrides, fills, conversions) is not a
 * decomposition and is cut. aten::result_type is a plain function here, not an operator.
 */
const COMPOSITE = new Set([
  "aten::frobenius_norm", "aten::pairwise_distance", "aten::cosine_similarity", "aten::cummax", "aten::cummin",
  "aten::logcumsumexp", "aten::median", "aten::nanmedian", "aten::msort",
]);
type Node = { op: string; children: Node[] };
const prune = (nodes: Node[]): Node[] =>
  nodes.filter((n) => n.op !== "aten::result_type").map((n) => ({ op: n.op, children: COMPOSITE.has(n.op) ? prune(n.children) : [] }));

describe("decompositions run the ops PyTorch's do, nested the same way (profiler tree vs dispatch trace)", () => {
  const a34 = () => torch.arange(12, { dtype: torch.float32 }).view(3, 4);
  const b34 = () => torch.ones(3, 4);
  const a4 = () => torch.arange(4, { dtype: torch.float32 });
  const i6 = () => torch.tensor([1, 3, 3, 0, 5, 1]);
  const T = torch as any;
  const calls: Record<string, () => () => unknown> = {
    norm_default: () => { const a = a34(); return () => T.norm(a); },
    norm_p: () => { const a = a34(); return () => T.norm(a, 1); },
    norm_dim: () => { const a = a34(); return () => T.norm(a, 2, 1); },
    norm_dtype: () => { const a = a34(); return () => T.norm(a, 2, 1, { dtype: torch.float64 }); },
    norm_fro_dims: () => { const a = a34(); return () => T.norm(a, "fro", [0, 1]); },
    tensor_norm: () => { const a = a34() as any; return () => a.norm(3); },
    vector_norm: () => { const a = a34(); return () => T.linalg.vector_norm(a); },
    pairwise_distance: () => { const a = a34(), b = b34(); return () => T.pairwise_distance(a, b); },
    cosine_similarity: () => { const a = a34(), b = b34(); return () => T.cosine_similarity(a, b); },
    cosine_similarity_broadcast: () => { const a = a34(), b = a4(); return () => T.cosine_similarity(a, b); },
    median_dim_keep: () => { const a = a34(); return () => T.median(a, 1, true); },
    nanmedian_0d: () => { const a = torch.tensor(new Float32Array([2])).view([]); return () => T.nanmedian(a, 0); },
    cummin_out: () => { const a = a34(), v = torch.empty(0), i = torch.empty(0, { dtype: torch.int64 }); return () => T.cummin(a, 0, { out: [v, i] }); },
    msort_out: () => { const a = a34(), o = torch.empty(0); return () => T.msort(a, { out: o }); },
    frobenius_norm_out: () => { const a = a34(), o = torch.empty(0); return () => T.norm(a, "fro", [0, 1], { out: o }); },
    cumsum: () => { const a = a34(); return () => T.cumsum(a, 1); },
    cummax: () => { const a = a34(); return () => T.cummax(a, 1); },
    logcumsumexp: () => { const a = a34(); return () => T.logcumsumexp(a, 1); },
    median_dim: () => { const a = a34(); return () => T.median(a, 1); },
    mode: () => { const a = a34(); return () => T.mode(a); },
    topk: () => { const a = a34(); return () => T.topk(a, 2); },
    msort: () => { const a = a34(); return () => T.msort(a); },
    unique: () => { const a = i6(); return () => T.unique(a); },
    unique_dim: () => { const a = a34(); return () => T.unique(a, { dim: 0 }); },
    unique_consecutive: () => { const a = i6(); return () => T.unique_consecutive(a); },
    searchsorted: () => { const a = a34(), b = a4(); return () => T.searchsorted(b, a); },
    bucketize: () => { const a = a34(), b = a4(); return () => T.bucketize(a, b); },
    bincount: () => { const a = i6(); return () => T.bincount(a); },
    histc: () => { const a = a34(); return () => T.histc(a, 4); },
  };
  itMatchesPyTorchTrees(F.trees, calls, prune);
});

describe("Python-level functions (torch/functional.py, torch/_tensor.py)", () => {
  const x = () => torch.tensor(new Float32Array([3, 4, 0, 0])).view(2, 2);
  it("torch.norm and Tensor.norm are the Python functions, not the aten::norm bindings", () => {
    const T = torch as any;
    const { events } = torch.trace.record(() => (x() as any).norm());
    const calls = events.filter((e: any) => e.type === "call" && e.depth === 0).map((e: any) => e.name);
    expect(calls).toContain("aten::frobenius_norm.dim");
    expect(T.norm(x(), 1, 0).tolist()).toEqual([3, 4]);
  });
  it("torch.norm(p='nuc') calls aten::nuclear_norm (the norms family's fixtures check its values)", () => {
    const { events } = torch.trace.record(() => (torch as any).norm(x(), "nuc"));
    const calls = events.filter((e: any) => e.type === "call" && e.depth === 0).map((e: any) => e.name);
    expect(calls).toContain("aten::nuclear_norm");
  });
  it("torch.unique returns one tensor, or a tuple as return_inverse / return_counts ask", () => {
    const T = torch as any;
    const t = torch.tensor([2, 1, 2]);
    expect(T.unique(t).tolist()).toEqual([1, 2]);
    const [u, inv] = T.unique(t, { return_inverse: true });
    expect([u.tolist(), inv.tolist()]).toEqual([[1, 2], [1, 0, 1]]);
    const [u2, counts] = T.unique(t, true, false, true);
    expect([u2.tolist(), counts.tolist()]).toEqual([[1, 2], [1, 2]]);
    expect(() => T.unique(t, { bogus: 1 })).toThrow("unique() got an unexpected keyword argument 'bogus'");
  });
});
