// The native median / nanmedian and mode (native/cpu/Sorting.cc via NativeSorting.ts) against the
// TypeScript kernels: the same values and indices bit for bit (median: the k-th under (value, index), so
// which tied index and which of -0/0 is the TS kernel's; median returns the first NaN; mode: libstdc++'s
// std::sort of (value, index) pairs, whose tie order the TS kernel reproduces; lanes without NaN sort
// (key, position) words, lanes with NaN the pairs, lanes of distinct values no sort at all: all are
// covered below), on 1 and 2 threads, every
// layout. Sorting.cc is compiled once (the baseline unit), so the capability does not change these kernels.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, underTs } from "../../support/native_paths.js";
import { bits, values } from "../../support/tied_values.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

const MEDIAN_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bfloat16, torch.float32, torch.float64];
const MODE_DTYPES = [...MEDIAN_DTYPES, torch.bool, torch.float16];

/** f's tensors on the native kernels (1 and 2 threads) equal the TS kernels', and `stub` ran natively. */
function same(what: string, f: () => torch.Tensor | torch.Tensor[], stub: string): void {
  const list = (r: torch.Tensor | torch.Tensor[]): torch.Tensor[] => (Array.isArray(r) ? [...r] : [r]);
  const want = list(underTs(f)).map(bits).join("");
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    expect(kernelsRan(f), what).toContain(`${stub}:native`);
    expect(list(f()).map(bits).join(""), `${what} (${threads} threads)`).toBe(want);
  }
}

describe("median / nanmedian along a dim", () => {
  native("every dtype, every dim, keepdim, ties, NaN/-0/inf, lanes with and without NaN", () => {
    for (const dtype of MEDIAN_DTYPES) {
      for (const shape of [[5, 40, 3], [2, 301], [6, 1]]) {
        for (const nan of [true, false]) {
          const x = values(shape, dtype, 1, 7, nan);
          for (let dim = 0; dim < shape.length; dim++)
            for (const keepdim of [false, true]) {
              same(`median ${dtype} [${shape}] dim ${dim} keepdim ${keepdim} nan ${nan}`, () => torch.median(x, dim, keepdim) as any, "median_with_indices");
              same(`nanmedian ${dtype} [${shape}] dim ${dim} keepdim ${keepdim} nan ${nan}`, () => torch.nanmedian(x, dim, keepdim) as any, "median_with_indices");
            }
        }
      }
    }
  }, 120_000);
  native("lanes of NaN only, of -0 and 0 only, even and odd lengths", () => {
    const allNan = torch.full([3, 4], NaN);
    allNan.set(1, 2, 5);
    same("nanmedian all-NaN lanes", () => torch.nanmedian(allNan, 1) as any, "median_with_indices");
    same("median all-NaN lanes", () => torch.median(allNan, 0) as any, "median_with_indices");
    const zeros = torch.tensor([[0, -0, -0, 0, 0, -0], [-0, 0, 0, -0, -0, 0]]);
    for (const n of [5, 6]) {
      const z = zeros.get(":", `:${n}`);
      same(`signed zeros, ${n} per lane`, () => torch.median(z, 1) as any, "median_with_indices");
      same(`signed zeros, ${n} per lane (nanmedian)`, () => torch.nanmedian(z, 1) as any, "median_with_indices");
    }
  });
  native("transposed and strided self, out=, 0-d self, many lanes over the threads", () => {
    const x = values([60, 70], torch.float32, 2, 1000);
    same("transposed", () => torch.median(x.t(), 1) as any, "median_with_indices");
    same("strided", () => torch.nanmedian(x.get("::2", "1::3"), 0, true) as any, "median_with_indices");
    same("out=", () => {
      const v = torch.empty(0), i = torch.empty(0, { dtype: torch.int64 });
      torch.median(x, 1, false, { out: [v, i] } as any);
      return [v, i];
    }, "median_with_indices");
    same("0-d self", () => torch.median(torch.tensor(2.5), 0) as any, "median_with_indices");
    const many = values([3000, 25], torch.float64, 3, 5);
    same("3000 lanes", () => torch.median(many, 1) as any, "median_with_indices");
  });
  native("float16 and bool keep the TS kernel's error; an empty dim its IndexError", () => {
    expect(() => torch.median(torch.ones(3, 4, { dtype: torch.float16 }), 1)).toThrow(/"median_out" not implemented for 'Half'/);
    expect(() => torch.median(torch.ones(3, 4, { dtype: torch.bool }), 1)).toThrow(/"median_out" not implemented for 'Bool'/);
    expect(() => torch.median(torch.empty(3, 0), 1)).toThrow(/median\(\): Expected reduction dim 1 to have non-zero size/);
  });
});

describe("median / nanmedian of all elements", () => {
  native("every dtype, small selves (one lane) and large ones (the radix select), ties, NaN", () => {
    for (const dtype of MEDIAN_DTYPES) {
      for (const shape of [[7, 9], [8, 10], [140000]]) {
        for (const nan of [true, false]) {
          const x = values(shape, dtype, 4, dtype === torch.uint8 || dtype === torch.int8 ? 100 : 3000, nan);
          same(`median ${dtype} [${shape}] nan ${nan}`, () => torch.median(x), "median_impl");
          same(`nanmedian ${dtype} [${shape}] nan ${nan}`, () => torch.nanmedian(x), "median_impl");
        }
      }
    }
  }, 300_000);
  native("which zero: a median among many -0 and 0; NaN-only and mostly-NaN selves; float32 across the exponent range", () => {
    for (const n of [140000, 140001]) {
      torch.manual_seed(5);
      const z = torch.randint(-1, 2, [n]).to(torch.float32).mul(0); // -0, 0 and 0 in random order
      same(`signed zeros, n = ${n}`, () => torch.median(z), "median_impl");
      const mostlyNan = torch.randn(n);
      mostlyNan.get(`:${n - 1000}`).fill_(NaN);
      same(`mostly NaN, n = ${n}`, () => torch.nanmedian(mostlyNan), "median_impl");
      same(`mostly NaN, median, n = ${n}`, () => torch.median(mostlyNan), "median_impl");
    }
    const nans = torch.full([140000], NaN, { dtype: torch.float64 });
    same("all NaN", () => torch.nanmedian(nans), "median_impl");
    const wide = torch.randn(140000).mul(1e30);
    same("randn * 1e30", () => torch.median(wide), "median_impl");
    const big = torch.randint(-(2 ** 62), 2 ** 62, [140000], { dtype: torch.int64 }).mul(2);
    same("int64 near its limits", () => torch.median(big), "median_impl");
  }, 300_000);
  native("a non-contiguous self runs the TS kernel; float16/bool keep the error; an empty self gives NaN", () => {
    const x = values([20, 30], torch.float32, 6);
    expect(kernelsRan(() => torch.median(x.t()))).toEqual(["median_impl:ts"]);
    expect(bits(torch.median(x.t()))).toBe(bits(underTs(() => torch.median(x.t()))));
    expect(() => torch.median(torch.ones(4, { dtype: torch.float16 }))).toThrow(/"median_cpu" not implemented for 'Half'/);
    expect(torch.median(torch.empty(0)).item()).toBeNaN();
  });
});

describe("mode", () => {
  native("every dtype, every dim, keepdim, ties (libstdc++'s order), NaN/-0/inf, short and long lanes", () => {
    for (const dtype of MODE_DTYPES) {
      for (const shape of [[5, 40, 3], [2, 300], [4, 1]]) {
        const x = values(shape, dtype, 7);
        for (let dim = 0; dim < shape.length; dim++)
          for (const keepdim of [false, true]) same(`mode ${dtype} [${shape}] dim ${dim} keepdim ${keepdim}`, () => torch.mode(x, dim, keepdim) as any, "mode_stub");
      }
    }
  }, 120_000);
  native("transposed and strided self, out=, many lanes over the threads, distinct values", () => {
    const x = values([60, 70], torch.float32, 8, 20);
    same("transposed", () => torch.mode(x.t(), 1) as any, "mode_stub");
    same("strided", () => torch.mode(x.get("::2", "1::3"), 0, true) as any, "mode_stub");
    same("out=", () => {
      const v = torch.empty(0), i = torch.empty(0, { dtype: torch.int64 });
      torch.mode(x, 1, false, { out: [v, i] } as any);
      return [v, i];
    }, "mode_stub");
    same("3000 lanes", () => torch.mode(values([3000, 30], torch.int32, 9, 4), 1) as any, "mode_stub");
    const distinct = torch.randn(8, 500);
    same("distinct floats", () => torch.mode(distinct, 1) as any, "mode_stub");
    // all-distinct lanes skip the sort (the smallest value wins): a repeat anywhere, -0 beside 0 included, must not
    const perm = torch.stack([0, 1, 2, 3].map(() => torch.randperm(300))).to(torch.int32);
    perm.set(1, 299, perm.get(1, 0).item());
    perm.set(2, 150, perm.get(2, 149).item());
    same("permutations, two with one late repeat", () => torch.mode(perm, 1) as any, "mode_stub");
    const zeros = torch.randn(3, 200, { dtype: torch.float64 });
    zeros.set(0, 10, -0);
    zeros.set(0, 190, 0);
    zeros.set(1, 5, -0);
    same("distinct floats but -0 and 0", () => torch.mode(zeros, 1) as any, "mode_stub");
    same("distinct, strided", () => torch.mode(distinct.t(), 0) as any, "mode_stub");
  }, 60_000);
  native("0-d and empty selves never reach the kernel", () => {
    expect(kernelsRan(() => torch.mode(torch.tensor(3.5)))).toEqual([]);
    expect(() => torch.mode(torch.empty(3, 0), 1)).toThrow(/mode\(\): Expected reduction dim 1 to have non-zero size/);
  });
});
