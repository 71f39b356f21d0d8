// The backward of the layer ops runs the aten ops PyTorch 1.13's does: `y.sum().backward()` under a
// TorchDispatchMode (test/support/dispatch_log.ts) against PyTorch's own log (fixtures/layers_backward_trace.json,
// written by fixtures/gen_layers_backward_trace.py with _common.DispatchLog, MKLDNN disabled). F.conv2d(x, w)
// reaches aten::convolution_backward, the norms their fused backward ops, embedding aten::embedding_dense_backward
// (embedding_backward is CompositeImplicitAutograd, so the mode sees what it calls), upsampling and padding their
// backward ops — with the sizes and int arguments PyTorch passes (aten::detach aside, see below).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { loadFixture } from "../support/fixtures.js";
import { DispatchLog } from "../support/dispatch_log.js";

const F = torch.nn.functional as any;
const FX = loadFixture("layers_backward_trace.json");

const r = (...s: any[]): Tensor => {
  const grad = typeof s[s.length - 1] === "object" ? s.pop().grad : true;
  const n = s.reduce((a: number, b: number) => a * b, 1);
  return torch.arange(1, n + 1, { dtype: torch.float32 }).reshape(s).div(n).requires_grad_(grad);
};

const CASES: Record<string, () => Tensor> = {
  conv2d: () => F.conv2d(r(2, 3, 5, 5), r(4, 3, 3, 3)),
  "conv2d bias": () => F.conv2d(r(2, 3, 5, 5), r(4, 3, 3, 3), r(4)),
  "conv2d input only": () => F.conv2d(r(1, 2, 4, 4), r(2, 2, 3, 3, { grad: false })),
  "conv2d dilation groups": () => F.conv2d(r(1, 4, 5, 5), r(2, 2, 2, 2), null, 1, 1, 2, 2),
  conv_transpose2d: () => F.conv_transpose2d(r(1, 2, 3, 3), r(2, 3, 2, 2), r(3), 2),
  conv1d: () => F.conv1d(r(2, 3, 6), r(4, 3, 3)),
  batch_norm: () => F.batch_norm(r(3, 2, 4), null, null, r(2), r(2), { training: true }),
  "batch_norm eval": () => F.batch_norm(r(3, 2, 4), r(2, { grad: false }), r(2, { grad: false }).add(1), r(2), r(2), { training: false }),
  layer_norm: () => F.layer_norm(r(2, 3, 4), [4], r(4), r(4)),
  group_norm: () => F.group_norm(r(2, 4, 3), 2, r(4), r(4)),
  embedding: () => F.embedding(torch.tensor([[1, 2], [0, 2]]), r(3, 4)),
  "interpolate nearest": () => F.interpolate(r(1, 2, 3, 3), { scale_factor: 1.5, mode: "nearest" }),
  "interpolate bilinear": () => F.interpolate(r(1, 2, 3, 3), { size: [4, 5], mode: "bilinear", align_corners: false }),
  "interpolate nearest 1d": () => F.interpolate(r(1, 2, 3), { size: [5], mode: "nearest" }),
  "pad reflect": () => F.pad(r(1, 2, 3, 4), [1, 1, 2, 0], { mode: "reflect" }),
  "pad replicate 1d": () => F.pad(r(2, 3, 4), [2, 1], { mode: "replicate" }),
  "pad replicate 3d": () => F.pad(r(1, 1, 2, 3, 3), [1, 1, 1, 0, 0, 1], { mode: "replicate" }),
};

/**
 * F.conv2d(x, w) hands at::convolution an undefined bias inside an optional, whose sizes PyTorch saves as
 * bias_sizes [0]; Glasstorch has no undefined tensor distinct from None and passes bias_sizes None (what PyTorch
 * passes for torch.convolution(x, w, None, ...)). It is only read when the bias needs a gradient.
 */
const noUndefinedBias = (calls: any[]): any[] =>
  calls.map((x) => (x.op === "aten::convolution_backward" && JSON.stringify(x.args[3]) === "[0]" ? { ...x, args: [...x.args.slice(0, 3), ...x.args.slice(4)] } : x));

describe("the backward of the layer ops reaches PyTorch's backward ops (TorchDispatchMode log vs PyTorch's)", () => {
  for (const c of FX.cases) {
    it(`${c.name}: ${c.grad_fn}`, () => {
      const y = CASES[c.name]();
      expect(y.grad_fn!.name()).toBe(c.grad_fn);
      const log = new DispatchLog();
      {
        using _m = log.enter();
        y.sum().backward();
      }
      // PyTorch's AccumulateGrad stores `new_grad.detach()` (aten::detach in its log, after the backward op, and
      // SavedVariable unpacks detach too); Glasstorch's engine does not dispatch those: compared without detach
      const noDetach = (calls: { op: string }[]) => calls.filter((x) => x.op !== "aten::detach");
      expect(noDetach(log.calls)).toEqual(noUndefinedBias(noDetach(c.calls)));
    });
  }
});

describe("second order: the gradient's backward runs PyTorch's double-backward formula (ConvolutionBackwardBackward0)", () => {
  const DOUBLE: Record<string, () => [Tensor, Tensor[]]> = {
    "conv2d double backward": () => { const x = r(1, 2, 4, 4), w = r(3, 2, 3, 3); return [F.conv2d(x, w), [x, w]]; },
    "conv_transpose2d double backward": () => { const x = r(1, 2, 3, 3), w = r(2, 2, 2, 2); return [F.conv_transpose2d(x, w, null, 2), [x, w]]; },
  };
  // batchnorm_double_backward / layer_norm_double_backward chain in-place ops (div_, sub_, add_) on fresh
  // temporaries in PyTorch; FunctionsManual.ts writes them out of place (same values): their logs differ there
  for (const c of FX.double.filter((d: any) => d.name in DOUBLE)) {
    it(`${c.name}: ${c.grad_fn}`, () => {
      const [y, ins] = DOUBLE[c.name]();
      const gs = torch.autograd.grad([y.pow(2).sum()], ins, { create_graph: true }) as Tensor[];
      expect(gs[0].grad_fn!.name()).toBe(c.grad_fn);
      const log = new DispatchLog();
      {
        using _m = log.enter();
        gs.map((g) => g.sum()).reduce((a, b) => a.add(b)).backward();
      }
      // compared: the convolution family's calls (with their sizes and int arguments), in order. The rest of
      // the log is pow's backward and the engine's gradient accumulation, which other parts own
      const convOps = new Set(["aten::convolution", "aten::transpose.int", "aten::narrow", "aten::cat", "aten::convolution_backward"]);
      const conv = (calls: { op: string }[]) => calls.filter((x) => convOps.has(x.op));
      expect(conv(log.calls)).toEqual(noUndefinedBias(conv(c.calls)));
    });
  }
});
