// A Node keeps its hooks, grad_fn.metadata and anomaly mode's forward call site in one object made on first
// use (engine/autograd/function.ts): building the graph defines fewer fields per Node. These tests check the
// behaviour stays PyTorch's either way: a Node without hooks runs its formula with the gradients as given;
// hooks added through each accessor run; metadata is one persistent dict; anomaly mode still records the site.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import type { Node } from "../../engine/autograd/function.js";

const leaf = () => torch.tensor([1, 2, 3], { dtype: torch.float32, requires_grad: true });
const fnOf = (t: Tensor) => t.grad_fn as unknown as Node;

describe("Node extras made on first use", () => {
  it("a Node never given a hook has none, and backward gives PyTorch's gradient", () => {
    const x = leaf();
    const y = x.mul(2).sum();
    const fn = fnOf(y);
    expect(fn.hasHooks_()).toBe(false);
    expect(fn.forward_call_site).toBe(null);
    y.backward();
    expect(x.grad!.tolist()).toEqual([2, 2, 2]);
    expect(fn.hasHooks_()).toBe(false);
  });

  it("grad_fn.metadata is one dict that keeps what is put in it", () => {
    const y = leaf().mul(3);
    const fn = fnOf(y);
    fn.metadata.tag = "mine";
    expect(fn.metadata).toBe(fn.metadata);
    expect(fn.metadata).toEqual({ tag: "mine" });
    expect(fn.hasHooks_()).toBe(false); // metadata is not a hook
  });

  it("Node pre-hooks, post-hooks and tensor hooks registered later all run, and removal works", () => {
    const x = leaf();
    const m = x.mul(2);
    const y = m.sum();
    const fn = fnOf(m);
    const seen: string[] = [];
    // PyTorch 1.13 (registered in this order): ['tensor', 'pre', 'post'] tensor([20., 20., 20.]); after
    // h.remove(): ['tensor', 'post'] tensor([2., 2., 2.])
    m.register_hook(() => void seen.push("tensor"));
    const pre = fn.register_prehook((g) => (seen.push("pre"), g.map((t) => (t === null ? null : t.mul(10)))));
    fn.register_hook(() => void seen.push("post"));
    expect(fn.hasHooks_()).toBe(true);
    y.backward({ retain_graph: true } as any);
    expect(seen).toEqual(["tensor", "pre", "post"]);
    expect(x.grad!.tolist()).toEqual([20, 20, 20]);
    pre.remove();
    x.grad = null;
    seen.length = 0;
    y.backward();
    expect(seen).toEqual(["tensor", "post"]);
    expect(x.grad!.tolist()).toEqual([2, 2, 2]);
  });

  it("retain_grad on a non-leaf stores its gradient (the retains_grad_hooks slot)", () => {
    const x = leaf();
    const m = x.mul(2);
    m.retain_grad();
    m.pow(2).sum().backward();
    expect(m.grad!.tolist()).toEqual([4, 8, 12]);
    expect(x.grad!.tolist()).toEqual([8, 16, 24]);
  });

  it("anomaly mode records the forward call site of a Node made while it is on", () => {
    const x = leaf();
    const off = fnOf(x.mul(2));
    const on = torch.autograd.detect_anomaly(() => fnOf(x.mul(2)));
    expect(off.forward_call_site).toBe(null);
    expect(on.forward_call_site).not.toBe(null);
    expect(on.forward_call_site!.file).toMatch(/node_extras\.test\.ts$/);
  });
});
