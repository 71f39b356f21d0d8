// How many bytes a (sizes, strides) window needs (aten/src/ATen/EmptyTensor.cpp computeStorageNbytes,
// c10/core/TensorImpl.h safe_compute_numel). PyTorch computes in uint64_t and reports overflow, so a
// negative size or stride (a huge number once cast) gives its "overflowed" error rather than a
// small wrong answer; BigInt reproduces that arithmetic exactly.

import { RuntimeError } from "../../../c10/Errors.js";

const U64 = (v: number | bigint) => BigInt.asUintN(64, BigInt(v));
const U64_MAX = 2n ** 64n - 1n;
const INT64_MAX = 2n ** 63n - 1n; // storage_max() and the numel limit: what fits both int64_t and size_t

const list = (xs: readonly number[]) => `[${xs.join(", ")}]`;

/** computeStorageNbytes(sizes, strides, itemsize, storage_offset): offset + 1 + sum((size-1)*stride) elements. */
export function computeStorageNbytes(sizes: readonly number[], strides: readonly number[], itemsize: number, storageOffset = 0): number {
  // every view (t(), transpose, expand, as_strided) checks its window here: with non-negative integer
  // operands whose byte total stays below 2^53 nothing can overflow and doubles are exact, so the
  // uint64 arithmetic below is needed only for the rest (negative, huge or fractional operands)
  if (storageOffset >= 0 && Number.isSafeInteger(storageOffset) && Number.isSafeInteger(itemsize) && itemsize >= 1) {
    let n = storageOffset + 1;
    let exact = true;
    for (let i = 0; i < sizes.length && exact; i++) {
      const sz = sizes[i], st = strides[i];
      if (sz === 0 && Number.isSafeInteger(st)) return 0;
      exact = Number.isSafeInteger(sz) && Number.isSafeInteger(st) && sz > 0 && st >= 0;
      if (exact) n += st * (sz - 1);
    }
    if (exact && n * itemsize <= Number.MAX_SAFE_INTEGER) return n * itemsize;
  }
  let size = U64(storageOffset) + 1n;
  let overflowed = size > U64_MAX;
  size = BigInt.asUintN(64, size);
  for (let i = 0; i < sizes.length; i++) {
    if (sizes[i] === 0) return 0;
    const strided = U64(strides[i]) * U64(sizes[i] - 1);
    overflowed ||= strided > U64_MAX;
    size += BigInt.asUintN(64, strided);
    overflowed ||= size > U64_MAX;
    size = BigInt.asUintN(64, size);
  }
  size *= BigInt(itemsize);
  overflowed ||= size > U64_MAX;
  size = BigInt.asUintN(64, size);
  overflowed ||= size > INT64_MAX;
  if (overflowed) throw new RuntimeError(`Storage size calculation overflowed with sizes=${list(sizes)} and strides=${list(strides)}`);
  return Number(size);
}

/** The SymInt overload the Meta kernels use: plain signed arithmetic, no overflow check. */
export function computeStorageNbytesSymbolic(sizes: readonly number[], strides: readonly number[], itemsize: number, storageOffset = 0): number {
  let size = 1;
  for (let i = 0; i < sizes.length; i++) {
    if (sizes[i] === 0) return 0;
    size += strides[i] * (sizes[i] - 1);
  }
  return itemsize * (storageOffset + size);
}

/** safe_compute_numel: the product of the sizes as uint64_t; a negative size overflows it. */
export function checkNumel(sizes: readonly number[]): void {
  let n = 1n;
  let overflows = false;
  for (const s of sizes) {
    n *= U64(s);
    overflows ||= n > U64_MAX;
    n = BigInt.asUintN(64, n);
  }
  if (overflows || n > INT64_MAX) throw new RuntimeError("numel: integer multiplication overflow");
}
