// The legacy typed-storage class names torch.save pickles (torch.FloatStorage ...) and the dtypes they stand for.

import {
  bfloat16, bool, float16, float32, float64, int16, int32, int64, int8, uint8, type dtype,
} from "../c10/ScalarType.js";

export const storageClassDtypes: ReadonlyMap<string, dtype> = new Map([
  ["FloatStorage", float32],
  ["DoubleStorage", float64],
  ["HalfStorage", float16],
  ["BFloat16Storage", bfloat16],
  ["LongStorage", int64],
  ["IntStorage", int32],
  ["ShortStorage", int16],
  ["CharStorage", int8],
  ["ByteStorage", uint8],
  ["BoolStorage", bool],
]);

/** Storage classes PyTorch has that need dtypes Glasstorch lacks (complex, quantized). */
export const unsupportedStorageClasses = [
  "ComplexFloatStorage", "ComplexDoubleStorage", "QInt8Storage", "QUInt8Storage", "QInt32Storage",
  "QUInt4x2Storage", "QUInt2x4Storage",
];

/** dtype -> the class name torch.save writes for it (TypedStorage.pickle_storage_type()). */
export function storageClassName(dt: dtype): string {
  for (const [name, d] of storageClassDtypes) if (d === dt) return name;
  throw new Error(`no storage class for ${dt}`);
}

/** A storage class named in a checkpoint (torch.FloatStorage, torch.storage.UntypedStorage). */
export class StorageType {
  constructor(readonly fullName: string, readonly dtype: dtype) {}
}

/** What persistent_load hands the rebuild functions: TypedStorage (untyped bytes read as one dtype). */
export class TypedStorageRef {
  constructor(readonly storage: import("../c10/Storage.js").Storage, readonly dtype: dtype) {}
}
