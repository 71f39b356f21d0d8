// The native max/min over a dim outside the innermost one, and of one long row, against the TypeScript
// kernels. Columns (native/cpu/Reductions.cc maxmin_columns:
// amax(mat, 0), max(mat, 0), argmax(mat, 0), ...) against the TypeScript kernels: values and first
// indices are exact, so bit for bit (NaN wins and its first index is reported; of equal values, -0 and
// 0 included, the first). Every real dtype and bool, 2-d and 3-d, several reduced dims, transposed and
// sliced inputs, column counts past one group (1024) and not a multiple of the vector width, strided
// out=, every runnable unit (the values' row loop is the unit's), 1 and 2 threads (the column groups
// follow the thread count; the results must not).
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, restoreNativeDefaults, runnableIsas, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();
afterEach(restoreNativeDefaults);

const asText = (r: torch.Tensor | torch.Tensor[]) =>
  JSON.stringify((Array.isArray(r) ? r : [r]).map((t) => ({ dtype: String(t.dtype), shape: [...t.shape], v: t.flatten().tolist() })), (_k, v) =>
    typeof v === "bigint" ? String(v) : Number.isNaN(v) ? "NaN" : Object.is(v, -0) ? "-0" : v);

function sameAsTs(what: string, f: () => torch.Tensor | torch.Tensor[], stub: string): void {
  const want = asText(underTs(f));
  for (const isa of ISAS) {
    _set_native_isa(isa as any);
    for (const threads of [1, 2]) {
      torch.set_num_threads(threads);
      expect(kernelsRan(f), what).toContain(`${stub}:native`);
      expect(asText(f()), `${what} (${isa}, ${threads} threads)`).toBe(want);
    }
  }
}

describe("native max/min over outer dims (column groups)", () => {
  nativeIt("every dtype, NaN, ties and signed zeros, 2-d and 3-d, transposed and sliced, out=", () => {
    torch.manual_seed(21);
    const dtypes = [torch.float32, torch.float64, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool, torch.float16];
    for (const dtype of dtypes) {
      // few distinct values: many ties along each column
      const x = torch.randint(-3, 4, [45, 1037]).to(dtype);
      if (dtype.is_floating_point) {
        x.set(7, 5, NaN);
        x.set(30, 5, NaN);  // the first NaN's index
        x.set(0, 6, NaN);   // NaN in the first row
        x.set(44, 7, NaN);  // and in the last
        x.set(":", 8, 0);
        x.set("10:20", 8, -0);  // zeros of both signs: the first one reported
        x.set(":", 9, -0);
        x.set(":", 10, -0);  // +0 first, -0 after it: the +0 is the max and the min
        x.set(0, 10, 0);
        x.set(":", 11, 0);   // and the other way round
        x.set(0, 11, -0);
      }
      for (const [name, fmax, fmin, smax, smin] of [
        ["amax/amin", (t: torch.Tensor, d: number | number[]) => torch.amax(t, d), (t: torch.Tensor, d: number | number[]) => torch.amin(t, d), "max_values_stub", "min_values_stub"],
        ["max/min.dim", (t: torch.Tensor, d: number | number[]) => torch.max(t, d as number), (t: torch.Tensor, d: number | number[]) => torch.min(t, d as number), "max_stub", "min_stub"],
        ["argmax/argmin", (t: torch.Tensor, d: number | number[]) => torch.argmax(t, d as number), (t: torch.Tensor, d: number | number[]) => torch.argmin(t, d as number), "argmax_stub", "argmin_stub"],
      ] as const) {
        if (dtype === torch.bool && name !== "amax/amin") continue;  // max.dim/argmax of bool: the TS kernels' errors
        const label = `${name} ${dtype}`;
        sameAsTs(`${label} dim 0`, () => fmax(x, 0) as any, smax);
        sameAsTs(`${label} dim 0 (min)`, () => fmin(x, 0) as any, smin);
        sameAsTs(`${label} transposed, dim 1`, () => fmax(x.t(), 1) as any, smax);
        sameAsTs(`${label} sliced`, () => fmin(x.get("3:40:2", "5:1000:1"), 0) as any, smin);
        const x3 = x.get(":", ":1035").reshape(9, 5, 1035);
        sameAsTs(`${label} 3-d dim 0`, () => fmax(x3, 0) as any, smax);
        sameAsTs(`${label} 3-d dim 1`, () => fmin(x3, 1) as any, smin);
      }
      const x3 = x.get(":", ":1035").reshape(9, 5, 1035);
      sameAsTs(`amax ${dtype} 3-d dims 0 and 1`, () => torch.amax(x3, [0, 1]), "max_values_stub");
      sameAsTs(`amin ${dtype} keepdim`, () => torch.amin(x, 0, true), "min_values_stub");
    }
    const y = torch.randn(50, 300);
    const run = () => {
      const out = torch.zeros(300, 2).get(":", 1);
      torch.amax(y, 0, false, { out });
      return out;
    };
    sameAsTs("strided out=", run, "max_values_stub");
    const one = torch.randn(1, 40);
    sameAsTs("one reduced row", () => torch.amax(one, 0), "max_values_stub");
    const wide = torch.randn(3, 2500);
    wide.set(2, 2400, NaN);
    sameAsTs("2500 columns (three groups on one thread)", () => torch.max(wide, 0), "max_stub");
  }, 120_000);
});

describe("native max/min of integer rows (values alone)", () => {
  nativeIt("int64 rows through its own vector extreme; one long row of any integer dtype in chunks over the pool", () => {
    torch.manual_seed(22);
    for (const dtype of [torch.int64, torch.int32, torch.int16, torch.uint8]) {
      for (const n of [1, 7, 65536, 200_001]) {
        const x = torch.randint(-120, 120, [n]).to(dtype);
        if (n > 100) {
          // the extremes in the last chunk and in the middle of one (int64: far outside the other values)
          x.set(n - 2, dtype === torch.int64 ? 2 ** 60 : 127);
          x.set(n >> 1, dtype === torch.int64 ? -(2 ** 60) : dtype === torch.uint8 ? 0 : -128);
        }
        sameAsTs(`${dtype} [${n}] max()`, () => x.max(), "max_all_stub");
        sameAsTs(`${dtype} [${n}] min()`, () => x.min(), "min_all_stub");
        if (n % 7 === 0 || n === 65536) sameAsTs(`${dtype} rows amax`, () => torch.amax(x.view(n === 65536 ? 64 : 1, -1), 1), "max_values_stub");
      }
    }
  }, 120_000);
});

// One long row (maxmin_impl: max(x), amax(x), argmax(x) of a vector of 2 * 32768 elements or more, in
// chunks over the pool: the extreme of each chunk, then the first match of the first chunk with one):
// where the chunk borders fall (the answer in the first, a middle or the last chunk), ties across chunks,
// NaN, zeros of both signs; and find_first's blocks of four vectors (a match in each lane position).
const OPS = [
  ["max()", (t: torch.Tensor) => torch.max(t), "max_all_stub"],
  ["min()", (t: torch.Tensor) => torch.min(t), "min_all_stub"],
  ["amax", (t: torch.Tensor) => torch.amax(t, 0), "max_values_stub"],
  ["argmax", (t: torch.Tensor) => torch.argmax(t), "argmax_stub"],
  ["argmin", (t: torch.Tensor) => torch.argmin(t), "argmin_stub"],
  ["max.dim", (t: torch.Tensor) => torch.max(t, 0), "max_stub"],
] as const;

describe("native max/min of one long row (chunks over the pool)", () => {
  const N = 300_007; // 9 chunks of ~33k on 2 threads (8 by the pool's count), not a multiple of any vector
  nativeIt("the extreme and its first index wherever it falls, ties across chunks, float32/float64/float16", () => {
    torch.manual_seed(5);
    for (const dtype of [torch.float32, torch.float64, torch.float16]) {
      const base = torch.randint(-50, 50, [N]).to(dtype); // many ties of the extreme values
      for (const at of [0, 37_501, 150_000, N - 1]) {
        const x = base.clone();
        x.set(at, 1000);
        x.set(Math.min(N - 1, at + 40_000), 1000); // a later tie in another chunk: the first is the answer
        x.set(N - 1 - at, -1000);
        for (const [name, f, stub] of OPS) sameAsTs(`${name} ${dtype} at ${at}`, () => f(x) as any, stub);
      }
    }
  }, 60_000);
  nativeIt("NaN wins with its first index; zeros of both signs give the first zero", () => {
    for (const dtype of [torch.float32, torch.float64]) {
      const x = torch.zeros(N, { dtype });
      x.set(200_000, NaN);
      x.set(70_000, NaN);
      for (const [name, f, stub] of OPS) sameAsTs(`${name} NaN ${dtype}`, () => f(x) as any, stub);
      const z = torch.zeros(N, { dtype });
      z.set("100000:", -0);
      for (const [name, f, stub] of OPS) sameAsTs(`${name} +0 then -0 ${dtype}`, () => f(z) as any, stub);
      const zn = torch.zeros(N, { dtype }).neg();
      zn.set("250000:", 0);
      for (const [name, f, stub] of OPS) sameAsTs(`${name} -0 then +0 ${dtype}`, () => f(zn) as any, stub);
    }
  }, 60_000);
  nativeIt("argmax finds a match in every position of a block of four vectors", () => {
    const n = 70_000;
    for (let at = 69_000; at < 69_000 + 80; at++) {
      const x = torch.zeros(n);
      x.set(at, 1);
      torch.set_num_threads(2);
      expect(torch.argmax(x).item()).toBe(at);
      torch.set_num_threads(1);
      expect(torch.argmax(x).item()).toBe(at);
    }
  });
});
