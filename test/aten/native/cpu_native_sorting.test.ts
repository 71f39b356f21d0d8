// The native sort and topk (native/cpu/Sorting.cc via NativeSorting.ts) against the TypeScript kernels:
// the same values and indices bit for bit (sort: the one stable order, NaN largest, -0 equal to 0;
// topk: libstdc++'s partial_sort / nth_element / sort, whose tie order the TS kernel reproduces), on 1
// and 2 threads, every layout. The PyTorch fixtures of sort and topk run on both paths through the
// ts-kernels project.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, underTs } from "../../support/native_paths.js";
import { bits, values } from "../../support/tied_values.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

const SORT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool, torch.float16, torch.bfloat16, torch.float32, torch.float64];
const TOPK_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32, torch.float64];

/** f's [values, indices] on the native kernels (1 and 2 threads) equal the TS kernels', and `stub` ran natively. */
function same(what: string, f: () => [torch.Tensor, torch.Tensor], stub: string): void {
  const [wv, wi] = underTs(f);
  const want = bits(wv) + bits(wi);
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    expect(kernelsRan(f), what).toContain(`${stub}:native`);
    const [v, i] = f();
    expect(bits(v) + bits(i), `${what} (${threads} threads)`).toBe(want);
  }
}

describe("sort", () => {
  native("every dtype, every dim, ascending and descending, ties, NaN/-0/inf, short and long lanes", () => {
    for (const dtype of SORT_DTYPES) {
      for (const shape of [[5, 40, 3], [2, 300]]) {
        const x = values(shape, dtype, 1);
        for (let dim = 0; dim < shape.length; dim++)
          for (const descending of [false, true]) same(`sort ${dtype} [${shape}] dim ${dim} desc ${descending}`, () => torch.sort(x, dim, descending) as any, "sort_stub");
      }
    }
  });
  native("transposed and strided self, stable=True, argsort, out= into self itself, many lanes over the threads", () => {
    const x = values([60, 70], torch.float32, 2, 1000);
    same("transposed", () => torch.sort(x.t(), 1) as any, "sort_stub");
    same("strided", () => torch.sort(x.get("::2", "1::3"), 0, true) as any, "sort_stub");
    same("stable", () => torch.sort(x, { dim: 0, stable: true }) as any, "sort_stub");
    same("argsort", () => [x, torch.argsort(x, 1, true)], "sort_stub");
    same("out= values aliasing self", () => {
      const self = x.clone(), idx = torch.empty(0, { dtype: torch.int64 });
      torch.sort(self, 1, false, { out: [self, idx] } as any);
      return [self, idx];
    }, "sort_stub");
    const many = values([2000, 40], torch.float64, 3);
    same("2000 lanes", () => torch.sort(many, 1) as any, "sort_stub");
    const long = values([100000], torch.int64, 4, 100000);
    same("one lane of 1e5 int64 (radix, every digit)", () => torch.sort(long) as any, "sort_stub");
    const wide = torch.randn(50000).mul(1e30);
    same("float32 across the exponent range", () => torch.sort(wide, 0, true) as any, "sort_stub");
  });
  native("0-d self and empty tensors run without the native kernel's walk", () => {
    expect(kernelsRan(() => torch.sort(torch.tensor(3.5)))).toEqual(["sort_stub:ts"]);
    expect(torch.sort(torch.empty(0, 3), 1)[0].shape).toEqual([0, 3]);
  });
});

describe("topk", () => {
  native("every dtype, largest/smallest, sorted/unsorted, both libstdc++ paths (k * 64 <= n and not), ties and NaN", () => {
    for (const dtype of TOPK_DTYPES) {
      const x = values([4, 700], dtype, 5);
      for (const k of [1, 5, 10, 11, 300, 700])
        for (const largest of [true, false])
          for (const sorted of [true, false]) same(`topk ${dtype} k ${k} largest ${largest} sorted ${sorted}`, () => torch.topk(x, k, 1, largest, sorted) as any, "topk_stub");
      same(`topk ${dtype} dim 0`, () => torch.topk(x, 3, 0) as any, "topk_stub");
    }
  });
  native("strided and transposed self, out=, many lanes over the threads", () => {
    const x = values([300, 200], torch.float32, 6, 50);
    same("transposed", () => torch.topk(x.t(), 7, 1) as any, "topk_stub");
    same("strided", () => torch.topk(x.get("::3", "1::2"), 4, 0, false) as any, "topk_stub");
    // k * 64 <= n on strided lanes: partial_sort's heap steps on the stream (ties: PyTorch's order)
    same("transposed, streamed heap", () => torch.topk(x.t(), 3, 1) as any, "topk_stub");
    same("strided, streamed heap, smallest", () => torch.topk(x.get("::2"), 2, 0, false) as any, "topk_stub");
    const long = values([100000], torch.float64, 9, 40);
    for (const largest of [true, false]) same(`one lane of 1e5 with ties and NaN, largest ${largest}`, () => torch.topk(long, 10, 0, largest) as any, "topk_stub");
    same("out=", () => {
      const v = torch.empty(0), i = torch.empty(0, { dtype: torch.int64 });
      torch.topk(x, 9, { out: [v, i] } as any);
      return [v, i];
    }, "topk_stub");
  });
  native("float16 and bool keep the TS kernel's error", () => {
    expect(() => torch.topk(torch.ones(5, { dtype: torch.float16 }), 2)).toThrow(/"topk_cpu" not implemented for 'Half'/);
  });
});

describe("unique (no dim)", () => {
  const DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32, torch.float64];
  /** [output, inverse, counts] of torch.unique on both paths, as bits. */
  function sameUnique(what: string, f: () => torch.Tensor[]): void {
    const want = underTs(f).map(bits).join("");
    expect(kernelsRan(f), what).toContain("unique_cpu_template:native");
    expect(f().map(bits).join(""), what).toBe(want);
  }
  native("every dtype, sorted and unsorted (the std::unordered_set's order), inverse and counts, NaN and -0, 2-d input", () => {
    for (const dtype of DTYPES) {
      const x = values([30, 20], dtype, 7, 40);
      for (const sorted of [true, false]) {
        sameUnique(`${dtype} sorted ${sorted}`, () => [torch.unique(x, { sorted })]);
        sameUnique(`${dtype} sorted ${sorted} inverse counts`, () => torch.unique(x, { sorted, return_inverse: true, return_counts: true }) as any);
        sameUnique(`${dtype} sorted ${sorted} counts only`, () => torch.unique(x, { sorted, return_counts: true }) as any);
      }
    }
    const many = torch.randn(20000);
    sameUnique("20000 distinct floats (rehashes)", () => torch.unique(many, { sorted: false, return_inverse: true }) as any);
  });
  native("sorted without NaN (per-chunk hash tables on the pool): every dtype, -0/0 (the first seen is kept), several chunks", () => {
    for (const dtype of DTYPES) {
      const x = values([30, 20], dtype, 10, 40);
      const clean = dtype.is_floating_point ? x.nan_to_num(0.25) : x;
      sameUnique(`${dtype} no NaN`, () => [torch.unique(clean)]);
      sameUnique(`${dtype} no NaN, inverse and counts`, () => torch.unique(clean, { return_inverse: true, return_counts: true }) as any);
      sameUnique(`${dtype} no NaN, counts only`, () => torch.unique(clean, { return_counts: true }) as any);
    }
    // 600000 elements: several chunks merged in order; the zero kept is the first one in the input
    torch.manual_seed(11);
    const big = torch.randint(1, 60, [600000]).to(torch.float32).mul(torch.randint(0, 2, [600000]).mul(2).sub(1));
    for (const [first, later] of [[-0, 0], [0, -0]]) {
      const z = big.clone();
      z.set(290000, first);
      z.set(5000, 7.5);
      z.set(590000, later);
      sameUnique(`600000 floats, ${Object.is(first, -0) ? "-0" : "0"} first`, () => torch.unique(z, { return_inverse: true, return_counts: true }) as any);
    }
    const ints = torch.randint(-(2 ** 40), 2 ** 40, [300000], { dtype: torch.int64 });
    sameUnique("300000 distinct int64 (the tables grow)", () => torch.unique(ints, { return_counts: true }) as any);
  }, 120_000);
  native("non-contiguous self, bool and bfloat16 run the TS kernel", () => {
    const x = values([10, 12], torch.float32, 8);
    expect(kernelsRan(() => torch.unique(x.t()))).toEqual(["unique_cpu_template:ts"]);
    expect(kernelsRan(() => torch.unique(torch.ones(40, { dtype: torch.bool })))).toEqual(["unique_cpu_template:ts"]);
  });
});
