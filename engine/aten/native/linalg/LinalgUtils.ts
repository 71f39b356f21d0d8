// Shared pieces of the torch.linalg kernels (aten/src/ATen/native/LinearAlgebraUtils.h,
// BatchLinearAlgebra.cpp): input checks with PyTorch's texts, the batched column-major (Fortran)
// strides LAPACK outputs have, matrices read into / written from float64 work arrays (column-major,
// element (i, j) at i + j * rows), and _linalg_check_errors, which turns LAPACK's `info` into errors.

import { LinAlgError, RuntimeError } from "../../../c10/Errors.js";
import { typedView, readNumber, writeNumber } from "../../../c10/ElementAccess.js";
import { ScalarType, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import { emptyLike, hasData, type StructuredMode } from "./common.js";

export function checkIsMatrix(A: Tensor, fn: string, arg = "A"): void {
  if (A.dim() < 2) throw new RuntimeError(`${fn}: The input tensor ${arg} must have at least 2 dimensions.`);
}

export function squareCheckInputs(A: Tensor, fn: string, arg = "A"): void {
  checkIsMatrix(A, fn, arg);
  if (A.size(-1) !== A.size(-2)) {
    throw new RuntimeError(`${fn}: ${arg} must be batches of square matrices, but they are ${A.size(-2)} by ${A.size(-1)} matrices`);
  }
}

/** AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES in the LAPACK stubs ("lu_cpu", "cholesky_cpu", ...). */
export function checkLapackDtype(name: string, t: ScalarType): void {
  if (t !== ScalarType.Float && t !== ScalarType.Double) throw new RuntimeError(`"${name}" not implemented for '${scalarTypeName(t)}'`);
}

/** c10::contiguous_strides, with the last two dims made column-major when fContig. */
export function batched_matrix_contiguous_strides(sizes: readonly number[], fContig = false): number[] {
  const strides = new Array<number>(sizes.length);
  let acc = 1;
  for (let i = sizes.length - 1; i >= 0; i--) {
    strides[i] = acc;
    acc *= Math.max(sizes[i], 1);
  }
  const d = sizes.length;
  if (fContig && d >= 2) {
    strides[d - 1] = Math.max(sizes[d - 2], 1);
    strides[d - 2] = 1;
  }
  return strides;
}

/**
 * set_output_strided of a structured kernel: a new tensor with these strides (functional), or out=
 * after its dtype check and resize (a resized out takes the strides; one of the right size is
 * written through its own strides, which is what PyTorch's proxy-and-copy amounts to).
 */
export function stridedOutput(ref: Tensor, sizes: readonly number[], strides: readonly number[], dt: dtype, out: Tensor | null, mode: StructuredMode): Tensor {
  if (mode === "functional" || out === null) {
    const t = emptyLike(ref, sizes, dt);
    t._impl.set_sizes_and_strides(sizes, strides);
    return t;
  }
  if (out.dtype !== dt) {
    throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(dt.scalarType)}, but got ${typeMetaName(out.dtype.scalarType)} instead`);
  }
  if (resize_output(out, sizes)) out._impl.set_sizes_and_strides(sizes, strides);
  return out;
}

/** Storage offsets of each matrix of a batch (the last two dims), batch in row-major order. */
export function matrixOffsets(t: Tensor): number[] {
  const sizes = t._impl.sizes(), strides = t._impl.strides();
  const nb = sizes.length - 2;
  const offsets: number[] = [];
  const idx = new Array<number>(Math.max(nb, 0)).fill(0);
  const count = sizes.slice(0, nb).reduce((a, b) => a * b, 1);
  for (let c = 0; c < count; c++) {
    offsets.push(idx.reduce((o, v, d) => o + v * strides[d], t._impl.storage_offset()));
    for (let d = nb - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return offsets;
}

/** Every matrix of t as a column-major float64 array. */
export function readMatrices(t: Tensor): Float64Array[] {
  const view = typedView(t._impl.storage, t.dtype), st = t.dtype.scalarType;
  const d = t.dim(), rows = t.size(d - 2), cols = t.size(d - 1);
  const rs = t._impl.strides()[d - 2], cs = t._impl.strides()[d - 1];
  return matrixOffsets(t).map((base) => {
    const m = new Float64Array(rows * cols);
    for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) m[i + j * rows] = readNumber(view, st, base + i * rs + j * cs);
    return m;
  });
}

/** Writes column-major matrices (rows x cols each) into t's matrices, rounding to t's dtype. */
export function writeMatrices(t: Tensor, mats: readonly Float64Array[]): void {
  const view = typedView(t._impl.storage, t.dtype), st = t.dtype.scalarType;
  const d = t.dim(), rows = t.size(d - 2), cols = t.size(d - 1);
  const rs = t._impl.strides()[d - 2], cs = t._impl.strides()[d - 1];
  matrixOffsets(t).forEach((base, b) => {
    const m = mats[b];
    for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) writeNumber(view, st, base + i * rs + j * cs, m[i + j * rows]);
  });
}

/** Writes one value per element of a contiguous tensor (info, pivots, det, S...), in order. */
export function writeFlat(t: Tensor, values: ArrayLike<number>): void {
  const view = typedView(t._impl.storage, t.dtype), st = t.dtype.scalarType;
  const sizes = t._impl.sizes(), strides = t._impl.strides();
  const idx = new Array<number>(sizes.length).fill(0);
  for (let k = 0; k < values.length; k++) {
    writeNumber(view, st, idx.reduce((o, v, d) => o + v * strides[d], t._impl.storage_offset()), values[k]);
    for (let d = sizes.length - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}

export function readFlat(t: Tensor): number[] {
  const view = typedView(t._impl.storage, t.dtype), st = t.dtype.scalarType;
  const sizes = t._impl.sizes(), strides = t._impl.strides();
  const n = t.numel(), out: number[] = [];
  const idx = new Array<number>(sizes.length).fill(0);
  for (let k = 0; k < n; k++) {
    out.push(readNumber(view, st, idx.reduce((o, v, d) => o + v * strides[d], t._impl.storage_offset())));
    for (let d = sizes.length - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

/** _linalg_check_errors (CompositeExplicitAutograd): the first non-zero info as PyTorch's error. */
export function _linalg_check_errors(info: Tensor, apiName: string, isMatrix: boolean): void {
  if (!hasData(info)) return;
  const infos = readFlat(info);
  const at = infos.findIndex((x) => x !== 0);
  if (at < 0) return;
  const code = infos[at];
  const batch = isMatrix ? "" : `: (Batch element ${at})`;
  const where = `${apiName}${batch}`;
  if (code < 0) {
    if (apiName.includes("svd") && code === -4) {
      throw new LinAlgError(`${where}: The algorithm failed to converge because the input matrix contained non-finite values.`);
    }
    throw new RuntimeError(`${where}: Argument ${-code} has illegal value. Most certainly there is a bug in the implementation calling the backend library.`);
  }
  if (apiName.includes("inv")) {
    throw new LinAlgError(`${where}: The diagonal element ${code} is zero, the inversion could not be completed because the input matrix is singular.`);
  }
  if (apiName.includes("solve")) throw new LinAlgError(`${where}: The solver failed because the input matrix is singular.`);
  if (apiName.includes("cholesky")) {
    throw new LinAlgError(
      `${where}: The factorization could not be completed because the input is not positive-definite (the leading minor of order ${code} is not positive-definite).`,
    );
  }
  if (apiName.includes("svd")) {
    throw new LinAlgError(`${where}: The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated singular values (error code: ${code}).`);
  }
  if (apiName.includes("lu_factor")) {
    throw new RuntimeError(
      `${where}: U[${code},${code}] is zero and using it on lu_solve would result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)`,
    );
  }
  throw new RuntimeError(`${apiName}: Unknown error code: ${code}.`);
}

/** torch.return_types.*: an array that also carries its fields by name. */
export function namedTuple<T extends Tensor[]>(values: T, names: readonly string[]): T {
  names.forEach((n, i) => Object.defineProperty(values, n, { value: values[i], enumerable: false }));
  return values;
}
