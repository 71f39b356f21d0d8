// A protocol-2 pickle writer that emits what CPython's Pickler emits for the same values (Lib/pickle.py):
// memo puts after every container, string and global; SETITEMS/APPENDS in batches of 1000 (SETITEM/APPEND for
// a batch of one); TUPLE1-3 for short tuples; BININT1/BININT2/BININT/LONG1 by magnitude; big-endian BINFLOAT.
// JavaScript strings have no identity, so equal strings share one memo entry (Python shares only the same object).

import { RuntimeError } from "../c10/Errors.js";
import * as op from "./pickle_opcodes.js";
import { isOrderedDict, isTuple } from "./py_types.js";

const BATCHSIZE = 1000;
/** Python's default recursion limit: CPython's pickler fails past it too. */
const MAX_DEPTH = 1000;

/** A module-level Python name (a class or function) written with GLOBAL. */
export class PyGlobal {
  constructor(readonly module: string, readonly name: string) {}
}

/** Lets the caller write objects the generic pickler does not know (tensors, dtypes, devices). */
export type Reducer = (obj: unknown, p: Pickler) => boolean;

export class Pickler {
  private out: Uint8Array = new Uint8Array(1024);
  private len = 0;
  private memo = new Map<unknown, number>();
  private depth = 0;

  constructor(private readonly reducer: Reducer) {}

  dump(obj: unknown): Uint8Array {
    this.byte(op.PROTO);
    this.byte(2);
    this.save(obj);
    this.byte(op.STOP);
    return this.out.slice(0, this.len);
  }

  // ---- raw output ----

  private reserve(n: number): void {
    if (this.len + n <= this.out.length) return;
    let cap = this.out.length * 2;
    while (cap < this.len + n) cap *= 2;
    const grown = new Uint8Array(cap);
    grown.set(this.out.subarray(0, this.len));
    this.out = grown;
  }

  byte(b: number): void {
    this.reserve(1);
    this.out[this.len++] = b;
  }

  private bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.out.set(b, this.len);
    this.len += b.length;
  }

  private u32(v: number): void {
    this.reserve(4);
    new DataView(this.out.buffer).setUint32(this.len, v, true);
    this.len += 4;
  }

  // ---- memo ----

  private memoize(key: unknown): void {
    const idx = this.memo.size;
    this.memo.set(key, idx);
    if (idx < 256) {
      this.byte(op.BINPUT);
      this.byte(idx);
    } else {
      this.byte(op.LONG_BINPUT);
      this.u32(idx);
    }
  }

  /** Writes a memo get if `key` was saved before; returns whether it did. */
  private getMemo(key: unknown): boolean {
    const idx = this.memo.get(key);
    if (idx === undefined) return false;
    if (idx < 256) {
      this.byte(op.BINGET);
      this.byte(idx);
    } else {
      this.byte(op.LONG_BINGET);
      this.u32(idx);
    }
    return true;
  }

  // ---- building blocks for reducers ----

  saveGlobal(module: string, name: string): void {
    const key = `\u0000global:${module}\n${name}`;
    if (this.getMemo(key)) return;
    this.byte(op.GLOBAL);
    this.bytes(new TextEncoder().encode(`${module}\n${name}\n`));
    this.memoize(key);
  }

  /** save_reduce: callable, args tuple, REDUCE, then memoize `obj` (when given) so later references BINGET it. */
  saveReduce(func: PyGlobal, args: readonly unknown[], obj?: object): void {
    this.saveGlobal(func.module, func.name);
    this.saveTuple(args);
    this.byte(op.REDUCE);
    if (obj !== undefined) this.memoize(obj);
  }

  /** BINPERSID: the id tuple, pickled in place of the object (persistent objects are not memoized). */
  savePersistentId(pid: readonly unknown[]): void {
    this.saveTuple(pid);
    this.byte(op.BINPERSID);
  }

  /** Memo put for a value only the pickle refers to (a tuple built by hand): takes the next index. */
  memoizeNew(): void {
    this.memoize({});
  }

  /** Memo put for `obj` (after a hand-built REDUCE), so later references to it BINGET. */
  memoizeObject(obj: object): void {
    this.memoize(obj);
  }

  saveBuild(state: unknown): void {
    this.save(state);
    this.byte(op.BUILD);
  }

  /** Memoized lookup for reducers: BINGET if `obj` was written before. */
  alreadySaved(obj: object): boolean {
    return this.getMemo(obj);
  }

  // ---- values ----

  save(obj: unknown): void {
    if (++this.depth > MAX_DEPTH) throw new RuntimeError("maximum recursion depth exceeded while pickling an object");
    try {
      this.saveInner(obj);
    } finally {
      this.depth--;
    }
  }

  private saveInner(obj: unknown): void {
    if (obj === null || obj === undefined) return this.byte(op.NONE);
    switch (typeof obj) {
      case "boolean":
        return this.byte(obj ? op.NEWTRUE : op.NEWFALSE);
      case "number":
        return Number.isInteger(obj) && !Object.is(obj, -0) && Number.isSafeInteger(obj) ? this.saveInt(BigInt(obj)) : this.saveFloat(obj);
      case "bigint":
        return this.saveInt(obj);
      case "string":
        return this.saveStr(obj);
    }
    if (obj instanceof PyGlobal) return this.saveGlobal(obj.module, obj.name);
    if (this.getMemo(obj)) return;
    if (this.reducer(obj, this)) return;
    if (Array.isArray(obj)) return isTuple(obj) ? this.saveTuple(obj) : this.saveList(obj);
    if (obj instanceof Map) return this.saveDict(obj, [...obj.entries()], isOrderedDict(obj));
    if (obj instanceof Set) return this.saveReduce(new PyGlobal("__builtin__", "set"), [[...obj]], obj);
    if (obj instanceof Uint8Array) {
      // protocol 2 writes bytes as _codecs.encode(str, 'latin1')
      let s = "";
      for (const b of obj) s += String.fromCharCode(b);
      return this.saveReduce(new PyGlobal("_codecs", "encode"), [s, "latin1"], obj);
    }
    const proto = Object.getPrototypeOf(obj);
    if (typeof obj === "object" && (proto === Object.prototype || proto === null)) {
      return this.saveDict(obj, Object.entries(obj), isOrderedDict(obj));
    }
    const what = typeof obj === "function" ? `function ${(obj as { name?: string }).name || "<anonymous>"}` : `${(obj as object).constructor?.name ?? "object"} object`;
    throw new RuntimeError(
      `Can't pickle ${what}: torch.save writes tensors, numbers, strings, booleans, null, arrays, tuples, Maps, Sets, ` +
        `Uint8Arrays, plain objects, dtypes, devices and torch.Size`,
    );
  }

  private saveInt(v: bigint): void {
    if (v >= 0n && v <= 0xffn) {
      this.byte(op.BININT1);
      this.byte(Number(v));
    } else if (v >= 0n && v <= 0xffffn) {
      this.byte(op.BININT2);
      this.byte(Number(v) & 0xff);
      this.byte(Number(v) >> 8);
    } else if (v >= -(2n ** 31n) && v < 2n ** 31n) {
      this.byte(op.BININT);
      this.reserve(4);
      new DataView(this.out.buffer).setInt32(this.len, Number(v), true);
      this.len += 4;
    } else {
      // LONG1: little-endian two's complement, as few bytes as hold the sign (pickle.encode_long)
      const out: number[] = [];
      let x = v;
      for (;;) {
        out.push(Number(x & 0xffn));
        x >>= 8n;
        const signBitSet = (out[out.length - 1] & 0x80) !== 0;
        if ((x === 0n && !signBitSet) || (x === -1n && signBitSet)) break;
      }
      this.byte(op.LONG1);
      this.byte(out.length);
      this.bytes(Uint8Array.from(out));
    }
  }

  private saveFloat(v: number): void {
    this.byte(op.BINFLOAT);
    this.reserve(8);
    new DataView(this.out.buffer).setFloat64(this.len, v, false);
    this.len += 8;
  }

  private saveStr(s: string): void {
    if (this.getMemo(s)) return;
    const b = new TextEncoder().encode(s);
    this.byte(op.BINUNICODE);
    this.u32(b.length);
    this.bytes(b);
    this.memoize(s);
  }

  saveTuple(items: readonly unknown[]): void {
    const n = items.length;
    if (n === 0) return this.byte(op.EMPTY_TUPLE);
    if (n <= 3) {
      for (const it of items) this.save(it);
      this.byte([op.TUPLE1, op.TUPLE2, op.TUPLE3][n - 1]);
    } else {
      this.byte(op.MARK);
      for (const it of items) this.save(it);
      this.byte(op.TUPLE);
    }
    this.memoize(items);
  }

  private saveList(items: readonly unknown[]): void {
    this.byte(op.EMPTY_LIST);
    this.memoize(items);
    for (let i = 0; i < items.length; i += BATCHSIZE) {
      const batch = items.slice(i, i + BATCHSIZE);
      if (batch.length === 1) {
        this.save(batch[0]);
        this.byte(op.APPEND);
      } else {
        this.byte(op.MARK);
        for (const it of batch) this.save(it);
        this.byte(op.APPENDS);
      }
    }
  }

  private saveDict(obj: object, entries: [unknown, unknown][], ordered: boolean): void {
    if (ordered) {
      // OrderedDict.__reduce__: (OrderedDict, (), state, None, iter(items)); state holds _metadata when set
      this.saveGlobal("collections", "OrderedDict");
      this.byte(op.EMPTY_TUPLE);
      this.byte(op.REDUCE);
    } else {
      this.byte(op.EMPTY_DICT);
    }
    this.memoize(obj);
    for (let i = 0; i < entries.length; i += BATCHSIZE) {
      const batch = entries.slice(i, i + BATCHSIZE);
      if (batch.length === 1) {
        this.save(batch[0][0]);
        this.save(batch[0][1]);
        this.byte(op.SETITEM);
      } else {
        this.byte(op.MARK);
        for (const [k, v] of batch) {
          this.save(k);
          this.save(v);
        }
        this.byte(op.SETITEMS);
      }
    }
    const metadata = (obj as { _metadata?: unknown })._metadata;
    if (ordered && metadata !== undefined && !Object.prototype.propertyIsEnumerable.call(obj, "_metadata")) {
      this.saveBuild({ _metadata: metadata });
    }
  }
}
