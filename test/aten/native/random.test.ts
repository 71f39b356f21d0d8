// The bernoulli dispatcher ops (random.yaml) against PyTorch 1.13 (test/fixtures/gen_bernoulli.py ->
// bernoulli.json): the same values for the same torch.manual_seed (torch.bernoulli(p), bernoulli.p,
// Tensor.bernoulli_(float) and (Tensor), out=, a torch.Generator that leaves the default one alone), the
// error texts, meta results, the aten ops torch.bernoulli and the dropouts reach (TorchDispatchMode log: CPU
// dropout draws its noise with aten::bernoulli_.float, as _dropout_impl does), the dropouts' values, and the
// autograd Nodes (BernoulliBackward0..2, zero gradients; bernoulli.p is CompositeImplicitAutograd, no Node).
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import type { Tensor } from "../../../engine/aten/core/Tensor.js";
import { loadFixture } from "../../support/fixtures.js";
import { DispatchLog } from "../../support/dispatch_log.js";
const T = torch as any;
const F = loadFixture("bernoulli.json");

const P = [0.1, 0.5, 0.9, 0.25, 0.75, 0.0, 1.0, 0.6, 0.3, 0.45, 0.55, 0.8];
const probs = (dtype: any) => torch.tensor(P, { dtype }).reshape([3, 4]);
const seeded = (seed: number, fn: () => Tensor) => {
  torch.manual_seed(seed);
  return fn();
};
const vals = (t: Tensor) => ({ sizes: [...t.shape], dtype: t.dtype.name, values: t.reshape([-1]).tolist() });

const CALLS: Record<string, (d: any) => Tensor> = {
  bernoulli: (d) => seeded(1, () => torch.bernoulli(probs(d))),
  bernoulli_t: (d) => seeded(2, () => torch.bernoulli(probs(d).t())),
  bernoulli_p: (d) => seeded(3, () => torch.bernoulli(torch.empty(3, 4, { dtype: d }), 0.3)),
  bernoulli__float: (d) => seeded(4, () => torch.empty(3, 4, { dtype: d }).bernoulli_(0.7)),
  bernoulli__default: (d) => seeded(5, () => torch.empty(5, { dtype: d }).bernoulli_()),
  bernoulli__Tensor: (d) => seeded(6, () => torch.empty(3, 4, { dtype: d }).bernoulli_(probs(d))),
  bernoulli_out: (d) => seeded(7, () => torch.bernoulli(probs(d), { out: torch.empty(0, { dtype: d }) })),
  generator: (d) => {
    const g = new torch.Generator().manual_seed(11);
    torch.manual_seed(0);
    const a = torch.bernoulli(probs(d), { generator: g });
    const b = torch.empty(3, 4, { dtype: d }).bernoulli_(0.5, { generator: g });
    const c = torch.rand(3);
    return torch.cat([a.reshape([-1]), b.reshape([-1]), c.to(d)]);
  },
  bernoulli__Tensor_expand: (d) => seeded(9, () => torch.empty(3, 4, { dtype: d }).bernoulli_(torch.tensor([0.2, 0.5, 0.7, 0.9], { dtype: d }))),
  bernoulli__Tensor_int: () => seeded(8, () => torch.empty(3, 4, { dtype: torch.int64 }).bernoulli_(probs(torch.float64))),
};

describe("bernoulli draws PyTorch's values for the same seed", () => {
  for (const c of F.cases) {
    it(c.name, () => {
      expect(vals(CALLS[c.call](T[c.dtype]))).toEqual(c.value);
    });
  }
});

describe("errors and meta", () => {
  it("PyTorch's refusals (and none on meta)", () => {
    const E = F.errors;
    expect(() => torch.empty(3).bernoulli_(1.5)).toThrow(expect.objectContaining({ name: E["p out of range"].error, message: E["p out of range"].message }));
    expect(() => torch.bernoulli(torch.tensor([0.5, 1.5]))).toThrow(expect.objectContaining({ name: E["tensor p out of range"].error, message: E["tensor p out of range"].message }));
    expect(() => torch.empty(3, { dtype: torch.float16 }).bernoulli_(0.3)).toThrow(expect.objectContaining({ name: E.half.error, message: E.half.message }));
    expect(E["meta p out of range"]).toBeNull();
    expect(() => torch.empty(3, 4).bernoulli_(torch.full([12], 0.5))).toThrow(expect.objectContaining({ name: E["p not expandable"].error, message: E["p not expandable"].message }));
    expect(() => torch.empty(3, { device: "meta" }).bernoulli_(1.5)).not.toThrow();
  });
  it("meta results have PyTorch's sizes and dtype", () => {
    const a = torch.bernoulli(torch.empty(2, 3, { device: "meta" }));
    const b = torch.bernoulli(torch.empty(2, 3, { device: "meta", dtype: torch.float64 }), 0.5);
    expect([{ sizes: [...a.shape], dtype: a.dtype.name }, { sizes: [...b.shape], dtype: b.dtype.name }]).toEqual([F.meta.bernoulli, F.meta.bernoulli_p]);
    expect(a.is_meta && b.is_meta).toBe(true);
  });
});

describe("the aten ops reached (TorchDispatchMode log vs PyTorch's)", () => {
  const nnF = T.nn.functional;
  const x = torch.arange(24, { dtype: torch.float32 }).reshape([2, 3, 4]).div(10);
  const p32 = probs(torch.float32);
  const RUN: Record<string, () => unknown> = {
    bernoulli: () => torch.bernoulli(p32),
    bernoulli_p: () => torch.bernoulli(x, 0.3),
    dropout: () => nnF.dropout(x, 0.4),
    dropout_inplace: () => nnF.dropout(x.clone(), 0.4, { inplace: true }),
    dropout2d: () => nnF.dropout2d(x.reshape([1, 2, 3, 4]), 0.4),
    alpha_dropout: () => nnF.alpha_dropout(x, 0.4, true),
  };
  // Ops PyTorch's dropouts reach that Glasstorch does not declare yet (binary/shape families): feature dropout's
  // input.new_empty(...) runs aten::empty.memory_format here, and alpha dropout's Scalar overloads
  // (noise.add(-1), b.mul_(s), b.add_(s), noise.mul_(a)) run the Tensor overloads with a wrapped number.
  const NOT_DECLARED: Record<string, string> = {
    "aten::new_empty": "aten::empty.memory_format", "aten::add.Scalar": "aten::add.Tensor",
    "aten::mul_.Scalar": "aten::mul_.Tensor", "aten::add_.Scalar": "aten::add_.Tensor",
  };
  for (const [name, calls] of Object.entries(F.dispatch)) {
    it(name, () => {
      const log = new DispatchLog();
      {
        using _m = log.enter();
        RUN[name]();
      }
      expect(log.calls.map((c) => c.op)).toEqual((calls as any[]).map((c) => NOT_DECLARED[c.op] ?? c.op));
    });
  }
  it("the dropouts' values for the same seed", () => {
    expect(vals(seeded(21, () => nnF.dropout(x, 0.4)))).toEqual(F.dropout.dropout);
    expect(vals(seeded(22, () => nnF.dropout2d(x.reshape([1, 2, 3, 4]), 0.4)))).toEqual(F.dropout.dropout2d);
    const a = vals(seeded(23, () => nnF.alpha_dropout(x, 0.4, true)));
    expect([a.sizes, a.dtype]).toEqual([F.dropout.alpha_dropout.sizes, F.dropout.alpha_dropout.dtype]);
    a.values.forEach((v: number, i: number) => expect(Math.abs(v - F.dropout.alpha_dropout.values[i])).toBeLessThanOrEqual(1e-6));
  });
});

describe("autograd", () => {
  it("BernoulliBackward0..2 with zero gradients; bernoulli.p records nothing", () => {
    const p = probs(torch.float64).requires_grad_();
    const b0 = torch.bernoulli(p);
    const s = p.clone();
    s.bernoulli_(0.3);
    const t = p.clone();
    t.bernoulli_(p);
    const u = torch.bernoulli(p, 0.3);
    const G = F.grads;
    expect([b0.grad_fn!.name(), s.grad_fn!.name(), t.grad_fn!.name(), u.grad_fn?.name() ?? null]).toEqual(G.names);
    expect(t.grad_fn!.next_functions.map(([n, i]) => [n?.name() ?? null, i])).toEqual(G.next_functions_Tensor.map(([n, i]: [string, number]) => [n.replace("torch::autograd::", ""), i]));
    const W = torch.arange(12, { dtype: torch.float64 }).reshape([3, 4]);
    expect(torch.autograd.grad([b0], [p], { grad_outputs: [W] })[0]!.reshape([-1]).tolist()).toEqual(G.bernoulli);
    expect(torch.autograd.grad([t], [p], { grad_outputs: [W] })[0]!.reshape([-1]).tolist()).toEqual(G.bernoulli__Tensor);
    expect(u.requires_grad).toBe(G.requires_grad_p);
  });
});
