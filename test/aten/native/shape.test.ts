// The shape family (views, shape ops, copies, factories) against PyTorch 1.13 (fixtures/shape.json,
// written by fixtures/gen_shape.py): sizes, strides, offsets, values, aliasing, meta results, errors,
// copy_'s conversions and overlap rules, and the ops each call runs (PyTorch's profiler tree).
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import * as G from "../../../engine/generated/index.js";
import { Tensor } from "../../../engine/aten/core/Tensor.js";
import { TensorImpl } from "../../../engine/c10/TensorImpl.js";
import { typedView } from "../../../engine/c10/ElementAccess.js";
import { callTree } from "../../support/call_tree.js";
import { loadFixture, dec, outcome } from "../../support/fixtures.js";
import { buildWindow, type WindowSpec } from "../../support/windows.js";

const F = loadFixture("shape.json");
const T = torch as any;
const fns = G as any;
const dt = (n: string) => T[n] as torch.dtype;

type Spec = WindowSpec;
const build = buildWindow;

function decodeArg(v: any, device: string): any {
  if (v && typeof v === "object" && "tensor" in v) return build(v.tensor, device);
  if (v && typeof v === "object" && "dtype" in v && Object.keys(v).length === 1) return dt(v.dtype);
  return v;
}

function call(c: any, x: Tensor, device: string): unknown {
  const args = c.args.map((a: any) => decodeArg(a, device));
  const kw = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, decodeArg(v, device)]));
  const tail = Object.keys(kw).length ? [kw] : [];
  if (c.variant === "method") return (x as any)[c.op](...args, ...tail);
  return fns[c.op](x, ...args, ...tail); // function, or an aten op PyTorch keeps out of torch.* (slice, _to_copy...)
}

function summary(r: any, x: Tensor): any {
  if (Array.isArray(r)) return { list: r.map((t) => summary(t, x)) };
  const t = r as Tensor;
  return {
    sizes: [...t.shape], strides: t.stride(), offset: t.storage_offset(), dtype: t.dtype.name, device: String(t.device),
    values: t.is_meta ? null : t.tolist(), same_storage: t._impl.storage === x._impl.storage, is_self: t === x,
  };
}

function metaSummary(r: any): any {
  if (Array.isArray(r)) return { list: r.map(metaSummary) };
  const t = r as Tensor;
  return { sizes: [...t.shape], strides: t.stride(), offset: t.storage_offset(), dtype: t.dtype.name, device: String(t.device) };
}

function decodeValues(e: any): any {
  if (e && typeof e === "object" && "list" in e) return { list: e.list.map(decodeValues) };
  return e && "values" in e ? { ...e, values: dec(e.values) } : e;
}

/** Every view result shares its input's version counter, so an in-place write through either bumps both. */
function sharesVersion(r: any, x: Tensor): boolean {
  const all = Array.isArray(r) ? r : [r];
  return all.every((t: Tensor) => t._impl.storage !== x._impl.storage || t._impl.version_counter === x._impl.version_counter);
}

describe("views and shape ops match PyTorch (sizes, strides, offset, values, aliasing, errors)", () => {
  for (const c of F.cases) {
    for (const r of c.results) {
      it(`${c.name} [${r.dtype}]`, () => {
        const x = build(r.input);
        const got = outcome(() => call(c, x, "cpu"));
        if ("error" in r.cpu) {
          expect({ error: got.error, message: got.message }).toEqual(r.cpu);
          return;
        }
        expect(got.error ? got : summary(got.value, x)).toEqual(decodeValues(r.cpu));
        expect(sharesVersion(got.value, x)).toBe(true);
      });
      it(`${c.name} [${r.dtype}] on meta`, () => {
        const x = build(r.input, "meta");
        const got = outcome(() => call(c, x, "meta"));
        if ("error" in r.meta) expect({ error: got.error, message: got.message }).toEqual(r.meta);
        else expect(got.error ? got : metaSummary(got.value)).toEqual(r.meta);
      });
    }
  }
});

describe("a view shares storage and version counter with its base", () => {
  const views: Record<string, (b: Tensor) => any> = {
    transpose: (b) => b.transpose(0, 1),
    t: (b) => b.t(),
    permute: (b) => b.permute(1, 0),
    movedim: (b) => fns.movedim(b, 0, 1),
    narrow: (b) => b.narrow(1, 1, 2),
    select: (b) => b.select(0, 1),
    slice: (b) => fns.slice(b, 1, 1, null, 2),
    unsqueeze: (b) => b.unsqueeze(0),
    squeeze: (b) => b.unsqueeze(1).squeeze(),
    expand: (b) => b.select(0, 0).expand(4, 3),
    diagonal: (b) => b.diagonal(),
    unfold: (b) => b.unfold(1, 2, 1),
    as_strided: (b) => b.as_strided([2], [4], 1),
    reshape: (b) => b.reshape(3, 2),
    flatten: (b) => b.flatten(),
    view_as: (b) => b.view_as(torch.ones(6)),
    alias: (b) => fns.alias(b),
    // (the generated TS types say Tensor for list-returning ops: Tensor(a)[] is not mapped yet)
    split: (b) => (b.split(1, 1) as unknown as Tensor[])[1],
    chunk: (b) => (b.chunk(3, 1) as unknown as Tensor[])[2],
    unbind: (b) => (b.unbind(0) as unknown as Tensor[])[1],
  };
  for (const [name, make] of Object.entries(views)) {
    it(name, () => {
      const base = torch.tensor([[0, 1, 2], [3, 4, 5]], { dtype: torch.float32 });
      const v: Tensor = make(base);
      expect(v.untyped_storage()).toBe(base.untyped_storage());
      const before = base._version;
      v.fill_(0); // a write through the view...
      expect(base._version).toBe(before + 1); // ...bumps the shared version counter
      expect(v._version).toBe(base._version);
      // ...and the base sees zeros exactly at the addresses the view covers (base is contiguous: address = flat index)
      const covered = new Set<number>();
      const walk = (d: number, at: number): void => {
        if (d === v.dim()) return void covered.add(at);
        for (let i = 0; i < v.size(d); i++) walk(d + 1, at + i * v.stride(d));
      };
      walk(0, v.storage_offset());
      expect(base.flatten().tolist()).toEqual([0, 1, 2, 3, 4, 5].map((e) => (covered.has(e) ? 0 : e)));
      base.add_(1); // and a write through the base is seen by the view
      expect((v.flatten().tolist() as number[]).every((e) => e >= 1)).toBe(true);
    });
  }
  it("copies do not alias", () => {
    const base = torch.tensor([[0, 1, 2], [3, 4, 5]], { dtype: torch.float32 });
    const copies = [base.t().reshape(6), base.clone(), base.t().contiguous(), base.to(torch.float64), base.to({ copy: true }), fns.zeros_like(base)];
    for (const c of copies) expect(c.untyped_storage()).not.toBe(base.untyped_storage());
    expect(base.contiguous()).toBe(base);
    expect(base.to(torch.float32)).toBe(base);
    expect(base.flatten(1, 1)).toBe(base);
  });
});

describe("copy_ matches PyTorch", () => {
  for (const c of F.copies) {
    it(c.name, () => {
      const got = outcome(() => {
        const d = build(c.dst);
        d.copy_(build(c.src));
        return { values: d.tolist() };
      });
      expect(got.error ? { error: got.error, message: got.message } : got.value).toEqual(decodeValues(c.result));
    });
  }
  it("bumps the version of what it wrote, once", () => {
    const d = torch.tensor([1, 2, 3], { dtype: torch.float32 });
    const before = d._version;
    d.copy_(torch.tensor([4, 5, 6]));
    expect(d._version).toBe(before + 1);
  });
});

describe("copy_ between views of one storage: PyTorch's refusals, and its loop order where it proceeds", () => {
  const baseValues = (n: number, d: string) => [...Array(n).keys()].map((i) => (d === "bool" ? i % 3 !== 0 : i));
  for (const c of F.overlaps) {
    it(c.name, () => {
      const base = torch.tensor(baseValues(c.numel, c.dtype), { dtype: dt(c.dtype) });
      const view = ([sizes, strides, offset]: [number[], number[], number]) =>
        new Tensor(new TensorImpl(base._impl.storage, base.dtype, sizes, strides, offset, base._impl.version_counter));
      const got = outcome(() => {
        view(c.dst).copy_(view(c.src));
        return { values: base.tolist() };
      });
      expect(got.error ? { error: got.error, message: got.message } : got.value).toEqual(decodeValues(c.result));
    });
  }
});

describe("copy_ converts dtypes as PyTorch's static_cast does (x86 answers where C++ leaves it undefined)", () => {
  const raw = (t: Tensor) => {
    if (t.dtype === torch.int64) {
      const v = typedView(t._impl.storage, t.dtype) as BigInt64Array;
      return [...Array(t.numel()).keys()].map((i) => String(v[t.storage_offset() + i * t.stride(0)]));
    }
    return t.tolist();
  };
  for (const row of F.conversions) {
    const n = row.src.length;
    const src = () => {
      if (row.src_dtype !== "int64") return torch.tensor(dec(row.src), { dtype: dt(row.src_dtype) });
      const t = torch.empty([n], { dtype: torch.int64 });
      const v = typedView(t._impl.storage, t.dtype) as BigInt64Array;
      row.src.forEach((s: string, i: number) => (v[i] = BigInt(s)));
      return t;
    };
    for (const [dst, expected] of Object.entries(row.dst) as [string, any][]) {
      it(`${row.src_dtype} -> ${dst}`, () => {
        const contig = torch.empty([n], { dtype: dt(dst) });
        contig.copy_(src());
        expect(raw(contig)).toEqual(dec(expected.contig));
        const wide = torch.empty([2 * n], { dtype: dt(dst) });
        const strided = new Tensor(new TensorImpl(wide._impl.storage, wide.dtype, [n], [2], 0, wide._impl.version_counter));
        strided.copy_(src());
        expect(raw(strided)).toEqual(dec(expected.strided));
      });
    }
  }
});

describe("meta tensors and devices", () => {
  const D = F.devices;
  it("a copy into a meta tensor is accepted and ignored", () => {
    expect(metaSummary(torch.empty([6], { device: "meta" }).copy_(torch.ones(4)))).toEqual(D.copy_into_meta_ignores_src);
  });
  it("nothing can be copied out of a meta tensor", () => {
    expect(outcome(() => torch.ones(6).copy_(torch.empty([6], { device: "meta" })))).toEqual(D.copy_out_of_meta);
    expect(outcome(() => torch.empty([6], { device: "meta" }).to({ device: "cpu" }))).toEqual(D.to_cpu_from_meta);
  });
  it("to('meta') keeps a dense tensor's strides", () => {
    expect(metaSummary(torch.ones(2, 3).t().to({ device: "meta" }))).toEqual(D.to_meta_keeps_strides);
  });
});

describe("factories match PyTorch", () => {
  for (const c of F.factories) {
    it(c.name, () => {
      const args = c.args.map((a: any) => decodeArg(a, "cpu"));
      const kw = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, decodeArg(v, "cpu")]));
      const got = outcome(() => {
        const r: Tensor = fns[c.op](...(c.like ? [build(c.like)] : []), ...args, ...(Object.keys(kw).length ? [kw] : []));
        const out: any = { sizes: [...r.shape], strides: r.stride(), dtype: r.dtype.name, device: String(r.device) };
        if ("values" in c.result) out.values = r.tolist();
        return out;
      });
      expect(got.error ? { error: got.error, message: got.message } : got.value).toEqual(decodeValues(c.result));
    });
  }
  it("zeros/full go through BackendSelect to the device's empty", () => {
    expect(String(fns.zeros([2], { device: "meta" }).device)).toBe("meta");
    expect(fns.full([2, 3], 1.5, { requires_grad: true }).requires_grad).toBe(true);
  });
});

describe("each call runs the ops PyTorch's does, nested the same way (profiler tree vs dispatch trace)", () => {
  const calls: Record<string, (x: any, o: any) => unknown> = {
    reshape_view: (x) => x.reshape(6, 4),
    reshape_copy: (x) => x.reshape(-1),
    flatten_view: (x) => x.flatten(),
    flatten_copy: (x) => x.flatten(),
    flatten_0d: (x) => x.flatten(),
    unflatten: (x) => x.unflatten(2, [2, 2]),
    squeeze: (x) => x.squeeze(),
    transpose_same: (x) => x.transpose(1, 1),
    t: (x) => x.t(),
    movedim: (x) => x.movedim(0, 2),
    moveaxis: (x) => x.moveaxis([0], [2]),
    expand_as: (x, o) => x.expand_as(o),
    narrow: (x) => x.narrow(1, 0, 2),
    split: (x) => x.split(2, 1),
    split_with_sizes: (x) => x.split_with_sizes([1, 2], 1),
    chunk: (x) => x.chunk(2, 1),
    chunk_empty: (x) => x.chunk(2),
    unbind: (x) => x.unbind(1),
    view_as: (x, o) => x.view_as(o),
    clone_dense: (x) => x.clone(),
    clone_strided: (x) => x.clone(),
    contiguous_copy: (x) => x.contiguous(),
    to_dtype: (x) => x.to(torch.float64),
    to_same: (x) => x.to(torch.float32),
    to_meta: (x) => x.to({ device: "meta" }),
    zero_dense: (x) => x.zero_(),
    zero_strided: (x) => x.zero_(),
    zeros_like: (x) => fns.zeros_like(x),
    ones_like: (x) => fns.ones_like(x),
    full_like: (x) => fns.full_like(x, 7),
    empty_like_strided: (x) => fns.empty_like(x),
    zeros: () => fns.zeros(2, 3),
    full: () => fns.full([2, 3], 7),
  };
  for (const d of F.decompositions) {
    it(d.name, () => {
      const x = build(d.input);
      const o = d.other ? build(d.other) : null;
      const { events } = torch.trace.record(() => calls[d.name](x, o));
      expect(callTree(events)).toEqual(d.tree);
    });
  }
  it("every decomposition in the fixture is exercised", () => {
    expect(Object.keys(calls).sort()).toEqual(F.decompositions.map((d: any) => d.name).sort());
  });
});

// PyTorch's Autograd kernels redispatch under AutoDispatchBelowADInplaceOrView (and torch:: factories run
// below autograd), so ops that a kernel calls (clone's copy_, zero_'s fill_) skip those keys and bump no version.
describe("versions as PyTorch counts them", () => {
  it("a fresh clone / zeros / to() result is at version 0", () => {
    const x = torch.tensor([[1, 2], [3, 4]], { dtype: torch.float32 });
    expect([x.clone()._version, fns.zeros(2)._version, x.to(torch.float64)._version, fns.zeros_like(x)._version]).toEqual([0, 0, 0, 0]);
  });
  it("zero_ on a strided view bumps the shared version once (its fill_ runs below ADInplaceOrView)", () => {
    const base = torch.tensor([1, 2, 3, 4], { dtype: torch.float32 });
    const before = base._version;
    fns.slice(base, 0, 0, null, 2).zero_();
    expect(base._version).toBe(before + 1);
  });
});

describe("dispatch table provenance follows the yaml's keys", () => {
  const entry = (op: string, key: string) =>
    T._C._dispatch_dump_table(op).split("\n").find((l: string) => l.startsWith(`${key}: `)) ?? "";
  it("CompositeImplicitAutograd ops run their math kernel under autograd", () => {
    expect(entry("aten::reshape", "AutogradCPU")).toContain("[math kernel]");
    expect(entry("aten::flatten.using_ints", "CPU")).toContain("[math kernel]");
  });
  it("CompositeExplicitAutograd ops are the default backend kernel; as_strided has its own CPU and Meta kernels", () => {
    expect(entry("aten::transpose.int", "CPU")).toContain("[default backend kernel]");
    expect(entry("aten::as_strided", "CPU")).toMatch(/shape\.yaml:\d+ \[kernel\]$/);
    expect(entry("aten::as_strided", "Meta")).toMatch(/shape\.yaml:\d+ \[kernel\]$/);
    expect(entry("aten::as_strided", "AutogradCPU")).toContain("[autograd kernel]");
  });
});
