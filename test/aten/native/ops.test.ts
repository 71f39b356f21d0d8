// The first generated operators end to end (binding -> dispatcher -> kernel) against PyTorch 1.13 (fixtures/ops.json).
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { computeStride, infer_size } from "../../../engine/aten/native/TensorShape.js";
import { loadFixture, outcome } from "../../support/fixtures.js";

const F = loadFixture("ops.json");
const dt = (n: string) => (torch as any)[n] as torch.dtype;
const build = (x: any) => (x && typeof x === "object" && "data" in x ? torch.tensor(x.data, { dtype: dt(x.dtype) }) : x);
const res = (t: torch.Tensor) => ({ dtype: t.dtype.name, shape: [...t.shape], values: t.tolist() });

describe("add and mul match PyTorch (broadcasting, promotion, alpha, wrapping)", () => {
  for (const c of F.binary) {
    const label = `${JSON.stringify(c.a)} , ${JSON.stringify(c.b)}, alpha=${c.alpha}`;
    it(`add ${label}`, () => expect(res(torch.add(build(c.a), build(c.b), { alpha: c.alpha }))).toEqual(c.add));
    it(`mul ${label}`, () => expect(res(torch.mul(build(c.a), build(c.b)))).toEqual(c.mul));
  }
  it("methods, in-place and out= forms agree", () => {
    const a = torch.tensor([1, 2, 3], { dtype: torch.float32 });
    expect(a.add(1).tolist()).toEqual([2, 3, 4]);
    const v = a._version;
    expect(a.add_(a, { alpha: 2 }).tolist()).toEqual([3, 6, 9]);
    expect(a._version).toBe(v + 1); // ADInplaceOrView bumped it
    const out = torch.empty(3);
    expect(torch.mul(a, 2, { out }).tolist()).toEqual([6, 12, 18]);
    expect(out.tolist()).toEqual([6, 12, 18]);
  });
});

describe("sum matches PyTorch", () => {
  for (const c of F.sums) {
    it(`sum ${JSON.stringify(c.x)} dim=${JSON.stringify(c.dim)} keepdim=${c.keepdim} dtype=${c.dtype}`, () => {
      const x = build(c.x);
      const opts = c.dtype ? { dtype: dt(c.dtype) } : {};
      const r = c.dim === null ? torch.sum(x, opts) : torch.sum(x, c.dim, c.keepdim, opts);
      expect(res(r)).toEqual(c.result);
    });
  }
});

describe("view computes PyTorch's strides", () => {
  for (const c of F.views) {
    it(`${c.src} ${JSON.stringify(c.in_shape)}/${JSON.stringify(c.in_stride)} -> ${JSON.stringify(c.shape)}`, () => {
      const numel = c.in_shape.reduce((a: number, b: number) => a * b, 1);
      const shape = infer_size(c.shape, numel);
      const stride = computeStride(c.in_shape, c.in_stride, shape);
      if (c.error) expect(stride).toBeNull();
      else expect({ shape, stride }).toEqual({ shape: c.out_shape, stride: c.out_stride });
    });
  }
  it("a view shares storage and version counter with its base", () => {
    const base = torch.ones(2, 3);
    const v = base.view(3, 2);
    expect(v.data_ptr()).toBe(base.data_ptr());
    base.add_(1);
    expect(v.tolist()).toEqual([[2, 2], [2, 2], [2, 2]]);
    expect(v._version).toBe(base._version);
  });
});

describe("bad input gets PyTorch's errors", () => {
  const cases: Record<string, () => unknown> = {
    alpha_float_int: () => torch.add(torch.tensor([1, 2]), torch.tensor([1, 2]), { alpha: 1.5 }),
    alpha_bool: () => torch.add(torch.tensor([1.5]), torch.tensor([1.5]), { alpha: true }),
    inplace_broadcast: () => torch.ones(3).add_(torch.ones(2, 3)),
    inplace_cast: () => torch.ones(3, { dtype: torch.int64 }).add_(1.5),
    broadcast: () => torch.add(torch.ones(2, 3), torch.ones(4, 3)),
    view_infer_twice: () => torch.ones(2, 3).view(-1, -1),
    view_numel: () => torch.ones(2, 3).view(5),
    view_negative: () => torch.ones(2, 3).view(-2, 3),
    sum_dim_range: () => torch.sum(torch.ones(2, 3), 5),
    sum_dim_twice: () => torch.sum(torch.ones(2, 3), [0, 0]),
    device_mismatch: () => torch.add(torch.ones(2, { device: "meta" }), torch.ones(2)),
  };
  for (const [name, fn] of Object.entries(cases)) it(name, () => expect(outcome(fn)).toEqual(F.errors[name]));
});

describe("ones goes through BackendSelect to the device's kernels", () => {
  it("matches PyTorch", () => {
    expect(res(torch.ones(2, 3))).toEqual(F.ones[0]);
    expect(res(torch.ones([], { dtype: torch.int16 }))).toEqual(F.ones[1]);
    expect(res(torch.ones(0, 2))).toEqual(F.ones[2]);
  });
  it("meta tensors take the Meta kernels: shapes and dtypes without data", () => {
    const m = torch.add(torch.ones(2, 3, { device: "meta" }), torch.ones(3, { device: "meta", dtype: torch.float64 }));
    expect([...m.shape]).toEqual([2, 3]);
    expect(m.dtype).toBe(torch.float64);
    expect(m.device.type).toBe("meta");
  });
});
