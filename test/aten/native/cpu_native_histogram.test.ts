// The native counting kernels (native/cpu/Histogram.cc via NativeHistogram.ts) against the TypeScript
// kernels: bincount (every integer input dtype, strided, with float32 / float64 weights summed in input
// order, minlength) and histc (float32 / float64: the bin arithmetic in the element type, values on
// the edges, NaN in the first bin, out-of-range values, the default range from the extremes), on 1 and
// 2 threads (inputs past the size where the pool counts in private bins).
import { expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, restoreNativeDefaults, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

const text = (t: torch.Tensor) =>
  JSON.stringify({ dtype: String(t.dtype), shape: t.shape, v: t.flatten().tolist() }, (_k, v) => (typeof v === "bigint" ? String(v) : Object.is(v, -0) ? "-0" : v));

function same(what: string, f: () => torch.Tensor, stub: string, native = true): void {
  const want = text(underTs(f));
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    if (native) expect(kernelsRan(f), what).toContain(`${stub}:native`);
    else expect(kernelsRan(f), what).not.toContain(`${stub}:native`);
    expect(text(f()), `${what} (${threads} threads)`).toBe(want);
  }
}

nativeIt("bincount: every integer dtype, strided, weights, minlength, a value out of range", () => {
  for (const dt of [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]) {
    torch.manual_seed(1);
    const x = torch.randint(0, 100, [100_000], { dtype: dt });
    same(`${dt}`, () => torch.bincount(x), "bincount");
    same(`${dt} strided`, () => torch.bincount(x.get("::3")), "bincount");
    same(`${dt} minlength`, () => torch.bincount(x.get(":1000"), null, 300), "bincount");
    same(`${dt} many bins, few values`, () => torch.bincount(x.get(":50"), null, 5000), "bincount");
    for (const wdt of [torch.float32, torch.float64]) {
      torch.manual_seed(2);
      const w = torch.randn([100_000], { dtype: wdt }).mul(1000);
      same(`${dt} ${wdt} weights`, () => torch.bincount(x, w), "bincount");
      same(`${dt} ${wdt} strided weights`, () => torch.bincount(x.get("::2"), w.get("1::2")), "bincount");
    }
  }
  // weights the TS kernel converts to double stay there
  const x = torch.tensor([0, 2, 2, 5]);
  same("int weights", () => torch.bincount(x, torch.tensor([1, 2, 3, 4])), "bincount", false);
  expect(() => torch.bincount(torch.tensor([1, -1, 2]))).toThrow("bincount only supports 1-d non-negative integral inputs.");
}, 300_000);

nativeIt("histc: float32 and float64, edges, NaN, out-of-range values, the default range", () => {
  for (const dt of [torch.float32, torch.float64]) {
    torch.manual_seed(3);
    const x = torch.randn([300_000], { dtype: dt });
    const flat = x.view(-1);
    [NaN, 4, -4, 1, -1, 0.5, 3, -3].forEach((v, i) => flat.set(i * 1000, v)); // outside, on edges, the ends
    same(`${dt} range`, () => torch.histc(x, { bins: 100, min: -3, max: 3 }), "histogramdd_linear_stub");
    same(`${dt} 7 bins`, () => torch.histc(x, { bins: 7, min: -1, max: 2.5 }), "histogramdd_linear_stub");
    const finite = x.nan_to_num(0);
    same(`${dt} the extremes`, () => torch.histc(finite, { bins: 33 }), "histogramdd_linear_stub");
    same(`${dt} a 2-d input`, () => torch.histc(finite.view(300, 1000), { bins: 1000, min: -2, max: 2 }), "histogramdd_linear_stub");
    same(`${dt} one value`, () => torch.histc(torch.full([5000], 2, { dtype: dt }), { bins: 4 }), "histogramdd_linear_stub");
  }
  // a float32 count stops at 2^24 in the TS kernel's float arithmetic; it does here too
  const many = torch.zeros([(1 << 24) + 5]);
  same("float32 count past 2^24", () => torch.histc(many, { bins: 2, min: -1, max: 1 }), "histogramdd_linear_stub");
}, 300_000);

nativeIt("searchsorted and bucketize: every dtype, left and right, rows of boundaries, a sorter, NaN, int32 out", () => {
  for (const dt of [torch.float32, torch.float64, torch.int32, torch.int64]) {
    const float = dt.is_floating_point;
    torch.manual_seed(4);
    const bd = float ? torch.sort(torch.randn([1000], { dtype: dt }))[0] : torch.sort(torch.randint(-500, 500, [1000], { dtype: dt }))[0];
    const x = float ? torch.randn([20_000], { dtype: dt }).mul(1.2) : torch.randint(-600, 600, [20_000], { dtype: dt });
    if (float) {
      x.view(-1).set(0, NaN);
      x.view(-1).set(1, bd.get(10).item() as number); // on a boundary
    }
    for (const right of [false, true]) {
      same(`${dt} right=${right}`, () => torch.searchsorted(bd, x, { right }), "searchsorted");
      same(`${dt} right=${right} int32`, () => torch.searchsorted(bd, x, { right, out_int32: true }), "searchsorted");
    }
    // rows: each row of x searches its own row of boundaries
    const bdRows = float ? torch.sort(torch.randn([40, 50], { dtype: dt }), 1)[0] : torch.sort(torch.randint(-50, 50, [40, 50], { dtype: dt }), 1)[0];
    const xRows = x.get(":12000").view(40, 300);
    same(`${dt} rows`, () => torch.searchsorted(bdRows, xRows, { side: "right" }), "searchsorted");
    // a sorter: the boundaries unsorted, their order given
    const perm = torch.randperm(1000);
    const shuffled = bd.get(perm);
    same(`${dt} sorter`, () => torch.searchsorted(shuffled, x, { sorter: torch.argsort(shuffled) }), "searchsorted");
    same(`${dt} bucketize`, () => torch.bucketize(x, bd), "searchsorted");
  }
}, 300_000);
