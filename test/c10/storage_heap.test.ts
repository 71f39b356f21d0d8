// Small storages on V8's heap (engine/c10/Allocator.ts smallHeapDataPtr, issue #8): a tensor of at
// most 64 bytes made with its dtype known is a typed array of that dtype with no ArrayBuffer until
// someone asks Storage.buffer() for the bytes; then both see the same memory. Everything a storage
// does (other dtypes' views, resize_, copies, dispose, save/load) works the same on either kind.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { Tensor } from "../../engine/aten/core/Tensor.js";
import { TensorImpl } from "../../engine/c10/TensorImpl.js";
import { HEAP_STORAGE_MAX_BYTES } from "../../engine/c10/Allocator.js";

type DataPtrView = { buffer: ArrayBuffer | null; heap?: ArrayBufferView };
const dataPtrOf = (t: Tensor): DataPtrView => (t._impl.storage as unknown as { dataPtr_: DataPtrView }).dataPtr_;
const onHeap = (t: Tensor): boolean => dataPtrOf(t).heap !== undefined && dataPtrOf(t).buffer === null;

describe("small storages live on V8's heap", () => {
  it("results and factories up to 64 bytes are heap typed arrays of their dtype; larger ones are ArrayBuffers", () => {
    const a = torch.ones(1), b = torch.full([1], 2.5);
    const r = torch.add(a, b);
    expect(onHeap(r)).toBe(true);
    expect(dataPtrOf(r).heap).toBeInstanceOf(Float32Array);
    expect(r.item()).toBe(3.5);
    expect(onHeap(torch.zeros(HEAP_STORAGE_MAX_BYTES / 8, { dtype: torch.float64 }))).toBe(true);
    expect(dataPtrOf(torch.zeros(2, { dtype: torch.int64 })).heap).toBeInstanceOf(BigInt64Array);
    expect(onHeap(torch.zeros(HEAP_STORAGE_MAX_BYTES / 4 + 1))).toBe(false);
  });

  it("asking for the bytes moves them into an ArrayBuffer that the tensor then reads and writes", () => {
    const t = torch.tensor([1.5, -2, 3]);
    const buffer = t._impl.storage.buffer();
    expect(onHeap(t)).toBe(false);
    expect(Array.from(new Float32Array(buffer, 0, 3))).toEqual([1.5, -2, 3]);
    new Float32Array(buffer)[1] = 7;
    expect(t.tolist()).toEqual([1.5, 7, 3]);
    t.mul_(2);
    expect(Array.from(new Float32Array(buffer, 0, 3))).toEqual([3, 14, 6]);
  });

  it("reads as another dtype see the same bits", () => {
    const t = torch.tensor([1.0], { dtype: torch.float32 });
    expect(onHeap(t)).toBe(true);
    const bits = new Tensor(new TensorImpl(t._impl.storage, torch.int32, [1]));
    expect(bits.item()).toBe(0x3f800000);
    bits.fill_(0x40490fdb);
    expect(t.item()).toBeCloseTo(Math.PI, 6);
  });

  it("resize keeps the bytes; an out= result grown past 64 bytes is right", () => {
    const t = torch.tensor([4, 5], { dtype: torch.float32 });
    const storage = t._impl.storage;
    storage.resize(160);
    expect(onHeap(t)).toBe(false);
    expect(Array.from(new Float32Array(storage.buffer(), 0, 3))).toEqual([4, 5, 0]);
    expect(t.tolist()).toEqual([4, 5]);
    const out = torch.zeros(2);
    torch.add(torch.ones(40), 1, { out });
    expect(out.shape).toEqual([40]);
    expect(out.sum().item()).toBe(80);
  });

  it("a disposed heap tensor throws on use; backward and save/load work on heap storages", () => {
    const x = torch.tensor([2.0], { dtype: torch.float32, requires_grad: true });
    const y = x.mul(x).add(1);
    expect(onHeap(y)).toBe(true);
    y.backward();
    expect(x.grad!.item()).toBe(4);
    const r = torch.add(torch.ones(1), torch.ones(1));
    r.dispose();
    expect(() => r.item()).toThrow(/disposed/);
    const back = torch.load(torch.save({ w: torch.tensor([1.25, -3]) })) as { w: Tensor };
    expect(back.w.tolist()).toEqual([1.25, -3]);
  });
});
