// fast-check generators for property tests: tensors of random shape, dtype and layout. A tensor is a
// window onto a fresh 1-D base (sizes, strides, storage offset), so layouts include transposed,
// stepped, offset, broadcast (stride 0) and overlapping views, built without the ops under test.
import fc from "fast-check";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { buildWindow, type WindowSpec } from "./windows.js";

export type DtypeName = "float32" | "float64" | "int32" | "int64" | "int16" | "bool";

/** Values chosen so float sums and products of a few of them are exact (quarters in [-4, 4]). */
function value(dtype: DtypeName): fc.Arbitrary<number | boolean> {
  if (dtype === "bool") return fc.boolean();
  if (dtype.startsWith("float")) return fc.integer({ min: -16, max: 16 }).map((q) => q / 4);
  return fc.integer({ min: -9, max: 9 });
}

export const arbShape = (maxDims = 4, maxSize = 4): fc.Arbitrary<number[]> =>
  fc.array(fc.integer({ min: 0, max: maxSize }), { maxLength: maxDims });

/** A layout for `sizes`: contiguous, or random per-dim strides (0 = broadcast) with an offset. */
export function arbLayout(sizes: number[], allowOverlap: boolean): fc.Arbitrary<{ strides: number[]; offset: number }> {
  const contiguous = () => {
    const strides: number[] = [];
    let acc = 1;
    for (let i = sizes.length - 1; i >= 0; i--) {
      strides[i] = acc;
      acc *= Math.max(sizes[i], 1);
    }
    return strides;
  };
  const permuted = fc.shuffledSubarray([...sizes.keys()], { minLength: sizes.length, maxLength: sizes.length }).map((perm) => {
    // dense strides in the order `perm` (last fastest), then a gap factor per dim for stepped views
    const strides = new Array<number>(sizes.length);
    let acc = 1;
    for (let i = perm.length - 1; i >= 0; i--) {
      strides[perm[i]] = acc;
      acc *= Math.max(sizes[perm[i]], 1);
    }
    return strides;
  });
  const stepped = fc.tuple(permuted, fc.array(fc.integer({ min: 1, max: 2 }), { minLength: sizes.length, maxLength: sizes.length }))
    .map(([st, steps]) => st.map((s, i) => s * steps.reduce((p, x, j) => (j <= i ? p * x : p), 1)));
  const overlapping = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: sizes.length, maxLength: sizes.length });
  const strides = allowOverlap ? fc.oneof(fc.constant(contiguous()), permuted, stepped, overlapping) : fc.oneof(fc.constant(contiguous()), permuted, stepped);
  return fc.tuple(strides, fc.integer({ min: 0, max: 3 })).map(([s, offset]) => ({ strides: s, offset }));
}

/** The window spec of a tensor with these sizes and dtype (values drawn for the whole base). */
export function arbSpec(sizes: number[], dtype: DtypeName, allowOverlap = true): fc.Arbitrary<WindowSpec> {
  return arbLayout(sizes, allowOverlap).chain(({ strides, offset }) => {
    let span = 1;
    sizes.forEach((s, i) => (span += s === 0 ? 0 : (s - 1) * strides[i]));
    const n = sizes.some((s) => s === 0) ? offset : offset + span;
    return fc.array(value(dtype), { minLength: n, maxLength: n }).map((base) => ({ base, dtype, sizes, strides, offset }));
  });
}

export const arbTensorSpec = (dtypes: DtypeName[], allowOverlap = true): fc.Arbitrary<WindowSpec> =>
  fc.tuple(arbShape(), fc.constantFrom(...dtypes)).chain(([sizes, dt]) => arbSpec(sizes, dt, allowOverlap));

/** Two specs whose shapes broadcast together: b's shape is a suffix of a's, with random dims set to 1. */
export const arbBroadcastPair = (dtypes: DtypeName[]): fc.Arbitrary<[WindowSpec, WindowSpec]> =>
  fc.tuple(arbShape(), fc.constantFrom(...dtypes), fc.constantFrom(...dtypes), fc.nat(4), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), fc.boolean())
    .chain(([shape, da, db, drop, ones, swap]) => {
      const tail = shape.slice(Math.min(drop, shape.length)).map((s, i) => (ones[i] ? 1 : s));
      const [sa, sb] = swap ? [tail, shape] : [shape, tail];
      return fc.tuple(arbSpec(sa, da), arbSpec(sb, db));
    });

export const build = (spec: WindowSpec, device = "cpu"): Tensor => buildWindow(spec, device);

/** The same number of runs everywhere, seeded by fast-check (a failure prints its seed and path to replay). */
export const runs = { numRuns: 60 };
