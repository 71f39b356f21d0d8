// torch.tensor(data) (torch/csrc/utils/tensor_new.cpp): infer sizes and dtype from nested arrays, then copy.
// JS has one number type: an integral number counts as a Python int, anything else as a Python float.

import { get_default_dtype } from "../c10/DefaultDtype.js";
import { RuntimeError, TypeError_, ValueError } from "../c10/Errors.js";
import { ScalarType, dtypeOf, float32, float64, int16, int32, int8, uint8, dtype } from "../c10/ScalarType.js";
import { promoteTypes } from "../c10/PromoteTypes.js";
import { empty_impl, wrap } from "./core/empty.js";
import { Tensor } from "./core/Tensor.js";
import { resolveOptions, pythonTypeName, type TensorOptions } from "./core/TensorOptions.js";
import { write_values_kernel } from "./cpu/FillKernel.js";
import { typedView } from "../c10/ElementAccess.js";
import { applyRequiresGrad } from "./TensorFactories.js";

export type TensorData = number | boolean | Tensor | ArrayLike<number> | readonly TensorData[];


/** A typed array is like a NumPy array: it brings its own dtype. */
function typedArrayDtype(a: unknown): dtype | undefined {
  if (a instanceof Float32Array) return float32;
  if (a instanceof Float64Array) return float64;
  if (a instanceof Int8Array) return int8;
  if (a instanceof Uint8Array) return uint8;
  if (a instanceof Int16Array) return int16;
  if (a instanceof Int32Array) return int32;
  return undefined;
}

function isSequence(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || typedArrayDtype(v) !== undefined;
}

/** compute_sizes: follow the first element down each level. */
function computeSizes(data: unknown): number[] {
  const sizes: number[] = [];
  let cur = data;
  while (isSequence(cur)) {
    sizes.push(cur.length);
    if (cur.length === 0) break;
    cur = cur[0];
  }
  if (cur instanceof Tensor) sizes.push(...cur.shape);
  return sizes;
}

/** infer_scalar_type: any float -> default dtype; ints -> int64; bools -> bool; typed arrays bring theirs. */
function inferScalarType(data: unknown): ScalarType {
  if (typeof data === "number") return Number.isInteger(data) ? ScalarType.Long : get_default_dtype().scalarType;
  if (typeof data === "boolean") return ScalarType.Bool;
  if (data instanceof Tensor) return data.dtype.scalarType;
  const typed = typedArrayDtype(data);
  if (typed) return typed.scalarType;
  if (Array.isArray(data)) {
    if (data.length === 0) return get_default_dtype().scalarType;
    let t: ScalarType | undefined;
    for (const item of data) {
      const it = inferScalarType(item);
      t = t === undefined ? it : promoteTypes(t, it);
      // once a float appears nothing can change the answer except a wider float, which promotion handles
    }
    return t!;
  }
  if (typeof data === "string") throw new TypeError_(`new(): invalid data type 'str'`, { op: "tensor" });
  throw new RuntimeError(`Could not infer dtype of ${pythonTypeName(data)}`, { op: "tensor" });
}

/** Flattens nested data in row-major order, checking every level has the length compute_sizes found. */
function flatten(data: unknown, sizes: readonly number[], dim: number, out: number[]): void {
  if (dim === sizes.length) {
    if (data instanceof Tensor) {
      for (const v of data.tolist() as unknown[]) flatten(v, sizes, dim, out);
      return;
    }
    if (typeof data === "number") out.push(data);
    else if (typeof data === "boolean") out.push(data ? 1 : 0);
    else if (isSequence(data)) throw new TypeError_("not a sequence", { op: "tensor" }); // deeper than the first element
    else inferScalarType(data); // raises the right error for strings, null, objects
    return;
  }
  if (data instanceof Tensor) {
    const list = data.tolist();
    return flatten(list, sizes, dim, out);
  }
  if (!isSequence(data)) throw new TypeError_("not a sequence", { op: "tensor" });
  if (data.length !== sizes[dim]) {
    throw new ValueError(`expected sequence of length ${sizes[dim]} at dim ${dim} (got ${data.length})`, { op: "tensor" });
  }
  for (let i = 0; i < data.length; i++) flatten(data[i], sizes, dim + 1, out);
}

const intRanges: Partial<Record<ScalarType, [number, number]>> = {
  // c10's overflow check for integral targets: unsigned types also accept negatives that wrap (-1 -> 255)
  [ScalarType.Byte]: [-(2 ** 8) + 1, 2 ** 8 - 1],
  [ScalarType.Char]: [-(2 ** 7), 2 ** 7 - 1],
  [ScalarType.Short]: [-(2 ** 15), 2 ** 15 - 1],
  [ScalarType.Int]: [-(2 ** 31), 2 ** 31 - 1],
  [ScalarType.Long]: [-(2 ** 63), 2 ** 63 - 1],
};

function checkIntRange(values: ArrayLike<number>, target: dtype, sourceIsInt: boolean): void {
  const range = intRanges[target.scalarType];
  if (!range || !sourceIsInt) return;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < range[0] || v > range[1]) {
      throw new RuntimeError(`value cannot be converted to type ${target.name} without overflow`, { op: "tensor" });
    }
  }
}

/**
 * The common case in one pass: nested plain arrays of numbers, every level as long as compute_sizes
 * found. Returns the row-major values and whether all are integral (int64, else the default dtype,
 * which is what infer_scalar_type gives for such data), or null for anything else (booleans,
 * tensors, typed arrays, ragged or empty levels, bad elements) — the general path then runs and
 * raises PyTorch's errors.
 */
function flattenNumbers(data: unknown, sizes: readonly number[]): { values: Float64Array; allInt: boolean } | null {
  const ndim = sizes.length;
  if (ndim === 0) return null;
  let numel = 1;
  for (const s of sizes) numel *= s;
  if (numel === 0) return null;
  const values = new Float64Array(numel);
  let pos = 0;
  let allInt = true;
  const last = sizes[ndim - 1];
  const walk = (d: unknown, dim: number): boolean => {
    if (!Array.isArray(d) || d.length !== sizes[dim]) return false;
    if (dim === ndim - 1) {
      for (let i = 0; i < last; i++) {
        const v = d[i];
        if (typeof v !== "number") return false;
        values[pos++] = v;
        if (allInt && !Number.isInteger(v)) allInt = false;
      }
      return true;
    }
    for (let i = 0; i < d.length; i++) if (!walk(d[i], dim + 1)) return false;
    return true;
  };
  return walk(data, 0) ? { values, allInt } : null;
}

/** Writes int64 values that are integral doubles into a contiguous BigInt64Array, as two int32 words each. */
function writeInt64(view: BigInt64Array, off: number, values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isSafeInteger(values[i])) return false; // else the general conversion
  const o32 = new Int32Array(view.buffer, view.byteOffset, view.length * 2);
  for (let i = 0, o = 2 * off; i < values.length; i++, o += 2) {
    const v = values[i];
    if ((v | 0) === v) {
      // an int32 value (the common case, and V8's fast store): sign-extended
      o32[o] = v;
      o32[o + 1] = v >> 31;
    } else {
      const hi = Math.floor(v / 2 ** 32);
      o32[o] = v - hi * 2 ** 32;
      o32[o + 1] = hi;
    }
  }
  return true;
}

export function tensor(data: TensorData, options?: TensorOptions): Tensor {
  const sizes = computeSizes(data);
  const fast = flattenNumbers(data, sizes);
  if (fast !== null) {
    const inferred = fast.allInt ? ScalarType.Long : get_default_dtype().scalarType;
    const o = resolveOptions("tensor", options, dtypeOf(inferred));
    checkIntRange(fast.values, o.dtype, fast.allInt);
    const impl = empty_impl(sizes, o.dtype, o.device);
    if (!(o.dtype.scalarType === ScalarType.Long && impl.storage.hasData() && writeInt64(typedView(impl.storage, impl.dtype) as BigInt64Array, impl.storage_offset(), fast.values))) {
      write_values_kernel(impl, fast.values);
    }
    return applyRequiresGrad(wrap(impl), o.requires_grad, "tensor");
  }
  const inferred = inferScalarType(data);
  const o = resolveOptions("tensor", options, dtypeOf(inferred));
  const flat: number[] = [];
  flatten(data, sizes, 0, flat);
  checkIntRange(flat, o.dtype, inferred === ScalarType.Long || inferred === ScalarType.Bool);
  const impl = empty_impl(sizes, o.dtype, o.device);
  write_values_kernel(impl, flat);
  return applyRequiresGrad(wrap(impl), o.requires_grad, "tensor");
}

