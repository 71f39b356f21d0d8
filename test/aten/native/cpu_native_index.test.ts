// The native advanced-indexing kernels (native/cpu/AdvancedIndex.cc via NativeAdvancedIndex.ts):
// index (`x.get(idx)`, `x.get(mask)`), index_put_ (`x.set(idx, v)`, accumulate) and nonzero, against the
// TypeScript kernels: the same elements bit for bit (they are copied, or added in the dtype's own
// arithmetic in the TS kernel's order), the same errors, on 1 and 2 threads. The PyTorch fixtures of
// these ops (test/aten/native/index*.test.ts) run on both paths through the ts-kernels project.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { index_Tensor_out } from "../../../engine/generated/index_op.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

const DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.bool];

/** t's elements in row-major order with its shape (-0 told from 0; float16/bfloat16 as their values, exact). */
function bits(t: torch.Tensor): string {
  const v = (t.contiguous().flatten().tolist() as unknown[]).map((x) => (Object.is(x, -0) ? "-0" : String(x)));
  return JSON.stringify({ shape: t.shape, v });
}

/** Values of each dtype, with the edge cases that matter for copies and nonzero (NaN, -0). */
function values(shape: number[], dtype: torch.dtype, seed: number): torch.Tensor {
  torch.manual_seed(seed);
  if (dtype === torch.bool) return torch.rand(shape).gt(0.5);
  if (dtype.is_floating_point) {
    const x = torch.randn(shape).mul(100).to(dtype);
    const flat = x.view(-1);
    if (flat.numel() > 3) {
      flat.set(0, NaN);
      flat.set(1, -0);
      flat.set(2, 0);
    }
    return x;
  }
  const lo = dtype === torch.uint8 ? 0 : -100;
  return torch.randint(lo, 100, shape, { dtype });
}

/** f's result on the native kernels (on 1 and 2 threads) equals the TS kernels', and `stub` ran natively (null: no kernel ran, an empty result). */
function same(what: string, f: () => torch.Tensor, stub: string | null): void {
  const want = bits(underTs(f));
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    if (stub === null) expect(kernelsRan(f), what).toEqual([]);
    else expect(kernelsRan(f), what).toContain(`${stub}:native`);
    expect(bits(f()), `${what} (${threads} threads)`).toBe(want);
  }
}

/** f throws the same error type and text on both paths. */
function sameError(what: string, f: () => unknown): string {
  let want = "";
  try {
    underTs(f);
  } catch (e) {
    want = `${(e as Error).name}: ${(e as Error).message}`;
  }
  expect(want, `${what}: the TS kernel raises`).not.toBe("");
  let got = "";
  try {
    f();
  } catch (e) {
    got = `${(e as Error).name}: ${(e as Error).message}`;
  }
  expect(got, what).toBe(want);
  return got;
}

describe("index: x[indices]", () => {
  native("rows, columns, two broadcast indices, non-adjacent indices, masks, negative indices: every dtype", () => {
    torch.manual_seed(1);
    const rows = torch.randint(-40, 40, [57]);
    const cols = torch.randint(0, 33, [7, 1]);
    const cols2 = torch.randint(-33, 33, [1, 5]);
    for (const dtype of DTYPES) {
      const x = values([40, 33], dtype, 2);
      const x3 = values([6, 40, 33], dtype, 3);
      same(`${dtype} x[rows]`, () => x.get(rows), "index_stub");
      same(`${dtype} x[:, cols]`, () => x.get(":", cols2.view(-1)), "index_stub");
      same(`${dtype} x[rows2d, cols2d] broadcast`, () => x.get(cols, cols2), "index_stub");
      same(`${dtype} x3[:, rows, :]`, () => x3.get(":", rows), "index_stub");
      same(`${dtype} x3[i, :, j] non-adjacent (to the front)`, () => x3.get(torch.tensor([0, 5, -1, 2]), ":", torch.tensor([3, 0, 32, -33])), "index_stub");
      same(`${dtype} x3[..., idx] innermost`, () => x3.get("...", cols2.view(-1)), "index_stub");
      same(`${dtype} x.t()[rows] strided self`, () => x.t().get(torch.tensor([1, 0, 32, -1])), "index_stub");
      same(`${dtype} x[mask] 1-d mask`, () => x.get(values([40], torch.bool, 4)), "index_stub");
      same(`${dtype} x[mask] 2-d mask`, () => x.get(values([40, 33], torch.bool, 5)), "index_stub");
    }
  });

  native("an empty index, out=, a 2-d index of one element", () => {
    const x = torch.arange(24, { dtype: torch.float32 }).reshape(4, 6);
    same("x[empty]", () => x.get(torch.tensor([], { dtype: torch.int64 })), null); // (no elements: no kernel runs)
    const out = torch.empty(3, 6);
    same("index out=", () => index_Tensor_out.call(x, [torch.tensor([3, 1, 3])], out) as torch.Tensor, "index_stub");
    same("x[[[2]]]", () => x.get(torch.tensor([[2]])), "index_stub");
  });

  native("an index out of range: PyTorch's IndexError on both paths", () => {
    const x = torch.rand(5, 7);
    expect(sameError("x[5]", () => x.get(torch.tensor([0, 5])))).toContain("index 5 is out of bounds for dimension 0 with size 5");
    expect(sameError("x[-6]", () => x.get(torch.tensor([-6])))).toContain("index -6 is out of bounds for dimension 0 with size 5");
    expect(sameError("x[:, 7]", () => x.get(":", torch.tensor([1, 7])))).toContain("index 7 is out of bounds for dimension 0 with size 7");
  });
});

describe("index_put_: x[indices] = v", () => {
  native("duplicate indices: the last write wins, accumulate adds in order (float32 rounding included)", () => {
    torch.manual_seed(7);
    const idx = torch.randint(0, 10, [300]);
    for (const dtype of DTYPES) {
      const base = values([10, 9], dtype, 8);
      const v = values([300, 9], dtype, 9);
      same(`${dtype} x[idx] = v`, () => base.clone().index_put_([idx], v), "index_put_stub");
      if (dtype !== torch.float16 && dtype !== torch.bfloat16) {
        same(`${dtype} x[idx] += v (accumulate)`, () => base.clone().index_put_([idx], v, true), "index_put_stub");
      }
      // a broadcast value and a strided self (float16/bfloat16 accumulate on the TS kernel: not here)
      const reduced = dtype === torch.float16 || dtype === torch.bfloat16;
      same(`${dtype} x.t()[idx] = v[0]`, () => {
        const y = values([9, 10], dtype, 10).t().clone().t();
        return y.index_put_([torch.tensor([1, 8, -2])], v.get(0).get(torch.tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 0])).narrow(0, 0, 10), !reduced);
      }, "index_put_stub");
    }
  });

  native("whole rows selected: each row written by one owning thread (a few long rows: the columns split), in the serial order", () => {
    torch.manual_seed(17);
    const idx = torch.randint(0, 12, [200]); // many duplicates
    for (const dtype of [torch.uint8, torch.int16, torch.float32, torch.float64, torch.int64]) {
      for (const cols of [70, 1000]) {
        const base = values([12, cols], dtype, 18);
        const v = values([200, cols], dtype, 19);
        same(`${dtype} x[idx] = v, rows of ${cols}`, () => base.clone().index_put_([idx], v), "index_put_stub");
        same(`${dtype} x[idx] += v, rows of ${cols}`, () => base.clone().index_put_([idx], v, true), "index_put_stub");
        same(`${dtype} x[idx] = v[0] (a broadcast row)`, () => base.clone().index_put_([idx], v.get(0)), "index_put_stub");
      }
      // 3-d: rows of [5, 40] selected whole; and a permuted self (no overlap, not contiguous)
      const b3 = values([12, 5, 40], dtype, 20);
      const v3 = values([200, 5, 40], dtype, 21);
      same(`${dtype} 3-d x[idx] += v`, () => b3.clone().index_put_([idx], v3, true), "index_put_stub");
      same(`${dtype} permuted x[idx] = v`, () => values([5, 12, 40], dtype, 22).permute(1, 0, 2).index_put_([idx], v3), "index_put_stub");
      // six rows (fewer than 8 per thread) of 6000: the columns split; duplicates among them
      const few = torch.tensor([2, 0, 2, 1, 0, 2]);
      const bf = values([3, 6000], dtype, 23), vf = values([6, 6000], dtype, 24);
      same(`${dtype} x[few] = v, rows of 6000`, () => bf.clone().index_put_([few], vf), "index_put_stub");
      same(`${dtype} x[few] += v, rows of 6000`, () => bf.clone().index_put_([few], vf, true), "index_put_stub");
    }
  });

  native("integers wrap as C++ adds them; bool ors; float16/bfloat16 accumulate on the TS kernel", () => {
    const x = torch.tensor([2147483000, 16777216, -5], { dtype: torch.int32 });
    const got = x.clone().index_put_([torch.tensor([0, 0, 1, 1])], torch.tensor([600, 600, 1, 1], { dtype: torch.int32 }), true);
    expect(got.tolist()).toEqual([-2147483096, 16777218, -5]); // 2147483000 + 1200 wraps; 2^24 + 2 is exact
    expect(underTs(() => x.clone().index_put_([torch.tensor([0, 0, 1, 1])], torch.tensor([600, 600, 1, 1], { dtype: torch.int32 }), true)).tolist()).toEqual([-2147483096, 16777218, -5]);
    const b = torch.tensor([false, true, false]);
    same("bool accumulate", () => b.clone().index_put_([torch.tensor([0, 0, 2])], torch.tensor([false, true, false]), true), "index_put_stub");
    const h = torch.ones(4, { dtype: torch.float16 });
    expect(kernelsRan(() => h.clone().index_put_([torch.tensor([0, 0])], torch.ones(2, { dtype: torch.float16 }), true))).toContain("index_put_stub:ts");
  });

  native("an index out of range: the same IndexError, and self as the TS kernel leaves it", () => {
    for (const accumulate of [false, true]) {
      const put = (t: torch.Tensor) => () => t.index_put_([torch.tensor([1, 2, 9, 3])], torch.ones(4, 3), accumulate);
      expect(sameError(`accumulate=${accumulate}`, put(torch.zeros(5, 3)))).toContain("index 9 is out of bounds for dimension 0 with size 5");
      const x = torch.zeros(5, 3), want = torch.zeros(5, 3);
      expect(put(x)).toThrow();
      expect(() => underTs(put(want))).toThrow();
      expect(bits(x), "the elements written before the bad index, once").toBe(bits(want));
      expect(x.sum().item()).toBe(6);
    }
  });

  native("x.set(mask, tensor) through index_put_, x.set(idx, v) with two indices", () => {
    const x = torch.rand(6, 5);
    const mask = values([6, 5], torch.bool, 11);
    same("x[mask] = v", () => {
      const y = x.clone();
      y.set(mask, torch.arange(mask.sum().item() as number, { dtype: torch.float32 }));
      return y;
    }, "index_put_stub");
    same("x[i, j] = v", () => {
      const y = x.clone();
      y.set(torch.tensor([0, 5, 5]), torch.tensor([4, 0, 0]), torch.tensor([1.5, 2.5, 3.5]));
      return y;
    }, "index_put_stub");
  });
});

describe("nonzero", () => {
  native("every dtype (NaN counts, -0 does not), strided and 3-d inputs, all-zero and empty ones", () => {
    for (const dtype of DTYPES) {
      const x = values([7, 11, 13], dtype, 12);
      same(`${dtype} 3-d`, () => torch.nonzero(x), "nonzero_out_cpu");
      same(`${dtype} permuted`, () => torch.nonzero(x.permute(2, 0, 1)), "nonzero_out_cpu");
      same(`${dtype} strided`, () => torch.nonzero(x.get("::2", ":", "1::3")), "nonzero_out_cpu");
      same(`${dtype} all zero`, () => torch.nonzero(torch.zeros(5, 4, { dtype })), "nonzero_out_cpu");
    }
    same("empty", () => torch.nonzero(torch.zeros(0, 3)), "nonzero_out_cpu");
    const long = torch.rand(3, 70_001).gt(0.7);
    same("long rows across the chunks", () => torch.nonzero(long), "nonzero_out_cpu");
    expect(kernelsRan(() => torch.nonzero(torch.tensor(2.5)))).toEqual(["nonzero_out_cpu:ts"]); // 0-d: [1, 0]
  });

  native("nonzero's transposed result layout and out=", () => {
    const x = torch.tensor([[0, 1.5, 0], [2, 0, -0.0]]);
    const r = torch.nonzero(x);
    expect(r.shape).toEqual([2, 2]);
    expect(r.stride()).toEqual([1, 2]);
    expect(r.tolist()).toEqual([[0, 1], [1, 0]]);
    const out = torch.empty(0, { dtype: torch.int64 });
    torch.nonzero(x, { out });
    expect(out.tolist()).toEqual([[0, 1], [1, 0]]);
  });
});

describe("index_add_: out.select(dim, index[i]) += alpha * source.select(dim, i)", () => {
  const NATIVE_ADD = DTYPES; // (float16 and bfloat16: add's loop in float, rounded once, as the TS kernel)
  native("every dtype, every dim, duplicate indices (added in index order), alpha, int32 and int64 indices, on 1 and 2 threads", () => {
    for (const dtype of NATIVE_ADD) {
      const self = values([6, 5, 4], dtype, 1);
      for (const dim of [0, 1, 2]) {
        const n = [9, 7, 5][dim];
        const srcShape = [6, 5, 4].map((s, d) => (d === dim ? n : s));
        const source = values(srcShape, dtype, 2 + dim);
        const index = torch.randint(0, [6, 5, 4][dim], [n]);
        index.set(1, index.get(0).item()); // a duplicate
        const alpha = dtype === torch.bool ? true : dtype.is_floating_point ? 0.75 : 3;
        same(`${dtype} dim ${dim}`, () => self.clone().index_add_(dim, index, source), "index_add_cpu_");
        same(`${dtype} dim ${dim} alpha`, () => torch.index_add(self, dim, index.to(torch.int32), source, { alpha }), "index_add_cpu_");
      }
    }
  });
  native("1-D results (one element per slice) with many hits, strided self, source and index, out=", () => {
    for (const dtype of [torch.float32, torch.float64, torch.int64, torch.float16]) {
      const index = torch.randint(0, 50, [5000]);
      const source = values([5000], dtype, 3);
      same(`1-D ${dtype}`, () => values([50], dtype, 4).index_add_(0, index, source), "index_add_cpu_");
      same(`1-D strided ${dtype}`, () => values([100], dtype, 4).get("::2").index_add_(0, index.get("::2"), source.get("1::2")), "index_add_cpu_");
    }
    const self = values([30, 40], torch.float32, 5).t(), source = values([45, 40], torch.float32, 6).t(); // [40, 30] and [40, 45], column-major
    const index = torch.randint(0, 30, [45]);
    same("transposed self and source", () => self.clone().t().contiguous().t().index_add_(1, index, source), "index_add_cpu_");
    same("out=", () => torch.index_add(self, 1, index.get("::3"), source.get(":", "::3"), { out: torch.empty(0) }), "index_add_cpu_");
    // a big slice, split over the threads: each element still adds its indices in order
    const big = values([4, 70000], torch.float32, 7), bsrc = values([9, 70000], torch.float32, 8);
    same("large slices", () => big.clone().index_add_(0, torch.tensor([1, 3, 1, 1, 0, 2, 3, 1, 0]), bsrc), "index_add_cpu_");
  });
  native("an index out of range: PyTorch's IndexError on both paths, self left as the TS kernel leaves it", () => {
    const self = values([5, 3], torch.float32, 1), source = values([3, 3], torch.float32, 2);
    for (const bad of [[0, 5, 1], [0, -1, 2]]) {
      expect(sameError(`index ${bad}`, () => self.clone().index_add_(0, torch.tensor(bad), source))).toBe("IndexError: index out of range in self");
      const a = self.clone(), b = self.clone();
      try { a.index_add_(0, torch.tensor(bad), source); } catch { /* raised */ }
      try { underTs(() => b.index_add_(0, torch.tensor(bad), source)); } catch { /* raised */ }
      expect(bits(a)).toBe(bits(b));
      expect(bits(a)).toBe(bits(self)); // nothing written before the check
    }
  });
});

describe("take, masked_select, index_fill_ (Ops2.cc)", () => {
  native("take: every dtype, negative indices, a 2-d index, strided and transposed self, out=", () => {
    for (const dtype of DTYPES) {
      const self = values([7, 9], dtype, 11);
      const index = torch.randint(-63, 63, [5, 8]);
      same(`take ${dtype}`, () => torch.take(self, index), "take_stub");
      same(`take transposed ${dtype}`, () => torch.take(self.t(), index), "take_stub");
      const strided = torch.randint(-12, 12, [40]);
      same(`take strided ${dtype}`, () => torch.take(self.get("::2", "1::3"), strided), "take_stub");
    }
    const self = values([1000], torch.float32, 12);
    const many = torch.randint(-1000, 1000, [100000]);
    same("take out=, 1e5 indices over the threads", () => torch.take(self, many, { out: torch.empty(0) }), "take_stub");
  });
  native("take: an index out of range raises PyTorch's IndexError on both paths", () => {
    const self = values([4, 5], torch.float32, 1);
    for (const bad of [20, -21, 1000])
      expect(sameError(`take ${bad}`, () => torch.take(self, torch.tensor([0, 3, bad, 1])))).toBe(`IndexError: out of range: tried to access index ${bad} on a tensor of 20 elements.`);
  });
  native("masked_select: every dtype, broadcast mask and self, uint8 masks, strided inputs, empty selections", () => {
    for (const dtype of DTYPES) {
      const self = values([6, 7], dtype, 13);
      torch.manual_seed(3);
      const mask = torch.rand(6, 7).gt(0.4);
      same(`masked_select ${dtype}`, () => torch.masked_select(self, mask), "masked_select_serial_stub");
      same(`masked_select broadcast mask ${dtype}`, () => torch.masked_select(self, mask.get(2)), "masked_select_serial_stub");
      same(`masked_select broadcast self ${dtype}`, () => torch.masked_select(self.get(":", "0:1"), mask), "masked_select_serial_stub");
      same(`masked_select transposed ${dtype}`, () => torch.masked_select(self.t(), mask.t()), "masked_select_serial_stub");
    }
    const self = values([3000], torch.float64, 14);
    const mask = torch.rand(3000).gt(0.5).to(torch.uint8);
    same("uint8 mask", () => torch.masked_select(self, mask), "masked_select_serial_stub");
    expect(torch.masked_select(self, torch.zeros(3000, { dtype: torch.bool })).shape).toEqual([0]);
  });
  native("masked_select: a uint8 mask value other than 0 and 1 gets the TS kernel's error", () => {
    const self = values([50], torch.float32, 1), mask = torch.ones(50, { dtype: torch.uint8 });
    mask.set(17, 2);
    expect(sameError("mask value 2", () => torch.masked_select(self, mask))).toBe("RuntimeError: Mask tensor can take 0 and 1 values only");
  });
  native("index_fill_: every dtype, every dim, negative and repeated indices, a 0-d index, strided self", () => {
    for (const dtype of DTYPES) {
      const self = values([5, 6, 7], dtype, 15);
      const value = dtype === torch.bool ? true : dtype.is_floating_point ? -2.5 : 9;
      for (const dim of [0, 1, 2]) {
        const n = [5, 6, 7][dim];
        same(`index_fill_ ${dtype} dim ${dim}`, () => self.clone().index_fill_(dim, torch.tensor([n - 1, -1, 0, 1, 0]), value), "index_fill_stub");
      }
      same(`index_fill_ 0-d index ${dtype}`, () => self.clone().index_fill_(1, torch.tensor(-2), value), "index_fill_stub");
      same(`index_fill_ strided ${dtype}`, () => { const t = self.clone(); t.get(":", "::2").index_fill_(2, torch.tensor([1, 3]), value); return t; }, "index_fill_stub");
    }
    same("index_fill_ big slices", () => values([3, 50000], torch.float32, 16).index_fill_(0, torch.tensor([2, 0]), 7), "index_fill_stub");
  });
  native("index_fill_: an index out of bounds raises PyTorch's IndexError on both paths", () => {
    const self = values([4, 5], torch.float32, 1);
    expect(sameError("index 5", () => self.clone().index_fill_(1, torch.tensor([0, 5]), 1))).toBe("IndexError: index 5 is out of bounds for dimension 1 with size 5");
    expect(sameError("index -6", () => self.clone().index_fill_(1, torch.tensor([-6]), 1))).toBe("IndexError: index -6 is out of bounds for dimension 1 with size 5");
  });
});
