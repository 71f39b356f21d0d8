// The native copy-like shape kernels (native/cpu/Shape.cc via NativeShape.ts) against the TypeScript
// kernels: copy_'s same-dtype row and tile copies (contiguous(), permute, clone into a strided window),
// reflection / replication padding (1d to 3d, cropping pads, strided inputs) and pixel_shuffle /
// pixel_unshuffle, on 1 and 2 threads, every dtype the kernels take: the same elements bit for bit.
import { expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, restoreNativeDefaults, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

const text = (t: torch.Tensor) =>
  JSON.stringify({ shape: t.shape, v: t.contiguous().flatten().tolist() }, (_k, v) =>
    typeof v === "bigint" ? String(v) : typeof v === "number" && (!Number.isFinite(v) || Object.is(v, -0)) ? (Object.is(v, -0) ? "-0" : String(v)) : v);

/** f gives the TS kernels' result on 1 and 2 threads, and each of `stubs` ran natively. */
function same(what: string, f: () => torch.Tensor, stubs: string[]): void {
  const want = text(underTs(f));
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    const ran = kernelsRan(f);
    for (const s of stubs) expect(ran, what).toContain(`${s}:native`);
    expect(text(f()), `${what} (${threads} threads)`).toBe(want);
  }
}

function values(shape: number[], dtype: torch.dtype, seed: number): torch.Tensor {
  torch.manual_seed(seed);
  if (dtype === torch.bool) return torch.rand(shape).gt(0.5);
  if (dtype === torch.int64) return torch.randint(-(2 ** 40), 2 ** 40, shape, { dtype }).mul(40009); // past 2^53
  if (!dtype.is_floating_point) return torch.randint(dtype === torch.uint8 ? 0 : -100, 100, shape, { dtype });
  const x = torch.randn(shape).mul(10).to(dtype);
  const flat = x.view(-1);
  flat.set(0, NaN);
  flat.set(1, -0);
  flat.set(2, -Infinity);
  return x;
}

const DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool];

nativeIt("copy_: transposed and permuted sources in tiles, contiguous rows, strided destinations", () => {
  for (const dt of DTYPES) {
    const m = values([300, 257], dt, 1); // not multiples of the 32-element tile
    same(`${dt} t().contiguous()`, () => m.t().contiguous(), ["copy_stub"]);
    same(`${dt} square transpose`, () => values([1024, 64], dt, 2).t().contiguous(), ["copy_stub"]);
    const c = values([5, 40, 3, 70], dt, 3);
    same(`${dt} permute`, () => c.permute([3, 1, 0, 2]).contiguous(), ["copy_stub"]);
    same(`${dt} permute with a step`, () => c.get([":", "::3"]).permute([1, 3, 2, 0]).contiguous(), ["copy_stub"]);
    same(`${dt} rows into a strided window`, () => {
      const out = torch.zeros([300, 300], { dtype: dt });
      out.get([":", "10:267"]).copy_(m);
      return out;
    }, ["copy_stub"]);
    same(`${dt} transposed into a window`, () => {
      const out = torch.zeros([260, 310], { dtype: dt });
      out.get([":257", "5:305"]).copy_(m.t());
      return out;
    }, ["copy_stub"]);
    same(`${dt} one element`, () => m.get([":1", ":1"]).clone(), ["copy_stub"]);
    // rows split by elements: the two threads' halves of 7 rows of 9999 meet inside a row
    const long = values([7, 9999], dt, 4);
    same(`${dt} long rows into a window`, () => {
      const out = torch.zeros([7, 10001], { dtype: dt });
      out.get([":", "1:10000"]).copy_(long);
      return out;
    }, ["copy_stub"]);
    same(`${dt} one long row`, () => torch.cat([long.view(-1), long.get(0)]), ["copy_stub"]);
  }
}, 120_000);

nativeIt("copy_: rows into windows of 3 to 5 dims (constant pad's copy), the threads' halves meeting inside a row and a pass", () => {
  // copy_rows walks the rows of the innermost outer dim in a tight loop and carries into the outer dims
  // at its end: windows whose passes are long, one row, and two rows, with both halves' edges inside them
  const F = torch.nn.functional;
  for (const dt of [torch.float32, torch.float64, torch.int8, torch.int64]) {
    const img = values([5, 7, 33, 35], dt, 40); // 40425 elements: the second half starts in row 577, 18 in
    same(`${dt} F.pad constant 2d`, () => F.pad(img, [2, 3, 1, 4]), ["copy_stub"]);
    same(`${dt} F.pad constant 3d, a value`, () => F.pad(img, [1, 1, 2, 0, 3, 1], { value: 3 }), ["copy_stub"]);
    const tall = values([9001, 2, 3], dt, 41); // passes of two rows of 3
    same(`${dt} window, passes of 2 rows`, () => {
      const out = torch.zeros([9001, 4, 5], { dtype: dt });
      out.get([":", "1:3", "2:5"]).copy_(tall);
      return out;
    }, ["copy_stub"]);
    const five = values([5, 5, 3, 1, 701], dt, 42); // a size-1 dim dropped; 75 rows: the halves meet in row 37
    same(`${dt} window of 5 dims`, () => {
      const out = torch.zeros([7, 5, 6, 1, 703], { dtype: dt });
      out.get(["1:6", ":", "1:4", ":", "2:"]).copy_(five);
      return out;
    }, ["copy_stub"]);
  }
}, 120_000);

nativeIt("copy_: a broadcast source's rows of 1 to 16 KiB (vector copies), rows off the vector width, halves meeting inside a row", () => {
  // copy_rows copies rows whose source is read again by pw::copy_bytes (vectors, a byte tail): row
  // lengths that are no multiple of a vector, misaligned ends on both sides, the bounds of the range
  for (const [dt, n] of [[torch.float32, 1000], [torch.float32, 257], [torch.float32, 4095], [torch.float64, 600], [torch.int8, 3001], [torch.int16, 1531]] as const) {
    const row = values([n + 3], dt, 50).narrow(0, 3, n); // the source starts 3 elements into its block
    const rows = Math.ceil(40000 / n) | 1; // over one grain: two threads, the second half from inside a row
    same(`${dt} row.repeat(${rows}, 1), rows of ${n}`, () => row.repeat(rows, 1), ["copy_stub"]);
    same(`${dt} an expanded row into a misaligned window`, () => {
      const out = torch.zeros([rows, n + 7], { dtype: dt });
      out.get([":", `5:${n + 5}`]).copy_(row.expand(rows, n));
      return out;
    }, ["copy_stub"]);
    const plane = values([3, n], dt, 51);
    same(`${dt} a [3, ${n}] plane expanded over an outer dim`, () => plane.expand(7, 3, n).contiguous(), ["copy_stub"]);
  }
}, 120_000);

nativeIt("padding: reflect and replicate, 1d to 3d, cropping pads, strided inputs", () => {
  for (const dt of [torch.float32, torch.float64]) {
    const x1 = values([3, 4, 50], dt, 4), x2 = values([2, 3, 33, 41], dt, 5), x3 = values([2, 3, 7, 9, 11], dt, 6);
    const F = torch.nn.functional;
    for (const mode of ["reflect", "replicate"]) {
      same(`${dt} ${mode} 1d`, () => F.pad(x1, [5, 7], { mode }), ["reflection_pad / replication_pad"]);
      same(`${dt} ${mode} 2d`, () => F.pad(x2, [2, 3, 4, 1], { mode }), ["reflection_pad / replication_pad"]);
      same(`${dt} ${mode} 2d cropping`, () => F.pad(x2, [-3, 2, 1, -4], { mode }), ["reflection_pad / replication_pad"]);
      same(`${dt} ${mode} 2d strided`, () => F.pad(x2.transpose(2, 3), [6, 1, 0, 2], { mode }), ["reflection_pad / replication_pad"]);
      same(`${dt} ${mode} 3d`, () => F.pad(x3, [1, 2, 3, 0, 2, 2], { mode }), ["reflection_pad / replication_pad"]);
      same(`${dt} ${mode} unbatched 2d`, () => F.pad(x2.get(0), [4, 4, 4, 4], { mode }), ["reflection_pad / replication_pad"]);
    }
    same(`${dt} reflect, the largest pads`, () => F.pad(x1, [49, 49], { mode: "reflect" }), ["reflection_pad / replication_pad"]);
    same(`${dt} replicate past the size`, () => F.pad(x1, [120, 3], { mode: "replicate" }), ["reflection_pad / replication_pad"]);
  }
}, 120_000);

nativeIt("pixel_shuffle and pixel_unshuffle: every dtype but int64, batch dims, strided inputs", () => {
  const F = torch.nn.functional;
  for (const dt of DTYPES) {
    const x = values([2, 3, 18, 5, 7], dt, 7);
    const stubs = dt === torch.int64 ? [] : ["pixel_shuffle_kernel"];
    same(`${dt} shuffle 3`, () => F.pixel_shuffle(x, 3), stubs);
    same(`${dt} shuffle strided`, () => F.pixel_shuffle(x.transpose(3, 4), 3), stubs);
    const y = values([4, 6, 12, 10], dt, 8);
    const ustubs = dt === torch.int64 ? [] : ["pixel_unshuffle_kernel"];
    same(`${dt} unshuffle 2`, () => F.pixel_unshuffle(y, 2), ustubs);
    same(`${dt} unshuffle strided`, () => F.pixel_unshuffle(y.transpose(2, 3), 2), ustubs);
    same(`${dt} round trip`, () => F.pixel_unshuffle(F.pixel_shuffle(x.get(0), 3), 3), stubs);
    // rows of 16 and more: each output row interleaves r input rows (Shape.cc copy_zip, r = 2 to 4)
    for (const r of [2, 3, 4]) {
      const z = values([3, r * r * 2, 6, 20], dt, 9 + r);
      same(`${dt} shuffle ${r}, rows of 20`, () => F.pixel_shuffle(z, r), stubs);
    }
  }
}, 120_000);

nativeIt("copy_: a short destination-contiguous dim over a source row (interleaved runs), split over the threads", () => {
  for (const dt of DTYPES) {
    for (const k of [2, 3, 4, 5]) {
      const x = values([400, k, 50], dt, 20 + k); // 400 runs of 50 x k: two tasks on 2 threads
      same(`${dt} [400, ${k}, 50].permute(0, 2, 1)`, () => x.permute([0, 2, 1]).contiguous(), ["copy_stub"]);
    }
    const narrow = values([30, 2, 10], dt, 30); // rows of 10: the tiles
    same(`${dt} [30, 2, 10].permute(0, 2, 1)`, () => narrow.permute([0, 2, 1]).contiguous(), ["copy_stub"]);
  }
}, 120_000);

nativeIt("padding backward: reflect and replicate, 1d to 3d, the adds in the TS kernel's order", () => {
  const F = torch.nn.functional;
  for (const dt of [torch.float32, torch.float64]) {
    for (const mode of ["reflect", "replicate"]) {
      for (const [shape, pads] of [[[3, 4, 50], [5, 7]], [[2, 3, 33, 41], [2, 3, 4, 1]], [[2, 3, 33, 41], [-3, 2, 1, -4]], [[2, 3, 7, 9, 11], [1, 2, 3, 0, 2, 2]], [[3, 20, 20], [19, 19, 19, 19]], [[400, 4, 30], [3, 4]]] as [number[], number[]][]) { // the last: planes split over 2 threads
        if (mode === "reflect" && pads.some((p, i) => p >= shape[shape.length - 1 - (i >> 1)])) continue;
        const x = values(shape, dt, 11).nan_to_num(0);
        const go = values(F.pad(x, pads, { mode }).shape, dt, 12).nan_to_num(0).mul(1e3);
        same(`${dt} ${mode} ${shape} ${pads}`, () => {
          const xg = x.clone().requires_grad_(true);
          F.pad(xg, pads, { mode }).backward(go);
          return xg.grad!;
        }, ["reflection_pad / replication_pad backward"]);
      }
    }
  }
}, 120_000);
