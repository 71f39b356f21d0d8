// torch.autograd.gradcheck (float64, slow mode: eps 1e-6, atol 1e-5, rtol 1e-3) over the upsampling and
// reflection/replication padding entries of derivatives.yaml (their backward ops), and over the gradients of
// the layer ops whose formulas call fused backward ops (the first-order gradient as a function of every input,
// as gradgradcheck does): that differentiates ConvolutionBackwardBackward0 (_convolution_double_backward),
// NativeBatchNormBackwardBackward0 (batchnorm_double_backward), NativeLayerNormBackwardBackward0
// (layer_norm_double_backward), group norm's composite backward, EmbeddingDenseBackwardBackward0 and the
// upsampling / padding backward ops' own entries. PyTorch 1.13 accepts all of these too.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const { gradcheck } = torch.autograd;
const T = torch as any;
const u = (n: number, lo: number, hi: number, seed: number) => Array.from({ length: n }, (_, i) => lo + ((((i + 1) * 7919 * seed) % 997) / 997) * (hi - lo));
const X = (shape: number[], lo = -2, hi = 2, seed = 1, grad = true) =>
  torch.tensor(u(shape.reduce((a, b) => a * b, 1), lo, hi, seed), { dtype: torch.float64 }).reshape(shape).requires_grad_(grad);

type Case = [string, (...a: any[]) => Tensor | Tensor[], () => any[]];
const CASES: Case[] = [
  ["upsample_nearest2d.vec", (x) => T._C._nn.upsample_nearest2d(x, [5, 7], null), () => [X([1, 2, 3, 4])]],
  ["upsample_nearest2d scales", (x) => T._C._nn.upsample_nearest2d(x, [7, 5], 2.5, 1.75), () => [X([1, 1, 3, 3])]],
  ["upsample_nearest1d.vec", (x) => T._C._nn.upsample_nearest1d(x, null, [2.0]), () => [X([2, 2, 3])]],
  ["upsample_bilinear2d", (x) => T._C._nn.upsample_bilinear2d(x, [5, 3], false), () => [X([1, 2, 3, 4])]],
  ["upsample_bilinear2d.vec align_corners", (x) => T._C._nn.upsample_bilinear2d(x, null, true, [2.0, 1.5]), () => [X([1, 1, 3, 2])]],
  ["reflection_pad1d", (x) => T._C._nn.reflection_pad1d(x, [2, 1]), () => [X([2, 4])]],
  ["reflection_pad2d", (x) => T._C._nn.reflection_pad2d(x, [1, 2, 2, 0]), () => [X([1, 3, 4])]],
  ["reflection_pad3d", (x) => T._C._nn.reflection_pad3d(x, [1, 1, 0, 1, 1, 0]), () => [X([1, 2, 2, 3])]],
  ["replication_pad1d", (x) => T._C._nn.replication_pad1d(x, [2, 3]), () => [X([1, 2, 3])]],
  ["replication_pad2d", (x) => T._C._nn.replication_pad2d(x, [0, 2, 1, 1]), () => [X([2, 2, 3])]],
  ["replication_pad3d", (x) => T._C._nn.replication_pad3d(x, [1, 0, 0, 1, 1, 1]), () => [X([1, 2, 2, 2])]],
];

/** The first-order gradients of f (with a fixed upstream gradient) as a function of the inputs. */
const gradOf = (f: (...a: Tensor[]) => Tensor, k: number) => (...a: Tensor[]) => {
  const y = f(...a);
  const v = torch.tensor(u(y.numel(), -1, 1, 7), { dtype: torch.float64 }).reshape([...y.shape]);
  return torch.autograd.grad([y], a.slice(0, k), { grad_outputs: [v], create_graph: true }) as Tensor[];
};
const SECOND: Case[] = [
  // through _convolution_double_backward / batchnorm_double_backward / layer_norm_double_backward, all inputs
  ["conv2d dilation groups (all inputs)", gradOf((x, w, b) => T.conv2d(x, w, b, 1, 1, [2, 1], 2), 3), () => [X([1, 4, 4, 3]), X([2, 2, 2, 2], -1, 1, 2), X([2], -1, 1, 3)]],
  ["conv1d (all inputs)", gradOf((x, w, b) => T.conv1d(x, w, b, 2, 1), 3), () => [X([1, 2, 5]), X([2, 2, 3], -1, 1, 2), X([2], -1, 1, 3)]],
  ["conv_transpose2d output_padding (all inputs)", gradOf((x, w, b) => T.conv_transpose2d(x, w, b, 2, 1, 1), 3), () => [X([1, 2, 2, 2]), X([2, 1, 3, 2], -1, 1, 2), X([1], -1, 1, 3)]],
  ["batch_norm training (all inputs)", gradOf((x, w, b) => T.batch_norm(x, w, b, null, null, true, 0.1, 1e-5, false), 3), () => [X([3, 2, 2]), X([2], 0.5, 2, 2), X([2], -1, 1, 3)]],
  ["batch_norm eval (all inputs)", gradOf((x, w, b) => T.batch_norm(x, w, b, X([2], -1, 1, 4, false), X([2], 0.5, 2, 5, false), false, 0.1, 1e-5, false), 3), () => [X([3, 2, 2]), X([2], 0.5, 2, 2), X([2], -1, 1, 3)]],
  ["layer_norm 2 dims (all inputs)", gradOf((x, w, b) => T.layer_norm(x, [2, 2], w, b), 3), () => [X([2, 2, 2]), X([2, 2], 0.5, 2, 2), X([2, 2], -1, 1, 3)]],
  ["group_norm (all inputs)", gradOf((x, w, b) => T.group_norm(x, 2, w, b), 3), () => [X([2, 4, 2]), X([4], 0.5, 2, 2), X([4], -1, 1, 3)]],
  ["embedding", gradOf((w) => T.embedding(w, torch.tensor([[1, 3, 1], [0, 4, 1]])).pow(2), 1), () => [X([5, 3])]],
  ["upsample_bilinear2d", gradOf((x) => T._C._nn.upsample_bilinear2d(x, [4, 3], false).pow(2), 1), () => [X([1, 1, 2, 3])]],
  ["reflection_pad2d", gradOf((x) => T._C._nn.reflection_pad2d(x, [1, 1, 1, 0]).pow(2), 1), () => [X([1, 2, 3])]],
];

describe("gradcheck over upsampling and reflection/replication padding (float64)", () => {
  for (const [name, fn, make] of CASES) it(name, () => expect(gradcheck(fn as any, make())).toBe(true));
});
describe("gradcheck over the layer gradients, through the double-backward Nodes (second order, float64)", () => {
  for (const [name, fn, make] of SECOND) it(name, () => expect(gradcheck(fn as any, make())).toBe(true));
});
