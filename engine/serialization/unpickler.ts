// The weights-only unpickler (torch/_weights_only_unpickler.py in PyTorch 2.x): a pickle reader that never runs
// code. It knows only the opcodes a tensor checkpoint uses; GLOBAL resolves names through an allowlist (the
// caller's findGlobal) and nothing else; REDUCE calls only what GLOBAL returned from that allowlist; BUILD only
// fills an OrderedDict's attributes. Hostile input meets limits instead of exhausting memory or the stack.

import { markTuple } from "./py_types.js";
import * as op from "./pickle_opcodes.js";

export class UnpicklingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnpicklingError";
  }
}

/** A function or class from the allowlist: REDUCE may call it with a tuple of arguments. */
export class PyCallable {
  constructor(
    /** module.qualname, as the allowlist names it */
    readonly fullName: string,
    readonly kind: "class" | "function",
    readonly call: (args: unknown[]) => unknown,
  ) {}

  repr(): string {
    return this.kind === "class" ? `<class '${this.fullName}'>` : `<function ${this.fullName.split(".").pop()}>`;
  }
}

/** A dict while unpickling (keys may still turn out not to be strings); converted to JS at the end. */
export class PyDict {
  readonly entries = new Map<unknown, unknown>();
  /** attributes set by BUILD (OrderedDict.__dict__: state_dict's _metadata) */
  readonly attrs = new Map<string, unknown>();
  constructor(readonly ordered: boolean, readonly typeName = ordered ? "collections.OrderedDict" : "dict") {}
}

/** A Python set while unpickling. */
export class PySet {
  readonly items: unknown[] = [];
}

export interface UnpicklerHooks {
  /** Resolves GLOBAL module.name to an allowed value, or throws UnpicklingError. */
  findGlobal(module: string, name: string): unknown;
  /** Resolves BINPERSID ids (storages). */
  persistentLoad(pid: unknown): unknown;
  /** Python type name for error messages of values the hooks created (tensors, storages). */
  typeName?(v: unknown): string | undefined;
}

/** MARK nesting: CPython's pickler cannot produce more than its recursion limit (1000) allows. */
const MAX_MARK_DEPTH = 1000;

export function pyTypeName(v: unknown, hooks?: UnpicklerHooks): string {
  const custom = hooks?.typeName?.(v);
  if (custom) return custom;
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "bigint") return "int";
  if (typeof v === "string") return "str";
  if (v instanceof PyDict) return v.typeName;
  if (v instanceof PySet) return "set";
  if (v instanceof Uint8Array) return "bytes";
  if (v instanceof PyCallable) return v.kind === "class" ? "type" : "function";
  if (Array.isArray(v)) return isTupleArray(v) ? "tuple" : "list";
  return (v as object).constructor?.name ?? "object";
}

const tupleArrays = new WeakSet<unknown[]>();
function makeTuple(items: unknown[]): unknown[] {
  tupleArrays.add(items);
  markTuple(items);
  return items;
}
function isTupleArray(v: unknown[]): boolean {
  return tupleArrays.has(v);
}

export class WeightsUnpickler {
  private pos = 0;
  private readonly view: DataView;
  private stack: unknown[] = [];
  private metastack: unknown[][] = [];
  private readonly memo = new Map<number, unknown>();
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(private readonly data: Uint8Array, private readonly hooks: UnpicklerHooks, start = 0) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.pos = start;
  }

  /** Where the next pickle starts once load() returned (legacy checkpoints are several pickles in a row). */
  get position(): number {
    return this.pos;
  }

  private need(n: number): void {
    if (this.pos + n > this.data.length) throw new UnpicklingError("pickle data was truncated");
  }

  private u8(): number {
    this.need(1);
    return this.data[this.pos++];
  }

  private u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  private readBytes(n: number): Uint8Array {
    this.need(n);
    const b = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  private readline(): string {
    const end = this.data.indexOf(0x0a, this.pos);
    if (end < 0) throw new UnpicklingError("pickle data was truncated");
    const s = this.decodeUtf8(this.data.subarray(this.pos, end));
    this.pos = end + 1;
    return s;
  }

  private decodeUtf8(b: Uint8Array): string {
    try {
      return this.decoder.decode(b);
    } catch {
      throw new UnpicklingError("Failed to load pickle data (UnicodeDecodeError: 'utf-8' codec can't decode the string)");
    }
  }

  private pop(): unknown {
    if (this.stack.length === 0) throw new UnpicklingError("unpickling stack underflow");
    return this.stack.pop();
  }

  private top(): unknown {
    if (this.stack.length === 0) throw new UnpicklingError("unpickling stack underflow");
    return this.stack[this.stack.length - 1];
  }

  private popMark(): unknown[] {
    const items = this.stack;
    const prev = this.metastack.pop();
    if (prev === undefined) throw new UnpicklingError("could not find MARK");
    this.stack = prev;
    return items;
  }

  private memoGet(i: number): unknown {
    if (!this.memo.has(i)) throw new UnpicklingError(`Memo value not found at index ${i}`);
    return this.memo.get(i);
  }

  private typeName(v: unknown): string {
    return pyTypeName(v, this.hooks);
  }

  private setItem(target: unknown, k: unknown, v: unknown, opcode: string): void {
    if (!(target instanceof PyDict)) {
      throw new UnpicklingError(`Can only ${opcode} for dict, collections.OrderedDict, collections.Counter, but got <class '${this.typeName(target)}'>`);
    }
    if (Array.isArray(k) && !isTupleArray(k)) throw new UnpicklingError("unhashable type: 'list'");
    if (k instanceof PyDict) throw new UnpicklingError("unhashable type: 'dict'");
    target.entries.set(k, v);
  }

  private appendTarget(target: unknown): unknown[] {
    if (!Array.isArray(target) || isTupleArray(target)) {
      throw new UnpicklingError(`Can only append to lists, but got <class '${this.typeName(target)}'>`);
    }
    return target;
  }

  load(): unknown {
    for (;;) {
      if (this.pos >= this.data.length) throw new UnpicklingError(this.pos === 0 ? "Ran out of input" : "pickle data was truncated");
      const key = this.data[this.pos++];
      switch (key) {
        case op.PROTO: {
          const proto = this.u8();
          if (proto > 5) throw new UnpicklingError(`unsupported pickle protocol: ${proto}`);
          break;
        }
        case op.STOP:
          return this.pop();
        case op.GLOBAL: {
          const module = this.readline();
          const name = this.readline();
          this.stack.push(this.hooks.findGlobal(module, name));
          break;
        }
        case op.REDUCE: {
          const args = this.pop();
          const func = this.top();
          if (!(func instanceof PyCallable)) {
            throw new UnpicklingError(`Trying to call reduce for unrecognized function ${this.typeName(func) === "str" ? `'${func}'` : `<${this.typeName(func)}>`}`);
          }
          if (!Array.isArray(args) || !isTupleArray(args)) throw new UnpicklingError(`${func.fullName} argument 2 must be a tuple, not ${this.typeName(args)}`);
          this.stack[this.stack.length - 1] = func.call(args);
          break;
        }
        case op.BUILD: {
          const state = this.pop();
          const inst = this.top();
          if (!(inst instanceof PyDict && inst.ordered)) {
            throw new UnpicklingError(
              `Can only build Tensor, Parameter, OrderedDict or types allowlisted via \`add_safe_globals\`, but got <class '${this.typeName(inst)}'>`,
            );
          }
          if (!(state instanceof PyDict)) throw new UnpicklingError(`OrderedDict state must be a dict, not ${this.typeName(state)}`);
          for (const [k, v] of state.entries) {
            if (typeof k !== "string") throw new UnpicklingError("attribute name must be string");
            inst.attrs.set(k, v);
          }
          break;
        }
        case op.APPEND: {
          const item = this.pop();
          this.appendTarget(this.top()).push(item);
          break;
        }
        case op.APPENDS: {
          const items = this.popMark();
          const list = this.appendTarget(this.top());
          for (const it of items) list.push(it);
          break;
        }
        case op.SETITEM: {
          const v = this.pop();
          const k = this.pop();
          this.setItem(this.top(), k, v, "SETITEM");
          break;
        }
        case op.SETITEMS: {
          const items = this.popMark();
          const target = this.top();
          if (items.length % 2 !== 0) throw new UnpicklingError("odd number of items for SETITEMS");
          for (let i = 0; i < items.length; i += 2) this.setItem(target, items[i], items[i + 1], "SETITEMS");
          break;
        }
        case op.MARK:
          if (this.metastack.length >= MAX_MARK_DEPTH) throw new UnpicklingError(`pickle nests deeper than ${MAX_MARK_DEPTH} MARKs`);
          this.metastack.push(this.stack);
          this.stack = [];
          break;
        case op.TUPLE: {
          const items = this.popMark(); // before reading this.stack: popMark swaps it
          this.stack.push(makeTuple(items));
          break;
        }
        case op.TUPLE1:
        case op.TUPLE2:
        case op.TUPLE3: {
          const n = key - op.TUPLE1 + 1;
          if (this.stack.length < n) throw new UnpicklingError("unpickling stack underflow");
          this.stack.push(makeTuple(this.stack.splice(this.stack.length - n, n)));
          break;
        }
        case op.NONE:
          this.stack.push(null);
          break;
        case op.NEWFALSE:
          this.stack.push(false);
          break;
        case op.NEWTRUE:
          this.stack.push(true);
          break;
        case op.EMPTY_TUPLE:
          this.stack.push(makeTuple([]));
          break;
        case op.EMPTY_LIST:
          this.stack.push([]);
          break;
        case op.EMPTY_DICT:
          this.stack.push(new PyDict(false));
          break;
        case op.EMPTY_SET:
          this.stack.push(new PySet());
          break;
        case op.BININT:
          this.need(4);
          this.stack.push(this.view.getInt32(this.pos, true));
          this.pos += 4;
          break;
        case op.BININT1:
          this.stack.push(this.u8());
          break;
        case op.BININT2:
          this.need(2);
          this.stack.push(this.view.getUint16(this.pos, true));
          this.pos += 2;
          break;
        case op.LONG1: {
          const n = this.u8();
          const b = this.readBytes(n);
          let v = 0n;
          for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
          if (n > 0 && b[n - 1] & 0x80) v -= 1n << BigInt(8 * n);
          this.stack.push(v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);
          break;
        }
        case op.BINFLOAT:
          this.need(8);
          this.stack.push(this.view.getFloat64(this.pos, false));
          this.pos += 8;
          break;
        case op.BINUNICODE: {
          const n = this.u32();
          if (n > this.data.length - this.pos) throw new UnpicklingError("String is too long");
          this.stack.push(this.decodeUtf8(this.readBytes(n)));
          break;
        }
        case op.SHORT_BINSTRING: {
          // a Python 2 str: torch.load decodes these as ASCII
          const b = this.readBytes(this.u8());
          let s = "";
          for (const c of b) {
            if (c > 0x7f) throw new UnpicklingError("'ascii' codec can't decode byte in SHORT_BINSTRING");
            s += String.fromCharCode(c);
          }
          this.stack.push(s);
          break;
        }
        case op.BINPERSID: {
          const pid = this.pop();
          if (!(Array.isArray(pid) && isTupleArray(pid)) && typeof pid !== "number") {
            throw new UnpicklingError(`persistent_load id must be tuple or int, but got <class '${this.typeName(pid)}'>`);
          }
          if (Array.isArray(pid) && pid.length > 0 && pid[0] !== "storage") {
            throw new UnpicklingError(`Only persistent_load of storage is allowed, but got <class '${this.typeName(pid[0])}'>`);
          }
          this.stack.push(this.hooks.persistentLoad(pid));
          break;
        }
        case op.BINGET:
          this.stack.push(this.memoGet(this.u8()));
          break;
        case op.LONG_BINGET:
          this.stack.push(this.memoGet(this.u32()));
          break;
        case op.BINPUT:
          this.memo.set(this.u8(), this.top());
          break;
        case op.LONG_BINPUT:
          this.memo.set(this.u32(), this.top());
          break;
        default:
          throw new UnpicklingError(`Unsupported operand ${key}`);
      }
    }
  }
}
