import { describe, it, expect } from "vitest";
import { TensorImpl } from "../../engine/c10/TensorImpl.js";
import { Storage } from "../../engine/c10/Storage.js";
import { GetAllocator } from "../../engine/c10/Allocator.js";
import { device } from "../../engine/c10/Device.js";
import { float32 } from "../../engine/c10/ScalarType.js";
import { typedView, writeNumber, readNumber, offsetOf } from "../../engine/c10/ElementAccess.js";

const cpu = new device("cpu");
const storageOf = (n: number) => new Storage(n * 4, GetAllocator("cpu"), cpu);

describe("TensorImpl: a window onto a shared Storage", () => {
  it("two windows on one storage alias: writes through one are read through the other", () => {
    const storage = storageOf(6);
    const base = new TensorImpl(storage, float32, [2, 3]);
    // the transpose, as a view op will build it: same storage, same version counter, swapped strides
    const t = new TensorImpl(storage, float32, [3, 2], [1, 3], 0, base.version_counter);
    const view = typedView(storage, float32);
    writeNumber(view, float32.scalarType, offsetOf(base, 1), 7); // base[0][1]
    expect(readNumber(view, float32.scalarType, offsetOf(t, 2))).toBe(7); // t[1][0]
    expect(t.is_contiguous()).toBe(false);
    base.version_counter.bump();
    expect(t.version_counter.version).toBe(1);
  });

  it("data_ptr is the storage address plus offset * itemsize", () => {
    const storage = storageOf(8);
    const base = new TensorImpl(storage, float32, [8]);
    const tail = new TensorImpl(storage, float32, [4], [1], 4, base.version_counter);
    expect(tail.data_ptr() - base.data_ptr()).toBe(16);
  });

  it("refuses a window that reaches past its storage, with PyTorch's text", () => {
    const impl = new TensorImpl(storageOf(4), float32, [4]);
    expect(() => impl.set_sizes_and_strides([3, 3], [1, 1], 0)).toThrow(
      "setStorage: sizes [3, 3], strides [1, 1], storage offset 0, and itemsize 4 requiring a storage size of 20 are out of bounds for storage of size 16",
    );
  });

  it("a storage resize keeps the bytes and is seen by every window", () => {
    const storage = storageOf(2);
    const a = new TensorImpl(storage, float32, [2]);
    const b = new TensorImpl(storage, float32, [2], null, 0, a.version_counter);
    writeNumber(typedView(storage, float32), float32.scalarType, 1, 3.5);
    storage.resize(16);
    expect(readNumber(typedView(storage, float32), float32.scalarType, offsetOf(b, 1))).toBe(3.5);
  });
});
