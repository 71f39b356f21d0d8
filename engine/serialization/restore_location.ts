// restore_location (torch/serialization.py): puts a loaded storage on its device -- where it was saved, or
// where map_location sends it -- and fixes its byte order when the checkpoint was written big-endian.

import { RuntimeError } from "../c10/Errors.js";
import { Storage } from "../c10/Storage.js";
import { GetAllocator } from "../c10/Allocator.js";
import { device, type DeviceLike } from "../c10/Device.js";
import type { dtype } from "../c10/ScalarType.js";
import { StorageType, TypedStorageRef } from "./storage_types.js";

export type MapLocation = DeviceLike | Record<string, DeviceLike>;

/** restore_location: the device a storage saved at `location` lands on. */
function targetDevice(location: string, mapLocation: MapLocation | null | undefined): device {
  let target: DeviceLike = location;
  if (typeof mapLocation === "string" || mapLocation instanceof device) target = mapLocation;
  else if (mapLocation && typeof mapLocation === "object") target = mapLocation[location] ?? location;
  const d = target instanceof device ? target : new device(target);
  if (d.type === "cpu" || d.type === "meta") return d;
  if (d.type === "cuda") {
    throw new RuntimeError(
      "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running " +
        "on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
    );
  }
  throw new RuntimeError(`don't know how to restore data location of torch.storage.UntypedStorage (tagged with ${String(target)})`);
}

/** Copies a storage's saved bytes onto its device, swapping byte order when the file's differs from ours. */
export function makeStorage(bytes: Uint8Array, dt: dtype, location: string, mapLocation: MapLocation | null | undefined, bigEndian: boolean): Storage {
  const d = targetDevice(location, mapLocation);
  const storage = new Storage(bytes.length, GetAllocator(d.type), d);
  if (d.type === "meta") return storage;
  const out = new Uint8Array(storage.buffer());
  out.set(bytes);
  if (bigEndian && dt.itemsize > 1) {
    const n = dt.itemsize;
    for (let i = 0; i + n <= out.length; i += n) out.subarray(i, i + n).reverse();
  }
  return storage;
}

export function typeNameOf(v: unknown): string | undefined {
  if (v instanceof TypedStorageRef) return "torch.storage.TypedStorage";
  if (v instanceof StorageType) return "type";
  if (v !== null && typeof v === "object" && (v as object).constructor?.name === "Tensor") return "torch.Tensor";
  return undefined;
}

