// Reading a zip archive (a .vsix): its file names from the central directory, and extracting it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { inflateRawSync } from "node:zlib";

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localHeader: number;
}

function centralDirectory(buf: Buffer, file: string): Entry[] {
  // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip archive`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry in ${file}`);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    entries.push({
      name: buf.toString("utf8", at + 46, at + 46 + nameLength),
      method: buf.readUInt16LE(at + 10),
      compressedSize: buf.readUInt32LE(at + 20),
      localHeader: buf.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export function zipEntries(file: string): string[] {
  return centralDirectory(readFileSync(file), file).map((e) => e.name);
}

/** Extracts every file (stored or deflated) under dest. */
export function zipExtract(file: string, dest: string): void {
  const buf = readFileSync(file);
  for (const e of centralDirectory(buf, file)) {
    if (e.name.endsWith("/")) continue;
    const target = path.resolve(dest, e.name);
    if (!target.startsWith(path.resolve(dest) + path.sep)) throw new Error(`${e.name} would land outside ${dest}`);
    const start = e.localHeader + 30 + buf.readUInt16LE(e.localHeader + 26) + buf.readUInt16LE(e.localHeader + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, e.method === 8 ? inflateRawSync(data) : data);
  }
}
