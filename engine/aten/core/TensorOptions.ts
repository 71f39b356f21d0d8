// TensorOptions (c10/core/TensorOptions.h): the keyword arguments factories take, e.g. {dtype, device, requires_grad}.

import { dtype } from "../../c10/ScalarType.js";
import { device, toDevice, type DeviceLike } from "../../c10/Device.js";
import { TypeError_ } from "../../c10/Errors.js";

export interface TensorOptions {
  dtype?: dtype | null;
  device?: DeviceLike | null;
  requires_grad?: boolean;
}

export interface ResolvedOptions {
  dtype: dtype;
  device: device;
  requires_grad: boolean;
}

const tensorOptionKeys = ["dtype", "device", "requires_grad"];

/**
 * Fills in defaults and checks the options a user passed. A misspelt key is an error, as a wrong
 * keyword is in Python: in JavaScript it would otherwise be silently ignored.
 */
export function resolveOptions(op: string, opts: TensorOptions | undefined, defaultDtype: dtype, extraKeys: readonly string[] = []): ResolvedOptions {
  const o = opts ?? {};
  for (const key of Object.keys(o)) {
    if (!tensorOptionKeys.includes(key) && !extraKeys.includes(key)) {
      throw new TypeError_(`${op}() got an unexpected keyword argument '${key}'`, { op });
    }
  }
  if (o.device != null && typeof o.device !== "string" && !(o.device instanceof device)) {
    throw new TypeError_(`${op}(): argument 'device' must be torch.device, not ${pythonTypeName(o.device)}`, { op });
  }
  if (o.dtype != null && !(o.dtype instanceof dtype)) {
    throw new TypeError_(`${op}(): argument 'dtype' must be torch.dtype, not ${pythonTypeName(o.dtype)}`, { op });
  }
  if (o.requires_grad !== undefined && typeof o.requires_grad !== "boolean") {
    throw new TypeError_(`${op}(): argument 'requires_grad' must be bool, not ${pythonTypeName(o.requires_grad)}`, { op });
  }
  return {
    dtype: o.dtype ?? defaultDtype,
    device: o.device == null ? toDevice("cpu") : toDevice(o.device),
    requires_grad: o.requires_grad ?? false,
  };
}

/** The Python type name PyTorch's argument parser would print for a JS value. */
export function pythonTypeName(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "bigint") return "int";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "list";
  if (typeof v === "function") return "function";
  const name = (v as object).constructor?.name;
  return name === "Tensor" ? "Tensor" : name && name !== "Object" ? name : "dict";
}

/** True for a trailing `{dtype, device, ...}` options object (not an array, tensor or number). */
export function isOptionsObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}
