// Reading zip archives as PyTorch's PyTorchStreamReader does (caffe2/serialize/inline_container.cc, on miniz):
// the central directory is the truth; every record sits under one top-level folder (the archive name), which
// record names leave out. Entries are STORED as torch.save writes them, or DEFLATEd if a zip tool recompressed
// them; zip64 end records and extra fields are followed for archives or records past 4 GiB.

import { inflateRawSync } from "node:zlib";
import { RuntimeError } from "../c10/Errors.js";
import { crc32 } from "./crc32.js";

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const U32_MAX = 0xffffffff;

export interface ZipEntry {
  /** The full name inside the archive, archive folder included. */
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** The first bytes of every zip file (a local header); torch.load tells zip from legacy checkpoints by them. */
export function isZipFile(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function fail(what: string, why: string): never {
  throw new RuntimeError(`PytorchStreamReader failed ${what}: ${why}`);
}

function u64(view: DataView, at: number): number {
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) fail("reading zip archive", "invalid header or archive is corrupted");
  return Number(v);
}

export class ZipReader {
  readonly entries: ZipEntry[] = [];
  private readonly byName = new Map<string, ZipEntry>();
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.readCentralDirectory();
  }

  private readCentralDirectory(): void {
    const { view, bytes } = this;
    const what = "reading zip archive";
    // the end-of-central-directory record: 22 bytes plus a comment of at most 65535 bytes, searched backwards
    let eocd = -1;
    for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - 0xffff; i--) {
      if (view.getUint32(i, true) === SIG_EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) fail(what, "failed finding central directory");
    let count = view.getUint16(eocd + 10, true);
    let cdSize = view.getUint32(eocd + 12, true);
    let cdOffset = view.getUint32(eocd + 16, true);
    const locator = eocd - 20;
    if (locator >= 0 && view.getUint32(locator, true) === SIG_ZIP64_LOCATOR) {
      const z64 = u64(view, locator + 8);
      if (z64 + 56 > bytes.length || view.getUint32(z64, true) !== SIG_ZIP64_EOCD) fail(what, "invalid header or archive is corrupted");
      count = u64(view, z64 + 32);
      cdSize = u64(view, z64 + 40);
      cdOffset = u64(view, z64 + 48);
    }
    if (cdOffset + cdSize > bytes.length) fail(what, "invalid header or archive is corrupted");
    let p = cdOffset;
    const decoder = new TextDecoder("utf-8", { fatal: false });
    for (let i = 0; i < count; i++) {
      if (p + 46 > bytes.length || view.getUint32(p, true) !== SIG_CENTRAL) fail(what, "invalid header or archive is corrupted");
      const method = view.getUint16(p + 10, true);
      const crc = view.getUint32(p + 16, true);
      let compressedSize = view.getUint32(p + 20, true);
      let size = view.getUint32(p + 24, true);
      const nameLen = view.getUint16(p + 28, true);
      const extraLen = view.getUint16(p + 30, true);
      const commentLen = view.getUint16(p + 32, true);
      let localHeaderOffset = view.getUint32(p + 42, true);
      const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
      // zip64 extra field (id 1): the 8-byte values, in this order, of whichever 32-bit fields are saturated
      let e = p + 46 + nameLen;
      const extraEnd = e + extraLen;
      while (e + 4 <= extraEnd) {
        const id = view.getUint16(e, true);
        const len = view.getUint16(e + 2, true);
        if (id === 1) {
          let q = e + 4;
          if (size === U32_MAX) { size = u64(view, q); q += 8; }
          if (compressedSize === U32_MAX) { compressedSize = u64(view, q); q += 8; }
          if (localHeaderOffset === U32_MAX) { localHeaderOffset = u64(view, q); q += 8; }
        }
        e += 4 + len;
      }
      const entry: ZipEntry = { name, method, crc, compressedSize, size, localHeaderOffset };
      this.entries.push(entry);
      this.byName.set(name, entry);
      p = extraEnd + commentLen;
    }
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Where an entry's data starts: past its local header (whose extra field may differ from the central one). */
  dataOffset(entry: ZipEntry): number {
    const at = entry.localHeaderOffset;
    if (at + 30 > this.bytes.length || this.view.getUint32(at, true) !== SIG_LOCAL) fail(`reading file ${entry.name}`, "invalid header or archive is corrupted");
    return at + 30 + this.view.getUint16(at + 26, true) + this.view.getUint16(at + 28, true);
  }

  /** An entry's bytes: a view into the archive for STORED entries, inflated for DEFLATE; the CRC is checked. */
  read(name: string): Uint8Array {
    const entry = this.byName.get(name);
    if (!entry) fail(`locating file ${name}`, "file not found");
    const what = `reading file ${name}`;
    const start = this.dataOffset(entry);
    if (start + entry.compressedSize > this.bytes.length) fail(what, "invalid header or archive is corrupted");
    const raw = this.bytes.subarray(start, start + entry.compressedSize);
    let data: Uint8Array;
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) fail(what, "invalid header or archive is corrupted");
      data = raw;
    } else if (entry.method === 8) {
      try {
        data = new Uint8Array(inflateRawSync(raw, { maxOutputLength: Math.max(entry.size, 1) }));
      } catch {
        fail(what, "decompression failed or archive is corrupted");
      }
      if (data.length !== entry.size) fail(what, "decompression failed or archive is corrupted");
    } else {
      fail(what, "unsupported method");
    }
    if (crc32(data) !== entry.crc) fail(what, "CRC-32 check failed");
    return data;
  }
}
