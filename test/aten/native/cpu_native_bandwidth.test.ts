// The memory-bound pointwise paths (native/cpu/Pointwise.cc, pointwise_kernels.inc; issue #8): ops that
// move more bytes than the cache holds write their output with streaming (non-temporal) stores, and
// the driver splits rows at multiples of 64 elements. These check the streaming loops against the
// TypeScript kernels bit for bit (they do the same operations on the same elements): the threshold
// lowered so that small operands take the streaming path, sizes just above and just below it (the
// counter the addon keeps says which path ran), output offsets that are not 64-byte aligned (the
// head before the first line boundary), odd tails, scalar-broadcast operands, in-place, sub (alpha -1)
// and an alpha that declines to the cached loop, copy_ of every dtype, 1, 2 and 3 threads, each
// instruction-set unit. Tolerance: none (the same bits, -0 included).
import { describe, it, expect, afterEach, beforeAll, afterAll } from "vitest";
import * as torch from "../../../engine/index.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { _set_native_isa, nativeAddon, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { bestIsa, nativeIt, nativeStatus, runnableIsas, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;

const status = nativeStatus, native = nativeIt, best = bestIsa;
/** The units this CPU can run. */
const ISAS = runnableIsas();

let savedThreshold = 0;
beforeAll(() => {
  if (nativeAddon) savedThreshold = nativeAddon.pw_stream_threshold().threshold;
});
afterAll(() => {
  if (nativeAddon) nativeAddon.pw_stream_threshold(savedThreshold);
  torch.set_num_threads(status.loaded ? status.addon!.default_num_threads : 1);
});
afterEach(() => {
  set_cpu_capability(null);
  if (status.loaded) _set_native_isa(best as any);
});


/** Every element's bits as a string (-0 and NaN payloads distinguished for floats). */
function bits(t: torch.Tensor): string[] {
  const c = t.contiguous();
  const flat = (Array.from([c.tolist()] as any) as any[]).flat(Infinity) as (number | bigint | boolean)[];
  return flat.map((v) => (typeof v === "number" ? (Object.is(v, -0) ? "-0" : String(v)) : String(v)));
}

/** How many ops have taken a streaming loop so far. */
const streamed = () => nativeAddon!.pw_stream_threshold().calls;

/**
 * f on the TS kernels, then natively on every unit with the threshold at `threshold` bytes: the same
 * bits each time, and the streaming path taken (or not) as `expectStream` says.
 */
function check(what: string, f: () => torch.Tensor, threshold: number, expectStream: boolean): void {
  const want = bits(underTs(f));
  nativeAddon!.pw_stream_threshold(threshold);
  for (const isa of ISAS) {
    _set_native_isa(isa);
    const before = streamed();
    const got = f();
    const ran = streamed() - before;
    expect(ran > 0, `${what} [${isa}]: streaming path ${expectStream ? "not " : ""}taken`).toBe(expectStream);
    expect(bits(got), `${what} [${isa}]`).toEqual(want);
  }
}

let seed = 7;
function values(n: number, dtype: torch.dtype): torch.Tensor {
  const v: number[] = [];
  const special = [0, -0, 1, -1, 1e-40, -1e-42, 3.4e38, -3.4e38, Infinity, -Infinity, NaN, 0.1, 1e-30];
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const r = seed / 2147483648;
    if (!dtype.is_floating_point) v.push(dtype === torch.bool ? (r < 0.5 ? 1 : 0) : dtype === torch.uint8 ? Math.floor(r * 256) : Math.round((r - 0.5) * 200));
    else v.push(i % 7 === 3 ? special[(i >> 3) % special.length] : (r - 0.5) * 1e3);
  }
  if (dtype === torch.bool) return torch.tensor(v.map((x) => x !== 0), { dtype });
  return dtype.is_floating_point ? torch.tensor(v, { dtype: torch.float64 }).to(dtype) : torch.tensor(v, { dtype });
}

const FLOATS = [torch.float32, torch.float64];
const TAILS = [1, 2, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129, 200, 1000, 1023];

describe("streaming stores: add, sub, mul out= (float32, float64)", () => {
  for (const dtype of FLOATS) {
    native(`${dtype}: odd tails and output offsets off a 64-byte boundary, threshold lowered`, () => {
      const z = dtype === torch.float32 ? 4 : 8;
      for (const n of TAILS) {
        for (const off of [0, 1, 3, 8, 15]) {
          const a = values(n + 20, dtype).get(`${off % 5}:${off % 5 + n}`), b = values(n, dtype);
          const out = () => torch.empty(n + 32, { dtype }).get(`${off}:${off + n}`);
          check(`add n=${n} off=${off}`, () => torch.add(a, b, { out: out() }), 0, true);
          check(`sub n=${n} off=${off}`, () => torch.sub(a, b, { out: out() }), 0, true);
          check(`mul n=${n} off=${off}`, () => torch.mul(a, b, { out: out() }), 0, true);
        }
        const a = values(n, dtype), b = values(n, dtype);
        check(`add scalar n=${n}`, () => torch.add(a, 2.5), 0, true);
        check(`mul 0-d n=${n}`, () => torch.mul(a, torch.tensor(-3, { dtype })), 0, true);
        check(`add_ in place n=${n}`, () => a.clone().add_(b), 0, true);
        // alpha other than +-1: fused multiply-add in the cached loop (the streaming loop hands over)
        check(`add alpha=2.5 n=${n}`, () => torch.add(a, b, { alpha: 2.5 }), 0, true);
        // strided operands: the streaming loop hands the row to the cached one
        const m = values(2 * n, dtype);
        check(`add strided n=${n}`, () => torch.add(m.get("::2"), b), 0, true);
      }
      expect(z).toBeGreaterThan(0);
    }, 60_000);
    native(`${dtype}: just above and just below the threshold`, () => {
      const z = dtype === torch.float32 ? 4 : 8;
      const n = 1001, a = values(n, dtype), b = values(n, dtype), o = torch.empty(n, { dtype });
      const footprint = 3 * n * z; // a, b and out
      check("add at the threshold (not above)", () => torch.add(a, b, { out: o }), footprint, false);
      check("add one byte above the threshold", () => torch.add(a, b, { out: o }), footprint - 1, true);
      check("mul below", () => torch.mul(a, b, { out: o }), footprint + 1, false);
      check("mul above", () => torch.mul(a, b, { out: o }), footprint - 1, true);
      // a broadcast scalar moves no bytes per element: a and out only
      check("add scalar at 2 operands' bytes", () => torch.add(a, 1.5), 2 * n * z, false);
      check("add scalar above", () => torch.add(a, 1.5), 2 * n * z - 1, true);
      // ops without a streaming variant keep the cached loop whatever the size
      check("maximum (no streaming variant)", () => torch.maximum(a, b), 0, false);
    });
  }
  native("int64 add has no streaming variant: cached loop, same bits", () => {
    const a = values(300, torch.int64), b = values(300, torch.int64);
    check("int64 add", () => torch.add(a, b), 0, false);
  });
  native("1, 2 and 3 threads, over several grains: the same bits, every chunk's head and tail", () => {
    const n = 3 * 32768 + 77;
    const a = values(n + 5, torch.float32).get(`3:${n + 3}`), b = values(n, torch.float32);
    const want = bits(underTs(() => torch.add(a, b)));
    nativeAddon!.pw_stream_threshold(0);
    for (const t of [1, 2, 3]) {
      torch.set_num_threads(t);
      for (const isa of ISAS) {
        _set_native_isa(isa);
        const before = streamed();
        const out = torch.empty(n + 16).get(`5:${n + 5}`);
        torch.add(a, b, { out });
        expect(streamed() - before, `${t} threads [${isa}]`).toBe(1);
        expect(bits(out), `${t} threads [${isa}]`).toEqual(want);
      }
    }
  }, 60_000);
});

describe("streaming stores: copy_ of one dtype", () => {
  const DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool];
  for (const dtype of DTYPES) {
    native(`${dtype}: odd tails, offsets, threshold lowered; a cast still runs the cached loop`, () => {
      for (const n of [1, 3, 17, 64, 65, 129, 1000, 4099]) {
        for (const off of [0, 1, 7]) {
          const src = values(n + 9, dtype).get(`${off + 1}:${off + 1 + n}`);
          check(`copy_ n=${n} off=${off}`, () => {
            const dst = torch.zeros(n + 16, { dtype }).get(`${off}:${off + n}`);
            dst.copy_(src);
            return dst;
          }, 0, true);
        }
      }
      const src = values(100, dtype);
      const other = dtype === torch.float32 ? torch.float64 : torch.float32;
      check("copy_ with a cast", () => torch.empty(100, { dtype: other }).copy_(src), 0, false);
      check("copy_ broadcast (stride 0 source)", () => torch.empty(5, 100, { dtype }).copy_(src), 0, true);
    }, 60_000);
  }
});

describe("the default threshold", () => {
  native("1e6-element add stays cached (12 MB), a 4e6-element one streams (48 MB)", () => {
    nativeAddon!.pw_stream_threshold(savedThreshold);
    expect(nativeAddon!.pw_stream_threshold().threshold).toBe(32 * 2 ** 20);
    for (const [n, stream] of [[1e6, false], [4e6, true]] as const) {
      const a = torch.ones(n), b = torch.ones(n), o = torch.empty(n);
      const before = streamed();
      torch.add(a, b, { out: o });
      expect(streamed() - before, `n=${n}`).toBe(stream ? 1 : 0);
      expect(o.sum().item()).toBe(2 * n);
    }
  });
});
