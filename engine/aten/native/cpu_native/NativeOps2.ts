// The second batch of common native ops (issue #8 item 4; native/cpu/Ops2.cc), registered into the
// DispatchStubs they cover. A kernel returns false for what it does not cover and the TypeScript
// kernel runs (the trace says which one did).
//
// Covered:
//   where_kernel: every dtype (the elements are copied as bits), any layout (strided, broadcast);
//     operands other than 0-d ones must be in the result dtype (0-d ones are converted as the TS kernel
//     converts them); a bool or uint8 condition; an out= sharing storage with an input declines
//   masked_fill_stub: every dtype, any layout of self without internal overlap; a bool mask (the
//     deprecated uint8 mask, which the TS kernel checks for values > 1, stays in TypeScript)
//   cumsum_stub / cumprod_stub: float32 -> float32/float64, float64 -> float64 (accumulated in double),
//     uint8/int8/int16/int32/int64/bool -> int64 (int64 wrapping); any strides, in place included
//   arange_stub: float32/float64; int32/int64 while every value is an integer below 2^53 (int32: fits)
//   linspace_stub: float32 (steps <= 2^24) and float64
//   triu_tril_stub (tril, triu): every dtype, any strides, in place; an out= sharing self's storage in
//     another layout declines (the TS kernel reads everything first)
//   take_stub: every dtype (copied as bits), any self layout, an int64 index; every index is checked
//     before a write (one out of range: the TS kernel raises PyTorch's error at it)
//   masked_select_serial_stub: every dtype, the broadcast self and bool/uint8 mask walked in row-major
//     order on one thread (the count comes from mask.sum(), as PyTorch takes it)
//   index_fill_stub: every dtype, any strides, an int64 index (negative from the end), checked first
// float16/bfloat16 arithmetic (cumsum, arange, linspace) stays in TypeScript.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, readNumber, toRaw, type TypedView } from "../../../c10/ElementAccess.js";
import type { TensorImpl } from "../../../c10/TensorImpl.js";
import type { Scalar, Tensor } from "../../core/Tensor.js";
import type { TensorIterator } from "../TensorIterator.js";
import { where_kernel } from "../join/Where.js";
import { masked_fill_stub, index_fill_stub } from "../index/Fill.js";
import { take_stub } from "../index/Take.js";
import { masked_select_stub } from "../index/MaskedSelect.js";
import { cumsum_stub, cumprod_stub } from "../reduce3/Scans.js";
import { arange_stub, linspace_stub } from "../../cpu/RangeFactoriesKernel.js";
import { triu_tril_stub } from "../join/Triangular.js";
import { metaArray, broadcastStrides, walkMeta } from "./NativeMeta.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";

const { Byte, Char, Short, Int, Long, Float, Double, Bool } = ScalarType;

/**
 * No two elements of impl share memory (sufficient test: the dims of size > 1 sorted by stride, each
 * stride steps over the whole extent of the smaller ones), so threads writing disjoint elements never race.
 */
function nonOverlapping(impl: TensorImpl): boolean {
  const sizes = impl.sizes(), strides = impl.strides();
  const dims: [number, number][] = [];
  for (let d = 0; d < sizes.length; d++) if (sizes[d] > 1) dims.push([Math.abs(strides[d]), sizes[d]]);
  dims.sort((x, y) => x[0] - y[0]);
  let extent = 1;
  for (const [st, n] of dims) {
    if (st < extent) return false;
    extent += st * (n - 1);
  }
  return true;
}

/** An empty typed array of the kind that holds dtype `t`'s elements (Uint16Array for float16, ...). */
function oneOf(view: TypedView): TypedView {
  return new (view.constructor as new (n: number) => TypedView)(1);
}

/** where's 0-d operand of another dtype as one element of rt, read and converted as the TS kernel does. */
function whereScalar(impl: TensorImpl, rt: ScalarType, like: TypedView): TypedView {
  const view = typedView(impl.storage, impl.dtype);
  const st = impl.dtype.scalarType;
  const off = impl.storage_offset();
  const long = rt === Long;
  let v: number | bigint;
  if (st === Long) v = long ? (view[off] as bigint) : Number(view[off] as bigint);
  else {
    const x = readNumber(view, st, off);
    v = long ? BigInt(x) : x;
  }
  const one = oneOf(like);
  (one as unknown as (number | bigint)[])[0] = typeof v === "bigint" ? v : toRaw(rt, v);
  return one;
}

function where(addon: NativeAddon, iter: TensorIterator, rt: ScalarType): boolean {
  const out = iter.output._impl;
  if (iter.numel() < nativeSizePolicy.minNumel || out.dtype.scalarType !== rt || iter.inputs.length !== 3) return false;
  const [cond, a, b] = iter.inputs.map((t) => t._impl);
  const ct = cond.dtype.scalarType;
  if (ct !== Bool && ct !== Byte) return false;
  if (cond.storage === out.storage || a.storage === out.storage || b.storage === out.storage || !nonOverlapping(out)) return false;
  const shape = iter.shape;
  const nd = shape.length;
  const meta = metaArray(1 + nd + 4 * (1 + nd));
  meta[0] = nd;
  for (let d = 0; d < nd; d++) meta[1 + d] = shape[d];
  const outView = typedView(out.storage, out.dtype);
  const arrays: TypedView[] = [];
  let at = 1 + nd;
  for (const [k, t] of [out, cond, a, b].entries()) {
    if (k < 2 || t.dtype.scalarType === rt) {
      arrays.push(k === 0 ? outView : typedView(t.storage, t.dtype));
      meta[at] = t.storage_offset();
      broadcastStrides(t, shape, meta, at + 1);
    } else if (t.dim() === 0) {
      arrays.push(whereScalar(t, rt, outView));
      meta[at] = 0;
      meta.fill(0, at + 1, at + 1 + nd);
    } else {
      return false;
    }
    at += 1 + nd;
  }
  return addon.ops2_where(meta, arrays[0], arrays[1], arrays[2], arrays[3]);
}

function maskedFill(addon: NativeAddon, self: Tensor, mask: Tensor, value: Scalar): boolean {
  const s = self._impl, m = mask._impl;
  if (m.dtype.scalarType !== Bool || s.numel() < nativeSizePolicy.minNumel || !nonOverlapping(s)) return false;
  const view = typedView(s.storage, s.dtype);
  const v = oneOf(view);
  // the TS kernel's conversion (index/common.ts elements().set)
  (v as unknown as (number | bigint)[])[0] = s.dtype.scalarType === Long ? BigInt(Math.trunc(Number(value))) : toRaw(s.dtype.scalarType, Number(value));
  return addon.ops2_masked_fill(walkMeta(s.sizes(), [s, m]), view, typedView(m.storage, m.dtype), v);
}

const INTEGRAL_IN = new Set<ScalarType>([Byte, Char, Short, Int, Long, Bool]);

function cum(addon: NativeAddon, isSum: boolean, result: Tensor, self: Tensor, dim: number): boolean {
  const r = result._impl, x = self._impl;
  const it = x.dtype.scalarType, ot = r.dtype.scalarType;
  const ok = (it === Float && (ot === Float || ot === Double)) || (it === Double && ot === Double) || (INTEGRAL_IN.has(it) && ot === Long);
  const nd = x.dim();
  if (!ok || nd === 0 || x.numel() < nativeSizePolicy.minNumel || !nonOverlapping(r)) return false;
  const sizes = x.sizes(), xs = x.strides(), rs = r.strides();
  if (r.dim() !== nd || r.sizes().some((s, d) => s !== sizes[d])) return false;
  // in place (or aliased): only with the same layout, where each element is read before it is written
  if (r.storage === x.storage && (r.storage_offset() !== x.storage_offset() || it !== ot || sizes.some((s, d) => s > 1 && xs[d] !== rs[d]))) return false;
  const meta = metaArray(1 + nd + 2 * (1 + nd) + 1);
  meta[0] = nd;
  for (let d = 0; d < nd; d++) meta[1 + d] = sizes[d];
  meta[1 + nd] = x.storage_offset();
  for (let d = 0; d < nd; d++) meta[2 + nd + d] = xs[d];
  meta[2 + 2 * nd] = r.storage_offset();
  for (let d = 0; d < nd; d++) meta[3 + 2 * nd + d] = rs[d];
  meta[3 + 3 * nd] = dim;
  return addon.ops2_cum(isSum, it, ot, meta, typedView(x.storage, x.dtype), typedView(r.storage, r.dtype));
}

/** [ndim, sizes..., offset, strides...] of a window (strides in elements). */
function windowMeta(sizes: readonly number[], strides: readonly number[], offset: number): Float64Array {
  const nd = sizes.length;
  const meta = new Float64Array(2 + 2 * nd);
  meta[0] = nd;
  sizes.forEach((n, d) => (meta[1 + d] = n));
  meta[1 + nd] = offset;
  strides.forEach((st, d) => (meta[2 + nd + d] = st));
  return meta;
}

/** take: out[k] = self.flatten()[index[k]] (elements copied as bits); the addon checks every index first. */
function take(addon: NativeAddon, out: Tensor, self: Tensor, index: Tensor): boolean {
  const o = out._impl, x = self._impl, ix = index._impl;
  if (ix.numel() < nativeSizePolicy.minNumel || ix.dtype.scalarType !== Long || !nonOverlapping(o)) return false;
  return addon.ops2_take(walkMeta(ix.sizes(), [o, ix]), typedView(o.storage, o.dtype), typedView(ix.storage, ix.dtype), typedView(x.storage, x.dtype),
    windowMeta(x.sizes(), x.strides(), x.storage_offset()));
}

/** masked_select's serial kernel over the broadcast self and mask, into result (its length already the count). */
function maskedSelect(addon: NativeAddon, result: Tensor, self: Tensor, mask: Tensor): boolean {
  const r = result._impl, x = self._impl, m = mask._impl;
  if (x.numel() < nativeSizePolicy.minNumel || m.dtype.itemsize !== 1) return false;
  return addon.ops2_masked_select(walkMeta(x.sizes(), [x, m]), typedView(r.storage, r.dtype), r.storage_offset(), r.strides()[0],
    typedView(x.storage, x.dtype), typedView(m.storage, m.dtype));
}

/** index_fill_: each slice self.select(dim, index[i]) becomes value (converted as the TS kernel converts it). */
function indexFill(addon: NativeAddon, self: Tensor, dim: number, index: Tensor, value: Scalar): boolean {
  const s = self._impl, ix = index._impl;
  if (s.numel() < nativeSizePolicy.minNumel || ix.dtype.scalarType !== Long) return false;
  const view = typedView(s.storage, s.dtype);
  const v = oneOf(view);
  (v as unknown as (number | bigint)[])[0] = s.dtype.scalarType === Long ? BigInt(Math.trunc(Number(value))) : toRaw(s.dtype.scalarType, Number(value));
  const keep = (_: number, d: number) => d !== dim;
  const meta = windowMeta(s.sizes().filter(keep), s.strides().filter(keep), s.storage_offset());
  return addon.ops2_index_fill(meta, view, typedView(ix.storage, ix.dtype), ix.storage_offset(), ix.dim() === 0 ? 0 : ix.strides()[0], ix.numel(),
    s.sizes()[dim], s.strides()[dim], v);
}

export function registerOps2Kernels(addon: NativeAddon): void {
  if (typeof addon.ops2_where !== "function") return;
  take_stub.register("native", (out, self, index) => take(addon, out, self, index));
  masked_select_stub.register("native", (result, self, mask) => maskedSelect(addon, result, self, mask));
  index_fill_stub.register("native", (self, dim, index, value) => indexFill(addon, self, dim, index, value));
  where_kernel.register("native", (iter, rt) => where(addon, iter, rt));
  masked_fill_stub.register("native", (self, mask, value) => maskedFill(addon, self, mask, value));
  triu_tril_stub.register("native", (result, self, k, upper) => {
    const r = result._impl, x = self._impl, nd = x.dim();
    if (x.numel() < nativeSizePolicy.minNumel || r.dtype.scalarType !== x.dtype.scalarType || typeof addon.ops2_triangular !== "function") return false;
    const inPlace = r.storage === x.storage && r.storage_offset() === x.storage_offset() && r.strides().every((v, d) => v === x.strides()[d]);
    if (r.storage === x.storage && !inPlace) return false;
    if (!nonOverlapping(r)) return false;
    const meta = new Float64Array(1 + nd + 2 * (1 + nd));
    meta[0] = nd;
    const sizes = x.sizes();
    for (let d = 0; d < nd; d++) meta[1 + d] = sizes[d];
    let at = 1 + nd;
    for (const t of [r, x]) {
      meta[at] = t.storage_offset();
      const st = t.strides();
      for (let d = 0; d < nd; d++) meta[at + 1 + d] = st[d];
      at += 1 + nd;
    }
    return addon.ops2_triangular(upper, k, meta, typedView(r.storage, r.dtype), typedView(x.storage, x.dtype));
  });
  cumsum_stub.register("native", (result, self, dim) => cum(addon, true, result, self, dim));
  cumprod_stub.register("native", (result, self, dim) => cum(addon, false, result, self, dim));
  arange_stub.register("native", (out, start, step, size) => {
    const t = out.dtype.scalarType;
    if ((t !== Float && t !== Double && t !== Int && t !== Long) || size < nativeSizePolicy.minNumel) return false;
    return addon.ops2_arange(t, typedView(out.storage, out.dtype), out.storage_offset(), size, start, step);
  });
  linspace_stub.register("native", (out, start, end, steps) => {
    const t = out.dtype.scalarType;
    if ((t !== Float && t !== Double) || steps < nativeSizePolicy.minNumel) return false;
    return addon.ops2_linspace(t, typedView(out.storage, out.dtype), out.storage_offset(), steps, start, end);
  });
}
