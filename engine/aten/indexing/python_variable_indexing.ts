// Python's t[...] and t[...] = v for TypeScript (torch/csrc/autograd/python_variable_indexing.cpp:
// THPVariable_getitem / THPVariable_setitem): t.get(...indices) and t.set(...indices, value).
//
//   Python                 TypeScript
//   t[0, 1:3]              t.get(0, "1:3")          slices as strings, or torch.indexing.Slice(1, 3)
//   t[..., None, ::2]      t.get("...", null, "::2") (or torch.indexing.Ellipsis / None)
//   t[[0, 2]], t[mask]     t.get([0, 2]), t.get(mask)   lists become int64 (or bool) index tensors
//   t[1:] = 0              t.set("1:", 0)
//
// The single-index shortcuts come first (None, Ellipsis, an int, a slice, a bool); anything else is
// treated as a tuple (a JS array only when NumPy's heuristic says so, treatSequenceAsTuple) and goes
// through applySlicing, then one index / index_put_ for the tensor indices.

import { IndexError, TypeError_ } from "../../c10/Errors.js";
import { ScalarType, bool as boolDtype, int64 } from "../../c10/ScalarType.js";
import { Tensor } from "../core/Tensor.js";
import { empty_impl, wrap } from "../core/empty.js";
import { fill_kernel } from "../cpu/FillKernel.js";
import { tensor as tensorFromData } from "../tensor_new.js";
import { lift_fresh_default } from "../../generated/lift_fresh.js";
import { isTracing, noteApiBinding } from "../../trace/session.js";
import {
  Ellipsis, EllipsisIndexType, Slice, alias, applySlicing, dispatch_index, get_item, set_item, setWithTensors, type TensorIndex,
} from "./TensorIndexing.js";

/** One index as a TypeScript user writes it. A nested array is a Python list. */
export type IndexItem = number | boolean | null | string | Slice | EllipsisIndexType | Tensor | readonly IndexList[];
type IndexList = number | boolean | readonly IndexList[];
export type SetValue = Tensor | number | boolean;

const pyTypeName = (obj: unknown): string =>
  typeof obj === "string" ? "str" : typeof obj === "number" ? "float" : obj === undefined ? "NoneType" : typeof obj === "function" ? "function" : "object";

function invalid_index(obj: unknown): never {
  throw new IndexError(`only integers, slices (\`:\`), ellipsis (\`...\`), None and long or byte Variables are valid indices (got ${pyTypeName(obj)})`);
}

const SLICE_RE = /^\s*(-?\d+)?\s*:\s*(-?\d+)?\s*(?::\s*(-?\d+)?\s*)?$/;

/** "1:3", "::2", ":" → Slice (Python's slice syntax); null for any other string. */
export function parseSlice(s: string): Slice | null {
  const m = SLICE_RE.exec(s);
  if (!m) return null;
  const num = (x: string | undefined) => (x === undefined ? null : Number(x));
  return new Slice(num(m[1]), num(m[2]), num(m[3]));
}

const isEllipsis = (o: unknown) => o === Ellipsis || o === "...";
const isSliceLike = (o: unknown) => o instanceof Slice || (typeof o === "string" && !isEllipsis(o) && parseSlice(o) !== null);
const asSlice = (o: unknown): Slice => (o instanceof Slice ? o : parseSlice(o as string)!);
const isInt = (o: unknown): o is number => typeof o === "number" && Number.isInteger(o);

/** sequenceToVariable (indexing_tensor_from_data): a list of bools is a bool mask, anything else int64; then lift_fresh. */
function sequenceToVariable(self: Tensor, seq: readonly IndexList[]): Tensor {
  const leaves = (v: unknown): unknown[] => (Array.isArray(v) ? v.flatMap(leaves) : [v]);
  const all = leaves(seq);
  const dtype = all.length > 0 && all.every((x) => typeof x === "boolean") ? boolDtype : int64;
  const t = tensorFromData(seq as never, { dtype, device: self.device });
  return lift_fresh_default.call(t) as Tensor;
}

/** The TensorIndex for one element of the index tuple (applySlicing's lambda). */
function toTensorIndex(self: Tensor, obj: unknown): TensorIndex {
  if (isInt(obj)) return { kind: "integer", value: obj };
  if (isSliceLike(obj)) return { kind: "slice", slice: asSlice(obj) };
  if (isEllipsis(obj)) return { kind: "ellipsis" };
  if (obj === null) return { kind: "none" };
  if (typeof obj === "boolean") return { kind: "boolean", value: obj };
  if (obj instanceof Tensor) return { kind: "tensor", tensor: obj };
  if (Array.isArray(obj)) return { kind: "tensor", tensor: sequenceToVariable(self, obj) };
  // any other string is, to Python, a sequence of characters: the tensor constructor refuses it
  if (typeof obj === "string") throw new TypeError_("new(): invalid data type 'str'");
  invalid_index(obj);
}

/** count_specified_dimensions over the raw index objects (before lists become tensors). */
function countSpecified(tuple: readonly unknown[]): number {
  let count = 0;
  for (const obj of tuple) {
    if (obj instanceof Tensor) {
      const st = obj.dtype.scalarType;
      count += st === ScalarType.Byte || st === ScalarType.Bool ? obj.dim() : 1;
    } else if (obj !== null && !isEllipsis(obj) && typeof obj !== "boolean") {
      count++;
    }
  }
  return count;
}

/** treatSequenceAsTuple: NumPy's heuristic for a list used as the whole index. */
function treatSequenceAsTuple(seq: readonly unknown[]): boolean {
  if (seq.length >= 32) return false;
  return seq.some((o) => o instanceof Tensor || Array.isArray(o) || isSliceLike(o) || isEllipsis(o) || o === null);
}

/** wrapTuple: t.get(a, b) is t[a, b]; t.get(x) is t[x], a list counting as a tuple only by the heuristic. */
function wrapTuple(args: readonly unknown[]): unknown[] {
  if (args.length !== 1) return [...args];
  const only = args[0];
  return Array.isArray(only) && treatSequenceAsTuple(only) ? [...only] : [only];
}

/** THPVariable_getitem */
export function getitem(self: Tensor, args: readonly unknown[]): Tensor {
  if (args.length === 1) {
    const index = args[0];
    if (index === null) return get_item(self, [{ kind: "none" }]);
    if (isEllipsis(index)) return get_item(self, [{ kind: "ellipsis" }]);
    if (isInt(index)) return get_item(self, [{ kind: "integer", value: index }]);
    if (isSliceLike(index)) return get_item(self, [{ kind: "slice", slice: asSlice(index) }]);
    if (typeof index === "boolean") return get_item(self, [{ kind: "boolean", value: index }]);
  }
  const tuple = wrapTuple(args);
  const variableIndices: (Tensor | null)[] = [];
  let sliced = applySlicing(self, tuple.map((o) => () => toTensorIndex(self, o)), countSpecified(tuple), variableIndices, false);
  if (variableIndices.length === 0) {
    // ensure we return a shallow copy for things like x[...]
    if (sliced === self) sliced = alias(sliced);
    return sliced;
  }
  return dispatch_index(sliced, variableIndices);
}

/** valueToTensor: a tensor as it is; a number or bool becomes a 0-dim tensor of self's dtype (then lift_fresh). */
function valueToTensor(self: Tensor, value: unknown): Tensor {
  if (value instanceof Tensor) return value;
  if (typeof value === "number" || typeof value === "boolean") {
    const impl = empty_impl([], self.dtype, self.device);
    fill_kernel(impl, Number(value));
    const t = wrap(impl);
    return self.device.type === "cpu" ? (lift_fresh_default.call(t) as Tensor) : t;
  }
  const typeName = `torch.${ScalarType[self.dtype.scalarType]}Tensor`;
  throw new TypeError_(`can't assign a ${pyTypeName(value)} to a ${typeName}`);
}

/** THPVariable_setitem */
export function setitem(self: Tensor, args: readonly unknown[], pyValue: unknown): void {
  const value = valueToTensor(self, pyValue);
  if (args.length === 1) {
    const index = args[0];
    if (index === false) return; // do nothing for false
    if (isEllipsis(index)) return set_item(self, [{ kind: "ellipsis" }], value);
    if (index === null) return set_item(self, [{ kind: "none" }], value);
    if (index === true) return set_item(self, [{ kind: "boolean", value: true }], value);
    if (isInt(index)) return set_item(self, [{ kind: "integer", value: index }], value);
    if (isSliceLike(index)) return set_item(self, [{ kind: "slice", slice: asSlice(index) }], value);
  }
  const tuple = wrapTuple(args);
  setWithTensors(self, tuple.map((o) => () => toTensorIndex(self, o)), countSpecified(tuple), value, false);
}

// ---- Tensor.get / Tensor.set (and Python's dunder names) ----

declare module "../core/Tensor.js" {
  interface Tensor {
    /** t[indices]: t.get(0, "1:3") is Python's t[0, 1:3]. */
    get(...indices: IndexItem[]): Tensor;
    /** t[indices] = value: t.set(0, "1:3", value) is Python's t[0, 1:3] = value. */
    set(...indicesAndValue: [...indices: IndexItem[], value: SetValue]): void;
    __getitem__(...indices: IndexItem[]): Tensor;
    __setitem__(...indicesAndValue: [...indices: IndexItem[], value: SetValue]): void;
  }
}

function set(this: Tensor, ...args: unknown[]): void {
  if (isTracing()) noteApiBinding("Tensor.__setitem__"); // the trace names the binding on the first call it makes
  if (args.length === 0) throw new TypeError_("set() missing the value to assign: t.set(...indices, value)");
  setitem(this, args.slice(0, -1), args[args.length - 1]);
}

function get(this: Tensor, ...args: unknown[]): Tensor {
  if (isTracing()) noteApiBinding("Tensor.__getitem__");
  return getitem(this, args);
}

Object.assign(Tensor.prototype, { get, set, __getitem__: get, __setitem__: set });
