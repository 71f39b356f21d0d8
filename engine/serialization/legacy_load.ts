// The checkpoint format before PyTorch 1.6 (torch.save(..., _use_new_zipfile_serialization=False), still
// loadable by 1.13 and 2.x): five pickles in a row -- the magic number, the protocol version (1001), sys_info,
// the object (storages as ('storage', type, key, location, numel, view_metadata)), the list of storage keys --
// then each storage's bytes, prefixed by its element count as a little-endian int64.

import { RuntimeError } from "../c10/Errors.js";
import { WeightsUnpickler, UnpicklingError, PyCallable, PyDict, pyTypeName, type UnpicklerHooks } from "./unpickler.js";
import { findAllowedGlobal } from "./weights_only_globals.js";
import { StorageType, TypedStorageRef } from "./storage_types.js";
import { toJS } from "./to_js.js";
import { makeStorage, typeNameOf, type MapLocation } from "./restore_location.js";
import { Storage } from "../c10/Storage.js";

const MAGIC_NUMBER = 0x1950a86a20f9469cfc6cn;
const PROTOCOL_VERSION = 1001;

export function loadLegacy(bytes: Uint8Array, mapLocation: MapLocation | null | undefined): unknown {
  if (bytes.length === 0) throw new UnpicklingError("Ran out of input");
  // tar checkpoints (PyTorch < 0.4) start with a tar header, not a pickle
  if (bytes[0] !== 0x80) throw new UnpicklingError(`invalid load key, '${String.fromCharCode(bytes[0])}'.`);
  const plain: UnpicklerHooks = {
    findGlobal: findAllowedGlobal,
    persistentLoad: () => {
      throw new UnpicklingError("A load persistent id instruction was encountered, but no persistent_load function was specified.");
    },
  };
  let pos = 0;
  const next = (hooks: UnpicklerHooks): unknown => {
    const u = new WeightsUnpickler(bytes, hooks, pos);
    const v = u.load();
    pos = u.position;
    return v;
  };
  const magic = next(plain);
  if (typeof magic !== "bigint" || magic !== MAGIC_NUMBER) throw new RuntimeError("Invalid magic number; corrupt file?");
  const protocol = next(plain);
  if (protocol !== PROTOCOL_VERSION) throw new RuntimeError(`Invalid protocol version: ${String(protocol)}`);
  const sysInfo = next(plain);
  const littleEndian = !(sysInfo instanceof PyDict) || sysInfo.entries.get("little_endian") !== false;

  // storages are created empty while unpickling; their bytes follow the pickles
  const pending = new Map<string, { type: StorageType; numel: number; location: string; ref: TypedStorageRef }>();
  const hooks: UnpicklerHooks = {
    findGlobal: findAllowedGlobal,
    typeName: typeNameOf,
    persistentLoad(pid: unknown): unknown {
      if (!Array.isArray(pid) || pid.length !== 6) throw new UnpicklingError("persistent_load: a legacy storage id has 6 fields");
      const [, type, key, location, numel, view] = pid;
      if (!(type instanceof StorageType)) throw new UnpicklingError(`persistent_load: expected a storage class, got ${pyTypeName(type)}`);
      if (typeof key !== "string" || typeof location !== "string") throw new UnpicklingError("persistent_load: storage key and location must be str");
      if (typeof numel !== "number" || !Number.isSafeInteger(numel) || numel < 0) throw new UnpicklingError("persistent_load: storage size must be a non-negative int");
      if (view !== null) throw new UnpicklingError("storage views (view_metadata, checkpoints of PyTorch < 0.4) are not supported by Glasstorch");
      const have = pending.get(key);
      if (have) return have.ref;
      // a placeholder until the bytes are read: its Storage is replaced below, so no memory is taken on trust
      const ref = new TypedStorageRef(null as unknown as Storage, type.dtype);
      pending.set(key, { type, numel, location, ref });
      return ref;
    },
  };
  // tensors need their storages' real Storage objects, so the object pickle is read after the data is located
  const objStart = pos;
  const probe = new WeightsUnpickler(bytes, { ...hooks, findGlobal: probeGlobal }, objStart);
  probe.load();
  pos = probe.position;
  const keys = next(plain);
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === "string")) throw new RuntimeError("corrupt file: storage key list");
  const storages = new Map<string, TypedStorageRef>();
  for (const key of keys as string[]) {
    const p = pending.get(key);
    if (!p) throw new RuntimeError(`corrupt file: storage ${key} is not used by the checkpoint`);
    if (pos + 8 > bytes.length) throw new RuntimeError("unexpected EOF, expected 8 more bytes. The file might be corrupted.");
    const view = new DataView(bytes.buffer, bytes.byteOffset + pos, 8);
    const savedNumel = Number(view.getBigInt64(0, littleEndian));
    pos += 8;
    const nbytes = p.numel * p.type.dtype.itemsize;
    if (savedNumel * p.type.dtype.itemsize !== nbytes) {
      throw new RuntimeError(`storage has wrong byte size: expected ${nbytes} got ${savedNumel * p.type.dtype.itemsize}`);
    }
    if (pos + nbytes > bytes.length) throw new RuntimeError(`unexpected EOF, expected ${pos + nbytes - bytes.length} more bytes. The file might be corrupted.`);
    const data = bytes.subarray(pos, pos + nbytes);
    pos += nbytes;
    storages.set(key, new TypedStorageRef(makeStorage(data, p.type.dtype, p.location, mapLocation, !littleEndian), p.type.dtype));
  }
  // now the object pickle again, with every storage in place
  const real: UnpicklerHooks = {
    ...hooks,
    persistentLoad(pid: unknown): unknown {
      const key = (pid as unknown[])[2] as string;
      const s = storages.get(key);
      if (!s) throw new RuntimeError(`corrupt file: storage ${key} has no data`);
      return s;
    },
  };
  return toJS(new WeightsUnpickler(bytes, real, objStart).load());
}

/** The first pass only collects storage ids: the tensor rebuild functions become inert (their result is dropped). */
function probeGlobal(module: string, name: string): unknown {
  const v = findAllowedGlobal(module, name);
  if (v instanceof PyCallable && v.kind === "function" && /^torch\._(utils|tensor)\._rebuild_/.test(v.fullName)) {
    return new PyCallable(v.fullName, "function", () => new PyDict(false));
  }
  return v;
}
