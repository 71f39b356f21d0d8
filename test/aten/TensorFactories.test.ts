import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture, outcome } from "../support/fixtures.js";

const core = loadFixture("core.json");
const F = core.factories;
const errors = core.errors;

describe("zeros / ones / empty / full", () => {
  it("take sizes as varargs or one array, options last", () => {
    expect(torch.zeros(2, 3).shape).toEqual([2, 3]);
    expect(torch.zeros([2, 3]).shape).toEqual([2, 3]);
    expect(torch.ones(2, { dtype: torch.int32 }).tolist()).toEqual([1, 1]);
    expect(torch.ones([], { dtype: torch.bool }).tolist()).toBe(true);
    expect(torch.empty(0, 3).numel()).toBe(0);
  });
  it("use the default dtype", () => {
    expect(torch.zeros(1).dtype).toBe(torch.float32);
    torch.set_default_dtype(torch.float64);
    try {
      expect(torch.zeros(1).dtype).toBe(torch.float64);
    } finally {
      torch.set_default_dtype(torch.float32);
    }
  });
  for (const c of F.full) {
    it(`full infers ${c.dtype} from ${c.fill}`, () => expect(torch.full([2], c.fill).dtype.name).toBe(c.dtype));
  }
  it("full with a float value into an integer dtype truncates", () => {
    expect(torch.full([2], 1.5, { dtype: torch.int64 }).tolist()).toEqual([1, 1]);
  });
  it("meta tensors have shape and dtype but no data", () => {
    const m = torch.zeros(2, 3, { device: "meta" });
    expect(m.shape).toEqual([2, 3]);
    expect(m.data_ptr()).toBe(0);
    expect(outcome(() => m.tolist())).toEqual(errors.meta_tolist);
  });
  it("cuda without a CUDA backend says so", () => {
    expect(() => torch.zeros(2, { device: "cuda" })).toThrow("Torch not compiled with CUDA enabled");
  });
});

describe("eye", () => {
  for (const c of F.eye) {
    it(`eye(${c.args.join(", ")})`, () => expect((torch.eye as any)(...c.args).tolist()).toEqual(c.values));
  }
  it("rejects negative sizes", () => {
    expect(outcome(() => torch.eye(-1))).toEqual(errors.eye_negative);
    expect(outcome(() => torch.eye(2, -1))).toEqual(errors.eye_negative_m);
  });
});

describe("*_like", () => {
  it("copies size, dtype and device unless overridden", () => {
    const x = torch.ones(2, 3, { dtype: torch.int16 });
    expect(torch.zeros_like(x).dtype).toBe(torch.int16);
    expect(torch.ones_like(x, { dtype: torch.float64 }).dtype).toBe(torch.float64);
    expect(torch.full_like(x, 7).tolist()).toEqual([[7, 7, 7], [7, 7, 7]]);
    expect(torch.empty_like(x).shape).toEqual([2, 3]);
    expect(torch.zeros_like(torch.empty(2, { device: "meta" })).device.type).toBe("meta");
  });
});

describe("size arguments are checked as PyTorch checks them", () => {
  it("non-integer size", () => expect(outcome(() => torch.zeros(2.5))).toEqual(errors.zeros_float_size));
  it("negative size", () => expect(outcome(() => torch.zeros(2, -3))).toEqual(errors.zeros_negative));
  it("wrong element type", () => expect(outcome(() => torch.zeros([2, "a" as any]))).toEqual(errors.zeros_str_elem));
  it("requires_grad on an integer tensor", () => {
    expect(outcome(() => torch.tensor([1, 2], { requires_grad: true }))).toEqual(errors.tensor_int_requires_grad);
  });
  it("a misspelt option is an error, not silently ignored", () => {
    expect(() => torch.zeros(2, { dtpye: torch.float64 } as any)).toThrow("zeros() got an unexpected keyword argument 'dtpye'");
    expect(() => torch.rand(2, { generater: null } as any)).toThrow(torch.TypeError);
  });
  it("a dtype or device of the wrong type is a TypeError", () => {
    // PyTorch 1.13: tensor(): argument 'dtype' must be torch.dtype, not int
    expect(outcome(() => torch.tensor([1], { dtype: 5 as any }))).toEqual({ error: "TypeError", message: "tensor(): argument 'dtype' must be torch.dtype, not int" });
    expect(() => torch.zeros(2, { device: 3.5 as any })).toThrow("zeros(): argument 'device' must be torch.device, not float");
    expect(() => torch.zeros(2, { device: "gpu" })).toThrow(/Expected one of cpu, cuda/);
  });
  it("requires_grad on a float factory", () => {
    expect(torch.ones(2, { requires_grad: true }).requires_grad).toBe(true);
  });
});
