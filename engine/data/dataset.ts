// torch/utils/data/dataset.py: Dataset, IterableDataset, TensorDataset, ConcatDataset, ChainDataset,
// Subset and random_split. Python's __getitem__/__len__ keep their names: DataLoader and the samplers
// call them (arrays work as map-style datasets too, through len()/getitem()).

import type { Tensor } from "../aten/core/Tensor.js";
import { type Generator, default_generator } from "../aten/Generator.js";
import { randperm } from "../aten/Distributions.js";
import { ValueError } from "../c10/Errors.js";
import { select } from "../generated/torch_functions.js";
import { len, getitem } from "./_common.js";
import { encodeTensor, decodeTensor, type EncodedTensor } from "./_transfer.js";
import { workerSpecOf, noWorkerSpec, type WorkerSpec } from "./_worker_spec.js";

/** A map-style dataset: subclasses define __getitem__(index) and usually __len__(). */
export abstract class Dataset<T = unknown> {
  abstract __getitem__(index: number): T;

  /** dataset + other in Python: a ConcatDataset of both. */
  __add__(other: Dataset<T>): ConcatDataset<T> {
    return new ConcatDataset<T>([this, other]);
  }

  /**
   * How a worker thread rebuilds this dataset (Glasstorch's stand-in for pickling it): a module URL,
   * the name of an export there and its arguments, all structured-clonable. Override for
   * num_workers > 0; the default refuses with an explanation.
   */
  __worker_spec__(): WorkerSpec {
    return noWorkerSpec(this);
  }
}

const ITERABLE_BRAND = Symbol.for("glasstorch.utils.data.IterableDataset");

/**
 * isinstance(x, IterableDataset), by a registry-wide symbol so that datasets built on another copy of
 * the engine (a user module importing the compiled package while tests run the sources) are recognised.
 */
export function isIterableDataset(x: unknown): boolean {
  return x !== null && typeof x === "object" && (x as Record<symbol, unknown>)[ITERABLE_BRAND] === true;
}

/** An iterable-style dataset: subclasses define [Symbol.iterator]. */
export abstract class IterableDataset<T = unknown> {
  abstract [Symbol.iterator](): Iterator<T>;

  get [ITERABLE_BRAND](): boolean {
    return true;
  }

  __add__(other: IterableDataset<T>): ChainDataset<T> {
    return new ChainDataset<T>([this, other]);
  }

  __worker_spec__(): WorkerSpec {
    return noWorkerSpec(this);
  }
}

/** Samples are the tensors' rows: tuple(tensor[index] for tensor in tensors), as an array. */
export class TensorDataset extends Dataset<Tensor[]> {
  readonly tensors: Tensor[];

  constructor(...tensors: Tensor[]) {
    super();
    if (!tensors.every((t) => tensors[0].size(0) === t.size(0))) throw new AssertionError("Size mismatch between tensors");
    this.tensors = tensors;
  }

  __getitem__(index: number): Tensor[] {
    return this.tensors.map((t) => select(t, 0, index));
  }

  __len__(): number {
    return this.tensors[0].size(0);
  }

  /** The tensors travel as their (contiguous) bytes. */
  override __worker_spec__(): WorkerSpec {
    return { module: import.meta.url, name: "TensorDataset", args: this.tensors.map((t) => encodeTensor(t)) };
  }

  static __from_worker__(args: EncodedTensor[]): TensorDataset {
    return new TensorDataset(...args.map((e) => decodeTensor(e)));
  }
}

/** Python's AssertionError (the dataset classes use assert statements). */
export class AssertionError extends Error {
  override name = "AssertionError";
}

/** A concatenation of map-style datasets; cumulative_sizes locates the dataset of an index. */
export class ConcatDataset<T = unknown> extends Dataset<T> {
  readonly datasets: unknown[];
  readonly cumulative_sizes: number[];

  static cumsum(sequence: Iterable<unknown>): number[] {
    const r: number[] = [];
    let s = 0;
    for (const e of sequence) {
      const l = len(e);
      r.push(l + s);
      s += l;
    }
    return r;
  }

  constructor(datasets: Iterable<unknown>) {
    super();
    this.datasets = [...datasets];
    if (this.datasets.length === 0) throw new AssertionError("datasets should not be an empty iterable");
    for (const d of this.datasets) {
      if (isIterableDataset(d)) throw new AssertionError("ConcatDataset does not support IterableDataset");
    }
    this.cumulative_sizes = ConcatDataset.cumsum(this.datasets);
  }

  __len__(): number {
    return this.cumulative_sizes[this.cumulative_sizes.length - 1];
  }

  __getitem__(idx: number): T {
    if (idx < 0) {
      if (-idx > this.__len__()) throw new ValueError("absolute value of index should not exceed dataset length");
      idx = this.__len__() + idx;
    }
    const dataset_idx = bisect_right(this.cumulative_sizes, idx);
    const sample_idx = dataset_idx === 0 ? idx : idx - this.cumulative_sizes[dataset_idx - 1];
    return getitem<T>(this.datasets[dataset_idx], sample_idx);
  }

  override __worker_spec__(): WorkerSpec {
    return { module: import.meta.url, name: "ConcatDataset", args: this.datasets.map(workerSpecOf) };
  }

  static async __from_worker__(args: WorkerSpec[], build: (s: WorkerSpec) => Promise<unknown>): Promise<ConcatDataset> {
    return new ConcatDataset(await Promise.all(args.map(build)));
  }
}

/** Chains iterable datasets, streaming each in turn. */
export class ChainDataset<T = unknown> extends IterableDataset<T> {
  constructor(readonly datasets: Iterable<IterableDataset<T>>) {
    super();
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const d of this.datasets) {
      if (!isIterableDataset(d)) throw new AssertionError("ChainDataset only supports IterableDataset");
      yield* d as Iterable<T>;
    }
  }

  __len__(): number {
    let total = 0;
    for (const d of this.datasets) {
      if (!isIterableDataset(d)) throw new AssertionError("ChainDataset only supports IterableDataset");
      total += len(d);
    }
    return total;
  }
}

/** The dataset seen through a list of indices. */
export class Subset<T = unknown> extends Dataset<T> {
  constructor(readonly dataset: unknown, readonly indices: number[]) {
    super();
  }

  __getitem__(idx: number | number[]): T {
    if (Array.isArray(idx)) return getitem<T>(this.dataset, idx.map((i) => getitem<number>(this.indices, i)));
    return getitem<T>(this.dataset, getitem<number>(this.indices, idx));
  }

  __len__(): number {
    return this.indices.length;
  }

  override __worker_spec__(): WorkerSpec {
    return { module: import.meta.url, name: "Subset", args: [workerSpecOf(this.dataset), this.indices] };
  }

  static async __from_worker__(args: [WorkerSpec, number[]], build: (s: WorkerSpec) => Promise<unknown>): Promise<Subset> {
    return new Subset(await build(args[0]), args[1]);
  }
}

/** bisect.bisect_right */
function bisect_right(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x < a[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** math.isclose(a, b) with Python's defaults (rel_tol=1e-9, abs_tol=0). */
function isclose(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * random_split(dataset, lengths, {generator}): lengths as counts, or fractions summing to 1 (floor of
 * each share, the remainder handed out round-robin), then one randperm of the total from `generator`
 * (the default generator unless given), cut into consecutive pieces.
 */
export function random_split<T>(dataset: unknown, lengths: number[], options: { generator?: Generator } = {}): Subset<T>[] {
  const generator = options.generator ?? default_generator;
  const total = lengths.reduce((a, b) => a + b, 0);
  if (isclose(total, 1) && total <= 1) {
    const n = len(dataset);
    const subset_lengths: number[] = [];
    lengths.forEach((frac, i) => {
      if (frac < 0 || frac > 1) throw new ValueError(`Fraction at index ${i} is not between 0 and 1`);
      subset_lengths.push(Math.floor(n * frac));
    });
    const remainder = n - subset_lengths.reduce((a, b) => a + b, 0);
    for (let i = 0; i < remainder; i++) subset_lengths[i % subset_lengths.length] += 1;
    lengths = subset_lengths;
    lengths.forEach((l, i) => {
      if (l === 0) process.emitWarning(`Length of split at index ${i} is 0. This might result in an empty dataset.`, "UserWarning");
    });
  }
  const sum = lengths.reduce((a, b) => a + b, 0);
  if (sum !== len(dataset)) throw new ValueError("Sum of input lengths does not equal the length of the input dataset!");
  const indices = randperm(sum, { generator }).tolist() as number[];
  const out: Subset<T>[] = [];
  let offset = 0;
  for (const length of lengths) {
    offset += length;
    out.push(new Subset<T>(dataset, indices.slice(offset - length, offset)));
  }
  return out;
}
