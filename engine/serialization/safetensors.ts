// safetensors (the format of Hugging Face's `safetensors` library; API of its safetensors.torch module):
// an 8-byte little-endian header length, a JSON header {name: {dtype, shape, data_offsets: [begin, end]},
// "__metadata__": {str: str}} padded with spaces to 8 bytes, then the tensors' bytes, packed, contiguous,
// in header order. No pickle: nothing in the file is code. Error texts are those of safetensors 0.8.0.
// Published as the package subpath "glasstorch/safetensors" (it is a separate library in Python, not torch).

import { readFileSync, writeFileSync } from "node:fs";
import { NotImplementedError, RuntimeError, TypeError_, ValueError } from "../c10/Errors.js";
import { Storage } from "../c10/Storage.js";
import { GetAllocator } from "../c10/Allocator.js";
import { device } from "../c10/Device.js";
import { TensorImpl } from "../c10/TensorImpl.js";
import { computeNumel } from "../c10/Contiguity.js";
import {
  bfloat16, bool, float16, float32, float64, int16, int32, int64, int8, uint8, type dtype,
} from "../c10/ScalarType.js";
import { Tensor } from "../aten/core/Tensor.js";
import { defineKey } from "./py_types.js";

export class SafetensorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SafetensorError";
  }
}

/** The safetensors dtype codes Glasstorch has dtypes for, in the order the writer sorts by (widest first). */
const codes: [string, dtype][] = [
  ["I64", int64], ["F64", float64], ["F32", float32], ["I32", int32], ["BF16", bfloat16], ["F16", float16],
  ["I16", int16], ["I8", int8], ["U8", uint8], ["BOOL", bool],
];
const byCode = new Map(codes);
/** Every code the format defines (safetensors 0.8.0), for the unknown-variant error. */
const allCodes = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ", "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64"];

const MAX_HEADER_SIZE = 100_000_000;

function deserializeError(what: string): SafetensorError {
  return new SafetensorError(`Error while deserializing: ${what}`);
}

export type TensorDict = Record<string, Tensor> | Map<string, Tensor>;

function pyType(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  return typeof v === "object" ? "dict" : typeof v;
}

function entriesOf(tensors: unknown): [unknown, unknown][] {
  if (tensors instanceof Map) return [...tensors.entries()];
  if (tensors !== null && typeof tensors === "object" && !Array.isArray(tensors) && !(tensors instanceof Tensor)) {
    return Object.entries(tensors);
  }
  throw new ValueError(`Expected a dict of [str, torch.Tensor] but received <class '${tensors instanceof Tensor ? "torch.Tensor" : pyType(tensors)}'>`);
}

/** UTF-8 byte order, as Rust compares Strings. */
function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** safetensors.torch.save: the file's bytes. */
export function save(tensors: TensorDict, metadata?: Record<string, string> | null): Uint8Array {
  const entries = entriesOf(tensors);
  for (const [k, v] of entries) {
    if (!(v instanceof Tensor)) throw new ValueError(`Key \`${String(k)}\` is invalid, expected torch.Tensor but received <class '${pyType(v)}'>`);
  }
  for (const [k] of entries) {
    if (typeof k !== "string") throw new TypeError_(`argument 'tensor_dict': '${pyType(k)}' object is not an instance of 'str'`);
  }
  if (metadata !== undefined && metadata !== null) {
    for (const v of Object.values(metadata)) {
      if (typeof v !== "string") throw new TypeError_(`argument 'metadata': '${pyType(v)}' object is not an instance of 'str'`);
    }
  }
  const named = entries as [string, Tensor][];
  // _flatten: tensors that share memory (same storage; empty ones aside) would be written twice
  const groups = new Map<Storage, string[]>();
  for (const [k, t] of named) {
    if (t.device.type === "meta" || t._impl.storage.nbytes() === 0) continue;
    const g = groups.get(t._impl.storage) ?? [];
    g.push(k);
    groups.set(t._impl.storage, g);
  }
  const failing = [...groups.values()].filter((g) => g.length > 1);
  if (failing.length) {
    const sets = failing.map((g) => `{${g.map((n) => `'${n}'`).join(", ")}}`).join(", ");
    throw new RuntimeError(
      `\n            Some tensors share memory, this will lead to duplicate memory on disk and potential differences when loading them again: [${sets}].\n` +
        "            A potential way to correctly save your model is to use `save_model`.\n" +
        "            More information at https://huggingface.co/docs/safetensors/torch_shared_tensors\n            ",
    );
  }
  const rank = (dt: dtype): number => codes.findIndex(([, d]) => d === dt);
  for (const [k, t] of named) {
    if (!t.is_contiguous()) {
      throw new ValueError(
        `You are trying to save a non contiguous tensor: \`${k}\` which is not allowed. It either means you are trying to save tensors which are ` +
          "reference of each other in which case it's recommended to save only the full tensors, and reslice at load time, or simply call " +
          "`.contiguous()` on your tensor to pack it before saving.",
      );
    }
    if (t.device.type === "meta") throw new NotImplementedError("Cannot copy out of meta tensor; no data!");
    if (t.device.type !== "cpu") throw new RuntimeError(`safetensors: Glasstorch saves CPU tensors; move '${k}' to the CPU first`);
    if (rank(t.dtype) < 0) throw new TypeError_(`safetensors has no code for dtype ${t.dtype}`);
  }
  // the writer's order: widest dtype first, then by name
  const order = [...named].sort(([ka, a], [kb, b]) => rank(a.dtype) - rank(b.dtype) || compareNames(ka, kb));
  const header: [string, unknown][] = [];
  if (metadata !== undefined && metadata !== null) header.push(["__metadata__", metadata]);
  let offset = 0;
  const parts: Uint8Array[] = [];
  for (const [k, t] of order) {
    const n = t.numel() * t.element_size();
    header.push([k, { dtype: codes[rank(t.dtype)][0], shape: [...t._impl.sizes()], data_offsets: [offset, offset + n] }]);
    parts.push(n === 0 ? new Uint8Array(0) : new Uint8Array(t._impl.storage.buffer(), t.storage_offset() * t.element_size(), n));
    offset += n;
  }
  let json = new TextEncoder().encode(serializeHeader(header));
  const pad = (8 - (json.length % 8)) % 8;
  if (pad) {
    const padded = new Uint8Array(json.length + pad).fill(0x20);
    padded.set(json);
    json = padded;
  }
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let p = 8 + json.length;
  for (const part of parts) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}

/**
 * JSON as the Rust writer emits it: compact, entries in this order (built by hand: a plain object would move
 * integer-like names such as "0" first). Metadata values keep their given order ({...} of strings).
 */
function serializeHeader(header: [string, unknown][]): string {
  const value = (v: unknown): string =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? "{" + Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).join(",") + "}"
      : JSON.stringify(v);
  return "{" + header.map(([k, v]) => `${JSON.stringify(k)}:${value(v)}`).join(",") + "}";
}

/** safetensors.torch.save_file. */
export function save_file(tensors: TensorDict, filename: string, metadata?: Record<string, string> | null): void {
  writeFileSync(filename, save(tensors, metadata));
}

interface Entry {
  name: string;
  dtype: dtype;
  shape: number[];
  begin: number;
  end: number;
}

interface Parsed {
  metadata: Record<string, string> | null;
  entries: Entry[];
  dataStart: number;
}

function parse(bytes: Uint8Array): Parsed {
  if (bytes.length < 8) throw deserializeError("header too small");
  const n = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (n > BigInt(MAX_HEADER_SIZE)) throw deserializeError("header too large");
  const stop = Number(n) + 8;
  if (stop > bytes.length) throw deserializeError("invalid header length");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(8, stop));
  } catch {
    throw deserializeError("invalid UTF-8 in header");
  }
  const invalid = (why: string): SafetensorError => deserializeError(`invalid JSON in header: ${why}`);
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch (e) {
    throw invalid((e as Error).message);
  }
  if (header === null || typeof header !== "object" || Array.isArray(header)) {
    throw invalid(`invalid type: ${serdeValue(header)}, expected struct HashMetadata`);
  }
  let metadata: Record<string, string> | null = null;
  const entries: Entry[] = [];
  for (const [name, info] of Object.entries(header as Record<string, unknown>)) {
    if (name === "__metadata__") {
      if (info === null) continue;
      if (typeof info !== "object" || Array.isArray(info)) throw invalid("invalid type for __metadata__, expected a map");
      metadata = {};
      for (const [k, v] of Object.entries(info as Record<string, unknown>)) {
        if (typeof v !== "string") throw invalid(`invalid type: ${serdeValue(v)}, expected a string`);
        defineKey(metadata, k, v);
      }
      continue;
    }
    if (info === null || typeof info !== "object" || Array.isArray(info)) throw invalid(`invalid type for tensor \`${name}\`, expected struct TensorInfo`);
    const { dtype: code, shape, data_offsets: offsets } = info as Record<string, unknown>;
    for (const [field, v] of [["dtype", code], ["shape", shape], ["data_offsets", offsets]] as const) {
      if (v === undefined) throw invalid(`missing field \`${field}\``);
    }
    if (typeof code !== "string" || !allCodes.includes(code)) {
      throw invalid(`unknown variant \`${String(code)}\`, expected one of ${allCodes.map((c) => `\`${c}\``).join(", ")}`);
    }
    const dt = byCode.get(code);
    if (!dt) throw new SafetensorError(`Glasstorch has no dtype for the safetensors type ${code} (tensor \`${name}\`)`);
    const usize = (v: unknown): number => {
      if (typeof v === "number" && Number.isInteger(v) && v < 0) throw invalid(`invalid value: integer \`${v}\`, expected usize`);
      if (typeof v !== "number" || !Number.isInteger(v)) throw invalid(`invalid type: ${serdeValue(v)}, expected usize`);
      return v;
    };
    if (!Array.isArray(shape)) throw invalid("invalid type for shape, expected a sequence");
    if (!Array.isArray(offsets) || offsets.length !== 2) throw invalid("invalid data_offsets, expected a sequence of 2 elements");
    entries.push({ name, dtype: dt, shape: shape.map(usize), begin: usize(offsets[0]), end: usize(offsets[1]) });
  }
  // validate: tensors tile the data buffer exactly, in offset order, each as big as its shape and dtype say
  const sorted = [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let end = 0;
  for (const e of sorted) {
    if (e.begin !== end || e.end < e.begin) throw deserializeError(`invalid offset for tensor \`${e.name}\``);
    end = e.end;
    const numel = computeNumel(e.shape);
    const nbytes = numel * e.dtype.itemsize;
    if (!Number.isSafeInteger(nbytes)) throw deserializeError("overflow computing buffer size from shape and/or element type");
    if (e.end - e.begin !== nbytes) throw deserializeError("invalid shape, data type, or offset for tensor");
  }
  if (end !== bytes.length - stop) throw deserializeError("incomplete metadata, file not fully covered");
  return { metadata, entries, dataStart: stop };
}

/** How serde_json names an unexpected JSON value in its errors. */
function serdeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "sequence";
  if (typeof v === "number") return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (typeof v === "boolean") return `boolean \`${v}\``;
  if (typeof v === "string") return `string ${JSON.stringify(v)}`;
  return "map";
}

function checkDevice(d: string | device): void {
  const dev = d instanceof device ? d : new device(d);
  if (dev.type !== "cpu") throw new RuntimeError(`safetensors: Glasstorch loads tensors on the CPU only, not ${dev}`);
}

function tensorOf(bytes: Uint8Array, p: Parsed, e: Entry): Tensor {
  const cpu = new device("cpu");
  const storage = new Storage(e.end - e.begin, GetAllocator("cpu"), cpu);
  new Uint8Array(storage.buffer()).set(bytes.subarray(p.dataStart + e.begin, p.dataStart + e.end));
  return new Tensor(new TensorImpl(storage, e.dtype, e.shape));
}

/** A dict as torch.load returns one: a plain object, or a Map when JavaScript would reorder the names. */
function dictOf(pairs: [string, Tensor][]): Record<string, Tensor> | Map<string, Tensor> {
  const probe: Record<string, Tensor> = {};
  for (const [k, t] of pairs) defineKey(probe, k, t);
  const same = Object.keys(probe).every((k, i) => k === pairs[i][0]);
  return same ? probe : new Map(pairs);
}

/** safetensors.torch.load: tensors from the file's bytes, in the file's order (as load_file returns them). */
export function load(data: Uint8Array | ArrayBuffer): Record<string, Tensor> | Map<string, Tensor> {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const p = parse(bytes);
  const sorted = [...p.entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  return dictOf(sorted.map((e) => [e.name, tensorOf(bytes, p, e)]));
}

/** safetensors.torch.load_file(filename, device="cpu"). */
export function load_file(filename: string, dev: string | device = "cpu"): Record<string, Tensor> | Map<string, Tensor> {
  checkDevice(dev);
  return load(new Uint8Array(readFileSync(filename)));
}

/** safe_open(filename, framework="pt", device="cpu"): keys(), metadata(), get_tensor(name). */
export function safe_open(filename: string, framework = "pt", dev: string | device = "cpu") {
  if (framework !== "pt" && framework !== "torch") throw new SafetensorError(`framework ${framework} is not supported by Glasstorch (use "pt")`);
  checkDevice(dev);
  const bytes = new Uint8Array(readFileSync(filename));
  const p = parse(bytes);
  const byName = new Map(p.entries.map((e) => [e.name, e]));
  return {
    keys: (): string[] => [...p.entries].sort((a, b) => compareNames(a.name, b.name)).map((e) => e.name),
    metadata: (): Record<string, string> | null => p.metadata,
    get_tensor: (name: string): Tensor => {
      const e = byName.get(name);
      if (!e) throw new SafetensorError(`File does not contain tensor ${name}`);
      return tensorOf(bytes, p, e);
    },
  };
}
