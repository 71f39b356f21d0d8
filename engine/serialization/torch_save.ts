// torch.save (torch/serialization.py, _save): PyTorch 1.13's zip checkpoint. data.pkl is the protocol-2 pickle
// of the object, tensors as torch._utils._rebuild_tensor_v2 over persistent storage ids
// ('storage', torch.FloatStorage, key, location, numel); each storage is saved once as data/<key> (keys in
// sorted order), so views of one storage still share it after loading; then the `version` record.

import { writeFileSync } from "node:fs";
import { RuntimeError } from "../c10/Errors.js";
import { dtype } from "../c10/ScalarType.js";
import { device } from "../c10/Device.js";
import type { Storage } from "../c10/Storage.js";
import { Size } from "../aten/core/Size.js";
import { Tensor } from "../aten/core/Tensor.js";
import { Pickler, PyGlobal } from "./pickler.js";
import { ZipWriter } from "./zip_writer.js";
import { storageClassName } from "./storage_types.js";
import { markTuple } from "./py_types.js";

const rebuildTensorV2 = new PyGlobal("torch._utils", "_rebuild_tensor_v2");
const rebuildParameter = new PyGlobal("torch._utils", "_rebuild_parameter");
const rebuildMeta = new PyGlobal("torch._utils", "_rebuild_meta_tensor_no_storage");
const orderedDict = new PyGlobal("collections", "OrderedDict");

/** nn.Parameter is recognised by its class name, so this layer needs no import from torch.nn. */
function isParameter(t: Tensor): boolean {
  return t.constructor.name === "Parameter";
}

function tuple(items: readonly unknown[]): unknown[] {
  return markTuple([...items]);
}

/** The pickle bytes and the storages (key -> bytes) of `obj`, as _save produces them. */
export function pickleForSave(obj: unknown): { data: Uint8Array; storages: Map<string, Uint8Array> } {
  const keys = new Map<Storage, string>();
  const storageDtypes = new Map<Storage, dtype>();
  const storages = new Map<string, Uint8Array>();

  const saveTensorData = (p: Pickler, t: Tensor, requiresGrad: boolean, memoKey: object): void => {
    const impl = t._impl;
    if (impl.device.type === "meta") {
      p.saveReduce(rebuildMeta, [impl.dtype, tuple(impl.sizes()), tuple(impl.strides()), requiresGrad], memoKey);
      return;
    }
    if (impl.device.type !== "cpu") {
      throw new RuntimeError(`torch.save: Glasstorch saves CPU and meta tensors; move this ${impl.device.type} tensor to the CPU first (t.cpu())`);
    }
    const storage = impl.storage;
    const seen = storageDtypes.get(storage);
    if (seen !== undefined && seen !== impl.dtype) {
      throw new RuntimeError("Cannot save multiple tensors or storages that view the same data as different types");
    }
    storageDtypes.set(storage, impl.dtype);
    let key = keys.get(storage);
    if (key === undefined) {
      key = String(keys.size);
      keys.set(storage, key);
      storages.set(key, new Uint8Array(storage.buffer(), 0, storage.nbytes()));
    }
    const numel = Math.floor(storage.nbytes() / impl.dtype.itemsize);
    p.saveGlobal(rebuildTensorV2.module, rebuildTensorV2.name);
    p.byte(0x28); // MARK: the 6-tuple of arguments
    p.savePersistentId(["storage", new PyGlobal("torch", storageClassName(impl.dtype)), key, "cpu", numel]);
    p.save(impl.storage_offset());
    p.saveTuple(tuple(impl.sizes()));
    p.saveTuple(tuple(impl.strides()));
    p.save(requiresGrad);
    p.saveReduce(orderedDict, [], {}); // backward_hooks: always an empty OrderedDict
    p.byte(0x74); // TUPLE
    p.memoizeNew();
    p.byte(0x52); // REDUCE
    p.memoizeObject(memoKey);
  };

  const reducer = (v: unknown, p: Pickler): boolean => {
    if (v instanceof Tensor) {
      if (isParameter(v)) {
        // Parameter.__reduce_ex__: (_rebuild_parameter, (self.data, self.requires_grad, OrderedDict()))
        p.saveGlobal(rebuildParameter.module, rebuildParameter.name);
        saveTensorData(p, v, false, {});
        p.save(v.requires_grad);
        p.saveReduce(orderedDict, [], {});
        p.byte(0x87); // TUPLE3
        p.memoizeNew();
        p.byte(0x52); // REDUCE
        p.memoizeObject(v);
      } else {
        saveTensorData(p, v, v.requires_grad, v);
      }
      return true;
    }
    if (v instanceof dtype) {
      p.saveGlobal("torch", v.name);
      return true;
    }
    if (v instanceof device) {
      p.saveReduce(new PyGlobal("torch", "device"), v.index === null ? [v.type] : [v.type, v.index], v);
      return true;
    }
    if (v instanceof Size) {
      p.saveReduce(new PyGlobal("torch", "Size"), [tuple(v)], v);
      return true;
    }
    return false;
  };

  const data = new Pickler(reducer).dump(obj);
  return { data, storages };
}

/** PyTorchStreamWriter's archive name for a path: the base name without its extension. */
export function archiveNameFor(path: string): string {
  let start = 0;
  for (let i = 0; i < path.length; i++) if (path[i] === "/" || path[i] === "\\") start = i + 1;
  let end = path.length;
  for (let i = path.length; i > start; i--) {
    if (path[i - 1] === ".") {
      end = i - 1;
      break;
    }
  }
  return path.slice(start, end);
}

/** The checkpoint's bytes, with records under `archiveName/`. */
export function saveToBytes(obj: unknown, archiveName = "archive"): Uint8Array {
  const { data, storages } = pickleForSave(obj);
  const zip = new ZipWriter(archiveName);
  zip.writeRecord("data.pkl", data);
  for (const key of [...storages.keys()].sort()) zip.writeRecord(`data/${key}`, storages.get(key)!);
  zip.writeRecord("version", new TextEncoder().encode("3\n"));
  return zip.finalize();
}

export interface Writable {
  write(bytes: Uint8Array): unknown;
}

/**
 * torch.save(obj, f): f is a path (records then sit under the file's base name, as PyTorch writes them) or an
 * object with write(bytes) (records under "archive/", like a BytesIO). Without f the checkpoint's bytes are returned.
 */
export function save(obj: unknown, f?: string | Writable): Uint8Array {
  if (typeof f === "string") {
    const bytes = saveToBytes(obj, archiveNameFor(f));
    writeFileSync(f, bytes);
    return bytes;
  }
  const bytes = saveToBytes(obj);
  if (f !== undefined) f.write(bytes);
  return bytes;
}
