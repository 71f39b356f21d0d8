// Storage lifetime (issue #8, item 2): the autograd engine frees backward's intermediate gradients the
// moment it drops its last reference (engine/autograd/grad_ownership.ts), the optimizers free their
// step's temporaries, and the native allocator (native/cpu/Allocator.cc) takes the block back at once
// (free() detaches the ArrayBuffer). What user code can still reach — views, .grad, hook arguments,
// retain_grad, saved tensors, autograd.grad results, a custom Function's grad_output — is never freed:
// each such scenario reads everything it kept after backward (a freed storage throws) and compares
// the values with a run where eager freeing is off.
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { nativeAddon } from "../../engine/aten/native/cpu_native/NativeBackend.js";
import { _set_eager_free, _eager_free_stats } from "../../engine/autograd/grad_ownership.js";

const native = nativeAddon ? it : it.skip;
const N = 2048; // float32 elements: 8 KiB, above the native allocator's small-block threshold

afterEach(() => {
  _set_eager_free(true);
});

const leaf = (seed: number, n = N) => {
  torch.manual_seed(seed);
  return torch.randn(n).requires_grad_(true);
};
const values = (t: Tensor | null | undefined) => (t ? (t.tolist() as unknown) : null);
const freedSoFar = () => _eager_free_stats().storages;

/** Runs a scenario with eager freeing on and off; what it keeps must read the same (and not throw). */
function sameAsWithoutEagerFree(scenario: () => (Tensor | null | undefined)[], expectFrees = true): void {
  _set_eager_free(false);
  const reference = scenario().map(values);
  _set_eager_free(true);
  const before = freedSoFar();
  const kept = scenario();
  const freed = freedSoFar() - before;
  for (const t of kept) if (t) expect(t._impl.storage.is_released()).toBe(false);
  expect(kept.map(values)).toEqual(reference);
  // the scenario did free something, so the test is about what it kept, not about a disabled engine
  if (expectFrees) expect(freed).toBeGreaterThan(0);
}

describe("use after free is impossible", () => {
  it("a released storage throws on every tensor over it, views included", () => {
    const t = torch.ones(N);
    const v = t.view(32, 64);
    expect(t._impl.storage.release()).toBe(true);
    expect(t._impl.storage.release()).toBe(false);
    expect(() => v.sum()).toThrow(/storage was freed by the engine/);
    expect(() => t.tolist()).toThrow(/storage was freed by the engine/);
    expect(() => t.fill_(2)).toThrow(/storage was freed by the engine/);
    expect(t._impl.storage.hasData()).toBe(true); // not mistaken for a meta tensor by the kernels
  });
  native("the native allocator detaches the buffer: a stale typed array sees nothing, not reused memory", () => {
    const t = torch.ones(N);
    const stale = new Float32Array(t._impl.storage.buffer());
    const live0 = nativeAddon!.allocator_stats()[0];
    t._impl.storage.release();
    expect(stale.length).toBe(0);
    expect(stale[0]).toBeUndefined();
    expect(nativeAddon!.allocator_stats()[0]).toBe(live0 - N * 4);
    // the block is reused by the next allocation of that size, zeroed
    const hits = nativeAddon!.allocator_stats()[5];
    const u = torch.zeros(N);
    expect(nativeAddon!.allocator_stats()[5]).toBe(hits + 1);
    expect(u.sum().item()).toBe(0);
  });
  native("free() also detaches V8's own (small) buffers", () => {
    const b = new ArrayBuffer(64);
    expect(nativeAddon!.free(b)).toBe(true);
    expect(b.byteLength).toBe(0);
    expect(nativeAddon!.free(b)).toBe(false);
  });
});

describe("backward frees its intermediate gradients as it goes", () => {
  it("a chain of ops: every intermediate gradient is freed during backward", () => {
    const x = leaf(0);
    const chain = () => {
      let y = x;
      for (let i = 0; i < 8; i++) y = y.mul(1.5).sin();
      return y.sum();
    };
    chain().backward(); // x.grad now exists: later gradients are added into it in place
    const before = freedSoFar();
    chain().backward();
    // 16 Nodes: each one's incoming gradient is freed once the next Node has its own
    expect(freedSoFar() - before).toBeGreaterThanOrEqual(16);
    expect(x.grad!._impl.storage.is_released()).toBe(false);
  });
  native("the native live-bytes counter is back where it was right after backward (no garbage collection needed)", () => {
    const x = leaf(1, 64 * 1024); // 256 KiB per gradient
    const chain = () => {
      let y = x;
      for (let i = 0; i < 10; i++) y = y.mul(0.5).tanh();
      return y.sum();
    };
    chain().backward();
    const loss = chain();
    const [live0, , , eager0, allocs0, hits0] = nativeAddon!.allocator_stats();
    loss.backward();
    const [live1, , , eager1, allocs1, hits1] = nativeAddon!.allocator_stats();
    expect(eager1 - eager0).toBeGreaterThanOrEqual(20);
    // every block backward allocated went back before it returned (a collection can only lower this)
    expect(live1).toBeLessThanOrEqual(live0);
    // and blocks were reused within the backward pass: 20 Nodes, each with its gradient and its
    // formula's temporaries, need only the few blocks alive at once; the rest come from the cache
    expect(allocs1 - allocs0).toBeGreaterThanOrEqual(40);
    expect(allocs1 - allocs0 - (hits1 - hits0)).toBeLessThanOrEqual(6);
  });
  it("gradients summed in an InputBuffer are summed in place when the engine owns the first (same values)", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(2);
      const h = x.mul(2).sin();
      h.mul(h).add(h.cos()).add(h.exp()).sum().backward(); // h's slot collects three gradients
      return [x.grad];
    });
  });
  it("off under create_graph: the gradients are part of a graph (double backward still works)", () => {
    const x = leaf(3, 8);
    const before = freedSoFar();
    const [g] = torch.autograd.grad(x.pow(3).sin().sum(), x, { create_graph: true });
    expect(freedSoFar()).toBe(before);
    const [gg] = torch.autograd.grad(g!.sum(), x);
    _set_eager_free(false);
    const [g2] = torch.autograd.grad(x.pow(3).sin().sum(), x, { create_graph: true });
    const [gg2] = torch.autograd.grad(g2!.sum(), x);
    expect(values(gg)).toEqual(values(gg2));
  });
});

describe("what user code holds is never freed", () => {
  it("views: a Node returning a view of its incoming gradient keeps that memory alive", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(4);
      x.view(32, 64).t().mul(2).sin().reshape(-1).unsqueeze(0).expand(3, -1).sum().backward();
      return [x.grad];
    });
  });
  it(".grad: the first gradient is stolen into .grad, later ones are added into it", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(5);
      const grads = [];
      for (let i = 0; i < 3; i++) {
        x.mul(i + 1).sin().mul(2).sum().backward();
        grads.push(x.grad!.clone());
      }
      return [x.grad, ...grads];
    });
  });
  it("tensor hooks: what a hook saw (and returned) stays readable", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(6);
      const seen: Tensor[] = [];
      const h = x.mul(2).sin();
      h.register_hook((g: Tensor) => void seen.push(g));
      const k = h.cos().mul(3);
      k.register_hook((g: Tensor) => {
        seen.push(g);
        return g.mul(2);
      });
      k.exp().sum().backward();
      return [...seen, x.grad];
    });
  });
  it("a leaf's hooks and post-accumulate hooks", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(7);
      const seen: Tensor[] = [];
      x.register_hook((g: Tensor) => void seen.push(g));
      x.register_post_accumulate_grad_hook((p: Tensor) => void seen.push(p.grad!));
      x.mul(2).sin().exp().sum().backward();
      return [...seen, x.grad];
    });
  });
  it("retain_grad", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(8);
      const h = x.mul(2).sin();
      const k = h.exp();
      h.retain_grad();
      k.retain_grad();
      k.mul(3).cos().sum().backward();
      return [h.grad, k.grad, x.grad];
    });
  });
  it("Node pre-hooks and post-hooks", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(9);
      const seen: Tensor[] = [];
      const h = x.mul(2).sin();
      const k = h.exp();
      k.grad_fn!.register_prehook((gs: (Tensor | null)[]) => void seen.push(...(gs.filter(Boolean) as Tensor[])));
      h.grad_fn!.register_hook((gi: (Tensor | null)[], go: (Tensor | null)[]) => void seen.push(...([...gi, ...go].filter(Boolean) as Tensor[])));
      k.mul(3).cos().sum().backward();
      return [...seen, x.grad];
    });
  });
  it("saved tensors read through grad_fn._saved_* after backward with retain_graph", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(10);
      const h = x.mul(2).sin();
      const k = h.mul(h.exp());
      k.sum().backward({ retain_graph: true });
      const fn: any = k.grad_fn;
      return [fn._saved_self, fn._saved_other, x.grad];
    });
  });
  it("autograd.grad's results, the gradient given to backward, and inputs=", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(11);
      const w = leaf(12);
      const h = x.mul(w).sin();
      const [gx, gh] = torch.autograd.grad(h.exp().sum(), [x, h], { retain_graph: true });
      const v = torch.ones(N).mul(0.5);
      h.exp().backward(v, { inputs: [w] });
      return [gx, gh, v, w.grad, x.grad];
    });
  });
  it("a custom Function's backward sees grad_output and may keep it", () => {
    const kept: Tensor[] = [];
    class Keep extends torch.autograd.Function {
      static forward(_ctx: any, t: Tensor) {
        return t.mul(2);
      }
      static backward(_ctx: any, g: Tensor) {
        kept.push(g);
        return g.mul(2);
      }
    }
    sameAsWithoutEagerFree(() => {
      kept.length = 0;
      const x = leaf(13);
      (Keep as any).apply(x.sin().mul(3)).exp().sum().backward();
      return [...kept, x.grad];
    });
  });
  it("a tensor used twice by one Node, and one gradient sent down two edges (AddBackward)", () => {
    sameAsWithoutEagerFree(() => {
      const x = leaf(14);
      const h = x.sin();
      h.add(h).mul(h).sum().backward();
      return [x.grad];
    });
  });
  it("broadcast gradients summed down to the input's shape (validate_outputs)", () => {
    sameAsWithoutEagerFree(() => {
      const a = leaf(15, 64).view(1, 64);
      const b = leaf(16, 32 * 64).view(32, 64);
      const w = a.detach().requires_grad_(true);
      w.add(b).sin().mul(w).sum().backward();
      return [w.grad];
    });
  });
});

describe("optimizer step temporaries", () => {
  it("SGD with weight decay, nesterov and maximize frees its temporaries, same update", () => {
    const run = (eager: boolean) => {
      _set_eager_free(eager);
      const p = leaf(20);
      const opt = new torch.optim.SGD([p], { lr: 0.1, momentum: 0.9, nesterov: true, weight_decay: 0.01, maximize: true });
      for (let i = 0; i < 3; i++) {
        opt.zero_grad();
        p.sin().sum().backward();
        opt.step();
      }
      return [values(p), values(opt.state.get(p).momentum_buffer)];
    };
    const reference = run(false);
    const before = freedSoFar();
    expect(run(true)).toEqual(reference);
    expect(freedSoFar() - before).toBeGreaterThanOrEqual(3 * 3);
  });
  it("Adam frees its temporaries, same update", () => {
    const run = (eager: boolean) => {
      _set_eager_free(eager);
      const p = leaf(21);
      const opt = new torch.optim.Adam([p], { lr: 0.01, weight_decay: 0.01, amsgrad: true });
      for (let i = 0; i < 3; i++) {
        opt.zero_grad();
        p.cos().sum().backward();
        opt.step();
      }
      const s = opt.state.get(p);
      return [values(p), values(s.exp_avg), values(s.exp_avg_sq), values(s.max_exp_avg_sq)];
    };
    const reference = run(false);
    const before = freedSoFar();
    expect(run(true)).toEqual(reference);
    expect(freedSoFar() - before).toBeGreaterThanOrEqual(3 * 2);
  });
});
