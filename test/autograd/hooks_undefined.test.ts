// Tensor hooks when the incoming gradient is undefined, against PyTorch 1.13: a hook on an output of a Node
// that runs but gets no gradient for that output (the unused half of split, an unused output of a custom
// Function) is called with None (null here) and may not replace it; retain_grad's hook runs after the user's
// hooks (so .grad sees their replacements) and, in 1.13, fails on an undefined gradient. Hooks of outputs
// whose Node never runs (allow_unused) are not called. The Python printing each expectation is quoted.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const f32 = (v: number[]) => torch.tensor(v, { dtype: torch.float32, requires_grad: true });

describe("hooks on an output whose gradient is undefined", () => {
  // x = torch.randn(4, requires_grad=True); a, b = x.split(2); a.register_hook(...); b.register_hook(...);
  // a.sum().backward() -> "hook a tensor([1., 1.])", "hook b None"; x.grad == [1, 1, 0, 0]
  it("split's unused output: its hook sees None, the used one its gradient", () => {
    const x = f32([1, 2, 3, 4]);
    const [a, b] = x.split(2);
    const seen: unknown[] = [];
    a.register_hook((g) => void seen.push(["a", g?.tolist() ?? null]));
    b.register_hook((g) => void seen.push(["b", g === null ? null : g.tolist()]));
    a.sum().backward();
    expect(seen).toEqual([["a", [1, 1]], ["b", null]]);
    expect(x.grad!.tolist()).toEqual([1, 1, 0, 0]);
  });
  // b.register_hook(lambda g: g) -> fine; b.register_hook(lambda g: torch.ones(2)) ->
  // RuntimeError: can't replace a None gradient with a non-None value
  it("returning a tensor for None is refused; returning None (or the None) is fine", () => {
    const x = f32([1, 2, 3, 4]);
    const [a, b] = x.split(2);
    b.register_hook((g) => g);
    a.sum().backward();
    expect(x.grad!.tolist()).toEqual([1, 1, 0, 0]);
    const y = f32([1, 2, 3, 4]);
    const [c, d] = y.split(2);
    d.register_hook(() => torch.ones(2));
    expect(() => c.sum().backward()).toThrow(expect.objectContaining({ name: "RuntimeError", message: "can't replace a None gradient with a non-None value" }));
  });
  // p, q, r = y.unbind(); q.register_hook(...); torch.autograd.grad(p * 2, y) -> "hook q None", (tensor([2., 0., 0.]),)
  it("autograd.grad through unbind: the unused outputs' hooks see None", () => {
    const y = f32([1, 2, 3]);
    const [p, q] = y.unbind();
    const seen: unknown[] = [];
    q.register_hook((g) => void seen.push(g));
    const [g] = torch.autograd.grad([p.mul(2)], [y]);
    expect(seen).toEqual([null]);
    expect(g!.tolist()).toEqual([2, 0, 0]);
  });
  // z = torch.randn(2, requires_grad=True); w = z * 2; u = z * 3; u.register_hook(print)
  // torch.autograd.grad(w.sum(), [z, u], allow_unused=True) -> (tensor([2., 2.]), None), the hook never runs
  it("allow_unused: an output outside the graph that ran gets None and its hook is not called", () => {
    const z = f32([1, 2]);
    const w = z.mul(2), u = z.mul(3);
    const seen: unknown[] = [];
    u.register_hook((g) => void seen.push(g));
    const [gz, gu] = torch.autograd.grad([w.sum()], [z, u], { allow_unused: true });
    expect([gz!.tolist(), gu, seen]).toEqual([[2, 2], null, []]);
  });
  // class F(Function): forward(ctx, x): return x * 2, x * 3; backward(ctx, g1, g2): print(g1, g2); return g1
  // p, q = F.apply(x); q.register_hook(print); p.sum().backward() -> "q hook None", then backward sees zeros for g2
  it("a custom Function's unused output: the hook sees None, backward sees materialized zeros", () => {
    class F extends torch.autograd.Function {
      static forward(_ctx: any, x: Tensor) {
        return [x.mul(2), x.mul(3)];
      }
      static backward(_ctx: any, g1: Tensor, g2: Tensor) {
        seen.push(["backward", g1.tolist(), g2.tolist()]);
        return g1;
      }
    }
    const seen: unknown[] = [];
    const x = f32([1, 2]);
    const [p, q] = F.apply(x) as Tensor[];
    q.register_hook((g) => void seen.push(["q", g]));
    p.sum().backward();
    expect(seen).toEqual([["q", null], ["backward", [1, 1], [0, 0]]]);
  });
});

describe("retain_grad's hook", () => {
  // b = x * 1; b.register_hook(print); b.retain_grad(); b.register_hook(lambda g: g * 2); b.sum().backward()
  // -> b.grad == [2, 2, 2, 2] (retain_grad runs after both hooks), x.grad == [2, 2, 2, 2]
  it("runs after the user's hooks, whatever the registration order", () => {
    const x = f32([1, 2, 3, 4]);
    const b = x.mul(1);
    b.register_hook(() => undefined);
    b.retain_grad();
    b.register_hook((g) => g!.mul(2));
    b.sum().backward();
    expect([b.grad!.tolist(), x.grad!.tolist()]).toEqual([[2, 2, 2, 2], [2, 2, 2, 2]]);
  });
  // a, b = x.split(2); b.retain_grad(); a.sum().backward() -> RuntimeError: Expected a proper Tensor but got
  // None (or an undefined Tensor in C++) for argument #0 'self' (1.13's hook clones the undefined gradient)
  it("fails on an undefined gradient, as in PyTorch 1.13", () => {
    const x = f32([1, 2, 3, 4]);
    const [a, b] = x.split(2);
    b.retain_grad();
    expect(() => a.sum().backward()).toThrow("Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #0 'self'");
  });
});
