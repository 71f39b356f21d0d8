// The native gather / scatter / scatter_add and index_select (native/cpu/NNIndex.cc via NativeNN.ts) against
// the TypeScript kernels, on shapes large enough that the pool splits the lines (a split can fall inside a
// row of the last dim when dim is not the last dim), with 1 and 2 threads: the same elements bit for bit,
// and the TS kernel's error for an index out of range. index_select reads int64 and int32 indices where
// they lie (any stride, a 0-d index).
import { expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, restoreNativeDefaults, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

const text = (t: torch.Tensor) =>
  JSON.stringify({ shape: t.shape, v: t.contiguous().flatten().tolist() }, (_k, v) => (typeof v === "number" && (Number.isNaN(v) || !Number.isFinite(v) || Object.is(v, -0)) ? String(Object.is(v, -0) ? "-0" : v) : typeof v === "bigint" ? String(v) : v));

/** f gives the TS kernels' result on 1 and 2 threads, and `stub` ran natively. */
function same(what: string, f: () => torch.Tensor, stub: string): void {
  const want = text(underTs(f));
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    expect(kernelsRan(f), what).toContain(`${stub}:native`);
    expect(text(f()), `${what} (${threads} threads)`).toBe(want);
  }
}

/** f raises on the native path the error the TS kernel raises. */
function sameError(what: string, f: () => unknown): void {
  let want = "";
  try { underTs(f); } catch (e) { want = String((e as Error).message); }
  expect(want, what).not.toBe("");
  expect(f, what).toThrow(want);
}

function values(shape: number[], dtype: torch.dtype, seed: number): torch.Tensor {
  torch.manual_seed(seed);
  if (dtype === torch.bool) return torch.rand(shape).gt(0.5);
  if (!dtype.is_floating_point) return torch.randint(dtype === torch.uint8 ? 0 : -100, 100, shape, { dtype });
  const x = torch.randn(shape).mul(10).to(dtype);
  const flat = x.view(-1);
  flat.set(0, NaN);
  flat.set(1, -0);
  flat.set(2, Infinity);
  return x;
}

const DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool];

nativeIt("gather, scatter and scatter_add over the pool: every dim, lines split inside a row, strided operands", () => {
  for (const dt of DTYPES) {
    const self = values([6, 9, 700], dt, 1);
    for (const dim of [0, 1, 2]) {
      const ishape = [5, 7, 650]; // two threads split the 7 * 650 or 5 * 650 lines inside a row of 650
      ishape[dim] = 11; // indices repeat along dim
      torch.manual_seed(2 + dim);
      const index = torch.randint(0, self.shape[dim], ishape);
      const src = values([11, 11, 700], dt, 3);
      same(`gather ${dt} dim ${dim}`, () => torch.gather(self, dim, index), "gather_stub");
      same(`scatter ${dt} dim ${dim}`, () => torch.scatter(self, dim, index, src), "scatter_stub");
      if (dt === torch.float32 || dt === torch.float64 || dt === torch.int32 || dt === torch.int64) {
        same(`scatter_add ${dt} dim ${dim}`, () => torch.scatter_add(self, dim, index, src), "scatter_stub");
      }
      const selfT = values([700, 9, 6], dt, 4).permute([2, 1, 0]);
      const idxT = torch.randint(0, self.shape[dim], [ishape[2], ishape[1], ishape[0]]).permute([2, 1, 0]);
      same(`gather ${dt} dim ${dim} transposed`, () => torch.gather(selfT, dim, idxT), "gather_stub");
      const srcT = values([ishape[2], ishape[1], ishape[0]], dt, 5).permute([2, 1, 0]);
      if (dt === torch.float32 || dt === torch.int64) same(`scatter_add ${dt} dim ${dim} transposed`, () => torch.scatter_add(selfT, dim, idxT, srcT), "scatter_stub");
    }
  }
}, 600_000);

nativeIt("the integer scatter_add wraps as the TS kernel's arithmetic", () => {
  const big = torch.full([4, 3], 2 ** 31 - 5, { dtype: torch.int32 });
  const index = torch.tensor([[0, 1, 2], [0, 1, 2], [3, 3, 3]]);
  same("int32 wrap", () => big.clone().scatter_add_(0, index, torch.full([3, 3], 7, { dtype: torch.int32 })), "scatter_stub");
  const bigL = torch.full([4, 3], 2 ** 62, { dtype: torch.int64 }).add(2 ** 62 - 1024); // 2^63 - 1024
  same("int64 wrap", () => bigL.clone().scatter_add_(0, index, torch.full([3, 3], 100, { dtype: torch.int64 })), "scatter_stub");
});

nativeIt("gather and scatter out of range: the TS kernel's error, and self as the TS kernel leaves it", () => {
  const x = values([40, 300], torch.float32, 5);
  for (const bad of [300, -1]) {
    torch.manual_seed(6);
    const index = torch.randint(0, 300, [40, 300]);
    index.view(-1).set(7777, bad);
    sameError(`gather ${bad}`, () => torch.gather(x, 1, index));
    sameError(`scatter_add ${bad}`, () => torch.zeros([40, 300]).scatter_add_(1, index, x));
    // the native kernel writes nothing, so self holds only the TS kernel's writes before it raised (an add
    // done twice would show)
    const after = (): torch.Tensor => {
      const target = torch.zeros([40, 300]);
      expect(() => target.scatter_add_(1, index, x)).toThrow();
      return target;
    };
    expect(kernelsRan(() => torch.zeros([40, 300]).scatter_add_(1, index.clamp(0, 299), x))).toContain("scatter_stub:native");
    expect(text(after())).toBe(text(underTs(after)));
  }
});

nativeIt("index_select: int64 and int32 indices, strided and 0-d, every dim, out of range", () => {
  for (const dt of [torch.float32, torch.float64, torch.int8, torch.bfloat16, torch.bool]) {
    const x = values([30, 20, 40], dt, 7);
    for (const idt of [torch.int64, torch.int32]) {
      for (const dim of [0, 1, 2]) {
        torch.manual_seed(8 + dim);
        const idx = torch.randint(0, x.shape[dim], [50], { dtype: idt });
        same(`${dt} ${idt} dim ${dim}`, () => torch.index_select(x, dim, idx), "index_select");
        same(`${dt} ${idt} dim ${dim} strided index`, () => torch.index_select(x, dim, idx.get("1::3")), "index_select");
        same(`${dt} ${idt} dim ${dim} 0-d index`, () => torch.index_select(x, dim, idx.get(4)), "index_select");
      }
      const bad = torch.tensor([0, 3, 30], { dtype: idt });
      sameError(`${dt} ${idt} out of range`, () => torch.index_select(x, 0, bad));
      sameError(`${dt} ${idt} negative`, () => torch.index_select(x, 0, torch.tensor([-1], { dtype: idt })));
      // an empty result still checks its indices
      sameError(`${dt} ${idt} empty result`, () => torch.index_select(x.get([":", ":0"]), 0, bad));
    }
  }
  const w = values([1024, 64], torch.float32, 9);
  torch.manual_seed(10);
  const ids = torch.randint(0, 1024, [4, 300]);
  same("embedding", () => torch.nn.functional.embedding(ids, w), "index_select");
}, 120_000);
