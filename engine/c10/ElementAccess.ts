// Reading and writing single elements of a Storage through a dtype, with C++'s static_cast rules.
// Kernels in TypeScript use these; they are the reference, so they favour clarity over speed.

import { ScalarType, type dtype } from "./ScalarType.js";
import { bfloat16BitsFromNumber, bfloat16BitsToNumber, halfBitsFromNumber, halfBitsToNumber } from "./util/Half.js";
import type { Storage } from "./Storage.js";
import type { TensorImpl } from "./TensorImpl.js";

export type TypedView =
  | Float32Array | Float64Array | Uint16Array | Int8Array | Uint8Array | Int16Array | Int32Array | BigInt64Array;

/** The storage's bytes seen as an array of `dt` elements (float16/bfloat16 as their uint16 bits). */
export function typedView(storage: Storage, dt: dtype): TypedView {
  // one cached view per storage (the common case: a storage read as one dtype); rebuilt if read
  // otherwise. Storage drops the cache whenever its memory changes (resize, release).
  const cached = storage.viewCache;
  if (cached !== null && cached.type === dt.scalarType) return cached.view;
  const buffer = storage.buffer();
  const view = makeView(buffer, dt.scalarType, Math.floor(buffer.byteLength / dt.itemsize));
  storage.viewCache = { type: dt.scalarType, view };
  return view;
}

/**
 * A typed array of n elements of `t` that owns its memory (`new Float32Array(n)`): V8 keeps one of up
 * to 64 bytes inside the object itself, on the JavaScript heap, with no separately allocated backing
 * store (an `ArrayBuffer` is always a malloc'd block, registered, and swept: ~300 ns of a 1-element
 * op's ~1.3 µs). Reading `.buffer` moves it off the heap, as an ArrayBuffer.
 */
export function makeHeapView(t: ScalarType, n: number): TypedView | null {
  switch (t) {
    case ScalarType.Float: return new Float32Array(n);
    case ScalarType.Double: return new Float64Array(n);
    case ScalarType.Half:
    case ScalarType.BFloat16: return new Uint16Array(n);
    case ScalarType.Char: return new Int8Array(n);
    case ScalarType.Byte:
    case ScalarType.Bool: return new Uint8Array(n);
    case ScalarType.Short: return new Int16Array(n);
    case ScalarType.Int: return new Int32Array(n);
    case ScalarType.Long: return new BigInt64Array(n);
    default: return null;
  }
}

function makeView(buffer: ArrayBuffer, t: ScalarType, n: number): TypedView {
  switch (t) {
    case ScalarType.Float: return new Float32Array(buffer, 0, n);
    case ScalarType.Double: return new Float64Array(buffer, 0, n);
    case ScalarType.Half:
    case ScalarType.BFloat16: return new Uint16Array(buffer, 0, n);
    case ScalarType.Char: return new Int8Array(buffer, 0, n);
    case ScalarType.Byte:
    case ScalarType.Bool: return new Uint8Array(buffer, 0, n);
    case ScalarType.Short: return new Int16Array(buffer, 0, n);
    case ScalarType.Int: return new Int32Array(buffer, 0, n);
    case ScalarType.Long: return new BigInt64Array(buffer, 0, n);
    default: throw new Error(`no storage view for ${ScalarType[t]}`);
  }
}

const INT64_MIN = -(2n ** 63n);

/** The value a C++ static_cast<T>(double) stores, as the raw element (bits for half/bfloat16). */
export function toRaw(t: ScalarType, value: number): number | bigint {
  switch (t) {
    case ScalarType.Float:
    case ScalarType.Double: return value;
    case ScalarType.Half: return halfBitsFromNumber(value);
    case ScalarType.BFloat16: return bfloat16BitsFromNumber(value);
    case ScalarType.Bool: return value !== 0 ? 1 : 0; // NaN != 0 is true in C++, so NaN -> True
    case ScalarType.Long:
      // x86's cvttsd2si gives INT64_MIN for NaN and out-of-range values
      if (!Number.isFinite(value) || Math.abs(value) >= 2 ** 63) return INT64_MIN;
      return BigInt(Math.trunc(value));
    default:
      // int8/uint8/int16/int32: truncate toward zero, then wrap like the typed array (two's complement)
      return Number.isFinite(value) ? Math.trunc(value) : 0;
  }
}

/** Raw element -> JS value: number for numeric dtypes, boolean for bool. */
export function fromRaw(t: ScalarType, raw: number | bigint): number | boolean {
  switch (t) {
    case ScalarType.Half: return halfBitsToNumber(raw as number);
    case ScalarType.BFloat16: return bfloat16BitsToNumber(raw as number);
    case ScalarType.Bool: return raw !== 0;
    case ScalarType.Long: return Number(raw);
    default: return raw as number;
  }
}

/** The number a stored element reads back as (bool as 0/1). */
export function readNumber(view: TypedView, t: ScalarType, index: number): number {
  const raw = view[index];
  switch (t) {
    case ScalarType.Half: return halfBitsToNumber(raw as number);
    case ScalarType.BFloat16: return bfloat16BitsToNumber(raw as number);
    case ScalarType.Long: return Number(raw);
    default: return raw as number;
  }
}

export function writeNumber(view: TypedView, t: ScalarType, index: number, value: number): void {
  (view as unknown as (number | bigint)[])[index] = toRaw(t, value);
}

/** Storage element index of each logical (row-major) element, in row-major order. */
export function forEachOffset(impl: TensorImpl, fn: (offset: number, flatIndex: number) => void): void {
  const sizes = impl.sizes();
  const strides = impl.strides();
  const n = impl.numel();
  const dims = sizes.length;
  if (n === 0) return;
  const base = impl.storage_offset();
  if (impl.is_contiguous()) {
    for (let i = 0; i < n; i++) fn(base + i, i);
    return;
  }
  const counter = new Array<number>(dims).fill(0);
  let offset = base;
  for (let i = 0; i < n; i++) {
    fn(offset, i);
    // advance the odometer from the last dim
    for (let d = dims - 1; d >= 0; d--) {
      counter[d]++;
      offset += strides[d];
      if (counter[d] < sizes[d]) break;
      offset -= strides[d] * sizes[d];
      counter[d] = 0;
    }
  }
}

/** Storage element index of the logical element at a row-major flat index. */
export function offsetOf(impl: TensorImpl, flatIndex: number): number {
  const sizes = impl.sizes();
  const strides = impl.strides();
  let offset = impl.storage_offset();
  for (let d = sizes.length - 1; d >= 0; d--) {
    const size = sizes[d];
    const i = flatIndex % size;
    flatIndex = (flatIndex - i) / size;
    offset += i * strides[d];
  }
  return offset;
}

/** Calls fn with each multi-index of `sizes` in row-major order (one array, updated in place: read it, don't keep it). */
export function forEachIndex(sizes: readonly number[], fn: (idx: readonly number[]) => void): void {
  let n = 1;
  for (const s of sizes) n *= s;
  if (n === 0) return;
  const idx = new Array<number>(sizes.length).fill(0);
  for (let k = 0; k < n; k++) {
    fn(idx);
    for (let d = sizes.length - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}
