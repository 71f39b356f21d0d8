// Writing zip archives as PyTorch's PyTorchStreamWriter does (caffe2/serialize/inline_container.cc, on miniz):
// every record is STORED under "<archive name>/", its data 64-byte aligned by padding the local header's extra
// field with an "FB" block of 'Z's (so storages can be mmapped), sizes and CRC in a data descriptor after the
// data (flags 0x0808: descriptor + UTF-8 names), and a zip64 end-of-central-directory record always written
// (miniz runs with MZ_ZIP_FLAG_WRITE_ZIP64). Records or offsets past 4 GiB get zip64 extra fields.

import { RuntimeError } from "../c10/Errors.js";
import { crc32 } from "./crc32.js";

const kFieldAlignment = 64;
const U32_MAX = 0xffffffff;

interface Written {
  name: Uint8Array;
  crc: number;
  size: number;
  offset: number;
  flags: number;
}

/** The padding extra field PyTorch's getPadding builds: "FB", the pad length (LE16), then that many 'Z'. */
function padding(cursor: number, nameLen: number, size: number): Uint8Array {
  let start = cursor + 30 + nameLen + 4;
  if (size >= U32_MAX || cursor >= U32_MAX) {
    start += 4;
    if (size >= U32_MAX) start += 16;
    if (cursor >= U32_MAX) start += 8;
  }
  const mod = start % kFieldAlignment;
  const pad = mod === 0 ? 0 : kFieldAlignment - mod;
  const out = new Uint8Array(pad + 4).fill(0x5a);
  out[0] = 0x46; // F
  out[1] = 0x42; // B
  out[2] = pad & 0xff;
  out[3] = pad >> 8;
  return out;
}

export class ZipWriter {
  private chunks: Uint8Array[] = [];
  private cursor = 0;
  private records: Written[] = [];
  private readonly names = new Set<string>();
  private finished: Uint8Array | null = null;

  /** archiveName: the folder every record goes under ("archive" for buffers, the file's base name for paths). */
  constructor(readonly archiveName: string) {
    if (archiveName.length === 0) throw new RuntimeError(`invalid file name: ${archiveName}`);
  }

  private push(b: Uint8Array): void {
    this.chunks.push(b);
    this.cursor += b.length;
  }

  writeRecord(name: string, data: Uint8Array): void {
    if (this.finished) throw new RuntimeError("PytorchStreamWriter: the archive is already finalized");
    if (this.names.has(name)) throw new RuntimeError(`Tried to serialize file twice: ${name}`);
    this.names.add(name);
    const fullName = new TextEncoder().encode(`${this.archiveName}/${name}`);
    const size = data.length;
    const offset = this.cursor;
    const big = size >= U32_MAX || offset >= U32_MAX;
    // local header: sizes and CRC are zero here, the data descriptor after the data carries them
    const z64Local = big ? 4 + (size >= U32_MAX ? 16 : 0) + (offset >= U32_MAX ? 8 : 0) : 0;
    const pad = padding(offset, fullName.length, size);
    const header = new Uint8Array(30);
    const h = new DataView(header.buffer);
    h.setUint32(0, 0x04034b50, true);
    h.setUint16(4, big ? 45 : 0, true); // version needed
    // miniz writes no data descriptor for an empty record (its header's zero sizes and CRC are already right)
    const flags = size === 0 ? 0x0800 : 0x0808;
    h.setUint16(6, flags, true);
    h.setUint16(26, fullName.length, true);
    h.setUint16(28, z64Local + pad.length, true);
    this.push(header);
    this.push(fullName);
    if (z64Local) {
      const z = new Uint8Array(z64Local);
      const zv = new DataView(z.buffer);
      zv.setUint16(0, 1, true);
      zv.setUint16(2, z64Local - 4, true);
      let q = 4;
      if (size >= U32_MAX) { zv.setBigUint64(q, BigInt(size), true); zv.setBigUint64(q + 8, BigInt(size), true); q += 16; }
      if (offset >= U32_MAX) zv.setBigUint64(q, BigInt(offset), true);
      this.push(z);
    }
    this.push(pad);
    this.push(data);
    const crc = crc32(data);
    this.records.push({ name: fullName, crc, size, offset, flags });
    if (size === 0) return;
    const desc = new Uint8Array(size >= U32_MAX ? 24 : 16);
    const d = new DataView(desc.buffer);
    d.setUint32(0, 0x08074b50, true);
    d.setUint32(4, crc, true);
    if (size >= U32_MAX) {
      d.setBigUint64(8, BigInt(size), true);
      d.setBigUint64(16, BigInt(size), true);
    } else {
      d.setUint32(8, size, true);
      d.setUint32(12, size, true);
    }
    this.push(desc);
  }

  hasRecord(name: string): boolean {
    return this.names.has(name);
  }

  /** The central directory, the zip64 end record and locator, and the end record; returns the whole archive. */
  finalize(): Uint8Array {
    if (this.finished) return this.finished;
    const cdOffset = this.cursor;
    for (const r of this.records) {
      const needSize = r.size >= U32_MAX;
      const needOffset = r.offset >= U32_MAX;
      const extraLen = needSize || needOffset ? 4 + (needSize ? 16 : 0) + (needOffset ? 8 : 0) : 0;
      const c = new Uint8Array(46 + r.name.length + extraLen);
      const v = new DataView(c.buffer);
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(6, extraLen ? 45 : 0, true);
      v.setUint16(8, r.flags, true);
      v.setUint32(16, r.crc, true);
      v.setUint32(20, needSize ? U32_MAX : r.size, true);
      v.setUint32(24, needSize ? U32_MAX : r.size, true);
      v.setUint16(28, r.name.length, true);
      v.setUint16(30, extraLen, true);
      v.setUint32(42, needOffset ? U32_MAX : r.offset, true);
      c.set(r.name, 46);
      if (extraLen) {
        let q = 46 + r.name.length;
        v.setUint16(q, 1, true);
        v.setUint16(q + 2, extraLen - 4, true);
        q += 4;
        if (needSize) { v.setBigUint64(q, BigInt(r.size), true); v.setBigUint64(q + 8, BigInt(r.size), true); q += 16; }
        if (needOffset) v.setBigUint64(q, BigInt(r.offset), true);
      }
      this.push(c);
    }
    const cdSize = this.cursor - cdOffset;
    const n = this.records.length;
    const z64At = this.cursor;
    const tail = new Uint8Array(56 + 20 + 22);
    const t = new DataView(tail.buffer);
    t.setUint32(0, 0x06064b50, true);
    t.setBigUint64(4, 44n, true);
    t.setUint16(12, 0x031e, true); // made by: unix, spec 3.0 (miniz's value)
    t.setUint16(14, 45, true); // needed: 4.5 (zip64)
    t.setBigUint64(24, BigInt(n), true);
    t.setBigUint64(32, BigInt(n), true);
    t.setBigUint64(40, BigInt(cdSize), true);
    t.setBigUint64(48, BigInt(cdOffset), true);
    t.setUint32(56, 0x07064b50, true);
    t.setBigUint64(64, BigInt(z64At), true);
    t.setUint32(72, 1, true);
    t.setUint32(76, 0x06054b50, true);
    t.setUint16(84, Math.min(n, 0xffff), true);
    t.setUint16(86, Math.min(n, 0xffff), true);
    t.setUint32(88, Math.min(cdSize, U32_MAX), true);
    t.setUint32(92, Math.min(cdOffset, U32_MAX), true);
    this.push(tail);
    const out = new Uint8Array(this.cursor);
    let p = 0;
    for (const c of this.chunks) {
      out.set(c, p);
      p += c.length;
    }
    this.chunks = [];
    this.finished = out;
    return out;
  }
}
