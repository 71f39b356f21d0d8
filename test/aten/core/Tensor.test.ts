import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture, outcome } from "../../support/fixtures.js";

const core = loadFixture("core.json");

describe("Tensor metadata", () => {
  it("reports sizes, strides, dim, numel as PyTorch does", () => {
    const t = torch.empty(2, 3, 4);
    expect(String(t.shape)).toBe("torch.Size([2, 3, 4])");
    expect(t.size(-1)).toBe(4);
    expect(t.stride()).toEqual([12, 4, 1]);
    expect(t.stride(0)).toBe(12);
    expect(t.dim()).toBe(3);
    expect(t.ndim).toBe(3);
    expect(t.numel()).toBe(24);
    expect(t.storage_offset()).toBe(0);
    expect(t.is_contiguous()).toBe(true);
  });
  for (const d of core.metadata.dtypes) {
    it(`${d.str}: itemsize ${d.itemsize}, floating ${d.is_floating_point}`, () => {
      const t = torch.empty(0, { dtype: (torch as any)[d.dtype] });
      expect(t.element_size()).toBe(d.itemsize);
      expect(t.is_floating_point()).toBe(d.is_floating_point);
      expect(String(t.dtype)).toBe(d.str);
    });
  }
  it("a 0-dim tensor has an empty shape and stride", () => {
    const s = torch.tensor(1.5);
    expect([...s.shape]).toEqual([]);
    expect(s.stride()).toEqual([]);
    expect(s.item()).toBe(1.5);
    expect(s.tolist()).toBe(1.5);
  });
  it("item and tolist read through the dtype", () => {
    expect(torch.tensor([true, false]).tolist()).toEqual([true, false]);
    expect(torch.tensor([[1, 2], [3, 4]], { dtype: torch.int8 }).tolist()).toEqual([[1, 2], [3, 4]]);
    expect(torch.ones(1, { dtype: torch.bfloat16 }).item()).toBe(1);
  });
  it("every tensor carries autograd keys, requires_grad or not", () => {
    expect(String(torch.ones(2)._dispatch_keys())).toBe(core.metadata.cpu_keys);
    expect(String(torch.ones(2, { device: "meta" })._dispatch_keys())).toBe(core.metadata.meta_keys);
  });
  it("data_ptr distinguishes allocations", () => {
    const a = torch.ones(3), b = torch.ones(3);
    expect(a.data_ptr()).not.toBe(b.data_ptr());
    expect(a.data_ptr() % 64).toBe(0);
  });
  it("requires_grad can be set on floating tensors only", () => {
    const t = torch.ones(2);
    expect(t.requires_grad).toBe(false);
    t.requires_grad_();
    expect(t.requires_grad).toBe(true);
    t.requires_grad = false;
    expect(t.requires_grad).toBe(false);
    expect(outcome(() => torch.tensor([1, 2]).requires_grad_())).toEqual(core.errors.requires_grad_int);
  });
});

describe("Tensor errors are PyTorch's", () => {
  it("item on many elements", () => expect(outcome(() => torch.ones(2).item())).toEqual(core.errors.item_many));
  it("size of a 0-dim tensor", () => expect(outcome(() => torch.tensor(1).size(0))).toEqual(core.errors.size_scalar));
  it("size out of range", () => expect(outcome(() => torch.ones(2, 3).size(2))).toEqual(core.errors.size_out_of_range));
  it("stride out of range", () => expect(outcome(() => torch.ones(2, 3).stride(-3))).toEqual(core.errors.stride_out_of_range));
  it("set_default_dtype refuses integer dtypes", () => {
    expect(outcome(() => torch.set_default_dtype(torch.int64))).toEqual(core.errors.set_default_int);
  });
});
