// arange / linspace element values on CPU (aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp, PyTorch 1.13).
//
// PyTorch fills these with cpu_serial_kernel_vec: chunks of 2 vectors take a vectorized path
// (a base value, then base + j*step per lane), and the tail takes the scalar path. The AVX2 build
// rounds differently on the two paths (fma for the base, separate multiply and add in the lanes), so we
// model the vector width per dtype to give PyTorch's numbers bit for bit.

import { ScalarType } from "../../c10/ScalarType.js";
import { fma, fmaf } from "../../c10/util/FusedMultiplyAdd.js";
import { roundToScalarType } from "./ScalarArithmetic.js";
import type { TensorImpl } from "../../c10/TensorImpl.js";
import { typedView } from "../../c10/ElementAccess.js";
import { DispatchStub } from "../native/DispatchStub.js";
import { write_values_kernel } from "./FillKernel.js";

/** Lanes of a 256-bit Vectorized<scalar_t> (AVX2 build). */
function vectorLanes(t: ScalarType): number {
  switch (t) {
    case ScalarType.Double:
    case ScalarType.Long: return 4;
    case ScalarType.Float:
    case ScalarType.Int: return 8;
    case ScalarType.Short:
    case ScalarType.Half:
    case ScalarType.BFloat16: return 16;
    default: return 32; // int8, uint8
  }
}

const isFloatType = (t: ScalarType) =>
  t === ScalarType.Float || t === ScalarType.Double || t === ScalarType.Half || t === ScalarType.BFloat16;

/**
 * Runs PyTorch's vectorized-then-scalar loop: `scalarAt(i)` is the scalar lambda,
 * `lane(base, j)` the value of lane j of Vectorized::arange(base, step).
 */
function serialKernelVec(n: number, lanes: number, scalarAt: (i: number) => number, lane: (base: number, j: number) => number): Float64Array {
  const out = new Float64Array(n);
  let i = 0;
  // each step of the vectorized loop handles two whole vectors; what is left goes through the scalar lambda
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    for (const first of [i, i + lanes]) {
      const base = scalarAt(first);
      for (let j = 0; j < lanes; j++) out[first + j] = lane(base, j);
    }
  }
  for (; i < n; i++) out[i] = scalarAt(i);
  return out;
}

/** Where serialKernelVec's vector part ends: whole chunks of two vectors. */
const vectorEnd = (n: number, lanes: number) => Math.floor(n / (2 * lanes)) * 2 * lanes;

/**
 * arange for float32 / float64 written straight into the tensor's array (out[off .. off+size); a
 * Float32Array store rounds like static_cast<float>): the loop of serialKernelVec written out, no
 * closures per element. With integral start and step whose values stay below 2^52,
 * fma(step, i, start) is exact in double and plain arithmetic gives it.
 */
export function arange_float_into(
  t: ScalarType.Float | ScalarType.Double,
  start: number,
  step: number,
  size: number,
  out: Float32Array | Float64Array,
  off: number,
): void {
  const lanes = vectorLanes(t);
  const r = t === ScalarType.Float ? Math.fround : (x: number) => x;
  const exact = Number.isInteger(start) && Number.isInteger(step) && Math.abs(start) + Math.abs(step) * (size + 2 * lanes) <= 2 ** 52;
  const vend = vectorEnd(size, lanes);
  for (let f = 0; f < vend; f += lanes) {
    const base = r(exact ? step * f + start : fma(step, f, start));
    const o = off + f;
    if (exact) for (let j = 0; j < lanes; j++) out[o + j] = j * step + base;
    else for (let j = 0; j < lanes; j++) out[o + j] = fma(j, step, base);
  }
  for (let i = vend; i < size; i++) out[off + i] = exact ? step * i + start : fma(step, i, start);
}

function arange_float(t: ScalarType.Float | ScalarType.Double, start: number, step: number, size: number): Float64Array {
  const out = t === ScalarType.Float ? new Float32Array(size) : new Float64Array(size);
  arange_float_into(t, start, step, size, out, 0);
  return out instanceof Float64Array ? out : Float64Array.from(out);
}

/** arange: start + step * idx in the accumulate type (double for floating, int64 for integral), then cast. */
export function arange_kernel(t: ScalarType, start: number, step: number, size: number): Float64Array {
  if (t === ScalarType.Float || t === ScalarType.Double) return arange_float(t, start, step, size);
  const cast = (x: number) => (isFloatType(t) ? roundToScalarType(t, x) : Math.trunc(x));
  if (t === ScalarType.Half || t === ScalarType.BFloat16) {
    // the accumulate type of half and bfloat16 is float
    const [start32, step32] = [Math.fround(start), Math.fround(step)];
    return serialKernelVec(size, vectorLanes(t), (i) => cast(fmaf(step32, i, start32)), (base, j) => cast(fmaf(j, step32, base)));
  }
  return serialKernelVec(
    size,
    vectorLanes(t),
    (i) => cast(fma(step, i, start)),
    // Vectorized<T>::arange(T base, acc step): base + j*step computed in the accumulate type, then narrowed
    (base, j) => cast(fma(j, step, base)),
  );
}

/**
 * linspace: the first half counts up from start, the second half down from end, so both ends are exact.
 * step is computed in the dtype itself (double for integral dtypes).
 */
export function linspace_kernel(t: ScalarType, start: number, end: number, steps: number): Float64Array {
  const integral = !isFloatType(t);
  const round = (x: number) => (integral ? x : roundToScalarType(t, x));
  const s = integral ? Math.trunc(start) : round(start);
  const e = integral ? Math.trunc(end) : round(end);
  if (steps === 1) return Float64Array.of(s);
  const step = round(round(e - s) / (steps - 1));
  const halfway = Math.floor(steps / 2);
  const cast = (x: number) => (integral ? Math.trunc(x) : round(x));
  if (t === ScalarType.Half || t === ScalarType.BFloat16) {
    // c10::Half / c10::BFloat16 round after every operator
    const at = (i: number) => (i < halfway ? round(s + round(step * i)) : round(e - round(step * (steps - i - 1))));
    return serialKernelVec(steps, vectorLanes(t), at, (base, j) => round(base + round(j * step)));
  }
  if (t === ScalarType.Float || t === ScalarType.Double) return linspace_float(t, s, e, steps, step, halfway);
  const fmaT = fma; // integral dtypes: step in double
  const scalarAt = (idx: number) => cast(idx < halfway ? fmaT(step, idx, s) : fmaT(-step, steps - idx - 1, e));
  // lanes: j*step rounded, then added and rounded (no contraction here in PyTorch's build)
  return serialKernelVec(steps, vectorLanes(t), scalarAt, (base, j) => cast(round(base + round(j * step))));
}

/** linspace_kernel for float32 / float64 (s, e, step already in the dtype), serialKernelVec written out. */
function linspace_float(t: ScalarType.Float | ScalarType.Double, s: number, e: number, steps: number, step: number, halfway: number): Float64Array {
  const out = t === ScalarType.Float ? new Float32Array(steps) : new Float64Array(steps);
  linspace_float_fill(t, s, e, steps, step, halfway, out, 0);
  return out instanceof Float64Array ? out : Float64Array.from(out);
}

/** linspace for float32 / float64 straight into the tensor's array (out[off .. off+steps)). */
export function linspace_float_into(t: ScalarType.Float | ScalarType.Double, start: number, end: number, steps: number, out: Float32Array | Float64Array, off: number): void {
  const round = t === ScalarType.Float ? Math.fround : (x: number) => x;
  const s = round(start);
  const e = round(end);
  if (steps === 1) {
    out[off] = s;
    return;
  }
  const step = round(round(e - s) / (steps - 1));
  linspace_float_fill(t, s, e, steps, step, Math.floor(steps / 2), out, off);
}

function linspace_float_fill(
  t: ScalarType.Float | ScalarType.Double,
  s: number,
  e: number,
  steps: number,
  step: number,
  halfway: number,
  out: Float32Array | Float64Array,
  off: number,
): void {
  const lanes = vectorLanes(t);
  const float = t === ScalarType.Float;
  const scalarAt = float
    ? (idx: number) => (idx < halfway ? fmaf(step, idx, s) : fmaf(-step, steps - idx - 1, e))
    : (idx: number) => (idx < halfway ? fma(step, idx, s) : fma(-step, steps - idx - 1, e));
  const vend = vectorEnd(steps, lanes);
  for (let f = 0; f < vend; f += lanes) {
    const base = scalarAt(f);
    const o = off + f;
    // lanes: j*step rounded, then added and rounded (no contraction here in PyTorch's build)
    if (float) for (let j = 0; j < lanes; j++) out[o + j] = base + Math.fround(j * step);
    else for (let j = 0; j < lanes; j++) out[o + j] = base + j * step;
  }
  for (let i = vend; i < steps; i++) out[off + i] = scalarAt(i);
}

/**
 * logspace: base ** (the linspace exponent), with the exponent's step in double and pow in double
 * (RangeFactories.cpp logspace_out); integral dtypes take the base as float first.
 */
export function logspace_kernel(t: ScalarType, start: number, end: number, steps: number, base: number): Float64Array {
  const integral = !isFloatType(t);
  const s = integral ? Math.trunc(start) : roundToScalarType(t, start);
  const e = integral ? Math.trunc(end) : roundToScalarType(t, end);
  const b = integral ? Math.fround(base) : base;
  const step = (e - s) / (steps - 1);
  const halfway = Math.floor(steps / 2);
  const out = new Float64Array(steps);
  for (let i = 0; i < steps; i++) {
    const exponent = i < halfway ? fma(step, i, s) : fma(-step, steps - i - 1, e);
    const v = Math.pow(b, exponent);
    out[i] = integral ? Math.trunc(v) : roundToScalarType(t, v);
  }
  return out;
}

const REF = "aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp";

/** arange_stub: a fresh contiguous tensor of `size` elements gets start + i * step (arange_kernel's formula). */
export const arange_stub = new DispatchStub<(out: TensorImpl, start: number, step: number, size: number) => void>("arange_stub", REF);
arange_stub.register("ts", (out, start, step, size) => {
  const t = out.dtype.scalarType;
  if (t === ScalarType.Float || t === ScalarType.Double) {
    // the kernel writes the tensor's array directly
    arange_float_into(t, start, step, size, typedView(out.storage, out.dtype) as Float32Array | Float64Array, out.storage_offset());
  } else {
    write_values_kernel(out, arange_kernel(t, start, step, size));
  }
});

/** linspace_stub: a fresh contiguous tensor of `steps` (> 0) elements from start to end (linspace_kernel's formula). */
export const linspace_stub = new DispatchStub<(out: TensorImpl, start: number, end: number, steps: number) => void>("linspace_stub", REF);
linspace_stub.register("ts", (out, start, end, steps) => {
  const t = out.dtype.scalarType;
  if (t === ScalarType.Float || t === ScalarType.Double) {
    linspace_float_into(t, start, end, steps, typedView(out.storage, out.dtype) as Float32Array | Float64Array, out.storage_offset());
  } else {
    write_values_kernel(out, linspace_kernel(t, start, end, steps));
  }
});
