// Tensor.dispose() / [Symbol.dispose] (engine/c10/Dispose.ts, issue #8): a disposed handle's storage goes
// back to the native allocator at once when nothing else can read it (another tensor over it, an engine
// holder), else it stays; a disposed handle keeps its metadata and throws on any use; backward through a
// disposed saved tensor still works.
import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import type { Storage } from "../../engine/c10/Storage.js";
import { nativeAddon } from "../../engine/aten/native/cpu_native/NativeBackend.js";
import { _dispose_stats } from "../../engine/c10/Dispose.js";

const native = nativeAddon && process.env.GLASSTORCH_NATIVE_ALLOCATOR !== "0" ? it : it.skip;
const N = 2048; // float32 elements: 8 KiB, a block of the native allocator's (>= 4 KiB)
const DISPOSED = /tensor was disposed/;

const storageOf = (t: Tensor): Storage => t._impl.storage;
/** allocator_stats(): [live bytes, live blocks, cached bytes, eager frees, total allocations, cache hits, peak]. */
const stats = () => nativeAddon!.allocator_stats();

describe("a disposed result goes back to the allocator", () => {
  native("its block is freed at once and the next allocation of that size reuses it", () => {
    const a = torch.rand(N), b = torch.rand(N);
    const r = torch.add(a, b);
    const s = storageOf(r);
    const before = stats(), freed = _dispose_stats().storages;
    r.dispose();
    expect(s.is_released()).toBe(true);
    expect(_dispose_stats().storages).toBe(freed + 1);
    const after = stats();
    expect(after[0]).toBe(before[0] - N * 4); // live bytes
    expect(after[2]).toBe(before[2] + N * 4); // now cached
    const r2 = torch.add(a, b);
    expect(stats()[5]).toBe(after[5] + 1); // a cache hit: the same block again
    expect(r2.tolist()).toEqual(a.add(b).tolist());
  });
  native("a loop that disposes its results asks V8 for no scavenge (freed blocks do not count toward the next one)", () => {
    const n = 1 << 20; // 4 MiB per result: 64 MiB over the loop, four times the allocator's young-GC volume
    const a = torch.rand(n), b = torch.rand(n);
    torch.add(a, b).dispose();
    const gcs = nativeAddon!.status().young_gcs;
    for (let i = 0; i < 16; i++) torch.add(a, b).dispose();
    expect(nativeAddon!.status().young_gcs).toBe(gcs);
  });
  native("matmul's product is freed too", () => {
    const r = torch.matmul(torch.rand(32, 64), torch.rand(64, 32));
    const s = storageOf(r);
    r.dispose();
    expect(s.is_released()).toBe(true);
  });
  it("small storages (V8 buffers), meta tensors: the handle is marked, nothing is freed", () => {
    const small = torch.ones(10);
    const s = storageOf(small);
    small.dispose();
    expect(small.is_disposed).toBe(true);
    expect(s.is_released()).toBe(false);
    const m = torch.empty([N], { device: "meta" });
    m.dispose();
    expect(m.shape).toEqual([N]);
    expect(() => m.add(1)).toThrow("add: tensor was disposed");
  });
});

describe("other owners keep the memory", () => {
  native("a view keeps its base's storage: disposing the base leaves the view readable", () => {
    const base = torch.arange(N, { dtype: torch.float32 });
    const v = base.view(32, 64);
    const s = storageOf(base);
    base.dispose();
    expect(s.is_released()).toBe(false);
    expect(v.sum().item()).toBe((N * (N - 1)) / 2);
    v.dispose(); // the last owner
    expect(s.is_released()).toBe(true);
  });
  native("disposing a view leaves its base readable", () => {
    const base = torch.ones(N);
    const v = base.transpose(0, 0).narrow(0, 0, 16);
    v.dispose();
    expect(storageOf(base).is_released()).toBe(false);
    expect(base.sum().item()).toBe(N);
  });
  native("detach() and .data are owners too", () => {
    const t = torch.ones(N);
    const d = t.detach();
    t.dispose();
    expect(d.sum().item()).toBe(N);
    const data = d.data;
    d.dispose();
    expect(data.sum().item()).toBe(N);
    expect(storageOf(data).is_released()).toBe(false);
  });
  native("a module's parameters and buffers are owned by the module", () => {
    const lin = new torch.nn.Linear(64, 64);
    const w = lin.weight, ws = storageOf(w);
    w.dispose();
    expect(ws.is_released()).toBe(false);
    const bn = new torch.nn.BatchNorm1d(2048);
    const rm = bn.running_mean as Tensor, rs = storageOf(rm);
    rm.dispose();
    expect(rs.is_released()).toBe(false);
  });
  native("a leaf requiring grad is freed when nothing else owns it", () => {
    const x = torch.rand(N).requires_grad_(true);
    const s = storageOf(x);
    x.dispose();
    expect(s.is_released()).toBe(true);
    expect(x.requires_grad).toBe(true); // metadata stays
  });
  native("a .grad the engine handed out is never freed by dispose", () => {
    const x = torch.rand(N).requires_grad_(true);
    x.mul(2).sum().backward();
    const g = x.grad!, gs = storageOf(g);
    g.dispose();
    expect(gs.is_released()).toBe(false);
  });
});

describe("backward through a disposed saved tensor", () => {
  const setup = () => {
    torch.manual_seed(0);
    return { x: torch.randn(N).requires_grad_(true), w: torch.randn(N) };
  };
  // d/dx sum(exp(x) * w) = exp(x) * w
  const expected = (x: Tensor, w: Tensor) => x.detach().exp().mul(w).tolist();

  it("an intermediate disposed before backward (saved as mul's input and exp's result)", () => {
    const { x, w } = setup();
    const h = x.exp();
    const y = h.mul(w);
    h.dispose();
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual(expected(x, w));
  });
  it("a leaf disposed before backward still gets its .grad", () => {
    const { x, w } = setup();
    const y = x.mul(w);
    x.dispose();
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual(w.tolist());
  });
  native("disposed after backward: the graph let go of it, so it is freed", () => {
    const { x, w } = setup();
    const h = x.exp();
    const y = h.mul(w);
    const s = storageOf(h);
    y.sum().backward();
    h.dispose();
    expect(s.is_released()).toBe(true);
    expect(x.grad!.tolist()).toEqual(expected(x, w));
  });
  native("disposed before backward: the graph's SavedVariables keep it until backward", () => {
    const { x, w } = setup();
    const h = x.exp();
    const y = h.mul(w);
    const s = storageOf(h);
    h.dispose();
    expect(s.is_released()).toBe(false);
    y.sum().backward({ retain_graph: true });
    y.sum().backward(); // the second backward reads the saved tensors again
    expect(x.grad!.tolist()).toEqual(x.detach().exp().mul(w).mul(2).tolist());
  });
  it("double backward (create_graph) through a disposed saved input", () => {
    const { x } = setup();
    const h = x.mul(x);
    const xs = x.detach().clone();
    const [g] = torch.autograd.grad(h.sum(), [x], { create_graph: true }) as Tensor[];
    const gg = g.mul(g).sum();
    x.dispose();
    gg.backward();
    // d/dx sum((2x)^2) = 8x
    expect(x.grad!.tolist()).toEqual(xs.mul(8).tolist());
  });
});

describe("a disposed handle", () => {
  it("keeps its metadata, throws on every use with the op's name, and disposes twice as a no-op", () => {
    const t = torch.ones(4, 5, { dtype: torch.float64 });
    t.dispose();
    t.dispose();
    expect(t.is_disposed).toBe(true);
    expect(t.shape).toEqual([4, 5]);
    expect(t.dtype).toBe(torch.float64);
    expect(t.stride()).toEqual([5, 1]);
    expect(() => t.add(1)).toThrow("add: tensor was disposed (by dispose() or the end of its `using` block); it cannot be used any more");
    expect(() => torch.mul(torch.ones(5), t)).toThrow("mul: tensor was disposed");
    expect(() => t.view(20)).toThrow("view: tensor was disposed");
    expect(() => t.sum()).toThrow("sum: tensor was disposed");
    expect(() => t.item()).toThrow("item: tensor was disposed");
    expect(() => t.tolist()).toThrow("tolist: tensor was disposed");
    expect(() => String(t)).toThrow("repr: tensor was disposed");
    expect(() => t.data.sum()).toThrow(DISPOSED);
    const err = (() => {
      try {
        t.neg();
      } catch (e) {
        return e as Error & { op?: string };
      }
    })();
    expect(err?.name).toBe("RuntimeError");
    expect(err?.op).toBe("aten::neg");
  });
  it("carries every field of the live impl but its key set (TensorImpl._copy_onto names them one by one)", () => {
    const views = [torch.ones(3, 4, { requires_grad: true }), torch.arange(12).view(3, 4).t(), torch.tensor(2.5)];
    for (const t of views) {
      const live = t._impl as unknown as Record<string, unknown>;
      t.dispose();
      const dead = t._impl as unknown as Record<string, unknown>;
      expect(Object.keys(dead).sort()).toEqual(Object.keys(live).filter((k) => k !== "key_set").sort());
      for (const k of Object.keys(dead)) if (k !== "storage" && k !== "owns_storage") expect(dead[k]).toBe(live[k]);
      expect(dead.owns_storage).toBe(false);
    }
  });
  it("backward() on a disposed root throws", () => {
    const x = torch.ones(3, { requires_grad: true });
    const y = x.mul(2).sum();
    y.dispose();
    expect(() => y.backward()).toThrow("backward: tensor was disposed");
  });
  it("ops that return their input give back the same handle (as in PyTorch): disposing it disposes the input", () => {
    const x = torch.ones(N);
    const c = x.contiguous();
    expect(c).toBe(x);
    c.dispose();
    expect(x.is_disposed).toBe(true);
  });
});

describe("using", () => {
  native("a `using` block disposes its results at the end, in reverse order", () => {
    const a = torch.rand(N), b = torch.rand(N);
    let sSum: Storage, sExp: Storage, total: number;
    {
      using sum = torch.add(a, b);
      using e = sum.exp();
      sSum = storageOf(sum);
      sExp = storageOf(e);
      total = e.sum().item() as number;
      expect(sSum.is_released()).toBe(false);
    }
    expect(sSum.is_released()).toBe(true);
    expect(sExp.is_released()).toBe(true);
    expect(total).toBeCloseTo(a.add(b).exp().sum().item() as number, 2);
  });
  it("a result that leaves the block is kept", () => {
    const a = torch.ones(N);
    const keep = (() => {
      using t = a.mul(3);
      return t.add(1);
    })();
    expect(keep.sum().item()).toBe(4 * N);
  });
});

// a fresh process over the built engine (dist/, which `npm test` builds first), without the addon
const dist = new URL("../../dist/engine/index.js", import.meta.url);
(existsSync(dist) ? it : it.skip)("without the addon (TypeScript allocator): dispose marks the handle and frees nothing", () => {
  const code = `import * as torch from ${JSON.stringify(dist.href)};
    const t = torch.ones(${N}); const s = t._impl.storage; t.dispose();
    let msg = ""; try { t.sum(); } catch (e) { msg = e.message; }
    console.log(JSON.stringify({ loaded: torch._C._native_status().loaded, released: s.is_released(), disposed: t.is_disposed, msg }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    env: { ...process.env, GLASSTORCH_NATIVE: "0", GLASSTORCH_REQUIRE_NATIVE: "" },
    encoding: "utf8",
  });
  expect(r.status).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out).toMatchObject({ loaded: false, released: false, disposed: true });
  expect(out.msg).toMatch(/^sum: tensor was disposed/);
}, 60_000);
