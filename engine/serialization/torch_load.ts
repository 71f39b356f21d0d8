// torch.load (torch/serialization.py): reads a checkpoint written by torch.save, PyTorch's or ours.
// Glasstorch's torch.load is always weights-only (PyTorch's weights_only=True): the pickle is read by the
// restricted unpickler, so a checkpoint can only describe tensors and plain data, never run code.
// Formats: the zip format of PyTorch >= 1.6 (1.13's layout and 2.x's, with .format_version, byteorder and
// .data/serialization_id records; STORED or DEFLATEd entries), and the legacy pickle stream of older versions.

import { readFileSync } from "node:fs";
import { RuntimeError } from "../c10/Errors.js";
import { ZipReader, isZipFile } from "./zip_reader.js";
import { WeightsUnpickler, UnpicklingError, pyTypeName, type UnpicklerHooks } from "./unpickler.js";
import { findAllowedGlobal } from "./weights_only_globals.js";
import { StorageType, TypedStorageRef } from "./storage_types.js";
import { toJS } from "./to_js.js";
import { loadLegacy } from "./legacy_load.js";
import { makeStorage, typeNameOf, type MapLocation } from "./restore_location.js";

export type { MapLocation };

export interface LoadOptions {
  /** Where storages go: a device for all of them, or {saved location: device}. Default: where they were saved. */
  map_location?: MapLocation | null;
  /** Always true here; false is refused (Glasstorch never unpickles arbitrary objects). */
  weights_only?: boolean;
}

/** f: a path, or the checkpoint's bytes. */
export type LoadSource = string | Uint8Array | ArrayBuffer;

const kMaxSupportedFileFormatVersion = 10;

function readSource(f: LoadSource): Uint8Array {
  if (typeof f === "string") return new Uint8Array(readFileSync(f));
  if (f instanceof Uint8Array) return f;
  if (f instanceof ArrayBuffer) return new Uint8Array(f);
  throw new RuntimeError(`torch.load: f must be a path or the checkpoint's bytes (Uint8Array/ArrayBuffer), not ${typeof f}`);
}

function checkStoragePid(pid: unknown[], expectedLength: number): void {
  if (pid.length !== expectedLength) throw new UnpicklingError(`persistent_load: a storage id has ${expectedLength} fields, got ${pid.length}`);
  if (!(pid[1] instanceof StorageType)) throw new UnpicklingError(`persistent_load: expected a storage class, got ${pyTypeName(pid[1])}`);
  if (typeof pid[2] !== "string") throw new UnpicklingError(`persistent_load: storage key must be str, not ${pyTypeName(pid[2])}`);
  if (typeof pid[3] !== "string") throw new UnpicklingError(`persistent_load: location must be str, not ${pyTypeName(pid[3])}`);
  if (typeof pid[4] !== "number" || !Number.isSafeInteger(pid[4]) || pid[4] < 0) {
    throw new UnpicklingError(`persistent_load: storage size must be a non-negative int, not ${String(pid[4])}`);
  }
}

function loadZip(bytes: Uint8Array, mapLocation: MapLocation | null | undefined): unknown {
  const zip = new ZipReader(bytes);
  if (zip.entries.length === 0) throw new RuntimeError("archive does not contain any files");
  const first = zip.entries[0].name;
  const slash = first.indexOf("/");
  if (slash < 0) throw new RuntimeError(`file in archive is not in a subdirectory: ${first}`);
  const prefix = first.slice(0, slash + 1);
  const record = (name: string): Uint8Array => zip.read(prefix + name);
  const has = (name: string): boolean => zip.has(prefix + name);

  const versionName = has(".data/version") ? ".data/version" : "version";
  if (!has(versionName)) throw new RuntimeError("PytorchStreamReader failed locating file version: file not found");
  const versionText = new TextDecoder().decode(record(versionName));
  const version = Number.parseInt(versionText, 10);
  if (!Number.isFinite(version)) throw new RuntimeError(`Couldn't parse the version ${versionText} as Long Long.`);
  if (version > kMaxSupportedFileFormatVersion) {
    throw new RuntimeError(
      `Attempted to read a PyTorch file with version ${version}, but the maximum supported version for reading is ` +
        `${kMaxSupportedFileFormatVersion}. The version of your PyTorch installation may be too old, please upgrade PyTorch to latest version to mitigate this issue.`,
    );
  }
  let bigEndian = false;
  if (has("byteorder")) {
    const order = new TextDecoder().decode(record("byteorder"));
    if (order !== "little" && order !== "big") throw new RuntimeError(`Unknown endianness type: ${order}`);
    bigEndian = order === "big";
  }

  const loaded = new Map<string, TypedStorageRef>();
  const hooks: UnpicklerHooks = {
    findGlobal: findAllowedGlobal,
    typeName: typeNameOf,
    persistentLoad(pid: unknown): unknown {
      if (!Array.isArray(pid)) throw new UnpicklingError(`persistent_load id must be a tuple, got ${pyTypeName(pid)}`);
      checkStoragePid(pid, 5);
      const [, type, key, location, numel] = pid as [string, StorageType, string, string, number];
      const existing = loaded.get(key);
      if (existing) return existing;
      const nbytes = numel * type.dtype.itemsize;
      const name = `data/${key}`;
      if (!has(name)) throw new RuntimeError(`PytorchStreamReader failed locating file ${name}: file not found`);
      const data = record(name);
      // the record must hold exactly the storage the pickle claims (PyTorch 2.x checks the same)
      if (data.length !== nbytes) throw new RuntimeError(`record size ${data.length} mismatch with dst size ${nbytes}`);
      const ref = new TypedStorageRef(makeStorage(data, type.dtype, location, mapLocation, bigEndian), type.dtype);
      loaded.set(key, ref);
      return ref;
    },
  };
  const result = new WeightsUnpickler(record("data.pkl"), hooks).load();
  return toJS(result);
}

function weightsOnlyFailure(e: unknown): never {
  if (e instanceof UnpicklingError) {
    throw new UnpicklingError(
      "Weights only load failed. Glasstorch's torch.load always loads with weights_only=True (there is no " +
        "unsafe mode), so this checkpoint cannot be loaded.\n WeightsUnpickler error: " + e.message,
    );
  }
  throw e;
}

export function load(f: LoadSource, options: LoadOptions = {}): any {
  if (options.weights_only === false) {
    throw new RuntimeError(
      "torch.load: Glasstorch only loads weights (weights_only=True); weights_only=False would unpickle arbitrary " +
        "Python objects, which Glasstorch never does",
    );
  }
  const bytes = readSource(f);
  try {
    if (isZipFile(bytes)) return loadZip(bytes, options.map_location);
    return loadLegacy(bytes, options.map_location);
  } catch (e) {
    weightsOnlyFailure(e);
  }
}
