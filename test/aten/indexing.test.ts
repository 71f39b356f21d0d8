// t.get(...) / t.set(...) — Python's t[...] and t[...] = v — against PyTorch 1.13 (fixtures/indexing.json,
// written by fixtures/gen_indexing.py, where every expression sits next to its TypeScript arguments):
// the result (sizes, strides, storage offset, dtype, values, whether it is a view of the indexed
// tensor) or the error, and the aten ops dispatched at top level, in order — PyTorch's as a
// TorchDispatchMode logs them, Glasstorch's from the dispatch trace.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import type { CallEvent } from "../../engine/trace/events.js";
import { dec, loadFixture, outcome } from "../support/fixtures.js";

const F = loadFixture("indexing.json");
const T = torch as any;

function buildEnv(spec: Record<string, any>): Record<string, Tensor> {
  const env: Record<string, Tensor> = {};
  for (const [name, s] of Object.entries(spec)) {
    const t = torch.tensor(dec(s.values), { dtype: T[s.dtype] }).reshape(s.sizes); // reshape: an empty list loses its shape
    env[name] = s.transposed ? t.t() : t;
  }
  return env;
}

/** The fixture's TypeScript arguments: {"t": name} a tensor, {"slice": [...]} a Slice, {"ellipsis": true}. */
function decodeArg(a: any, env: Record<string, Tensor>): any {
  if (a && typeof a === "object" && !Array.isArray(a)) {
    if ("t" in a) return env[a.t];
    if ("slice" in a) return new torch.indexing.Slice(...(a.slice as [number | null, number | null, number | null]));
    if ("ellipsis" in a) return torch.indexing.Ellipsis;
  }
  return a;
}

/** Records each op a TorchDispatchMode sees (at the Python key, below composite-implicit decompositions). */
class OpLog extends torch.utils.TorchDispatchMode {
  readonly ops: string[] = [];
  __torch_dispatch__(func: any, _types: readonly unknown[], args: unknown[], kwargs: Record<string, unknown>): unknown {
    this.ops.push(String(func));
    return func.call(...args, kwargs);
  }
}

/**
 * The aten ops fn dispatches, spelled as PyTorch's OpOverload prints them (aten.select.int), seen two
 * ways: by a TorchDispatchMode, as the fixture's were, and from the dispatch trace — its top-level
 * calls, a CompositeImplicitAutograd call ("math kernel") replaced by the calls its kernel made, as a
 * mode sees them.
 */
function dispatchedOps(fn: () => void): { ops: string[]; traced: string[]; error: any } {
  let error: any = null;
  const mode = new OpLog();
  const { events } = torch.trace.record(() => {
    mode.enter();
    try {
      fn();
    } catch (e) {
      error = e;
    } finally {
      mode.exit();
    }
  });
  const calls = events.filter((e): e is CallEvent => e.type === "call");
  const math = new Set(events.filter((e: any) => e.type === "dispatch" && e.kernel?.provenance === "math kernel").map((e: any) => e.call));
  const name = (c: CallEvent) => `${c.op.replace("::", ".")}.${c.overload || "default"}`;
  // under a mode every call also passes the Python key's kernel, which redispatches: take the
  // outermost call of each op (parent null, or a math-kernel parent)
  const seen = (parent: number | null): string[] =>
    calls.filter((c) => c.parent === parent).flatMap((c) => (math.has(c.id) ? seen(c.id) : [name(c)]));
  return { ops: mode.ops, traced: seen(null), error };
}

const summary = (r: Tensor, base: Tensor) => ({
  sizes: [...r.shape], strides: r.stride(), offset: r._impl.storage_offset(), dtype: r.dtype.name,
  values: r.tolist(), view_of_input: r._impl.storage === base._impl.storage,
});

const asResult = (e: any) => ({ error: e.name, message: e.message });

describe("t.get(...) is Python's t[...]: same result, same aten ops (PyTorch 1.13)", () => {
  for (const g of F.get) {
    for (const [dtype, want] of Object.entries<any>(g.results)) {
      it(`${g.expr} [${dtype}]`, () => {
        const env = buildEnv(F.envs[dtype]);
        const base = env[g.tensor];
        const args = g.args.map((a: any) => decodeArg(a, env));
        let r: Tensor | null = null;
        const { ops, traced, error } = dispatchedOps(() => (r = base.get(...args)));
        if ("error" in want.result) expect(error ? asResult(error) : summary(r!, base)).toEqual(want.result);
        else {
          expect(error).toBeNull();
          expect(summary(r!, base)).toEqual({ ...want.result, values: dec(want.result.values) });
        }
        expect(ops).toEqual(want.ops);
        expect(traced).toEqual(want.ops);
      });
    }
  }
});

describe("t.set(..., value) is Python's t[...] = value: same tensor after, same aten ops (PyTorch 1.13)", () => {
  for (const s of F.set) {
    for (const [dtype, want] of Object.entries<any>(s.results)) {
      it(`${s.stmt} [${dtype}]`, () => {
        const env = buildEnv(F.envs[dtype]);
        const y = env[s.tensor].clone();
        const args = s.args.map((a: any) => decodeArg(a, env));
        const { ops, traced, error } = dispatchedOps(() => y.set(...(args as [number])));
        if (want.result && typeof want.result === "object" && "error" in want.result) expect(error ? asResult(error) : y.tolist()).toEqual(want.result);
        else {
          expect(error).toBeNull();
          expect(y.tolist()).toEqual(dec(want.result));
        }
        expect(ops).toEqual(want.ops);
        expect(traced).toEqual(want.ops);
      });
    }
  }
});

describe("indexing API details", () => {
  it("__getitem__ / __setitem__ are get / set", () => {
    const x = torch.arange(6).reshape(2, 3);
    expect(x.__getitem__(1, "1:").tolist()).toEqual([4, 5]);
    x.__setitem__(0, -1, 9);
    expect(x.tolist()).toEqual([[0, 1, 9], [3, 4, 5]]);
  });

  it("the trace names the binding: Tensor.__getitem__ / Tensor.__setitem__ on the first call", () => {
    const x = torch.zeros(3, 4);
    const get = torch.trace.record(() => x.get(1, "1:")).events.filter((e): e is CallEvent => e.type === "call" && e.parent === null);
    expect(get.map((c) => [c.name, c.apiBinding])).toEqual([["aten::select.int", "Tensor.__getitem__"], ["aten::slice.Tensor", null]]);
    const set = torch.trace.record(() => x.set([0, 1], 2)).events.filter((e): e is CallEvent => e.type === "call" && e.parent === null);
    expect(set[0].apiBinding).toBe("Tensor.__setitem__");
  });

  it("basic indexing returns views that share storage and the version counter", () => {
    const x = torch.zeros(3, 4);
    const row = x.get(1, "::2");
    row.fill_(1);
    expect(x.tolist()).toEqual([[0, 0, 0, 0], [1, 0, 1, 0], [0, 0, 0, 0]]);
    x.set(2, 5);
    expect(row._version).toBe(x._version);
  });

  it("advanced indexing copies", () => {
    const x = torch.zeros(3);
    const y = x.get([0, 1]);
    y.fill_(1);
    expect(x.tolist()).toEqual([0, 0, 0]);
  });

  it("torch.indexing.None is null and Slice defaults follow the step's sign", () => {
    expect(torch.indexing.None).toBeNull();
    const s = new torch.indexing.Slice(null, null, 2);
    expect([s.start, s.step]).toEqual([0, 2]);
    // callable without `new`, like Python's slice() and C++'s Slice
    const r = torch.indexing.Slice(null, 1, -1);
    expect(r).toBeInstanceOf(torch.indexing.Slice);
    expect([r.start, r.stop, r.step]).toEqual([2 ** 63 - 1, 1, -1]);
    expect(outcome(() => torch.arange(3).get(r))).toEqual({ error: "ValueError", message: "step must be greater than zero" });
    expect(outcome(() => new torch.indexing.Slice(0, 1, 0))).toEqual({ error: "ValueError", message: "slice step cannot be zero" });
  });

  it("set on meta tensors checks shapes and writes nothing", () => {
    const x = torch.empty([3, 4], { device: "meta" });
    x.set(0, 1);
    x.set("1:", torch.ones(4));
    expect(outcome(() => x.set(1, torch.ones(3)))).toEqual({
      error: "RuntimeError",
      message: "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 0.  Target sizes: [4].  Tensor sizes: [3]",
    });
  });

  it("get on meta tensors gives the shapes without data", () => {
    const x = torch.empty([3, 4], { device: "meta" });
    const r = x.get(torch.tensor([2, 0]), "1:");
    expect([[...r.shape], r.stride(), r.is_meta]).toEqual([[2, 3], [3, 1], true]);
  });
});
