// torch.autograd.gradcheck (float64, PyTorch's defaults) over the misc entries: linalg_lu_factor_ex (square,
// wide, tall, batched; first and second order), copy_ into a view (CopySlices over CopyBackwards, with a
// broadcast src, and a constant src), fill_/masked_fill_ with a Tensor value on views, and the squeeze_/unsqueeze_
// entries. PyTorch 1.13 accepts each of these same calls.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const { gradcheck } = torch.autograd;
const T = torch as any;
const u = (n: number, lo: number, hi: number, seed: number) => {
  let s = (seed * 2654435761) % 2147483647 || 1;
  return Array.from({ length: n }, () => ((s = (s * 48271) % 2147483647), lo + (s / 2147483647) * (hi - lo)));
};
const numel = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
const X = (shape: number[], seed = 1) => torch.tensor(u(numel(shape), -1, 1, seed), { dtype: torch.float64 }).reshape(shape).requires_grad_(true);
const LU = (a: Tensor) => (T.linalg.lu_factor_ex(a) as Tensor[])[0];

type Case = [string, (...a: any[]) => Tensor | Tensor[], () => any[]];
const firstOrder = (f: (...a: Tensor[]) => Tensor) => (...a: Tensor[]) => {
  const out = f(...a);
  const v = torch.tensor(u(out.numel(), -1, 1, 9), { dtype: torch.float64 }).reshape([...out.shape]);
  return torch.autograd.grad([out], a, { grad_outputs: [v], create_graph: true }) as Tensor[];
};

const CASES: Case[] = [
  ["linalg.lu_factor_ex square", LU, () => [X([3, 3])]],
  ["linalg.lu_factor_ex wide", LU, () => [X([2, 4])]],
  ["linalg.lu_factor_ex tall", LU, () => [X([4, 2])]],
  ["linalg.lu_factor_ex batched", LU, () => [X([2, 3, 3])]],
  ["linalg.lu_factor_ex second order", firstOrder(LU), () => [X([3, 3])]],
  ["linalg.lu_factor_ex wide second order", firstOrder(LU), () => [X([2, 3])]],
  ["copy_ into a slice, src broadcast", (x, s) => {
    const y = x.clone();
    y.get(":", "1:3").copy_(s);
    return y;
  }, () => [X([4, 3]), X([4, 1], 2)]],
  ["copy_ of a constant into a row", (x) => {
    const y = x.clone();
    y.get(1).copy_(torch.ones(3, { dtype: torch.float64 }));
    return y.mul(y);
  }, () => [X([3, 3])]],
  ["fill_ and masked_fill_ with a Tensor value on views", (x, v) => {
    const y = x.clone();
    y.get(0).fill_(v);
    y.get(":", 1).masked_fill_(torch.tensor([false, true, true]), v.mul(2));
    return y;
  }, () => [X([3, 3]), X([], 2)]],
  ["squeeze_ and unsqueeze_", (x) => {
    const y = x.clone().unsqueeze(0);
    y.squeeze_(0);
    y.unsqueeze_(1);
    return y.mul(y);
  }, () => [X([2, 3])]],
];

describe("gradcheck over the misc entries (float64)", () => {
  for (const [name, f, inputs] of CASES) {
    it(name, () => {
      expect(gradcheck(f, inputs())).toBe(true);
    });
  }
});
