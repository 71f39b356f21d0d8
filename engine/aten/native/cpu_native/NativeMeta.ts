// The meta arrays the native walks read (Pointwise.cc make_plan, Ops2.cc, AdvancedIndex.cc):
// [ndim, shape..., then per operand: storage offset, strides...], in elements, one Float64Array per
// length reused from call to call (filled right before the addon call that reads it).
import type { TensorImpl } from "../../../c10/TensorImpl.js";

const metaCache = new Map<number, Float64Array>();
/** The reused meta array of length n. */
export function metaArray(n: number): Float64Array {
  let m = metaCache.get(n);
  if (!m) metaCache.set(n, (m = new Float64Array(n)));
  return m;
}

/** Strides of impl seen in `shape` (right-aligned): 0 along the dims it is broadcast over. */
export function broadcastStrides(impl: TensorImpl, shape: readonly number[], into: Float64Array, at: number): void {
  const sizes = impl.sizes(), strides = impl.strides();
  const lead = shape.length - sizes.length;
  for (let d = 0; d < shape.length; d++) {
    const i = d - lead;
    into[at + d] = i < 0 || (sizes[i] === 1 && shape[d] !== 1) ? 0 : strides[i];
  }
}

/** The meta of a walk over `shape`: the shape, then each operand's offset and strides broadcast to it. */
export function walkMeta(shape: readonly number[], operands: readonly TensorImpl[]): Float64Array {
  const nd = shape.length;
  const meta = metaArray(1 + nd + operands.length * (1 + nd));
  meta[0] = nd;
  for (let d = 0; d < nd; d++) meta[1 + d] = shape[d];
  operands.forEach((t, k) => {
    const at = 1 + nd + k * (1 + nd);
    meta[at] = t.storage_offset();
    broadcastStrides(t, shape, meta, at + 1);
  });
  return meta;
}
