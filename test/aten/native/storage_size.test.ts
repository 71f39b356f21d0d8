// computeStorageNbytes (aten/src/ATen/EmptyTensor.cpp): the double fast path for non-negative integer
// operands must give exactly the uint64 answer, and everything else (negative, huge, overflowing
// operands) must still reach PyTorch's overflow error. The reference here is the uint64 arithmetic
// written out with BigInt.
import { describe, it, expect } from "vitest";
import { computeStorageNbytes } from "../../../engine/aten/native/shape/StorageSize.js";

const M64 = (1n << 64n) - 1n;
/** PyTorch's computeStorageNbytes in uint64_t: the bytes, or "overflow". */
function reference(sizes: number[], strides: number[], itemsize: number, offset = 0): number | "overflow" {
  const u = (v: number) => BigInt.asUintN(64, BigInt(v));
  let size = u(offset) + 1n;
  let overflowed = size > M64;
  size = BigInt.asUintN(64, size);
  for (let i = 0; i < sizes.length; i++) {
    if (sizes[i] === 0) return 0;
    const strided = u(strides[i]) * u(sizes[i] - 1);
    overflowed ||= strided > M64;
    size = size + BigInt.asUintN(64, strided);
    overflowed ||= size > M64;
    size = BigInt.asUintN(64, size);
  }
  size *= BigInt(itemsize);
  overflowed ||= size > M64;
  size = BigInt.asUintN(64, size);
  overflowed ||= size > (1n << 63n) - 1n;
  return overflowed ? "overflow" : Number(size);
}
function actual(sizes: number[], strides: number[], itemsize: number, offset = 0): number | "overflow" {
  try {
    return computeStorageNbytes(sizes, strides, itemsize, offset);
  } catch (e) {
    expect((e as Error).message).toMatch(/^Storage size calculation overflowed with sizes=\[.*\] and strides=\[.*\]$/);
    return "overflow";
  }
}

describe("computeStorageNbytes", () => {
  it("matches the uint64 arithmetic on the layouts views make", () => {
    const cases: [number[], number[], number, number?][] = [
      [[], [], 4], [[], [], 8, 5], [[256, 784], [784, 1], 4], [[784, 256], [1, 784], 4], [[64, 256], [0, 1], 4],
      [[3, 0, 2], [0, 2, 1], 4], [[1], [1], 2, 7], [[5, 1, 3], [3, 100, 1], 8, 11], [[2, 3], [1, 2], 1],
    ];
    for (const [sz, st, item, off] of cases) expect(actual(sz, st, item, off)).toBe(reference(sz, st, item, off));
  });

  it("matches it on random layouts, small and near 2^53", () => {
    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    for (let k = 0; k < 2000; k++) {
      const nd = rnd(5);
      const big = k % 3 === 0;
      const sizes = Array.from({ length: nd }, () => (rnd(10) === 0 ? 0 : 1 + rnd(big ? 1 << 20 : 50)));
      const strides = Array.from({ length: nd }, () => rnd(big ? 1 << 30 : 1000));
      const item = [1, 2, 4, 8][rnd(4)];
      const off = rnd(big ? 1 << 30 : 100);
      expect(actual(sizes, strides, item, off)).toBe(reference(sizes, strides, item, off));
    }
  });

  it("reports overflow as PyTorch does for negative and huge operands, and at the 2^53 boundary stays exact", () => {
    const cases: [number[], number[], number, number?][] = [
      [[2, 3], [-1, 1], 4], [[-2, 3], [3, 1], 4], [[2, 0], [-1, 1], 4], [[2 ** 40, 2 ** 40], [2 ** 40, 1], 8],
      [[2], [2 ** 53 - 2], 1], [[2], [2 ** 53 - 1], 1], [[2], [2 ** 53 - 2], 2], [[3], [2 ** 62], 1], [[2], [2 ** 62], 2],
      [[1], [1], 4, -1], [[9, 9], [2 ** 61, 2 ** 61], 4],
    ];
    for (const [sz, st, item, off] of cases) expect(actual(sz, st, item, off)).toBe(reference(sz, st, item, off));
  });
});
