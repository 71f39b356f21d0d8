// The native cummax / cummin and logcumsumexp (native/cpu/Scan.cc via NativeScan.ts) against the
// TypeScript kernels, on 1 and 2 threads, every layout: cummax/cummin give the same values and indices
// bit for bit (a later equal element takes over, NaN takes over and stays); logcumsumexp is the same
// step in double with glibc's exp/log1p where the TS kernel has V8's, so float32 results are within
// 1 ulp (in practice equal) and float64 results within 4 ulps (Scan.cc's bound). Scan.cc is compiled
// once (the baseline unit), so the capability does not change these kernels.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, underTs } from "../../support/native_paths.js";
import { bits, values } from "../../support/tied_values.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

const EXTREME_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool, torch.bfloat16, torch.float32, torch.float64];

/** f's tensors on the native kernels (1 and 2 threads) equal the TS kernels' bit for bit, and `stub` ran natively. */
function same(what: string, f: () => torch.Tensor[], stub: string): void {
  const want = underTs(f).map(bits).join("");
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    expect(kernelsRan(f), what).toContain(`${stub}:native`);
    expect(f().map(bits).join(""), `${what} (${threads} threads)`).toBe(want);
  }
}

describe("cummax / cummin", () => {
  native("every dtype, every dim, ties, NaN/-0/inf", () => {
    for (const dtype of EXTREME_DTYPES) {
      for (const shape of [[5, 40, 3], [2, 300], [7, 1]]) {
        const x = values(shape, dtype, 1);
        for (let dim = 0; dim < shape.length; dim++) {
          same(`cummax ${dtype} [${shape}] dim ${dim}`, () => [...torch.cummax(x, dim)], "cummax_helper");
          same(`cummin ${dtype} [${shape}] dim ${-1 - dim}`, () => [...torch.cummin(x, -1 - dim)], "cummin_helper");
        }
      }
    }
  }, 60_000);
  native("transposed and strided self, out= (into self itself), many lanes over the threads", () => {
    const x = values([60, 70], torch.float32, 2, 1000);
    same("transposed", () => [...torch.cummax(x.t(), 1)], "cummax_helper");
    same("strided", () => [...torch.cummin(x.get("::2", "1::3"), 0)], "cummin_helper");
    same("out= values into self", () => {
      const self = x.clone(), idx = torch.empty(0, { dtype: torch.int64 });
      torch.cummax(self, 1, { out: [self, idx] } as any);
      return [self, idx];
    }, "cummax_helper");
    same("out= transposed outs", () => {
      const v = torch.empty(70, 60).t(), i = torch.empty([70, 60], { dtype: torch.int64 }).t();
      torch.cummin(x, 1, { out: [v, i] } as any);
      return [v, i];
    }, "cummin_helper");
    const many = values([3000, 20], torch.float64, 3, 5);
    same("3000 lanes", () => [...torch.cummax(many, 1)], "cummax_helper");
  });
  native("0-d and empty selves never reach the kernel; float16 keeps the TS kernel's error", () => {
    expect(kernelsRan(() => torch.cummax(torch.tensor(1.5), 0))).toEqual([]);
    expect(torch.cummax(torch.empty(0, 3), 1)[0].shape).toEqual([0, 3]);
    expect(() => torch.cummax(torch.ones(3, { dtype: torch.float16 }), 0)).toThrow(/"cummax_cpu" not implemented for 'Half'/);
  });
});

describe("logcumsumexp", () => {
  /** |a - b| in units in the last place of b (0 when both are equal, including equal infinities and NaN). */
  function ulps(a: number, b: number, mantissa: number): number {
    if (Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b))) return 0;
    if (!Number.isFinite(a) || !Number.isFinite(b)) return Infinity;
    return Math.abs(a - b) / 2 ** (Math.floor(Math.log2(Math.max(Math.abs(b), 2 ** -1000))) - mantissa);
  }
  /** Native (1 and 2 threads) within `bound` ulps of the TS kernel, with its shape, and the stub ran natively. */
  function close(what: string, f: () => torch.Tensor, bound: number): void {
    const want = underTs(f);
    const mantissa = want.dtype === torch.float32 ? 23 : 52;
    const w = want.contiguous().flatten().tolist() as number[];
    for (const threads of [1, 2]) {
      torch.set_num_threads(threads);
      expect(kernelsRan(f), what).toContain("logcumsumexp_stub:native");
      const got = f();
      expect(got.shape, what).toEqual(want.shape);
      const g = got.contiguous().flatten().tolist() as number[];
      const worst = Math.max(0, ...g.map((v, i) => ulps(v, w[i], mantissa)));
      expect(worst, `${what} (${threads} threads)`).toBeLessThanOrEqual(bound);
    }
  }
  native("float32 (1 ulp) and float64 (4 ulps), every dim, NaN/-0/inf, wide ranges", () => {
    for (const [dtype, bound] of [[torch.float32, 1], [torch.float64, 4]] as const) {
      for (const shape of [[5, 40, 3], [2, 300], [7, 1]]) {
        const x = values(shape, dtype, 4, 50);
        for (let dim = 0; dim < shape.length; dim++) close(`${dtype} [${shape}] dim ${dim}`, () => torch.logcumsumexp(x, dim), bound);
      }
      for (const scale of [1, 30, 1000]) {
        torch.manual_seed(scale);
        const r = torch.randn(37, 500).mul(scale).to(dtype);
        close(`${dtype} randn * ${scale}`, () => torch.logcumsumexp(r, 1), bound);
      }
    }
  }, 60_000);
  native("transposed and strided self, out=, lane groups of 4 with a short last group", () => {
    const x = torch.randn(61, 70);
    close("transposed", () => torch.logcumsumexp(x.t(), 1), 1);
    close("strided", () => torch.logcumsumexp(x.get("::2", "1::3"), 0), 1);
    close("out=", () => {
      const out = torch.empty(0);
      torch.logcumsumexp(x, 1, { out } as any);
      return out;
    }, 1);
    close("out= into self", () => {
      const self = x.clone();
      torch.logcumsumexp(self, 1, { out: self } as any);
      return self;
    }, 1);
    close("6 lanes (4 + 2)", () => torch.logcumsumexp(x.get(":6"), 1), 1);
  });
  native("0-d self, integer and float16 selves run the TS kernel (and keep its errors)", () => {
    expect(kernelsRan(() => torch.logcumsumexp(torch.tensor(1.5), 0))).toEqual(["logcumsumexp_stub:ts"]);
    expect(() => torch.logcumsumexp(torch.ones(3, { dtype: torch.int32 }), 0)).toThrow(/"logcumsumexp_out_cpu" not implemented for 'Int'/);
    expect(() => torch.logcumsumexp(torch.ones(3, { dtype: torch.float16 }), 0)).toThrow(/"logcumsumexp_out_cpu" not implemented for 'Half'/);
  });
});
