// The ops the activation and loss family's backward runs, against PyTorch 1.13's TorchDispatchMode log of the
// same programs (fixtures/act_trace.json, written by fixtures/gen_act_trace.py): F.gelu(x).sum().backward() runs
// aten::gelu_backward, F.mse_loss(x, t).backward() aten::mse_loss_backward twice, kl_div's target reaches
// aten::xlogy's gradient, and a create_graph gradient differentiated again runs the backward op's own formula.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { loadFixture } from "../support/fixtures.js";
import { DispatchLog } from "../support/dispatch_log.js";

const F = loadFixture("act_trace.json");
const T = torch as any;
const nnF = T.nn.functional;

function leaf(spec: { shape: number[]; lo?: number; hi?: number }): Tensor {
  const lo = spec.lo ?? -2, hi = spec.hi ?? 2;
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const vals = Array.from({ length: n }, (_, i) => lo + ((hi - lo) * (((i * 7) % 11) + 0.5)) / 11);
  return torch.tensor(vals, { dtype: torch.float64 }).reshape(spec.shape).requires_grad_();
}

const double = (fn: (x: Tensor) => Tensor) => (x: Tensor) => {
  const [g] = torch.autograd.grad([fn(x).sum()], [x], { create_graph: true }) as Tensor[];
  g.mul(g).sum().backward();
};

const PROGRAMS: Record<string, (...xs: Tensor[]) => void> = {
  gelu: (x) => nnF.gelu(x).sum().backward(),
  "gelu tanh": (x) => nnF.gelu(x, { approximate: "tanh" }).sum().backward(),
  elu: (x) => nnF.elu(x, 1.5).sum().backward(),
  celu: (x) => nnF.celu(x, 0.5).sum().backward(),
  softplus: (x) => nnF.softplus(x, 2.0, 1.0).sum().backward(),
  hardswish: (x) => nnF.hardswish(x).sum().backward(),
  silu: (x) => nnF.silu(x).sum().backward(),
  mish: (x) => nnF.mish(x).sum().backward(),
  logsigmoid: (x) => nnF.logsigmoid(x).sum().backward(),
  softmax: (x) => nnF.softmax(x, 1).sum().backward(),
  log_softmax: (x) => nnF.log_softmax(x, 0).sum().backward(),
  mse_loss: (x, t) => nnF.mse_loss(x, t).backward(),
  smooth_l1_loss: (x, t) => nnF.smooth_l1_loss(x, t, { reduction: "sum", beta: 0.5 }).backward(),
  huber_loss: (x, t) => nnF.huber_loss(x, t, { reduction: "none", delta: 0.7 }).sum().backward(),
  binary_cross_entropy: (x, t) => nnF.binary_cross_entropy(x, t).backward(),
  kl_div: (x, t) => nnF.kl_div(x, t, { reduction: "sum" }).backward(),
  xlogy: (x, y) => torch.xlogy(x, y).sum().backward(),
  "gelu double": double((x) => nnF.gelu(x)),
  "elu double": double((x) => nnF.elu(x, 1.5)),
  "softplus double": double((x) => nnF.softplus(x, 2.0, 1.0)),
  "logsigmoid double": double((x) => nnF.logsigmoid(x)),
  "softmax double": double((x) => nnF.softmax(x, 1)),
  "silu double": double((x) => nnF.silu(x)),
};

function record(p: any): { op: string; args: unknown[] }[] {
  const inputs = p.inputs.map(leaf);
  const log = new DispatchLog();
  {
    using _m = log.enter();
    PROGRAMS[p.name](...inputs);
  }
  return log.calls;
}

type Call = { op: string; args: unknown[] };
// Every op is compared, in order, with its tensor arguments' sizes, up to three known differences outside this
// family, rewritten on PyTorch's side:
// - aten::detach, where PyTorch's autograd engine detaches a tensor (AccumulateGrad storing .grad, a SavedVariable
//   saving an output): Glasstorch's engine does that without an op call, so detach is left out of both logs;
// - aten::add.Scalar: Glasstorch has no add.Scalar overload yet, C++'s `t + s` runs add.Tensor with a wrapped scalar;
// - aten::sigmoid_backward: not an operator in Glasstorch yet; FunctionsManual's sigmoid_backward computes
//   grad * (1 - y) * y as neg, add.Tensor, mul, mul.
const ops = (calls: readonly Call[]): Call[] => calls.filter((c) => c.op !== "aten::detach");
function asGlasstorch(calls: readonly Call[]): Call[] {
  return ops(calls).flatMap((c): Call[] => {
    const [t] = c.args as { t: number[] }[];
    if (c.op === "aten::add.Scalar") return [{ op: "aten::add.Tensor", args: [t, { t: [] }] }];
    if (c.op === "aten::sigmoid_backward") {
      return [
        { op: "aten::neg", args: [t] }, { op: "aten::add.Tensor", args: [t, { t: [] }] },
        { op: "aten::mul.Tensor", args: [t, t] }, { op: "aten::mul.Tensor", args: [t, t] },
      ];
    }
    return [c];
  });
}

describe("the activation and loss backward runs PyTorch's ops (act_trace.json)", () => {
  for (const p of F.programs) {
    it(p.name, () => {
      expect(ops(record(p))).toEqual(asGlasstorch(p.calls));
    });
  }
  it("every program in the fixture has a twin here", () => {
    expect(Object.keys(PROGRAMS).sort()).toEqual(F.programs.map((p: any) => p.name).sort());
  });
});
