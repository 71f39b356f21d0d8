// torch.nn.utils.rnn (torch/nn/utils/rnn.py, PyTorch 1.13): PackedSequence and the functions that build
// and undo it. The packing itself is aten (engine/ops/native_functions/packed.yaml): _pack_padded_sequence,
// _pad_packed_sequence and pad_sequence, as PyTorch calls them through torch._VF / torch._C._nn; the
// sorting, permutations and checks below are rnn.py's Python, op for op.
//
// PackedSequence is a namedtuple in Python; here it is a class with the four fields, indexable p[0]..p[3],
// iterable (`const [data, batch_sizes] = packed`), length 4, _fields / _asdict / _replace, and
// namedtuple's repr. The CUDA / pinned-memory methods (cuda, pin_memory, is_pinned) are absent.

import { Tensor } from "../../aten/core/Tensor.js";
import { AssertionError, RuntimeError, ValueError } from "../../c10/Errors.js";
import { isOptionsObject } from "../../aten/core/TensorOptions.js";
import * as T from "../../generated/torch_functions.js";
import { float16, float32, float64, int8, int16, int32, int64, uint8 } from "../../c10/ScalarType.js";
import { contiguous_format } from "../../c10/MemoryFormat.js";
import { arange } from "../../aten/RangeFactories.js";
import { tensor } from "../../aten/tensor_new.js";
import * as NN from "../../generated/torch_nn_functions.js";
import { _pack_padded_sequence_default } from "../../generated/_pack_padded_sequence.js";
import { _pad_packed_sequence_default } from "../../generated/_pad_packed_sequence.js";
import { bindArgs } from "../_bind.js";

const FIELDS = ["data", "batch_sizes", "sorted_indices", "unsorted_indices"] as const;

const bind = <R>(optional: Tensor | null, fn: (t: Tensor) => R): R | null => (optional === null ? null : fn(optional));

/** _packed_sequence_init_args: unsorted_indices defaults to the inverse of sorted_indices; batch_sizes must be on the CPU. */
function initArgs(data: unknown, batch_sizes: Tensor | null, sorted_indices: Tensor | null, unsorted_indices: Tensor | null): [Tensor, Tensor, Tensor | null, Tensor | null] {
  if (unsorted_indices === null) unsorted_indices = invert_permutation(sorted_indices);
  if (batch_sizes !== null) {
    if (batch_sizes.device.type !== "cpu") {
      throw new ValueError(
        "batch_sizes should always be on CPU. Instances of PackedSequence should never be created manually. They should be instantiated by " +
          "functions like pack_sequence and pack_padded_sequences in nn.utils.rnn. https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence",
      );
    }
    return [data as Tensor, batch_sizes, sorted_indices, unsorted_indices];
  }
  // PackedSequence((data, batch_sizes), sorted_indices=...)
  if (!(Array.isArray(data) && data.length === 2)) throw new AssertionError("");
  return [data[0], data[1], sorted_indices, unsorted_indices];
}

/** torch.nn.utils.rnn.PackedSequence(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None). */
export class PackedSequence {
  static readonly _fields = FIELDS;
  declare readonly data: Tensor;
  declare readonly batch_sizes: Tensor;
  declare readonly sorted_indices: Tensor | null;
  declare readonly unsorted_indices: Tensor | null;

  constructor(...args: unknown[]) {
    const a = bindArgs("PackedSequence.__new__", args, [["data"], ["batch_sizes", null], ["sorted_indices", null], ["unsorted_indices", null]]);
    const values = initArgs(a.data, a.batch_sizes, a.sorted_indices, a.unsorted_indices);
    FIELDS.forEach((f, i) => Object.defineProperty(this, f, { value: values[i], enumerable: true }));
    values.forEach((v, i) => Object.defineProperty(this, i, { value: v, enumerable: false }));
  }

  get _fields(): readonly string[] {
    return FIELDS;
  }

  /** len() of the namedtuple. */
  get length(): number {
    return 4;
  }

  *[Symbol.iterator](): IterableIterator<Tensor | null> {
    for (const f of FIELDS) yield this[f];
  }

  _asdict(): Record<string, Tensor | null> {
    return Object.fromEntries(FIELDS.map((f) => [f, this[f]]));
  }

  /** namedtuple._replace: a new PackedSequence with some fields replaced (the constructor runs again, as in Python). */
  _replace(kw: Partial<Record<(typeof FIELDS)[number], Tensor | null>>): PackedSequence {
    for (const k of Object.keys(kw)) if (!(FIELDS as readonly string[]).includes(k)) throw new ValueError(`Got unexpected field names: ['${k}']`);
    const d = { ...this._asdict(), ...kw };
    return new PackedSequence(d.data, d.batch_sizes, d.sorted_indices, d.unsorted_indices);
  }

  /** Moves / casts data (and the index tensors to data's device); `this` when data is unchanged. batch_sizes stays on the CPU. */
  to(...args: unknown[]): PackedSequence {
    const data = (this.data as any).to(...args) as Tensor;
    if (data === this.data) return this;
    const last = args[args.length - 1];
    const kwargs = isOptionsObject(last) ? Object.fromEntries(Object.entries(last).filter(([k]) => k !== "device" && k !== "dtype")) : {};
    const extra = Object.keys(kwargs).length ? [kwargs] : [];
    const sorted_indices = bind(this.sorted_indices, (t) => (t as any).to(data.device, ...extra) as Tensor);
    const unsorted_indices = bind(this.unsorted_indices, (t) => (t as any).to(data.device, ...extra) as Tensor);
    return new PackedSequence(data, this.batch_sizes, sorted_indices, unsorted_indices);
  }

  cpu(...args: unknown[]): PackedSequence {
    const ex = (tensor([], { dtype: this.data.dtype, device: this.data.device }) as any).to(...args) as Tensor;
    if (ex.device.type === "cpu") return this.to(...args);
    const last = args[args.length - 1];
    if (isOptionsObject(last)) return this.to(...args.slice(0, -1), { ...last, device: "cpu" });
    return this.to(...args, { device: "cpu" });
  }

  double(): PackedSequence {
    return this.to({ dtype: float64 });
  }
  float(): PackedSequence {
    return this.to({ dtype: float32 });
  }
  half(): PackedSequence {
    return this.to({ dtype: float16 });
  }
  long(): PackedSequence {
    return this.to({ dtype: int64 });
  }
  int(): PackedSequence {
    return this.to({ dtype: int32 });
  }
  short(): PackedSequence {
    return this.to({ dtype: int16 });
  }
  char(): PackedSequence {
    return this.to({ dtype: int8 });
  }
  byte(): PackedSequence {
    return this.to({ dtype: uint8 });
  }

  /** True if data is stored on a GPU. */
  get is_cuda(): boolean {
    return (this.data as any).is_cuda;
  }

  /** namedtuple's repr: PackedSequence(data=tensor(...), batch_sizes=tensor(...), sorted_indices=None, ...). */
  toString(): string {
    const r = (v: Tensor | null) => (v === null ? "None" : String(v));
    return `PackedSequence(${FIELDS.map((f) => `${f}=${r(this[f])}`).join(", ")})`;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** The inverse permutation: output[permutation[i]] = i (None for None). */
export function invert_permutation(permutation: Tensor | null): Tensor | null {
  if (permutation === null) return null;
  // legacy_contiguous_format in PyTorch: contiguous here (Glasstorch has no legacy format; a permutation is 1-D)
  const output = T.empty_like(permutation, { memory_format: contiguous_format }) as Tensor;
  (output as any).scatter_(0, permutation, arange(0, permutation.numel(), { device: permutation.device }));
  return output;
}

/** torch.as_tensor(lengths, dtype=torch.int64): a tensor is cast (no copy when it is int64 already), a list becomes one. */
function asInt64(lengths: unknown): Tensor {
  if (lengths instanceof Tensor) return (lengths as any).to(int64) as Tensor;
  return tensor(lengths as number[], { dtype: int64 }) as Tensor;
}

/** pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True). */
export function pack_padded_sequence(...args: unknown[]): PackedSequence {
  const a = bindArgs("pack_padded_sequence", args, [["input"], ["lengths"], ["batch_first", false], ["enforce_sorted", true]]);
  let input = a.input as Tensor;
  let lengths = asInt64(a.lengths);
  let sorted_indices: Tensor | null = null;
  if (!a.enforce_sorted) {
    [lengths, sorted_indices] = T.sort(lengths, { descending: true }) as unknown as [Tensor, Tensor];
    sorted_indices = (sorted_indices as any).to(input.device) as Tensor;
    const batch_dim = a.batch_first ? 0 : 1;
    input = (input as any).index_select(batch_dim, sorted_indices) as Tensor;
  }
  const [data, batch_sizes] = _pack_padded_sequence_default.call(input, lengths, a.batch_first) as [Tensor, Tensor];
  return new PackedSequence(data, batch_sizes, sorted_indices, null);
}

/** pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None) -> [padded, lengths]. */
export function pad_packed_sequence(...args: unknown[]): [Tensor, Tensor] {
  const a = bindArgs("pad_packed_sequence", args, [["sequence"], ["batch_first", false], ["padding_value", 0.0], ["total_length", null]]);
  const sequence = a.sequence as PackedSequence;
  let max_seq_length = sequence.batch_sizes.size(0);
  if (a.total_length !== null) {
    if (a.total_length < max_seq_length) {
      throw new ValueError(
        `Expected total_length to be at least the length of the longest sequence in input, but got total_length=${a.total_length} and max sequence length being ${max_seq_length}`,
      );
    }
    max_seq_length = a.total_length;
  }
  const [padded_output, lengths] = _pad_packed_sequence_default.call(sequence.data, sequence.batch_sizes, a.batch_first, a.padding_value, max_seq_length) as [Tensor, Tensor];
  const unsorted_indices = sequence.unsorted_indices;
  if (unsorted_indices !== null) {
    const batch_dim = a.batch_first ? 0 : 1;
    // lengths[unsorted_indices.cpu()]
    return [(padded_output as any).index_select(batch_dim, unsorted_indices), (lengths as any).get((unsorted_indices as any).to("cpu"))];
  }
  return [padded_output, lengths];
}

/** Python's type(x) as printed in pad_sequence's error. */
function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return "<class 'NoneType'>";
  if (typeof v === "number") return Number.isInteger(v) ? "<class 'int'>" : "<class 'float'>";
  if (typeof v === "boolean") return "<class 'bool'>";
  return `<class '${(v as object).constructor?.name ?? "object"}'>`;
}

/** pad_sequence(sequences, batch_first=False, padding_value=0.0): torch._C._nn.pad_sequence on the sequences as a tuple. */
export function pad_sequence(...args: unknown[]): Tensor {
  const a = bindArgs("pad_sequence", args, [["sequences"], ["batch_first", false], ["padding_value", 0.0]]);
  const s = a.sequences;
  let sequences: Tensor[];
  if (s instanceof Tensor) sequences = (s as any).unbind(0) as Tensor[]; // tuple(tensor) iterates over dim 0
  else if (s !== null && s !== undefined && typeof (s as any)[Symbol.iterator] === "function" && typeof s !== "string") sequences = [...(s as Iterable<Tensor>)];
  else throw new RuntimeError(`pad_sequence: Expected iterable for input sequences, but got arg of type: ${pyTypeName(s)}`);
  return NN.pad_sequence(sequences, a.batch_first, a.padding_value) as Tensor;
}

/** unpad_sequence(padded_sequences, lengths, batch_first=False): the sequences as a list. Like PyTorch 1.13, it
 * transposes padded_sequences IN PLACE (transpose_) when batch_first is False. */
export function unpad_sequence(...args: unknown[]): Tensor[] {
  const a = bindArgs("unpad_sequence", args, [["padded_sequences"], ["lengths"], ["batch_first", false]]);
  const padded = a.padded_sequences as Tensor;
  if (!a.batch_first) (padded as any).transpose_(0, 1);
  const max_length = padded.shape[1];
  const idx = arange(max_length) as Tensor;
  const seqs = (padded as any).unbind(0) as Tensor[];
  const lengths: unknown[] = a.lengths instanceof Tensor ? ((a.lengths as any).unbind(0) as Tensor[]) : [...(a.lengths as Iterable<unknown>)];
  const out: Tensor[] = [];
  for (let i = 0; i < Math.min(seqs.length, lengths.length); i++) {
    const mask = (idx as any).lt(lengths[i]) as Tensor;
    out.push((seqs[i] as any).get(mask) as Tensor);
  }
  return out;
}

/** pack_sequence(sequences, enforce_sorted=True): pad_sequence, then pack_padded_sequence. */
export function pack_sequence(...args: unknown[]): PackedSequence {
  const a = bindArgs("pack_sequence", args, [["sequences"], ["enforce_sorted", true]]);
  const sequences = [...(a.sequences as Iterable<Tensor>)];
  const lengths = tensor(sequences.map((v) => v.size(0))) as Tensor; // torch.as_tensor([v.size(0) for v in sequences])
  return pack_padded_sequence(pad_sequence(sequences), lengths, { enforce_sorted: a.enforce_sorted });
}

/** unpack_sequence(packed_sequences): the sequences as a list, in their original order. */
export function unpack_sequence(packed_sequences: PackedSequence): Tensor[] {
  const [padded_sequences, lengths] = pad_packed_sequence(packed_sequences, { batch_first: true });
  return unpad_sequence(padded_sequences, lengths, { batch_first: true });
}
