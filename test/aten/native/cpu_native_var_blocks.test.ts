// The native var/std (native/cpu/Reductions.cc moments_impl) on groups longer than one block (32768
// elements: the blocks of one output on both threads, their partial sums added in block order; the
// centred squares of contiguous runs in 16 lanes): within the TypeScript kernel's tolerance (its
// sequential double sums; relative 4.8e-7 for a float32 result, 1e-12 for float64 over these lengths)
// and the same bits on 1 and 2 threads. Short groups are cpu_native_pointwise.test.ts's.
import { describe, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;

function check(what: string, f: () => torch.Tensor, rel: number): void {
  const want = underTs(f).flatten().tolist() as number[];
  const got: number[][] = [];
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    expect(kernelsRan(f), what).toContain("std_var_stub:native");
    got.push(f().flatten().tolist() as number[]);
  }
  expect(got[1], `${what}: 1 and 2 threads`).toEqual(got[0]);
  got[0].forEach((v, i) => {
    if (!(Math.abs(v - want[i]) <= rel * Math.abs(want[i]))) throw new Error(`${what}[${i}]: native ${v}, TS ${want[i]} (relative bound ${rel})`);
  });
}

describe("native var/std over several blocks", () => {
  nativeIt("float32 and float64: all elements, an outer dim, transposed, var_mean's mean, corrections", () => {
    torch.manual_seed(31);
    for (const [dtype, rel] of [[torch.float32, 4.8e-7], [torch.float64, 1e-12]] as const) {
      // an offset mean: the second pass centres each element on it
      const x = torch.randn(100003, { dtype }).mul(3).add(5);
      const m = x.get(":99999").reshape(33333, 3);
      check(`${dtype} var all`, () => torch.var(x), rel);
      check(`${dtype} std all, correction 0`, () => torch.std(x, null, { correction: 0 }), rel);
      check(`${dtype} var_mean's mean`, () => torch.var_mean(x)[1], rel);
      check(`${dtype} var dim 0 (strided runs)`, () => torch.var(m, 0), rel);
      check(`${dtype} std transposed dim 1`, () => torch.std(m.t(), 1), rel);
      check(`${dtype} var every other element`, () => torch.var(x.get("::2")), rel);
    }
  }, 60_000);
});
