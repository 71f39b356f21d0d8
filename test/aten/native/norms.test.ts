// The norms family against PyTorch 1.13 (fixtures/norms.json, written by fixtures/gen_norms.py):
// torch.linalg.matrix_norm (ord +-1, +-2, +-inf, 'fro', 'nuc'), torch.linalg.norm, torch.nuclear_norm and
// torch.norm(p='nuc') and Tensor.unsqueeze_ — sizes, strides, dtypes, values, out= results, meta results, error texts — and the
// aten ops each composite reaches at the Python dispatch key, in PyTorch's order (TorchDispatchMode on both
// sides).
//
// Tolerances (relative to max(|PyTorch's value|, 1)): the singular values (nuc, +-2) come from a one-sided
// Jacobi SVD here and LAPACK's gesdd in PyTorch: 1e-5 for float32, 1e-12 for float64. The vector-norm
// paths (fro, +-1, +-inf) sum in another order than PyTorch's vectorized reduction: 1e-6 for float32,
// 1e-12 for float64, 1e-3 for float16, 1e-2 for bfloat16 (as reduce3's linalg.vector_norm tests).
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";
import { DispatchLog } from "../../support/dispatch_log.js";

const F = loadFixture("norms.json");
const TOL: Record<string, number> = { float32: 1e-5, float64: 1e-12, float16: 1e-3, bfloat16: 1e-2 };

describeOpCases("norms family vs PyTorch 1.13", F, { tolerance: (_name, dtype) => TOL[dtype] ?? 0 });

// ---- the dispatch trace: the ops each composite reaches at the Python key ----

const Log = DispatchLog;

const INF = Infinity;
const L = torch.linalg as any;
const T = torch as any;
const dispatchCalls: Record<string, (A: any) => unknown> = {
  mn_fro: (A) => L.matrix_norm(A),
  mn_nuc: (A) => L.matrix_norm(A, "nuc"),
  mn_2: (A) => L.matrix_norm(A, 2),
  mn_m2_keepdim: (A) => L.matrix_norm(A, -2, { keepdim: true }),
  mn_1: (A) => L.matrix_norm(A, 1),
  mn_inf_keepdim: (A) => L.matrix_norm(A, INF, { keepdim: true }),
  mn_m1_dims: (A) => L.matrix_norm(A, -1, { dim: [0, 2] }),
  mn_minf_dims_reversed: (A) => L.matrix_norm(A, -INF, { dim: [2, 0] }),
  mn_nuc_dims_keepdim: (A) => L.matrix_norm(A, "nuc", { dim: [2, 0], keepdim: true }),
  mn_fro_dtype: (A) => L.matrix_norm(A, { dtype: torch.float64 }),
  mn_nuc_dtype: (A) => L.matrix_norm(A, "nuc", { dtype: torch.float64 }),
  mn_out: (A) => L.matrix_norm(A, { out: torch.empty(0) }),
  mn_nuc_out: (A) => L.matrix_norm(A, "nuc", { out: torch.empty(0) }),
  ln_default: (A) => L.norm(A),
  ln_vector: (A) => L.norm(A.select(0, 0).select(0, 0), 2),
  ln_fro: (A) => L.norm(A.select(0, 0), "fro"),
  ln_nuc_dim: (A) => L.norm(A, "nuc", { dim: [1, 2] }),
  ln_3_dim: (A) => L.norm(A, 3, { dim: 1 }),
  ln_none_dim2: (A) => L.norm(A, null, { dim: [0, 1] }),
  ln_inf_matrix: (A) => L.norm(A.select(0, 1), INF),
  ln_out: (A) => L.norm(A, { out: torch.empty(0) }),
  nuclear_norm: (A) => T.nuclear_norm(A.select(0, 0)),
  nuclear_norm_keepdim: (A) => T.nuclear_norm(A.select(0, 0), { keepdim: true }),
  nuclear_norm_dim: (A) => T.nuclear_norm(A, { dim: [0, 1] }),
  nuclear_norm_dim_keepdim: (A) => T.nuclear_norm(A, { dim: [1, 0], keepdim: true }),
  nuclear_norm_out: (A) => T.nuclear_norm(A.select(0, 0), { out: torch.empty(0) }),
  norm_nuc: (A) => torch.norm(A.select(0, 0), { p: "nuc" }),
  norm_nuc_dim: (A) => torch.norm(A, { p: "nuc", dim: [1, 2] }),
};

describe("norm composites reach the aten ops PyTorch's do, in order (TorchDispatchMode log vs PyTorch's)", () => {
  for (const d of F.dispatch) {
    it(d.name, () => {
      // the calls that make the input (arange, reshape) and out= (empty) happen outside the mode, as in the script
      const A = torch.arange(24, { dtype: torch.float32 }).reshape(2, 3, 4);
      const fn = dispatchCalls[d.name];
      const mode = new Log();
      {
        using _m = mode.enter();
        fn(A);
      }
      // empty(0) for out= is made inside PyTorch's mode; here too, it is kept. resize_output dispatches
      // aten::resize_ in PyTorch; the engine resizes directly (as linalg.test.ts notes)
      expect(mode.calls).toEqual(d.calls.filter((c: any) => c.op !== "aten::resize_"));
    });
  }
  it("every recorded call is exercised", () => {
    expect(Object.keys(dispatchCalls).sort()).toEqual(F.dispatch.map((d: any) => d.name).sort());
  });
});
