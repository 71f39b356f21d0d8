// torch.autograd.gradcheck (float64, slow mode: eps 1e-6, atol 1e-5, rtol 1e-3) over the layer ops'
// derivatives.yaml entries — convolution (conv1d/conv2d/conv_transpose2d), native_batch_norm (training and
// eval), native_layer_norm, native_group_norm, max/avg/adaptive pooling, constant_pad_nd, pixel_(un)shuffle,
// im2col/col2im, embedding — and over their gradients (the first-order
// gradient as a function of the inputs, as gradgradcheck does), all of which PyTorch 1.13 accepts too.
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
  ["conv2d", (x, w, b) => T.conv2d(x, w, b, [2, 1], [1, 0]), () => [X([2, 2, 5, 4]), X([3, 2, 3, 2], -1, 1, 2), X([3], -1, 1, 3)]],
  ["conv2d dilation groups", (x, w, b) => T.conv2d(x, w, b, 1, 1, [2, 1], 2), () => [X([1, 4, 5, 4]), X([2, 2, 2, 2], -1, 1, 2), X([2], -1, 1, 3)]],
  ["conv2d unbatched, transposed input", (x, w) => T.conv2d(x.transpose(1, 2), w, null, 1, 1), () => [X([2, 4, 3]), X([2, 2, 3, 3], -1, 1, 2)]],
  ["conv1d", (x, w, b) => T.conv1d(x, w, b, 2, 1), () => [X([2, 2, 6]), X([3, 2, 3], -1, 1, 2), X([3], -1, 1, 3)]],
  ["conv_transpose2d", (x, w, b) => T.conv_transpose2d(x, w, b, 2, 1, 1), () => [X([1, 2, 3, 3]), X([2, 3, 3, 2], -1, 1, 2), X([3], -1, 1, 3)]],
  ["conv_transpose2d groups dilation", (x, w) => T.conv_transpose2d(x, w, null, 1, 0, 0, 2, 2), () => [X([1, 4, 3, 2]), X([4, 1, 2, 2], -1, 1, 2)]],
  ["batch_norm training", (x, w, b) => T.batch_norm(x, w, b, null, null, true, 0.1, 1e-5, false), () => [X([3, 2, 2, 2]), X([2], 0.5, 2, 2), X([2], -1, 1, 3)]],
  ["batch_norm eval", (x, w, b) => T.batch_norm(x, w, b, X([2], -1, 1, 4, false), X([2], 0.5, 2, 5, false), false, 0.1, 1e-5, false), () => [X([3, 2, 3]), X([2], 0.5, 2, 2), X([2], -1, 1, 3)]],
  ["native_batch_norm (all outputs)", (x, w, b) => T.native_batch_norm(x, w, b, null, null, true, 0.1, 1e-5), () => [X([4, 3]), X([3], 0.5, 2, 2), X([3], -1, 1, 3)]],
  ["layer_norm", (x, w, b) => T.layer_norm(x, [2, 3], w, b), () => [X([2, 2, 3]), X([2, 3], 0.5, 2, 2), X([2, 3], -1, 1, 3)]],
  ["native_layer_norm (all outputs)", (x, w, b) => T.native_layer_norm(x, [4], w, b, 1e-5), () => [X([3, 4]), X([4], 0.5, 2, 2), X([4], -1, 1, 3)]],
  ["group_norm", (x, w, b) => T.group_norm(x, 2, w, b), () => [X([2, 4, 3]), X([4], 0.5, 2, 2), X([4], -1, 1, 3)]],
  ["max_pool2d", (x) => T.max_pool2d(x, [3, 2], [2, 1], 1, [1, 2], true), () => [X([1, 2, 7, 6])]],
  ["avg_pool2d", (x) => T._C._nn.avg_pool2d(x, 3, 1, 1, true, false), () => [X([1, 2, 5, 4])]],
  ["avg_pool2d divisor_override", (x) => T._C._nn.avg_pool2d(x, 2, 1, 0, false, true, 3), () => [X([2, 3, 4])]],
  ["adaptive_avg_pool2d", (x) => T._C._nn.adaptive_avg_pool2d(x, [3, 2]), () => [X([1, 2, 5, 4])]],
  ["adaptive_max_pool2d", (x) => T._C._nn.adaptive_max_pool2d(x, [2, 3])[0], () => [X([2, 4, 5])]],
  ["constant_pad_nd (pad and crop)", (x) => T.constant_pad_nd(x, [1, -1, 2, 0], 0.5), () => [X([2, 3, 4])]],
  ["pixel_shuffle", (x) => T.pixel_shuffle(x, 2), () => [X([1, 4, 2, 3])]],
  ["pixel_unshuffle", (x) => T.pixel_unshuffle(x, 2), () => [X([1, 1, 4, 2])]],
  ["im2col", (x) => T._C._nn.im2col(x, [2, 2], [1, 2], [1, 0], [2, 1]), () => [X([1, 2, 4, 5])]],
  ["col2im", (x) => T._C._nn.col2im(x, [3, 4], [2, 2], [1, 1], [0, 0], [1, 1]), () => [X([1, 8, 6])]],
  ["embedding", (w) => T.embedding(w, torch.tensor([[1, 3, 1], [0, 4, 1]])), () => [X([5, 3])]],
  ["embedding padding_idx not among the indices", (w) => T.embedding(w, torch.tensor([0, 3, 1]), 2), () => [X([4, 2])]],
];

/** The first-order gradients of f (with a fixed upstream gradient) as a function of the inputs. */
const gradOf = (f: (...a: Tensor[]) => Tensor, k: number) => (...a: Tensor[]) => {
  const y = f(...a);
  const v = torch.tensor(u(y.numel(), -1, 1, 7), { dtype: torch.float64 }).reshape([...y.shape]);
  return torch.autograd.grad([y], a.slice(0, k), { grad_outputs: [v], create_graph: true }) as Tensor[];
};
const SECOND: Case[] = [
  ["conv2d", gradOf((x, w, b) => T.conv2d(x, w, b, 2, 1), 2), () => [X([1, 2, 4, 4]), X([2, 2, 3, 3], -1, 1, 2), X([2], -1, 1, 3)]],
  ["conv_transpose2d", gradOf((x, w) => T.conv_transpose2d(x, w, null, 2), 2), () => [X([1, 2, 2, 3]), X([2, 2, 2, 2], -1, 1, 2)]],
  ["batch_norm training", gradOf((x, w, b) => T.batch_norm(x, w, b, null, null, true, 0.1, 1e-5, false), 2), () => [X([3, 2, 2]), X([2], 0.5, 2, 2), X([2], -1, 1, 3)]],
  ["layer_norm", gradOf((x, w, b) => T.layer_norm(x, [3], w, b), 2), () => [X([2, 3]), X([3], 0.5, 2, 2), X([3], -1, 1, 3)]],
  ["max_pool2d", gradOf((x) => T.max_pool2d(x, 2, 1), 1), () => [X([1, 2, 3, 4])]],
  ["avg_pool2d", gradOf((x) => T._C._nn.avg_pool2d(x, 2, 1, 1, false, false), 1), () => [X([1, 2, 3, 3])]],
  ["adaptive_avg_pool2d", gradOf((x) => T._C._nn.adaptive_avg_pool2d(x, [2, 2]), 1), () => [X([1, 2, 3, 3])]],
  ["adaptive_max_pool2d", gradOf((x) => T._C._nn.adaptive_max_pool2d(x, [2, 2])[0], 1), () => [X([1, 2, 3, 3])]],
  ["group_norm", gradOf((x, w, b) => T.group_norm(x, 2, w, b), 2), () => [X([2, 4, 2]), X([4], 0.5, 2, 2), X([4], -1, 1, 3)]],
];

describe("gradcheck over the layer ops (float64)", () => {
  for (const [name, fn, make] of CASES) it(name, () => expect(gradcheck(fn as any, make())).toBe(true));
});
describe("gradcheck over their gradients (second order, float64)", () => {
  for (const [name, fn, make] of SECOND) it(name, () => expect(gradcheck(fn as any, make())).toBe(true));
});

describe("gradients that are not the Jacobian's, as in PyTorch", () => {
  // PyTorch 1.13: gradcheck(lambda w: F.embedding(torch.tensor([0, 2, 2, 3, 1]), w, **kw), (w,),
  // raise_exception=False) is False for kw = {padding_idx: 2}, {scale_grad_by_freq: True} and both: the
  // padding row gets no gradient and repeated rows a scaled one, by definition.
  const idx = () => torch.tensor([0, 2, 2, 3, 1]);
  for (const [what, pad, scale] of [["padding_idx", 2, false], ["scale_grad_by_freq", -1, true], ["both", 2, true]] as const) {
    it(`embedding ${what}: gradcheck is false`, () => {
      expect(gradcheck((w: Tensor) => T.embedding(w, idx(), pad, scale), [X([4, 2])], { raise_exception: false })).toBe(false);
    });
  }
});

describe("the pooling backward ops", () => {
  const x = () => torch.zeros([1, 2, 4, 4], { dtype: torch.float64 });
  it("on meta: grad_input has self's sizes, strides and dtype", () => {
    const self = torch.empty([2, 3, 5, 4], { device: "meta" });
    const g = T.ops.aten.max_pool2d_with_indices_backward.default.call(torch.empty([2, 3, 2, 2], { device: "meta" }), self, [2, 2], [2, 2], [0, 0], [1, 1], false, torch.empty([2, 3, 2, 2], { dtype: torch.int64, device: "meta" }));
    expect([g.shape, g.stride(), g.dtype, g.device.type]).toEqual([[2, 3, 5, 4], [60, 20, 4, 1], torch.float32, "meta"]);
    const a = T.ops.aten.avg_pool2d_backward.default.call(torch.empty([3, 3, 2], { device: "meta" }), torch.empty([3, 5, 4], { device: "meta" }), [2, 2], [2, 2], [0, 0], true, true, null);
    expect([a.shape, a.stride()]).toEqual([[3, 5, 4], [20, 4, 1]]);
  });
  it("a grad_output of the wrong size: PyTorch's check_dim_size text", () => {
    // torch.ops.aten.max_pool2d_with_indices_backward(torch.randn(1,2,3,2), x, [2,2], [2,2], [0,0], [1,1], False, idx)
    const idx = torch.zeros([1, 2, 2, 2], { dtype: torch.int64 });
    const text = "Expected a tensor of dimension 4 and tensor.size[2] == 2 but got: dimension 4 and tensor.size[2] = 3";
    expect(() => T.ops.aten.max_pool2d_with_indices_backward.default.call(torch.zeros([1, 2, 3, 2], { dtype: torch.float64 }), x(), [2, 2], [2, 2], [0, 0], [1, 1], false, idx)).toThrow(text);
    expect(() => T.ops.aten.avg_pool2d_backward.default.call(torch.zeros([1, 2, 3, 2], { dtype: torch.float64 }), x(), [2, 2], [2, 2], [0, 0], false, true, null)).toThrow(text);
  });
});
