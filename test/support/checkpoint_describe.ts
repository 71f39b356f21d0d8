// The TypeScript side of test/fixtures/_checkpoint_describe.py: describes what torch.load returned in the same
// JSON shape, so a checkpoint's contents compare exactly (tensor bits, strides, storage sharing, containers).
// JavaScript has one number type, so Python ints and floats both become {kind: "number"} (normalize()).
import { Tensor } from "../../engine/aten/core/Tensor.js";
import { Size } from "../../engine/aten/core/Size.js";
import { dtype } from "../../engine/c10/ScalarType.js";
import { device } from "../../engine/c10/Device.js";
import type { Storage } from "../../engine/c10/Storage.js";
import { isOrderedDict, isTuple } from "../../engine/serialization/py_types.js";

type Desc = any;

function numberText(v: number | bigint): string {
  if (typeof v === "bigint") return v.toString();
  return Object.is(v, -0) ? "-0" : String(v);
}

/** Every element's raw bits in logical (row-major) order, read through the tensor's strides. */
function bits(t: Tensor): (number | string)[] {
  const impl = t._impl;
  const n = impl.itemsize();
  const buf = new DataView(impl.storage.buffer());
  const sizes = impl.sizes(), strides = impl.strides();
  const out: (number | string)[] = [];
  const numel = impl.numel();
  const idx = new Array(sizes.length).fill(0);
  for (let k = 0; k < numel; k++) {
    let off = impl.storage_offset();
    for (let d = 0; d < sizes.length; d++) off += idx[d] * strides[d];
    const at = off * n;
    out.push(n === 1 ? buf.getUint8(at) : n === 2 ? buf.getInt16(at, true) : n === 4 ? buf.getInt32(at, true) : buf.getBigInt64(at, true).toString());
    for (let d = sizes.length - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

export function describeLoaded(obj: unknown): Desc {
  const storages = new Map<Storage, number>();
  const tensor = (t: Tensor): Desc => {
    const impl = t._impl;
    const d: Desc = {
      kind: t.constructor.name === "Parameter" ? "Parameter" : "Tensor",
      dtype: t.dtype.name,
      device: t.device.type,
      shape: [...impl.sizes()],
      stride: [...impl.strides()],
      storage_offset: impl.storage_offset(),
      requires_grad: t.requires_grad,
    };
    if (t.device.type !== "meta") {
      if (impl.storage.nbytes() === 0) d.storage = null; // no identity to compare (see the Python side)
      else {
        if (!storages.has(impl.storage)) storages.set(impl.storage, storages.size);
        d.storage = storages.get(impl.storage);
      }
      d.storage_nbytes = impl.storage.nbytes();
      d.bits = bits(t);
    }
    return d;
  };
  const walk = (v: unknown): Desc => {
    if (v instanceof Tensor) return tensor(v);
    if (v === null || v === undefined) return { kind: "None" };
    if (typeof v === "boolean") return { kind: "bool", value: v };
    if (typeof v === "number" || typeof v === "bigint") return { kind: "number", value: numberText(v) };
    if (typeof v === "string") return { kind: "str", value: v };
    if (v instanceof Uint8Array) return { kind: "bytes", value: [...v] };
    if (v instanceof dtype) return { kind: "dtype", value: String(v) };
    if (v instanceof device) return { kind: "device", value: String(v) };
    if (v instanceof Size) return { kind: "Size", value: [...v] };
    if (Array.isArray(v)) return { kind: isTuple(v) ? "tuple" : "list", items: v.map(walk) };
    if (v instanceof Set) return { kind: "set", items: sortItems([...v].map(walk)) };
    const ordered = isOrderedDict(v as object);
    const entries: [unknown, unknown][] = v instanceof Map ? [...v.entries()] : Object.entries(v as object);
    const d: Desc = { kind: ordered ? "OrderedDict" : "dict", items: entries.map(([k, x]) => [walk(k), walk(x)]) };
    const md = (v as { _metadata?: unknown })._metadata;
    if (md !== undefined) d.metadata = walk(md);
    return d;
  };
  return walk(obj);
}

function sortItems(items: Desc[]): Desc[] {
  return items.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/** Python's description with ints and floats as JS numbers (the only number JS has), sets sorted alike. */
export function normalize(d: Desc, opts: { parameterAsTensor?: boolean } = {}): Desc {
  if (Array.isArray(d)) return d.map((x) => normalize(x, opts));
  if (d === null || typeof d !== "object") return d;
  if (d.kind === "int") {
    const big = BigInt(d.value);
    const safe = big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER);
    return { kind: "number", value: safe ? numberText(Number(big)) : big.toString() };
  }
  if (d.kind === "float") {
    const r = d.value as string;
    const v = r === "nan" ? NaN : r === "inf" ? Infinity : r === "-inf" ? -Infinity : Number.parseFloat(r);
    return { kind: "number", value: numberText(v) };
  }
  const out: Desc = {};
  for (const [k, v] of Object.entries(d)) out[k] = normalize(v, opts);
  if (opts.parameterAsTensor && out.kind === "Parameter") out.kind = "Tensor";
  if (out.kind === "set") out.items = sortItems(out.items);
  return out;
}
