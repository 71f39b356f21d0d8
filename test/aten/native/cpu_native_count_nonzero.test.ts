// The native count_nonzero (native/cpu/Reductions.cc count_nonzero_impl behind count_nonzero_stub)
// against the TypeScript kernel (engine/aten/native/reduce/Statistics.ts): every dtype, NaN counted,
// -0.0 not, all dims / one dim / several, strided and transposed inputs, empty and size-1 dims, rows
// longer than a block (kBlock = 32768: an output's blocks on both threads), 1 and 2 threads.
// Reductions.cc is one unit (no per-ISA copies), so there is no unit to switch.
import { describe, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;

const asText = (t: torch.Tensor) => JSON.stringify({ dtype: String(t.dtype), shape: [...t.shape], v: t.flatten().tolist() }, (_k, v) => (typeof v === "bigint" ? String(v) : v));

function sameAsTs(what: string, f: () => torch.Tensor): void {
  const want = asText(underTs(f));
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    expect(kernelsRan(f), what).toContain("count_nonzero_stub:native");
    expect(asText(f()), `${what} (${threads} threads)`).toBe(want);
  }
}

describe("native count_nonzero", () => {
  nativeIt("every dtype, NaN nonzero, -0.0 zero, dims, strides, empty and size-1 dims", () => {
    torch.manual_seed(11);
    const dtypes = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool];
    for (const dtype of dtypes) {
      // about a third zeros
      const x = torch.randint(-1, 2, [37, 300]).to(dtype);
      if (dtype.is_floating_point) {
        x.set(2, 5, NaN);
        x.set(2, 6, -0);
        x.set(3, ":", -0);
        x.set(4, 7, Infinity);
      }
      sameAsTs(`${dtype} every element`, () => torch.count_nonzero(x));
      sameAsTs(`${dtype} last dim`, () => torch.count_nonzero(x, 1));
      sameAsTs(`${dtype} first dim`, () => torch.count_nonzero(x, 0));
      sameAsTs(`${dtype} transposed`, () => torch.count_nonzero(x.t(), 1));
      sameAsTs(`${dtype} strided`, () => torch.count_nonzero(x.get("::2", "1::3")));
      sameAsTs(`${dtype} two of three dims`, () => torch.count_nonzero(x.view(37, 20, 15), [0, 2]));
    }
    const y = torch.randn(4, 1, 5);
    sameAsTs("size-1 dim reduced", () => torch.count_nonzero(y, 1));
    sameAsTs("empty reduced dim", () => torch.count_nonzero(torch.ones(3, 0), 1));
    // no outputs: whichever kernel runs, an empty int64 result
    const none = () => torch.count_nonzero(torch.ones(0, 3), 1);
    expect(asText(none())).toBe(asText(underTs(none)));
  });

  nativeIt("rows of several blocks (an output split over the threads) count exactly", () => {
    torch.manual_seed(12);
    const x = torch.rand(3, 100003).gt(0.3).to(torch.float32);
    sameAsTs("3 x 100003", () => torch.count_nonzero(x, 1));
    sameAsTs("all of it", () => torch.count_nonzero(x));
    const flat = torch.randn(1 << 20).relu();
    sameAsTs("2^20 flat", () => torch.count_nonzero(flat));
  });
});
