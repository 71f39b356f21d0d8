// torch/utils/data/sampler.py: the index orders DataLoader draws from. Random samplers make the same
// generator calls as PyTorch 1.13 in the same order, so a seed gives PyTorch's order.

import { Generator } from "../aten/Generator.js";
import { randint, randperm, multinomial } from "../aten/Distributions.js";
import { tensor } from "../aten/tensor_new.js";
import { float64 } from "../c10/ScalarType.js";
import { TypeError_, ValueError } from "../c10/Errors.js";
import type { Tensor } from "../aten/core/Tensor.js";
import { len, getitem, pyRepr, draw_int64_seed } from "./_common.js";

/** Base class: subclasses define [Symbol.iterator] (Python's __iter__) and usually __len__. */
export abstract class Sampler<T = number> implements Iterable<T> {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  constructor(_data_source?: unknown) {}
  abstract [Symbol.iterator](): Iterator<T>;
}

/** 0, 1, ..., len(data_source) - 1. */
export class SequentialSampler extends Sampler<number> {
  constructor(readonly data_source: unknown) {
    super();
  }

  *[Symbol.iterator](): Iterator<number> {
    const n = len(this.data_source);
    for (let i = 0; i < n; i++) yield i;
  }

  __len__(): number {
    return len(this.data_source);
  }
}

function isPositiveInt(x: unknown): x is number {
  return typeof x === "number" && Number.isInteger(x) && x > 0;
}

/**
 * Random order. Without a generator each pass first draws a 64-bit seed from the default generator
 * (torch.empty((), dtype=torch.int64).random_()) and seeds a fresh Generator with it. Without
 * replacement: num_samples // n full randperms, then a cut one; with replacement: randint in chunks of 32.
 */
export class RandomSampler extends Sampler<number> {
  readonly data_source: unknown;
  readonly replacement: boolean;
  readonly _num_samples: number | null;
  generator: Generator | null;

  constructor(data_source: unknown, options: { replacement?: unknown; num_samples?: number | null; generator?: Generator | null } = {}) {
    super();
    this.data_source = data_source;
    this.replacement = (options.replacement ?? false) as boolean;
    this._num_samples = options.num_samples ?? null;
    this.generator = options.generator ?? null;
    if (typeof this.replacement !== "boolean") {
      throw new TypeError_(`replacement should be a boolean value, but got replacement=${pyRepr(this.replacement)}`);
    }
    if (!isPositiveInt(this.num_samples)) {
      throw new ValueError(`num_samples should be a positive integer value, but got num_samples=${pyRepr(this.num_samples)}`);
    }
  }

  get num_samples(): number {
    return this._num_samples ?? len(this.data_source);
  }

  *[Symbol.iterator](): Iterator<number> {
    const n = len(this.data_source);
    let generator: Generator;
    if (this.generator === null) {
      const seed = draw_int64_seed();
      generator = new Generator();
      generator.manual_seed(seed);
    } else {
      generator = this.generator;
    }
    const num = this.num_samples;
    if (this.replacement) {
      for (let k = 0; k < Math.floor(num / 32); k++) yield* randint(n, [32], { generator }).tolist() as number[];
      yield* randint(n, [num % 32], { generator }).tolist() as number[];
    } else {
      for (let k = 0; k < Math.floor(num / n); k++) yield* randperm(n, { generator }).tolist() as number[];
      yield* (randperm(n, { generator }).tolist() as number[]).slice(0, num % n);
    }
  }

  __len__(): number {
    return this.num_samples;
  }
}

/** The given indices in a random order: one randperm(len(indices)) (default generator unless given). */
export class SubsetRandomSampler extends Sampler<number> {
  constructor(readonly indices: number[], readonly options: { generator?: Generator | null } = {}) {
    super();
  }

  get generator(): Generator | null {
    return this.options.generator ?? null;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (const i of randperm(this.indices.length, { generator: this.generator }).tolist() as number[]) yield getitem<number>(this.indices, i);
  }

  __len__(): number {
    return this.indices.length;
  }
}

/** Indices drawn by torch.multinomial over the weights (as float64), with or without replacement. */
export class WeightedRandomSampler extends Sampler<number> {
  readonly weights: Tensor;
  readonly num_samples: number;
  readonly replacement: boolean;
  readonly generator: Generator | null;

  constructor(weights: number[] | Tensor, num_samples: number, options: { replacement?: unknown; generator?: Generator | null } = {}) {
    super();
    const replacement = options.replacement ?? true;
    if (!isPositiveInt(num_samples)) {
      throw new ValueError(`num_samples should be a positive integer value, but got num_samples=${pyRepr(num_samples)}`);
    }
    if (typeof replacement !== "boolean") {
      throw new ValueError(`replacement should be a boolean value, but got replacement=${pyRepr(replacement)}`);
    }
    const w = (Array.isArray(weights) ? tensor(weights, { dtype: float64 }) : (weights as Tensor).to(float64)) as Tensor;
    if (w.dim() !== 1) {
      const shape = [...w.shape];
      throw new ValueError(`weights should be a 1d sequence but given weights have shape (${shape.join(", ")}${shape.length === 1 ? "," : ""})`);
    }
    this.weights = w;
    this.num_samples = num_samples;
    this.replacement = replacement;
    this.generator = options.generator ?? null;
  }

  *[Symbol.iterator](): Iterator<number> {
    yield* multinomial(this.weights, this.num_samples, this.replacement, { generator: this.generator }).tolist() as number[];
  }

  __len__(): number {
    return this.num_samples;
  }
}

/** Groups another sampler's indices into lists of batch_size (the last one shorter unless drop_last). */
export class BatchSampler extends Sampler<number[]> {
  constructor(readonly sampler: Iterable<number>, readonly batch_size: number, readonly drop_last: boolean) {
    super();
    if (!isPositiveInt(batch_size)) {
      throw new ValueError(`batch_size should be a positive integer value, but got batch_size=${pyRepr(batch_size)}`);
    }
    if (typeof drop_last !== "boolean") {
      throw new ValueError(`drop_last should be a boolean value, but got drop_last=${pyRepr(drop_last)}`);
    }
  }

  *[Symbol.iterator](): Iterator<number[]> {
    let batch: number[] = [];
    for (const idx of this.sampler) {
      batch.push(idx);
      if (batch.length === this.batch_size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0 && !this.drop_last) yield batch;
  }

  __len__(): number {
    const n = len(this.sampler);
    return this.drop_last ? Math.floor(n / this.batch_size) : Math.floor((n + this.batch_size - 1) / this.batch_size);
  }
}
