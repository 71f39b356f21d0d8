// Helpers the linalg family's kernels share: structured outputs (functional / in-place / out=),
// PyTorch's check texts, and the GEMM operand of a 2-D tensor.

import { RuntimeError } from "../../../c10/Errors.js";
import { typedView } from "../../../c10/ElementAccess.js";
import { isFloatingType, scalarTypeName, type dtype, ScalarType } from "../../../c10/ScalarType.js";
import { Tensor, type Scalar } from "../../core/Tensor.js";
import { empty_cpu, empty_meta } from "../EmptyTensor.js";
import { resize_output } from "../Resize.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import { copy_stub } from "../shape/CopyKernel.js";
import { expand_default } from "../../../generated/expand.js";
import type { StructuredMode } from "../BinaryOps.js";
import type { GemmOperand } from "./Gemm.js";

export type { StructuredMode };

export const list = (xs: readonly number[]): string => `[${xs.join(", ")}]`;
export const sameList = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);
export const sizesOf = (t: Tensor): number[] => [...t._impl.sizes()];

/** Meta tensors hold no data: a kernel stops once the output's shape and dtype are known. */
export const hasData = (t: Tensor): boolean => t._impl.storage.hasData();

/** A Scalar argument as a number (a binding may pass a 0-dim tensor or a bool). */
export function scalarValue(v: Scalar | Tensor): number {
  const s = v instanceof Tensor ? v.item() : v;
  return typeof s === "boolean" ? (s ? 1 : 0) : Number(s);
}

/** A fresh contiguous tensor on ref's device (at::empty through no dispatcher, as set_output does). */
export function emptyLike(ref: Tensor, sizes: readonly number[], dt: dtype): Tensor {
  return (ref.is_meta ? empty_meta : empty_cpu)(sizes, dt, null, ref.device, null, null);
}

/**
 * set_output_raw_strided of a structured kernel: a new tensor (functional), self after the in-place
 * size check, or out= after its dtype check and resize.
 */
export function structuredOutput(ref: Tensor, sizes: readonly number[], dt: dtype, out: Tensor | null, mode: StructuredMode, self?: Tensor): Tensor {
  if (mode === "functional" || (mode === "out" && out === null)) return emptyLike(ref, sizes, dt);
  if (mode === "inplace") {
    const s = self as Tensor;
    if (!sameList(s._impl.sizes(), sizes)) {
      throw new RuntimeError(`Bad in-place call: input tensor size ${list(s._impl.sizes())} and output tensor size ${list(sizes)} should match`);
    }
    return s;
  }
  const o = out as Tensor;
  if (o.dtype !== dt) {
    throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(dt.scalarType)}, but got ${typeMetaName(o.dtype.scalarType)} instead`);
  }
  resize_output(o, sizes);
  return o;
}

/** expand_size (ExpandUtils.h): self unchanged when it already has the sizes, else self.expand(sizes). */
export function expand_size(t: Tensor, sizes: readonly number[]): Tensor {
  return sameList(t._impl.sizes(), sizes) ? t : (expand_default.call(t, [...sizes], false) as Tensor);
}

/** Tensor::data_ptr<scalar_t>() on a tensor of another dtype. */
export function checkScalarType(expected: ScalarType, t: Tensor): void {
  if (t.dtype.scalarType !== expected) {
    throw new RuntimeError(`expected scalar type ${scalarTypeName(expected)} but found ${scalarTypeName(t.dtype.scalarType)}`);
  }
}

/** AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(kBFloat16, ...): every dtype but half and bool. */
export function checkAllTypesAndBFloat16(name: string, t: ScalarType): void {
  if (t === ScalarType.Half || t === ScalarType.Bool) throw new RuntimeError(`"${name}" not implemented for '${scalarTypeName(t)}'`);
}

/** dst.copy_(src) inside a kernel (no dispatcher call), src broadcast to dst's sizes. */
export function copyInto(dst: Tensor, src: Tensor): void {
  const s = sameList(src._impl.sizes(), dst._impl.sizes()) ? src : (expand_default.call(src, sizesOf(dst), false) as Tensor);
  copy_stub.call(dst.device.type, dst._impl, s._impl);
}

/** The GEMM operand of a 2-D tensor (rows, cols as its dims 0 and 1). */
export function operand(t: Tensor): GemmOperand {
  const st = t._impl.strides();
  return { data: typedView(t._impl.storage, t.dtype), offset: t._impl.storage_offset(), rs: st[0], cs: st[1] };
}

/** A 1-D tensor as an n x 1 column operand. */
export function columnOperand(t: Tensor): GemmOperand {
  return { data: typedView(t._impl.storage, t.dtype), offset: t._impl.storage_offset(), rs: t._impl.strides()[0], cs: 1 };
}

/** A 1-D tensor as a 1 x n row operand. */
export function rowOperand(t: Tensor): GemmOperand {
  return { data: typedView(t._impl.storage, t.dtype), offset: t._impl.storage_offset(), rs: 0, cs: t._impl.strides()[0] };
}

/** checkFloatingOrComplex (LinearAlgebraUtils.h). */
export function checkFloatingOrComplex(t: Tensor, fn: string, allowLowPrecision = true): void {
  const st = t.dtype.scalarType;
  if (!isFloatingType(st)) throw new RuntimeError(`${fn}: Expected a floating point or complex tensor as input. Got ${scalarTypeName(st)}`);
  if (!allowLowPrecision && (st === ScalarType.Half || st === ScalarType.BFloat16)) {
    throw new RuntimeError(`${fn}: Low precision dtypes not supported. Got ${scalarTypeName(st)}`);
  }
}
