// The random ops users call (aten/src/ATen/native/Distributions.cpp, TensorFactories.cpp): torch.rand,
// randn, randint, randperm, normal, multinomial, and the in-place Tensor methods
// (normal_, uniform_, random_, exponential_). bernoulli and bernoulli_ are dispatcher ops (random.yaml). Values come from the CPU kernels in
// cpu/DistributionKernels.ts, which reproduce PyTorch's streams for the same seed.

import * as K from "./cpu/DistributionKernels.js";
import type { RandomDtype } from "./core/DistributionsHelper.js";
import { get_default_dtype } from "../c10/DefaultDtype.js";
import { RuntimeError, TypeError_ } from "../c10/Errors.js";
import { int64, float32, float64, int32, type dtype } from "../c10/ScalarType.js";
import { typedView, forEachOffset } from "../c10/ElementAccess.js";
import { empty_impl, wrap } from "./core/empty.js";
import { parseSizeArgs } from "./core/SizeArgs.js";
import { Tensor } from "./core/Tensor.js";
import { isOptionsObject, resolveOptions, type TensorOptions } from "./core/TensorOptions.js";
import { write_values_kernel } from "./cpu/FillKernel.js";
import { applyRequiresGrad } from "./TensorFactories.js";
import { Generator, default_generator } from "./Generator.js";
import type { CPUGeneratorImpl } from "./core/CPUGeneratorImpl.js";
import { uniform_fill_stub, normal_fill_stub, random_from_to_fill_stub, randperm_fill_stub, multinomial_replacement_stub } from "./native/random/RandomStubs.js";

export interface RandomOptions extends TensorOptions {
  generator?: Generator | null;
}

function gen(opts?: { generator?: Generator | null }): CPUGeneratorImpl {
  const g = opts?.generator ?? default_generator;
  if (!(g instanceof Generator)) throw new TypeError_(`argument 'generator' must be torch.Generator`);
  return g._impl;
}

const name = (d: dtype) => d.name as RandomDtype;

/** Writes kernel output into a tensor, bumping its version (these are in-place ops). */
function writeInPlace(self: Tensor, values: Float64Array | BigInt64Array): Tensor {
  const impl = self._impl;
  if (impl.storage.hasData()) {
    if (values instanceof BigInt64Array) {
      const view = typedView(impl.storage, impl.dtype) as BigInt64Array;
      forEachOffset(impl, (offset, i) => (view[offset] = values[i]));
    } else {
      write_values_kernel(impl, values);
    }
  }
  impl.version_counter.bump();
  return self;
}

function fresh(op: string, args: unknown[], defaultDtype: dtype): { t: Tensor; opts: RandomOptions } {
  const { sizes, options } = parseSizeArgs<RandomOptions>(op, args);
  const o = resolveOptions(op, options, defaultDtype, ["generator"]);
  return { t: wrap(empty_impl(sizes, o.dtype, o.device)), opts: { ...options, ...o } };
}

const count = (t: Tensor) => (t.is_meta ? 0 : t.numel());

// ---- in-place Tensor methods ----

/**
 * The typed array and element offset of a contiguous CPU tensor with data, for the bulk random
 * stubs to write into directly; null otherwise (the general path writes element by element).
 */
function contiguousOut(self: Tensor): { view: ArrayLike<number | bigint>; off: number } | null {
  const impl = self._impl;
  if (!impl.storage.hasData() || self.device.type !== "cpu" || !self.is_contiguous()) return null;
  return { view: typedView(impl.storage, impl.dtype) as ArrayLike<number | bigint>, off: impl.storage_offset() };
}

export function uniform_(self: Tensor, from = 0, to = 1, opts?: { generator?: Generator | null }): Tensor {
  const g = gen(opts);
  if (self.dtype === float32 || self.dtype === float64) {
    const out = contiguousOut(self);
    if (out !== null) {
      K.check_uniform_bounds(name(self.dtype), from, to);
      uniform_fill_stub.call("cpu", g, out.view as Float32Array | Float64Array, out.off, self.numel(), from, to);
      self._impl.version_counter.bump();
      return self;
    }
  }
  return writeInPlace(self, K.uniform_(g, count(self), name(self.dtype), from, to));
}

export function normal_(self: Tensor, mean = 0, std = 1, opts?: { generator?: Generator | null }): Tensor {
  const g = gen(opts);
  if (self.dtype === float32 && self.numel() >= 16) {
    const out = contiguousOut(self);
    if (out !== null) {
      K.check_normal("float32", std);
      normal_fill_stub.call("cpu", g, out.view as Float32Array, out.off, self.numel(), mean, std);
      self._impl.version_counter.bump();
      return self;
    }
  }
  return writeInPlace(self, K.normal_(g, count(self), name(self.dtype), mean, std, self.is_contiguous()));
}

/** random_(from, to) on a contiguous int64/int32/float32/float64 tensor with a 32-bit range: the bulk stub. */
function randomFromToFast(self: Tensor, g: CPUGeneratorImpl, from: number, to: number): boolean {
  const dt = self.dtype;
  if (dt !== int64 && dt !== int32 && dt !== float32 && dt !== float64) return false;
  const out = contiguousOut(self);
  if (out === null) return false;
  const [range, base] = K.from_to_range(name(dt), from, to); // the checks, with PyTorch's texts
  if (!K.random_from_to_fillable(name(dt), range, base)) return false;
  random_from_to_fill_stub.call("cpu", g, out.view as random_out, out.off, self.numel(), Number(range), Number(base));
  self._impl.version_counter.bump();
  return true;
}
type random_out = BigInt64Array | Int32Array | Float32Array | Float64Array;

export function exponential_(self: Tensor, lambd = 1, opts?: { generator?: Generator | null }): Tensor {
  return writeInPlace(self, K.exponential_(gen(opts), count(self), name(self.dtype), lambd));
}

/** random_() | random_(to) | random_(from, to), as Tensor.random_ accepts them. */
export function random_(self: Tensor, a?: number | { generator?: Generator | null }, b?: number | null | { generator?: Generator | null }, c?: { generator?: Generator | null }): Tensor {
  const opts = [a, b, c].find((x) => isOptionsObject(x)) as { generator?: Generator | null } | undefined;
  const nums = [a, b].filter((x) => typeof x === "number" || x === null) as (number | null)[];
  const g = gen(opts), n = count(self), dt = name(self.dtype);
  const isLong = self.dtype === int64;
  if (nums.length === 0) return writeInPlace(self, isLong ? K.random_int64(g, n) : K.random_(g, n, dt));
  if (nums.length === 1) {
    if (randomFromToFast(self, g, 0, nums[0] as number)) return self;
    return writeInPlace(self, K.random_to(g, n, dt, nums[0] as number));
  }
  const [from, to] = nums as [number, number | null];
  if (to === null) return writeInPlace(self, isLong ? K.random_from_int64(g, n, from) : K.random_from(g, n, dt, from));
  if (randomFromToFast(self, g, from, to)) return self;
  return writeInPlace(self, isLong ? K.random_from_to_int64(g, n, from, to) : K.random_from_to(g, n, dt, from, to));
}

// ---- torch.* functions ----

export function rand(...args: (number | readonly number[] | RandomOptions | undefined)[]): Tensor {
  const { t, opts } = fresh("rand", args, get_default_dtype());
  return applyRequiresGrad(uniform_(t, 0, 1, opts), !!opts.requires_grad, "rand");
}

export function randn(...args: (number | readonly number[] | RandomOptions | undefined)[]): Tensor {
  const { t, opts } = fresh("randn", args, get_default_dtype());
  return applyRequiresGrad(normal_(t, 0, 1, opts), !!opts.requires_grad, "randn");
}

/** randint(high, size, options?) | randint(low, high, size, options?) */
export function randint(...args: (number | readonly number[] | RandomOptions | undefined)[]): Tensor {
  const sizeAt = args.findIndex((a) => Array.isArray(a));
  if (sizeAt !== 1 && sizeAt !== 2) throw new TypeError_("randint() received an invalid combination of arguments - expected (int high, tuple of ints size, ...) or (int low, int high, tuple of ints size, ...)");
  const [low, high] = sizeAt === 1 ? [0, args[0] as number] : [args[0] as number, args[1] as number];
  const { t, opts } = fresh("randint", [args[sizeAt], args[sizeAt + 1]], int64);
  return random_(t, low, high, opts);
}

export function randperm(n: number, options?: RandomOptions): Tensor {
  if (!Number.isInteger(n)) throw new TypeError_(`randperm(): argument 'n' (position 1) must be int, not float`);
  if (n < 0) throw new RuntimeError(`n must be non-negative, got${n}`);
  const o = resolveOptions("randperm", options, int64, ["generator"]);
  const t = wrap(empty_impl([n], o.dtype, o.device));
  if (!t.is_meta) {
    const out = t.dtype === int64 && n < 2 ** 31 ? contiguousOut(t) : null;
    if (out !== null) randperm_fill_stub.call("cpu", gen(options), out.view as BigInt64Array, out.off, n);
    else write_values_kernel(t._impl, K.randperm(gen(options), n));
  }
  return applyRequiresGrad(t, o.requires_grad, "randperm");
}

/** torch.normal(mean, std, size, options?): the float-mean, float-std overload. */
export function normal(mean: number, std: number, size: readonly number[], options?: RandomOptions): Tensor {
  const { t, opts } = fresh("normal", [size, options], get_default_dtype());
  return applyRequiresGrad(normal_(t, mean, std, opts), !!opts.requires_grad, "normal");
}

/** Keyword arguments of torch.multinomial: `replacement` and `generator` (Python's replacement=True). */
export interface MultinomialOptions {
  replacement?: boolean;
  generator?: Generator | null;
}

export function multinomial(input: Tensor, num_samples: number, replacement: boolean | MultinomialOptions = false, opts?: MultinomialOptions): Tensor {
  if (typeof replacement === "object") {
    opts = replacement;
    replacement = opts?.replacement ?? false;
  } else if (opts?.replacement !== undefined) {
    throw new TypeError_("multinomial() got multiple values for argument 'replacement'");
  }
  const dim = input.dim();
  if (dim !== 1 && dim !== 2) throw new RuntimeError("prob_dist must be 1 or 2 dim");
  const rows = dim === 1 ? 1 : input.size(0);
  const categories = input.size(-1);
  const g = gen(opts);
  K.multinomial_check(name(input.dtype), categories, num_samples, replacement);
  const out = wrap(empty_impl(dim === 1 ? [num_samples] : [rows, num_samples], int64, input.device));
  if (replacement) {
    if (out.numel() > 0) multinomial_replacement_stub.call(input.device.type, g, input, rows, categories, num_samples, out);
    return out;
  }
  const values = K.multinomial(g, input._flatNumbers(), rows, categories, num_samples, replacement, name(input.dtype));
  write_values_kernel(out._impl, values);
  return out;
}

export function rand_like(input: Tensor, options?: RandomOptions): Tensor {
  return rand([...input.shape], { dtype: input.dtype, device: input.device, ...options });
}

export function randn_like(input: Tensor, options?: RandomOptions): Tensor {
  return randn([...input.shape], { dtype: input.dtype, device: input.device, ...options });
}

/** randint_like(input, high) | randint_like(input, low, high) */
export function randint_like(input: Tensor, a: number, b?: number | RandomOptions, options?: RandomOptions): Tensor {
  if (typeof b === "object") [options, b] = [b, undefined];
  const [low, high] = b === undefined ? [0, a] : [a, b];
  return randint(low, high, [...input.shape], { dtype: input.dtype, device: input.device, ...options });
}

// ---- attach the in-place methods to Tensor (the codegen will generate these bindings) ----

declare module "./core/Tensor.js" {
  interface Tensor {
    uniform_(from?: number, to?: number, opts?: { generator?: Generator | null }): Tensor;
    normal_(mean?: number, std?: number, opts?: { generator?: Generator | null }): Tensor;
    exponential_(lambd?: number, opts?: { generator?: Generator | null }): Tensor;
    random_(a?: number | { generator?: Generator | null }, b?: number | null | { generator?: Generator | null }, c?: { generator?: Generator | null }): Tensor;
    multinomial(num_samples: number, replacement?: boolean | MultinomialOptions, opts?: MultinomialOptions): Tensor;
  }
}

Object.assign(Tensor.prototype, {
  uniform_(this: Tensor, from?: number, to?: number, opts?: { generator?: Generator | null }) { return uniform_(this, from, to, opts); },
  normal_(this: Tensor, mean?: number, std?: number, opts?: { generator?: Generator | null }) { return normal_(this, mean, std, opts); },
  exponential_(this: Tensor, lambd?: number, opts?: { generator?: Generator | null }) { return exponential_(this, lambd, opts); },
  random_(this: Tensor, a?: any, b?: any, c?: any) { return random_(this, a, b, c); },
  multinomial(this: Tensor, n: number, replacement?: boolean | MultinomialOptions, opts?: MultinomialOptions) { return multinomial(this, n, replacement, opts); },
});
