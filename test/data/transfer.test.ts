// How DataLoader workers ship tensors (engine/data/_transfer.ts), in-process over a MessageChannel:
// a tensor whose storage the sender owns outright and covers whole gives its buffer up (moved, no
// copy; the sender's storage is detached), any other tensor is copied first (the sender keeps its
// data), and the receiver adopts the buffer as the storage of a new tensor (no second copy) that
// behaves as any other (in-place ops, storage resize, deepcopy, release).
import { describe, it, expect } from "vitest";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import * as torch from "../../engine/index.js";
import { encodeTree, decodeTree, encodeTensor } from "../../engine/data/_transfer.js";
import type { Storage } from "../../engine/c10/Storage.js";

/** Posts the encoded tree with its buffers transferred and decodes what arrives on the other port. */
function ship(x: unknown, owned?: Set<Storage>): any {
  const { port1, port2 } = new MessageChannel();
  const transfer: ArrayBuffer[] = [];
  port1.postMessage(encodeTree(x, transfer, owned), transfer);
  const got = receiveMessageOnPort(port2)!.message;
  port1.close();
  return decodeTree(got);
}

describe("DataLoader batch transfer", () => {
  it("an owned storage covered whole moves without a copy; the receiver adopts the very buffer", () => {
    const t = torch.arange(12, { dtype: torch.float32 }).reshape(3, 4);
    const buf = t._impl.storage.buffer();
    const e = encodeTensor(t, new Set([t._impl.storage]));
    expect(e.bytes).toBe(buf); // the storage's own buffer, not a copy
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(e, [e.bytes]);
    expect(buf.byteLength).toBe(0); // moved: the sender's storage is detached
    const got = decodeTree(receiveMessageOnPort(port2)!.message) as torch.Tensor;
    port1.close();
    expect(got.tolist()).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]);
    expect(got.dtype).toBe(torch.float32);
    expect(got._impl.storage.nbytes()).toBe(48);
  });

  it("tensors the sender does not own, views and a second tensor over one owned storage are copied; the sender's data stays", () => {
    const base = torch.arange(10, { dtype: torch.float64 });
    const view = base.narrow(0, 2, 5); // offset view
    const strided = torch.arange(12, { dtype: torch.int32 }).reshape(3, 4).t(); // non-contiguous
    const owned = torch.arange(4, { dtype: torch.float32 });
    const alias = owned.view(2, 2); // same storage as `owned`
    const set = new Set([owned._impl.storage]);
    const got = ship({ base, view, strided, pair: [owned, alias], s: "kept", n: 3 }, set);
    expect(got.base.tolist()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(got.view.tolist()).toEqual([2, 3, 4, 5, 6]);
    expect(got.strided.tolist()).toEqual(strided.tolist());
    expect(got.strided.dtype).toBe(torch.int32);
    expect(got.pair[0].tolist()).toEqual([0, 1, 2, 3]);
    expect(got.pair[1].tolist()).toEqual([[0, 1], [2, 3]]);
    expect([got.s, got.n]).toEqual(["kept", 3]);
    // not owned: still readable here; the owned storage moved with its first tensor only
    expect(base.tolist()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(view.tolist()).toEqual([2, 3, 4, 5, 6]);
    expect(owned._impl.storage.buffer().byteLength).toBe(0);
    expect(got.pair[0]._impl.storage).not.toBe(got.pair[1]._impl.storage);
  });

  it("an adopted storage works as any: in-place ops, storage resize, deepcopy, release; zero-size and 0-d tensors", () => {
    const src = torch.ones(2, 3);
    const got = ship([src, torch.empty(0, 3), torch.tensor(7)], new Set([src._impl.storage]));
    const [t, empty, scalar] = got;
    t.add_(1);
    expect(t.tolist()).toEqual([[2, 2, 2], [2, 2, 2]]);
    const c = torch.copy.deepcopy(t);
    const st = t._impl.storage;
    st.resize(96); // Storage.resize (resize_'s storage step): a fresh allocation from the CPU allocator, bytes kept
    expect(st.nbytes()).toBe(96);
    expect(Array.from(new Float32Array(st.buffer()))).toEqual([2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    st.viewCache = null;
    expect(t.tolist()).toEqual([[2, 2, 2], [2, 2, 2]]);
    expect(c.tolist()).toEqual([[2, 2, 2], [2, 2, 2]]);
    expect(c.data_ptr()).not.toBe(t.data_ptr());
    expect(empty.shape).toEqual([0, 3]);
    expect(scalar.shape).toEqual([]);
    expect(scalar.item()).toBe(7);
    expect(t._impl.storage.release()).toBe(true);
    expect(c.tolist()).toEqual([[2, 2, 2], [2, 2, 2]]);
  });
});
