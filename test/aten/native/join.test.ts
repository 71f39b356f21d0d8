// The join family (cat, stack, hstack, vstack, dstack, atleast_Nd, flip, roll, tril, triu, repeat,
// tile) against PyTorch 1.13 (fixtures/join.json, written by fixtures/gen_join.py): sizes, strides,
// dtypes (promotion across inputs), values, out= results, meta results, error texts, and the ops each
// decomposition runs (PyTorch's profiler tree vs the dispatch trace).
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import * as G from "../../../engine/generated/index.js";
import { Tensor } from "../../../engine/aten/core/Tensor.js";
import { TensorImpl } from "../../../engine/c10/TensorImpl.js";
import type { CallEvent, TraceEvent } from "../../../engine/trace/events.js";
import { loadFixture, dec, outcome } from "../../support/fixtures.js";
import { buildWindow, type WindowSpec } from "../../support/windows.js";

const F = loadFixture("join.json");
const T = torch as any;
const fns = G as any;
const dt = (n: string) => T[n] as torch.dtype;

type Spec = WindowSpec;
const build = buildWindow;

function decodeArg(v: any, device: string): any {
  if (v && typeof v === "object" && "tensor" in v) return build(v.tensor, device);
  if (v && typeof v === "object" && "list" in v) return v.list.map((x: any) => decodeArg(x, device));
  return v;
}

function call(c: any, r: any, device: string): { value: unknown; out: unknown } {
  const args = r.args.map((a: any) => decodeArg(a, device));
  const kw = Object.fromEntries(Object.entries(r.kwargs).map(([k, v]) => [k, decodeArg(v, device)]));
  const tail = Object.keys(kw).length ? [kw] : [];
  const value = c.variant === "method" ? args[0][c.op](...args.slice(1), ...tail) : (fns[c.op] ?? T[c.op])(...args, ...tail);
  return { value, out: kw.out ?? null };
}

function summary(r: any, out: unknown): any {
  if (Array.isArray(r)) return { list: r.map((t) => summary(t, out)) };
  const t = r as Tensor;
  return { sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name, values: t.tolist(), is_out: t === out };
}

function metaSummary(r: any): any {
  if (Array.isArray(r)) return { list: r.map(metaSummary) };
  const t = r as Tensor;
  return { sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name };
}

function decodeValues(e: any): any {
  if (e && typeof e === "object" && "list" in e) return { list: e.list.map(decodeValues) };
  return e && "values" in e ? { ...e, values: dec(e.values) } : e;
}

/**
 * Known differences, left to a shared change: with an empty Tensor[] there is no dispatch key, and
 * Glasstorch's dispatcher raises its "no tensor arguments" error before cat's kernel runs, where
 * PyTorch 1.13 reaches cat's meta function ("torch.cat(): expected a non-empty list of Tensors").
 */
const KNOWN = new Set<string>([]); // torch.cat([]) reaches cat through its CompositeExplicitAutogradNonFunctional kernel, as in PyTorch

describe("join ops match PyTorch (sizes, strides, dtype, values, out=, errors)", () => {
  for (const c of F.cases) {
    for (const r of c.results) {
      const it_ = KNOWN.has(c.name) ? it.skip : it;
      it_(`${c.name} [${r.dtype}]`, () => {
        const got = outcome(() => {
          const o = call(c, r, "cpu");
          return summary(o.value, o.out);
        });
        if ("error" in r.cpu) expect({ error: got.error, message: got.message }).toEqual(r.cpu);
        else expect(got.error ? got : got.value).toEqual(decodeValues(r.cpu));
      });
      it_(`${c.name} [${r.dtype}] on meta`, () => {
        const got = outcome(() => metaSummary(call(c, r, "meta").value));
        if ("error" in r.meta) expect({ error: got.error, message: got.message }).toEqual(r.meta);
        else expect(got.error ? got : got.value).toEqual(r.meta);
      });
    }
  }
});

describe("decompositions run the ops PyTorch's do, nested the same way (profiler tree vs dispatch trace)", () => {
  const a23 = () => torch.ones(2, 3);
  const calls: Record<string, () => () => unknown> = {
    hstack: () => { const a = a23(); return () => fns.hstack([a, a]); },
    vstack: () => { const a = a23(), b = torch.ones(3); return () => fns.vstack([b, a]); },
    dstack: () => { const a = a23(); return () => fns.dstack([a, a]); },
    stack: () => { const a = a23(); return () => fns.stack([a, a], 1); },
    stack_last: () => { const a = a23(); return () => fns.stack([a, a], 2); },
    tile: () => { const a = a23(); return () => fns.tile(a, [2]); },
    repeat: () => { const a = a23(); return () => (a as any).repeat(2, 2); },
    roll_multi: () => { const a = a23(); return () => fns.roll(a, [1, 1], [0, 1]); },
    roll_flat: () => { const a = a23(); return () => fns.roll(a, 1); },
  };
  type Node = { op: string; children: Node[] };
  const tree = (events: TraceEvent[]): Node[] => {
    const nodes = new Map<number, Node>();
    const roots: Node[] = [];
    for (const e of events) {
      if (e.type !== "call") continue;
      const c = e as CallEvent;
      const n: Node = { op: c.op, children: [] };
      nodes.set(c.id, n);
      (c.parent === null ? roots : nodes.get(c.parent)!.children).push(n);
    }
    return roots;
  };
  for (const d of F.trees) {
    it(d.name, () => {
      const fn = calls[d.name]();
      const { events } = torch.trace.record(fn);
      expect(tree(events)).toEqual(d.tree);
    });
  }
  it("every decomposition in the fixture is exercised", () => {
    expect(Object.keys(calls).sort()).toEqual(F.trees.map((d: any) => d.name).sort());
  });
});

describe("in-place and aliasing behaviour", () => {
  it("tril_ and triu_ return self and bump its version", () => {
    const x = torch.ones(3, 3);
    const v = x._version;
    expect((x as any).tril_()).toBe(x);
    expect((x as any).triu_(1)).toBe(x);
    expect(x._version).toBeGreaterThan(v);
    expect(x.tolist()).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
  });
  it("cat's result never aliases its inputs", () => {
    const a = torch.ones(2);
    const r = fns.cat([a]) as Tensor;
    expect(r._impl.storage).not.toBe(a._impl.storage);
  });
});
