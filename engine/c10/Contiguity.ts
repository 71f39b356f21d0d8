// Stride rules (c10/core/Contiguity.h, c10/core/TensorImpl.cpp compute_contiguous).

/** Row-major strides: stride[last] = 1, stride[i] = stride[i+1] * max(size[i+1], 1). */
export function contiguousStrides(sizes: readonly number[]): number[] {
  const strides = new Array<number>(sizes.length);
  let expected = 1;
  for (let i = sizes.length - 1; i >= 0; i--) {
    strides[i] = expected;
    expected *= Math.max(sizes[i], 1);
  }
  return strides;
}

/**
 * PyTorch's contiguity: walking from the last dim, each dim's stride must equal the running product.
 * Size-1 dims may have any stride; a tensor with a zero-size dim is contiguous.
 */
export function computeContiguous(sizes: readonly number[], strides: readonly number[]): boolean {
  for (let i = 0; i < sizes.length; i++) if (sizes[i] === 0) return true;
  let expected = 1;
  for (let i = sizes.length - 1; i >= 0; i--) {
    if (sizes[i] === 1) continue;
    if (strides[i] !== expected) return false;
    expected *= sizes[i];
  }
  return true;
}

export function computeNumel(sizes: readonly number[]): number {
  let n = 1;
  for (const s of sizes) n *= s;
  return n;
}

/** How many storage elements a (sizes, strides, offset) view reaches: offset + 1 + sum((size-1)*stride). */
export function computeStorageNumelNeeded(sizes: readonly number[], strides: readonly number[], offset: number): number {
  for (let i = 0; i < sizes.length; i++) if (sizes[i] === 0) return 0;
  let last = offset;
  for (let i = 0; i < sizes.length; i++) last += (sizes[i] - 1) * strides[i];
  return last + 1;
}
