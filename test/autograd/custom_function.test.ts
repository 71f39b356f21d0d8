// torch.autograd.Function against PyTorch 1.13 (the Python programs and their outputs are in the comments).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const { Function, once_differentiable } = torch.autograd;
const f32 = (v: number[]) => torch.tensor(v, { dtype: torch.float32, requires_grad: true });
const vals = (t: Tensor | null) => t?.tolist();

class Exp extends Function {
  static forward(ctx: any, x: Tensor) {
    const r = torch.exp(x);
    ctx.save_for_backward(r);
    return r;
  }
  static backward(ctx: any, g: Tensor) {
    const [r] = ctx.saved_tensors;
    return g.mul(r);
  }
}

describe("torch.autograd.Function", () => {
  it("Exp: the Node is ExpBackward, saved outputs come back, and x.grad is exp(x)", () => {
    const x = f32([0, 1]);
    const y = Exp.apply(x);
    expect(y.grad_fn.name()).toBe("ExpBackward");
    expect(y.grad_fn.next_functions.map(([n, i]: any) => [n?.name(), i])).toEqual([["AccumulateGrad", 0]]);
    y.sum().backward();
    expect((x.grad!.tolist() as number[]).map((v) => +v.toFixed(4))).toEqual([1, 2.7183]);
  });
  it("needs_input_grad per argument, non-tensor state on ctx, and null for a non-tensor input's gradient", () => {
    let seen: boolean[] = [];
    class Mul extends Function {
      static forward(ctx: any, x: Tensor, k: number) {
        seen = ctx.needs_input_grad;
        ctx.k = k;
        return x.mul(k);
      }
      static backward(ctx: any, g: Tensor) {
        return [g.mul(ctx.k), null];
      }
    }
    const x = f32([1, 2]);
    Mul.apply(x, 3).sum().backward();
    expect(seen).toEqual([true, false]);
    expect(vals(x.grad)).toEqual([3, 3]);
  });
  it("forward runs under no_grad", () => {
    let inside = true;
    class Probe extends Function {
      static forward(_ctx: any, x: Tensor) {
        inside = torch.is_grad_enabled();
        return x.mul(2);
      }
      static backward(_ctx: any, g: Tensor) {
        return g;
      }
    }
    Probe.apply(f32([1]));
    expect(inside).toBe(false);
  });
  it("an input returned as it is comes back as a new view with the custom Node", () => {
    class Id extends Function {
      static forward(_ctx: any, x: Tensor) {
        return x;
      }
      static backward(_ctx: any, g: Tensor) {
        return g;
      }
    }
    const x = f32([1, 2]);
    const y = Id.apply(x);
    expect([y === x, y.grad_fn.name(), y._is_view()]).toEqual([false, "IdBackward", true]);
  });
  it("an unused output's gradient arrives as zeros (materialize_grads)", () => {
    let g2: unknown = null;
    class Two extends Function {
      static forward(_ctx: any, x: Tensor) {
        return [x.mul(2), x.mul(3)];
      }
      static backward(_ctx: any, a: Tensor, b: Tensor) {
        g2 = b.tolist();
        return a.mul(2).add(b.mul(3));
      }
    }
    const x = f32([1, 2]);
    const [a] = Two.apply(x);
    a.sum().backward();
    expect(g2).toEqual([0, 0]);
    expect(vals(x.grad)).toEqual([2, 2]);
  });
  it("mark_dirty rebases the changed input onto the Node (and refuses a leaf)", () => {
    class Dirty extends Function {
      static forward(ctx: any, x: Tensor) {
        x.mul_(2);
        ctx.mark_dirty(x);
        return x;
      }
      static backward(_ctx: any, g: Tensor) {
        return g.mul(2);
      }
    }
    expect(() => Dirty.apply(f32([1, 2]))).toThrow("a leaf Variable that requires grad has been used in an in-place operation.");
    const x = f32([1, 2]);
    const z = x.mul(1);
    const w = Dirty.apply(z);
    expect([w === z, w.grad_fn.name()]).toEqual([true, "DirtyBackward"]);
    w.sum().backward();
    expect(vals(x.grad)).toEqual([2, 2]);
  });
  it("mark_non_differentiable keeps an output out of the graph", () => {
    class ND extends Function {
      static forward(ctx: any, x: Tensor) {
        const r = x.mul(2);
        ctx.mark_non_differentiable(r);
        return r;
      }
      static backward(_ctx: any, g: Tensor) {
        return g;
      }
    }
    expect(ND.apply(f32([1, 2])).requires_grad).toBe(false);
  });
  it("backward must return one gradient per forward input", () => {
    class WrongN extends Function {
      static forward(_ctx: any, x: Tensor) {
        return x.mul(2);
      }
      static backward(_ctx: any, g: Tensor) {
        return [g, g];
      }
    }
    expect(() => WrongN.apply(f32([1, 2])).sum().backward()).toThrow("function WrongNBackward returned an incorrect number of gradients (expected 1, got 2)");
  });
  it("once_differentiable runs backward under no_grad: its result has no history", () => {
    class Once extends Function {
      static forward(_ctx: any, x: Tensor) {
        return x.mul(2);
      }
      static backward = once_differentiable((_ctx: any, g: Tensor) => g.mul(2));
    }
    const x = f32([1]);
    const [g] = torch.autograd.grad(Once.apply(x).sum(), x, { create_graph: true });
    expect([vals(g), g!.requires_grad]).toEqual([[2], false]);
    expect(() => g!.sum().backward()).toThrow("element 0 of tensors does not require grad and does not have a grad_fn");
  });
  it("is checked by gradcheck like any op", () => {
    const x = torch.tensor([0.1, 0.7, -0.3], { dtype: torch.float64, requires_grad: true });
    expect(torch.autograd.gradcheck((t: Tensor) => Exp.apply(t), [x])).toBe(true);
  });
});
