// Scaled dot-product attention against PyTorch 1.13 (fixtures/attention.json, written by
// fixtures/gen_attention.py): torch.nn.functional._scaled_dot_product_attention and the aten ops
// _scaled_dot_product_attention_forward / _scaled_dot_product_attention_math — output and attention
// weights (sizes, strides, dtype, values), masks (bool, float, int, broadcast), is_causal, dropout under
// torch.manual_seed(0) (PyTorch's mask), meta results, error texts — the aten ops each call reaches at the
// Python dispatch key, and F.scaled_dot_product_attention (the 2.0 API over the 1.13 op).
//
// Tolerances (relative to max(|PyTorch's value|, 1)): softmax's exp and the matmuls' summation order differ
// from PyTorch's vectorized kernels in the last bits: 1e-6 for float32, 1e-12 for float64, 1e-2 for bfloat16.
import { describe, it, expect, beforeEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { buildWindow } from "../../support/windows.js";
import { describeOpCases } from "../../support/op_cases.js";
import { DispatchLog } from "../../support/dispatch_log.js";

const F = loadFixture("attention.json");
const TOL: Record<string, number> = { float32: 1e-6, float64: 1e-12, bfloat16: 1e-2 };
const nnF = torch.nn.functional as any;

describe("attention", () => {
  // every call runs right after manual_seed(0), as in the script: the dropout cases replay PyTorch's mask
  beforeEach(() => { torch.manual_seed(0); });
  describeOpCases("attention family vs PyTorch 1.13", F, { tolerance: (_name, dtype) => TOL[dtype] ?? 0 });
});

// ---- the dispatch trace ----

const Log = DispatchLog;

const M = (...a: unknown[]) => (torch as any).ops.aten._scaled_dot_product_attention_math.default.call(...a);
type In = [any, any, any, any, any];
const dispatchCalls: Record<string, (...a: In) => unknown> = {
  sdpa: (q, k, v) => nnF._scaled_dot_product_attention(q, k, v),
  sdpa_mask_causal: (q, k, v, bm) => nnF._scaled_dot_product_attention(q, k, v, bm, 0.5, true, false),
  math: (q, k, v) => M(q, k, v),
  math_causal: (q, k, v) => M(q, k, v, null, 0.0, false, true),
  math_bool_mask: (q, k, v, bm) => M(q, k, v, bm),
  math_float_mask: (q, k, v, _bm, fm) => M(q, k, v, fm),
  math_dropout: (q, k, v) => M(q, k, v, null, 0.5),
  sdpa_requires_grad: (q, k, v, _bm, fm) => nnF._scaled_dot_product_attention(q.requires_grad_(), k, v, fm),
};

/**
 * A known difference, outside this family, dropped from PyTorch's log: under autograd PyTorch's _softmax
 * saves its result for backward with a detach() that shows in the trace (aten::detach after aten::_softmax);
 * Glasstorch's autograd saves it without a dispatched detach. (dropout's noise.bernoulli_(1 - p) is the
 * dispatched aten::bernoulli_.float in both.)
 */
const NOT_DISPATCHED = new Set(["aten::detach"]);

describe("attention reaches the aten ops PyTorch's does, in order (TorchDispatchMode log vs PyTorch's)", () => {
  for (const d of F.dispatch) {
    it(d.name, () => {
      const r = (...s: number[]) =>
        torch.arange(s.reduce((a, b) => a * b, 1)).reshape(s).remainder(7).sub(3).div(4.0);
      const q = r(2, 3, 4), k = r(2, 5, 4), v = r(2, 5, 6);
      const bm = r(3, 5).gt(-0.5), fm = r(3, 5);
      const mode = new Log();
      torch.manual_seed(0);
      {
        using _m = mode.enter();
        dispatchCalls[d.name](q, k, v, bm, fm);
      }
      expect(mode.calls).toEqual(d.calls.filter((c: any) => !NOT_DISPATCHED.has(c.op)));
    });
  }
  it("every recorded call is exercised", () => {
    expect(Object.keys(dispatchCalls).sort()).toEqual(F.dispatch.map((d: any) => d.name).sort());
  });
});

// ---- F.scaled_dot_product_attention: the 2.0 API over the 1.13 op ----

describe("F.scaled_dot_product_attention (PyTorch 2.0's signature) is the 1.13 op's output", () => {
  const fixtureCase = (name: string, dtype: string) => F.cases.find((c: any) => c.name === name).results.find((r: any) => r.dtype === dtype);
  const args = (r: any) => r.args.map((a: any) => (a && a.tensor ? buildWindow(a.tensor) : a));
  const values = (r: any) => r.cpu.list[0].values;
  const close = (got: number[][][], want: number[][][]) =>
    expect(got.flat(2).every((g, i) => Math.abs(g - (want.flat(2) as number[])[i]) <= 1e-6 * Math.max(1, Math.abs((want.flat(2) as number[])[i])))).toBe(true);

  it("plain, with a bool mask, causal: PyTorch's output", () => {
    for (const [name, extra] of [["sdpa", {}], ["sdpa_causal", { is_causal: true }]] as const) {
      const r = fixtureCase(name, "float32");
      const [q, k, v] = args(r);
      const out = nnF.scaled_dot_product_attention(q, k, v, extra);
      expect([...out.shape]).toEqual(r.cpu.list[0].sizes);
      close(out.tolist(), values(r));
    }
    const r = fixtureCase("sdpa_bool_mask", "float32");
    const [q, k, v, mask] = args(r);
    close(nnF.scaled_dot_product_attention(q, k, v, { attn_mask: mask }).tolist(), values(r));
    close(nnF.scaled_dot_product_attention(q, k, v, mask).tolist(), values(r)); // positionally
  });

  it("dropout under manual_seed(0): PyTorch's mask", () => {
    const r = fixtureCase("sdpa_dropout", "float64");
    const [q, k, v] = args(r);
    torch.manual_seed(0);
    const out = nnF.scaled_dot_product_attention(q, k, v, { dropout_p: 0.5 });
    close(out.tolist(), values(r));
  });

  it("keeps 1.13's errors", () => {
    const r = fixtureCase("err_sdpa_causal_and_mask", "float32");
    const [q, k, v, mask] = args(r);
    expect(() => nnF.scaled_dot_product_attention(q, k, v, { attn_mask: mask, is_causal: true })).toThrow(r.cpu.message);
  });
});
