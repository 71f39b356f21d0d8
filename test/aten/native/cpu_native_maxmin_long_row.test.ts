// The native max/min of one long row (native/cpu/Reductions.cc maxmin_impl: max(x), amax(x), argmax(x)
// of a vector of 2 * 32768 elements or more, in chunks over the pool: the extreme of each chunk, then the
// first match of the first chunk with one) against the TypeScript kernels, bit for bit: NaN wins and
// reports the first NaN's index, the first of equal values, the first zero's sign, where the chunk
// borders fall (the answer in the first, a middle or the last chunk, on a border), float16 too, every
// runnable unit, 1 and 2 threads. And find_first's blocks of four vectors: a match in each lane position.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, restoreNativeDefaults, runnableIsas, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();
afterEach(restoreNativeDefaults);

const asText = (r: torch.Tensor | torch.Tensor[]) =>
  JSON.stringify((Array.isArray(r) ? r : [r]).map((t) => ({ dtype: String(t.dtype), v: t.flatten().tolist() })), (_k, v) =>
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
