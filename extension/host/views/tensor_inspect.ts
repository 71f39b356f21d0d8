// The Tensor inspector's data: sizes, strides, storage (identified per storage object, so views of one
// storage group together), version counter, autograd state, and handles for `_base` and `.grad`.

import type { Tensor } from "../../../engine/aten/core/Tensor.js";
import type { Storage } from "../../../engine/c10/Storage.js";
import type { TensorInspectResult } from "../protocol.js";
import type { HandleRegistry } from "../handles.js";

const storageIds = new WeakMap<Storage, number>();
let nextStorageId = 1;

function storageId(s: Storage): number {
  let id = storageIds.get(s);
  if (id === undefined) {
    id = nextStorageId++;
    storageIds.set(s, id);
  }
  return id;
}

export function inspectTensor(t: Tensor, tensors: HandleRegistry<Tensor>): TensorInspectResult {
  const storage = t.untyped_storage();
  const out: TensorInspectResult = {
    shape: [...t.shape],
    strides: t.stride(),
    storage_offset: t.storage_offset(),
    dtype: String(t.dtype),
    device: String(t.device),
    is_contiguous: t.is_contiguous(),
    storage: { id: storageId(storage), nbytes: storage.nbytes() },
    version: t._version,
    requires_grad: t.requires_grad,
    is_leaf: t.is_leaf,
  };
  const fn = t.grad_fn;
  if (fn) out.grad_fn = fn.name();
  const base = t._base;
  if (base) out.base = tensors.handleOf(base);
  const grad = t.grad;
  if (grad) out.grad = tensors.handleOf(grad);
  return out;
}
