// The CPU kernels of PyTorch's random ops, as pure functions: (generator, count, dtype, params)
// -> the values a contiguous tensor receives, in the order PyTorch writes them (flat index order).
//
// Mirrors PyTorch 1.13: aten/src/ATen/native/cpu/DistributionTemplates.h (the kernels),
// aten/src/ATen/native/DistributionTemplates.h (argument checks and error texts),
// aten/src/ATen/native/cpu/DistributionKernels.cpp (non-MKL build: bernoulli/exponential defaults),
// aten/src/ATen/native/TensorFactories.cpp (randperm) and aten/src/ATen/native/Distributions.cpp +
// cpu/MultinomialKernel.cpp (multinomial).
//
// Results are Float64Arrays holding exactly the values the tensor will hold (already rounded to the
// dtype). int64 results are exact up to 2^53; the *_int64 variants return BigInt64Arrays when the
// full 64-bit range matters.

import type { CPUGeneratorImpl } from "../core/CPUGeneratorImpl.js";
import {
  type FloatDtype,
  type RandomDtype,
  DIGITS,
  isFloatDtype,
  castToFloatDtype,
  castInt64To,
  toHalf,
  toBFloat16,
  fma,
  fmaf,
  c_log,
  c_sincos,
  c_logf,
  c_sincosf,
  uniform_float01,
  uniform_double01,
  uniform_real_distribution,
  normal_distribution_double,
  bernoulli_distribution_double,
  bernoulli_distribution_float,
  exponential_distribution_double,
  uses_random64_for_range,
  uniform_int_from_to_64,
  uniform_int_full_range,
  wrapInt64,
} from "../core/DistributionsHelper.js";
import { log256_ps, sincos256_ps, sincos256_ps_to } from "./avx_mathfun.js";
import { topk_row } from "./TopKImpl.js";
import { RuntimeError } from "../../c10/Errors.js";

const fround = Math.fround;

// ---------------------------------------------------------------------------------------------
// Names and limits PyTorch prints in its messages.

/** caffe2::TypeMeta names (what `<< dtype` prints in TORCH_CHECK messages). */
const TYPEMETA_NAME: Record<RandomDtype, string> = {
  float32: "float",
  float64: "double",
  float16: "c10::Half",
  bfloat16: "c10::BFloat16",
  int8: "signed char",
  uint8: "unsigned char",
  int16: "short int",
  int32: "int",
  int64: "long int",
  bool: "bool",
};

/** c10::toString(ScalarType) (what AT_DISPATCH's "not implemented for" prints). */
const SCALAR_TYPE_NAME: Record<RandomDtype, string> = {
  float32: "Float",
  float64: "Double",
  float16: "Half",
  bfloat16: "BFloat16",
  int8: "Char",
  uint8: "Byte",
  int16: "Short",
  int32: "Int",
  int64: "Long",
  bool: "Bool",
};

/** std::numeric_limits<T>::max() of the floating types, as doubles. */
const FLOAT_MAX: Record<FloatDtype, number> = {
  float32: 3.4028234663852886e38,
  float64: Number.MAX_VALUE,
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
};

/** [lowest, max] of the integral types. */
const INT_LIMITS: Record<Exclude<RandomDtype, FloatDtype>, [bigint, bigint]> = {
  int8: [-128n, 127n],
  uint8: [0n, 255n],
  int16: [-32768n, 32767n],
  int32: [-2147483648n, 2147483647n],
  int64: [-(1n << 63n), (1n << 63n) - 1n],
  bool: [0n, 1n],
};

function notImplemented(kernel: string, dtype: RandomDtype): RuntimeError {
  return new RuntimeError(`"${kernel}" not implemented for '${SCALAR_TYPE_NAME[dtype]}'`);
}

function requireFloat(dtype: RandomDtype, kernel: string): asserts dtype is FloatDtype {
  if (!isFloatDtype(dtype)) throw notImplemented(kernel, dtype);
}

/** A double the way C++ `std::ostream << double` prints it (%g, 6 significant digits). */
export function cppDouble(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const [mant, expStr] = x.toExponential(5).split("e");
  const exp = Number(expStr);
  const strip = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${strip(mant)}e${exp < 0 ? "-" : "+"}${e < 10 ? "0" : ""}${e}`;
  }
  return strip(x.toFixed(5 - exp));
}

// ---------------------------------------------------------------------------------------------
// uniform_ (torch.rand, Tensor.uniform_)

/** Tensor.uniform_(from, to): uniform_impl_ checks, then uniform_kernel. */
export function uniform_(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype, from = 0, to = 1): Float64Array {
  check_uniform_bounds(dtype, from, to);
  // The kernel casts the bounds to the tensor's type before sampling.
  const sample = uniform_real_distribution(dtype, castToFloatDtype(dtype, from), castToFloatDtype(dtype, to));
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = castToFloatDtype(dtype, sample(gen));
  return out;
}

/** uniform_impl_'s checks (DistributionTemplates.h), with PyTorch's texts. */
export function check_uniform_bounds(dtype: RandomDtype, from: number, to: number): asserts dtype is FloatDtype {
  requireFloat(dtype, "check_uniform_bounds");
  const max = FLOAT_MAX[dtype];
  if (!(from >= -max && from <= max)) throw new RuntimeError(`from is out of bounds for ${TYPEMETA_NAME[dtype]}`);
  if (!(to >= -max && to <= max)) throw new RuntimeError(`to is out of bounds for ${TYPEMETA_NAME[dtype]}`);
  if (!(from <= to)) {
    throw new RuntimeError(`uniform_ expects to return a [from, to) range, but found from=${cppDouble(from)} > to=${cppDouble(to)}`);
  }
  if (!(to - from <= max)) {
    throw new RuntimeError(
      `uniform_ expects to-from <= std::numeric_limits<${SCALAR_TYPE_NAME[dtype]}>::max(), ` +
        `but found to=${cppDouble(to)} and from=${cppDouble(from)} which result in to-from to exceed the limit`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// normal_ (torch.randn, Tensor.normal_)
//
// normal_kernel picks one of three algorithms:
//   - float32, n >= 16, contiguous: normal_fill_AVX2 — all n uniforms first, then Box-Muller on
//     blocks of 16 (u[j] and u[j+8] -> two normals) with the Cephes vector log/sincos;
//   - other float types, n >= 16, contiguous: normal_fill — the same blocking, scalar libm;
//   - otherwise: normal_distribution<double> per element (two 64-bit draws per pair, the
//     second normal cached in the generator).
// When n is not a multiple of 16, the last 16 values are redrawn and recomputed.
// Neither fill path reads or writes the generator's cached normal.
//
// normal_fill_AVX2 exists only in PyTorch's AVX2 build of the kernel, the one the reference
// machine runs. With ATEN_CPU_CAPABILITY=default, or on an AVX512 CPU, PyTorch runs normal_fill
// for float32 too, and its float32 randn for n >= 16 differs in the last bits.

export function normal_(
  gen: CPUGeneratorImpl,
  n: number,
  dtype: RandomDtype,
  mean = 0,
  std = 1,
  contiguous = true,
): Float64Array {
  check_normal(dtype, std);
  if (n >= 16 && contiguous) {
    if (dtype === "float32") return normal_fill_AVX2(gen, n, fround(mean), fround(std));
    return normal_fill(gen, n, dtype, castToFloatDtype(dtype, mean), castToFloatDtype(dtype, std));
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = castToFloatDtype(dtype, normal_distribution_double(gen, mean, std));
  return out;
}

/** normal_'s checks (std >= 0, a floating dtype), with PyTorch's texts. */
export function check_normal(dtype: RandomDtype, std: number): asserts dtype is FloatDtype {
  if (!(std >= 0.0)) throw new RuntimeError(`normal expects std >= 0.0, but found std ${cppDouble(std)}`);
  requireFloat(dtype, "normal_kernel_cpu");
}

/** The shared shape of normal_fill and normal_fill_AVX2. */
function fillThenTransform(
  gen: CPUGeneratorImpl,
  n: number,
  uniform: (gen: CPUGeneratorImpl) => number,
  fill16: (data: Float64Array, offset: number) => void,
): Float64Array {
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) data[i] = uniform(gen);
  for (let i = 0; i < n - 15; i += 16) fill16(data, i);
  if (n % 16 !== 0) {
    // Recompute the last 16 values (they overlap the last full block).
    const base = n - 16;
    for (let j = 0; j < 16; j++) data[base + j] = uniform(gen);
    fill16(data, base);
  }
  return data;
}

const TWO_PI = 2.0 * Math.PI; // 2.0f * c10::pi<double> is a double
const TWO_PI_F = fround(TWO_PI); // ... which normal_fill_AVX2 broadcasts as a float

/** normal_fill_AVX2 (float32): Cephes log256_ps / sincos256_ps, final `n * std + mean` fused. */
function normal_fill_AVX2(gen: CPUGeneratorImpl, n: number, mean: number, std: number): Float64Array {
  return fillThenTransform(gen, n, uniform_float01, (data, off) => {
    for (let j = 0; j < 8; j++) {
      const u1 = fround(1 - data[off + j]); // [0, 1) -> (0, 1] for log
      const u2 = data[off + j + 8];
      const radius = fround(Math.sqrt(fround(-2 * log256_ps(u1))));
      const theta = fround(TWO_PI_F * u2);
      const [sintheta, costheta] = sincos256_ps(theta);
      data[off + j] = fmaf(fround(radius * costheta), std, mean);
      data[off + j + 8] = fmaf(fround(radius * sintheta), std, mean);
    }
  });
}

/** normal_fill<scalar_t> for float64, float16 and bfloat16 (normal_fill_16 with scalar libm). */
function normal_fill(gen: CPUGeneratorImpl, n: number, dtype: FloatDtype, mean: number, std: number): Float64Array {
  switch (dtype) {
    case "float64":
      return fillThenTransform(gen, n, uniform_double01, (data, off) => {
        for (let j = 0; j < 8; j++) {
          const u1 = 1 - data[off + j];
          const u2 = data[off + j + 8];
          const radius = Math.sqrt(-2 * c_log(u1));
          const [sin, cos] = c_sincos(TWO_PI * u2);
          data[off + j] = fma(radius * cos, std, mean);
          data[off + j + 8] = fma(radius * sin, std, mean);
        }
      });
    case "float16": {
      // c10::Half arithmetic: std::log/sqrt/sin/cos take the float overloads and the float
      // results stay float until assigned to a Half variable.
      const uniform = uniform_real_distribution(dtype, 0, 1); // 11-bit uniforms, exact in half
      return fillThenTransform(gen, n, uniform, (data, off) => {
        for (let j = 0; j < 8; j++) {
          const u1 = toHalf(1 - data[off + j]);
          const u2 = data[off + j + 8];
          const radius = toHalf(Math.sqrt(fround(-2 * c_logf(u1))));
          const [sin, cos] = c_sincosf(toHalf(TWO_PI * u2));
          data[off + j] = toHalf(fmaf(fround(radius * cos), std, mean));
          data[off + j + 8] = toHalf(fmaf(fround(radius * sin), std, mean));
        }
      });
    }
    case "bfloat16": {
      // c10/util/BFloat16-math.h gives std::log/sqrt/sin/cos BFloat16 overloads, and BFloat16
      // operators return BFloat16: every step rounds to bfloat16.
      const uniform = uniform_real_distribution(dtype, 0, 1); // 8-bit uniforms, exact in bfloat16
      const bf = toBFloat16;
      return fillThenTransform(gen, n, uniform, (data, off) => {
        for (let j = 0; j < 8; j++) {
          const u1 = bf(1 - data[off + j]);
          const u2 = data[off + j + 8];
          const radius = bf(Math.sqrt(bf(-2 * bf(c_logf(u1)))));
          const [sin, cos] = c_sincosf(bf(TWO_PI * u2));
          data[off + j] = bf(bf(bf(radius * bf(cos)) * std) + mean);
          data[off + j + 8] = bf(bf(bf(radius * bf(sin)) * std) + mean);
        }
      });
    }
    case "float32":
      throw new Error("unreachable: float32 uses normal_fill_AVX2");
  }
}

// ---------------------------------------------------------------------------------------------
// Integers: random_(from, to), random_(to), random_(from, None), random_()

type Int64Like = number | bigint;

function toBig(v: Int64Like): bigint {
  return typeof v === "bigint" ? v : BigInt(Math.trunc(v));
}

/** static_cast<int64_t>(static_cast<scalar_t>(v)) for a floating dtype: v rounded to the type. */
function roundInt64ThroughFloat(dtype: FloatDtype, v: bigint): bigint {
  const r = castToFloatDtype(dtype, roundBigIntToFloat32Or64(dtype === "float64" ? 53 : 24, v));
  if (!Number.isFinite(r)) return -(1n << 63n); // x86 cvttss2si of inf/nan
  return BigInt(r);
}

/** Rounds an integer to `bits` significant bits (nearest, ties to even), returned as a number. */
function roundBigIntToFloat32Or64(bits: number, v: bigint): number {
  const neg = v < 0n;
  let a = neg ? -v : v;
  const len = a.toString(2).length;
  if (len > bits) {
    const shift = BigInt(len - bits);
    const q = a >> shift;
    const rem = a - (q << shift);
    const half = 1n << (shift - 1n);
    let r = q;
    if (rem > half || (rem === half && (q & 1n) === 1n)) r += 1n;
    a = r << shift;
  }
  const x = Number(a); // exact now
  return neg ? -x : x;
}

/** update_from<scalar_t>: moves `from` up to the first value the float type can represent. */
function update_from(dtype: FloatDtype, from: bigint): bigint {
  const from_plus_1 = roundInt64ThroughFloat(dtype, from + 1n);
  if (from_plus_1 < from) {
    let from_ = from + 1n < 0n ? -(from + 1n) : from + 1n;
    let n = 0;
    while ((from_ >>= 1n) !== 0n) ++n;
    from = from_plus_1 + (1n << BigInt(n - DIGITS[dtype] + 1));
  }
  return from;
}

/** update_to<scalar_t>: moves `to` down so that `to - 1` is representable. */
function update_to(dtype: FloatDtype, to: bigint): bigint {
  const to_minus_1 = roundInt64ThroughFloat(dtype, to - 1n);
  if (to_minus_1 >= to) {
    let to_ = to - 1n < 0n ? -(to - 1n) : to - 1n;
    let n = 0;
    while ((to_ >>= 1n) !== 0n) ++n;
    to = to_minus_1 - (1n << BigInt(n - DIGITS[dtype] + 1));
  }
  return to;
}

function check_from_to_in_range(from: bigint, to_inc: bigint, dtype: RandomDtype): void {
  const name = TYPEMETA_NAME[dtype];
  if (isFloatDtype(dtype)) {
    const max = FLOAT_MAX[dtype];
    const inRange = (v: bigint) => Number(v) >= -max && Number(v) <= max;
    if (!inRange(from)) throw new RuntimeError(`from is out of bounds for ${name}`);
    if (!inRange(to_inc)) throw new RuntimeError(`to - 1 is out of bounds for ${name}`);
    // PyTorch also warns when |from| or |to - 1| exceed 2^digits (values would be rounded).
  } else {
    const [min, max] = INT_LIMITS[dtype];
    if (!(from >= min && from <= max)) throw new RuntimeError(`from is out of bounds for ${name}`);
    if (!(to_inc >= min && to_inc <= max)) throw new RuntimeError(`to - 1 is out of bounds for ${name}`);
  }
}

/** random_from_to_kernel: `count` values of (word % range) + base, cast to dtype. */
function random_from_to_kernel(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype, range: bigint, base: bigint): Float64Array {
  const out = new Float64Array(n);
  if (uses_random64_for_range(dtype, range)) {
    for (let i = 0; i < n; i++) out[i] = castInt64To(dtype, Number(uniform_int_from_to_64(gen, range, base)));
    return out;
  }
  // A 32-bit word: word % range < 2^32, so plain numbers are exact when the base is small.
  const r = Number(range);
  if (base >= -(2n ** 52n) && base <= 2n ** 52n) {
    const b = Number(base);
    for (let i = 0; i < n; i++) out[i] = castInt64To(dtype, (gen.random() % r) + b);
  } else {
    for (let i = 0; i < n; i++) out[i] = castInt64To(dtype, Number(wrapInt64(BigInt(gen.random() % r) + base)));
  }
  return out;
}

/** The checked [from, to) range of random_(from, to), as (range, base). */
export function from_to_range(dtype: RandomDtype, low: Int64Like, high: Int64Like): [bigint, bigint] {
  let from = toBig(low);
  let to = toBig(high);
  if (!(from < to)) throw new RuntimeError(`random_ expects 'from' to be less than 'to', but got from=${from} >= to=${to}`);
  if (isFloatDtype(dtype)) {
    from = update_from(dtype, from);
    to = update_to(dtype, to);
    if (!(from < to)) {
      throw new RuntimeError(
        `random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from=${from} >= to=${to}`,
      );
    }
  }
  check_from_to_in_range(from, to - 1n, dtype);
  return [BigInt.asUintN(64, to - from), from];
}

/** torch.randint(low, high) / Tensor.random_(from, to): integers in [low, high). */
export function random_from_to(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype, low: Int64Like, high: Int64Like): Float64Array {
  const [range, base] = from_to_range(dtype, low, high);
  return random_from_to_kernel(gen, n, dtype, range, base);
}

/** Tensor.random_(to): integers in [0, to). */
export function random_to(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype, to: Int64Like): Float64Array {
  return random_from_to(gen, n, dtype, 0, to);
}

/** The checked [from, max] range of random_(from, None), or undefined for the full 64-bit range. */
function from_range(dtype: RandomDtype, low: Int64Like): [bigint, bigint] | undefined {
  let from = toBig(low);
  if (from === -(1n << 63n)) return undefined;
  let to_inc: bigint;
  if (isFloatDtype(dtype)) {
    to_inc = 1n << BigInt(DIGITS[dtype]);
    from = update_from(dtype, from);
    if (!(from < to_inc)) {
      throw new RuntimeError(
        `random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got from=${from} > to_inc=${to_inc}`,
      );
    }
  } else {
    to_inc = INT_LIMITS[dtype][1];
  }
  check_from_to_in_range(from, to_inc, dtype);
  return [BigInt.asUintN(64, to_inc - from + 1n), from];
}

/** Tensor.random_(from, None): integers in [from, max of the dtype] (2^digits for floats). */
export function random_from(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype, from: Int64Like): Float64Array {
  const r = from_range(dtype, from);
  if (r === undefined) return random_full_64_bits_range(gen, n, dtype);
  return random_from_to_kernel(gen, n, dtype, r[0], r[1]);
}

/** random_(from=-2^63, to=None): every int64, from one 64-bit draw each. */
export function random_full_64_bits_range(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype): Float64Array {
  if (dtype === "float16" || dtype === "bool") throw notImplemented("random_full_64_bits_range_kernel_cpu", dtype);
  if (dtype !== "int64" && dtype !== "float64" && dtype !== "float32" && dtype !== "bfloat16") {
    throw new RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16");
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = castInt64To(dtype, Number(uniform_int_full_range(gen)));
  return out;
}

const TWO_POW_32 = 2 ** 32;

/**
 * Tensor.random_() without bounds (uniform_int_distribution): [0, max] for integral types,
 * [0, 2^digits] for floating types, {0, 1} for bool.
 */
export function random_(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype): Float64Array {
  const out = new Float64Array(n);
  switch (dtype) {
    case "bool":
      for (let i = 0; i < n; i++) out[i] = gen.random() & 1;
      return out;
    case "int64":
      // word % 2^63: the top bit of the first word is dropped.
      for (let i = 0; i < n; i++) out[i] = (gen.random() & 0x7fffffff) * TWO_POW_32 + gen.random();
      return out;
    case "float64": {
      const m = (1n << 53n) + 1n;
      for (let i = 0; i < n; i++) out[i] = Number(gen.random64() % m);
      return out;
    }
    default: {
      // One 32-bit word modulo (max + 1), or (2^digits + 1) for float/half/bfloat16.
      const mod = isFloatDtype(dtype) ? 2 ** DIGITS[dtype] + 1 : Number(INT_LIMITS[dtype][1]) + 1;
      for (let i = 0; i < n; i++) out[i] = castInt64To(dtype, gen.random() % mod);
      return out;
    }
  }
}

/** Exact int64 versions (BigInt64Array) of random_from_to / random_from / random_ for int64 tensors. */
export function random_from_to_int64(gen: CPUGeneratorImpl, n: number, low: Int64Like, high: Int64Like): BigInt64Array {
  const [range, base] = from_to_range("int64", low, high);
  return int64_from_to(gen, n, range, base);
}

export function random_from_int64(gen: CPUGeneratorImpl, n: number, from: Int64Like): BigInt64Array {
  const r = from_range("int64", from);
  const out = new BigInt64Array(n);
  if (r === undefined) {
    for (let i = 0; i < n; i++) out[i] = uniform_int_full_range(gen);
    return out;
  }
  return int64_from_to(gen, n, r[0], r[1]);
}

export function random_int64(gen: CPUGeneratorImpl, n: number): BigInt64Array {
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) out[i] = BigInt.asUintN(63, gen.random64());
  return out;
}

function int64_from_to(gen: CPUGeneratorImpl, n: number, range: bigint, base: bigint): BigInt64Array {
  const out = new BigInt64Array(n);
  const use64 = uses_random64_for_range("int64", range);
  for (let i = 0; i < n; i++) {
    out[i] = use64 ? uniform_int_from_to_64(gen, range, base) : wrapInt64(BigInt(gen.random()) % range + base);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// randperm (TensorFactories.cpp, randperm_cpu)

/**
 * torch.randperm(n): Fisher-Yates from the front, swapping r[i] with r[i + random() % (n - i)].
 * 1.13 always uses 32-bit words here (later versions switch to random64 for n >= 2^32 / 20).
 */
export function randperm(gen: CPUGeneratorImpl, n: number): Float64Array {
  if (n < 0) throw new RuntimeError(`Trying to create tensor with negative dimension ${n}: [${n}]`);
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) r[i] = i;
  for (let i = 0; i < n - 1; i++) {
    const z = gen.random() % (n - i);
    const sav = r[i];
    r[i] = r[z + i];
    r[z + i] = sav;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// bernoulli_ (non-MKL build: templates::cpu::bernoulli_kernel)

/** static_cast<scalar_t>(bool): 1 and 0 are exact in every dtype. */
function castBool(b: boolean): number {
  return b ? 1 : 0;
}

/** Tensor.bernoulli_(p): one 53-bit uniform per element, compared with p. */
export function bernoulli_scalar(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype, p: number): Float64Array {
  if (!(0 <= p && p <= 1)) throw new RuntimeError(`bernoulli_ expects p to be in [0, 1], but got p=${cppDouble(p)}`);
  if (dtype === "float16") throw notImplemented("bernoulli_scalar_cpu_", dtype);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = castBool(bernoulli_distribution_double(gen, p));
  return out;
}

const P_IN_RANGE_MESSAGE =
  "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  " +
  "(Could this error message be improved?  If so, please report an enhancement request to PyTorch.)";

/**
 * torch.bernoulli(p) / Tensor.bernoulli_(p_tensor): one draw per element of `probs` (already
 * broadcast to the output). float64 probabilities use 53-bit uniforms; float32/bfloat16 ones
 * 24-bit uniforms (bernoulli_distribution<float>).
 */
export function bernoulli_tensor(
  gen: CPUGeneratorImpl,
  probs: Float64Array,
  probsDtype: RandomDtype,
  outDtype: RandomDtype = probsDtype,
): Float64Array {
  if (outDtype === "float16") throw notImplemented("bernoulli_tensor_cpu_self_", outDtype);
  if (probsDtype !== "float64" && probsDtype !== "float32" && probsDtype !== "bfloat16") {
    throw notImplemented("bernoulli_tensor_cpu_p_", probsDtype);
  }
  const n = probs.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = probsDtype === "float64" ? probs[i] : fround(probs[i]);
    if (!(p >= 0 && p <= 1)) throw new RuntimeError(P_IN_RANGE_MESSAGE);
    const b = probsDtype === "float64" ? bernoulli_distribution_double(gen, p) : bernoulli_distribution_float(gen, p);
    out[i] = castBool(b);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// exponential_ (non-MKL build: templates::cpu::exponential_kernel)

/** Tensor.exponential_(lambd): -1/lambd * log(1 - u), u a 53-bit uniform, cast to dtype. */
export function exponential_(gen: CPUGeneratorImpl, n: number, dtype: RandomDtype, lambd = 1): Float64Array {
  if (!(lambd >= 0.0)) throw new RuntimeError(`exponential_ expects lambda >= 0.0, but found lambda=${cppDouble(lambd)}`);
  requireFloat(dtype, "exponential_cpu");
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = castToFloatDtype(dtype, exponential_distribution_double(gen, lambd));
  return out;
}

// ---------------------------------------------------------------------------------------------
// multinomial (Distributions.cpp multinomial_out; cpu/MultinomialKernel.cpp)

/** multinomial's argument checks, made before any draw (Distributions.cpp multinomial_out). */
export function multinomial_check(probsDtype: RandomDtype, categories: number, numSamples: number, replacement: boolean): asserts probsDtype is FloatDtype {
  if (!isFloatDtype(probsDtype)) {
    throw new RuntimeError(`multinomial only supports floating-point dtypes for input, got: ${SCALAR_TYPE_NAME[probsDtype]}`);
  }
  if (!(numSamples > 0)) throw new RuntimeError("cannot sample n_sample <= 0 samples");
  if (!(replacement || numSamples <= categories)) {
    throw new RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  }
  if (categories > 2 ** 24) throw new RuntimeError("number of categories cannot exceed 2^24");
  if (probsDtype === "float16") throw new RuntimeError("multinomial is not implemented for half on CPU");
}

/**
 * torch.multinomial(probs, numSamples, replacement) for `rows` distributions of `categories`
 * weights each (row-major). Returns the sampled indices row-major (rows x numSamples).
 *
 * Without replacement, or for a single sample, PyTorch 1.13 uses the exponential trick:
 * q ~ Exp(1) per weight (drawn in the probs' dtype), then argmax / topk of p / q.
 * With replacement it normalizes the cumulative sum and binary-searches one 53-bit uniform
 * per sample.
 */
export function multinomial(
  gen: CPUGeneratorImpl,
  probs: Float64Array,
  rows: number,
  categories: number,
  numSamples: number,
  replacement: boolean,
  probsDtype: RandomDtype,
): Float64Array {
  multinomial_check(probsDtype, categories, numSamples, replacement);
  const result = new Float64Array(rows * numSamples);
  if (result.length === 0) return result;

  if (!replacement) {
    let valid = true;
    for (let i = 0; i < probs.length; i++) if (!(probs[i] < Infinity && probs[i] >= 0)) valid = false;
    if (!valid) throw new RuntimeError("probability tensor contains either `inf`, `nan` or element < 0");
    for (let r = 0; r < rows; r++) {
      let any = false;
      for (let j = 0; j < categories; j++) if (probs[r * categories + j] !== 0) any = true;
      if (!any) throw new RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)");
    }
    // s = argmax(p / q) with q ~ Exp(1): the Gumbel-max trick without logs.
    const q = exponential_(gen, rows * categories, probsDtype, 1);
    for (let i = 0; i < q.length; i++) q[i] = castToFloatDtype(probsDtype, probs[i] / q[i]);
    for (let r = 0; r < rows; r++) {
      const row = q.subarray(r * categories, (r + 1) * categories);
      const picked = numSamples === 1 ? [argmax(row)] : topkIndices(row, numSamples);
      for (let s = 0; s < numSamples; s++) result[r * numSamples + s] = picked[s];
    }
    return result;
  }
  return multinomial_with_replacement(gen, probs, rows, categories, numSamples, probsDtype, result);
}

/** Index of the first maximum (NaN counts as the maximum), as at::argmax. */
function argmax(v: Float64Array): number {
  let best = 0;
  for (let j = 1; j < v.length; j++) {
    if (Number.isNaN(v[best])) break;
    if (v[j] > v[best] || Number.isNaN(v[j])) best = j;
  }
  return best;
}

/** Indices of the k largest values in topk's order (ties included: see TopKImpl.ts). */
function topkIndices(v: Float64Array, k: number): number[] {
  return topk_row(v, k).map((e) => e.index);
}

function multinomial_with_replacement(
  gen: CPUGeneratorImpl,
  probs: Float64Array,
  rows: number,
  categories: number,
  numSamples: number,
  dtype: FloatDtype,
  result: Float64Array,
): Float64Array {
  // The cumulative distribution is kept in the accumulate type: float for bfloat16.
  const round = dtype === "float64" ? (x: number) => x : fround;
  const cum = new Float64Array(categories);
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    for (let j = 0; j < categories; j++) {
      const val = probs[i * categories + j];
      if (!(val >= 0)) throw new RuntimeError("invalid multinomial distribution (encountering probability entry < 0)");
      if (!Number.isFinite(val)) {
        throw new RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)");
      }
      sum = round(sum + val);
      cum[j] = sum;
    }
    if (!(sum > 0)) throw new RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)");
    // Normalize so that the last bucket is 1 (the weights need not sum to one).
    for (let j = 0; j < categories; j++) cum[j] = round(cum[j] / sum);
    for (let s = 0; s < numSamples; s++) {
      const u = uniform_double01(gen);
      cum[categories - 1] = 1;
      // First slot whose cumulative probability is >= u.
      let left = 0;
      let right = categories;
      while (right - left > 0) {
        const mid = left + ((right - left) >> 1);
        if (cum[mid] < u) left = mid + 1;
        else right = mid;
      }
      result[i * numSamples + s] = left;
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Contiguous fills: the same streams as the kernels above, written straight into a tensor's typed
// array (elements out[off .. off+n)) in tight loops. The 32-bit words are drawn in blocks with
// gen.fill() — the same words in the same order as one gen.random() per draw. These are the
// TypeScript implementations of the random DispatchStubs (native/random/RandomStubs.ts); the
// callers have already run the argument checks above.

const WORD_BLOCK = 4096;
let wordScratch = new Uint32Array(WORD_BLOCK);

function words(count: number): Uint32Array {
  if (wordScratch.length < count) wordScratch = new Uint32Array(count);
  return wordScratch;
}

const TWO_POW_M24 = 2 ** -24;
const TWO_POW_M53 = 2 ** -53;

/** uniform_kernel for float32 into a Float32Array: uniform_real<float> of one word each. */
export function uniform_fill_float(gen: CPUGeneratorImpl, out: Float32Array, off: number, n: number, from: number, to: number): void {
  const range = fround(fround(to) - fround(from));
  const f = fround(from);
  const unit = f === 0 && range === 1;
  const w = words(WORD_BLOCK);
  for (let i = 0; i < n; i += WORD_BLOCK) {
    const k = Math.min(WORD_BLOCK, n - i);
    gen.fill(w, 0, k);
    const o = off + i;
    if (unit) for (let j = 0; j < k; j++) out[o + j] = (w[j] & 0xffffff) * TWO_POW_M24;
    else for (let j = 0; j < k; j++) out[o + j] = fmaf((w[j] & 0xffffff) * TWO_POW_M24, range, f);
  }
}

/** uniform_kernel for float64 into a Float64Array: uniform_real<double> of one 64-bit draw each. */
export function uniform_fill_double(gen: CPUGeneratorImpl, out: Float64Array, off: number, n: number, from: number, to: number): void {
  const range = to - from;
  const unit = from === 0 && range === 1;
  const w = words(WORD_BLOCK);
  const half = WORD_BLOCK >> 1;
  for (let i = 0; i < n; i += half) {
    const k = Math.min(half, n - i);
    gen.fill(w, 0, 2 * k);
    const o = off + i;
    for (let j = 0; j < k; j++) {
      const u = ((w[2 * j] & 0x1fffff) * TWO_POW_32 + w[2 * j + 1]) * TWO_POW_M53;
      out[o + j] = unit ? u : fma(u, range, from);
    }
  }
}

const sc = new Float64Array(2);

/**
 * normal_fill_AVX2 (float32, n >= 16) into a Float32Array: all n uniforms first, Box-Muller on
 * blocks of 16, the last 16 redrawn when n % 16 != 0 — normal_fill_AVX2 above, without the
 * intermediate arrays.
 */
export function normal_fill_float(gen: CPUGeneratorImpl, out: Float32Array, off: number, n: number, mean: number, std: number): void {
  mean = fround(mean);
  std = fround(std);
  uniform_fill_float(gen, out, off, n, 0, 1);
  const block = (b: number) => {
    for (let j = 0; j < 8; j++) {
      const u1 = fround(1 - out[b + j]);
      const u2 = out[b + j + 8];
      const radius = fround(Math.sqrt(fround(-2 * log256_ps(u1))));
      sincos256_ps_to(fround(TWO_PI_F * u2), sc);
      out[b + j] = fmaf(fround(radius * sc[1]), std, mean);
      out[b + j + 8] = fmaf(fround(radius * sc[0]), std, mean);
    }
  };
  for (let i = 0; i < n - 15; i += 16) block(off + i);
  if (n % 16 !== 0) {
    const base = off + n - 16;
    uniform_fill_float(gen, out, base, 16, 0, 1);
    block(base);
  }
}

/**
 * random_from_to_kernel's 32-bit path — (word % range) + base, range < 2^32 — into int64 (a
 * BigInt64Array, written as two int32 words per element), int32, float32 or float64 outputs.
 * Returns false for the other cases (64-bit draws, a base beyond 2^52, other dtypes).
 */
export function random_from_to_fill(
  gen: CPUGeneratorImpl,
  out: BigInt64Array | Int32Array | Float32Array | Float64Array,
  off: number,
  n: number,
  range: number,
  base: number,
): void {
  const w = words(WORD_BLOCK);
  if (out instanceof BigInt64Array) {
    const o32 = new Int32Array(out.buffer, out.byteOffset, out.length * 2);
    for (let i = 0; i < n; i += WORD_BLOCK) {
      const k = Math.min(WORD_BLOCK, n - i);
      gen.fill(w, 0, k);
      let o = 2 * (off + i);
      for (let j = 0; j < k; j++, o += 2) {
        const v = (w[j] % range) + base; // exact: |v| < 2^53
        if ((v | 0) === v) {
          o32[o] = v; // an int32 value: low word, then the sign extension (little-endian)
          o32[o + 1] = v >> 31;
        } else {
          const hi = Math.floor(v / TWO_POW_32);
          o32[o] = v - hi * TWO_POW_32;
          o32[o + 1] = hi;
        }
      }
    }
    return;
  }
  for (let i = 0; i < n; i += WORD_BLOCK) {
    const k = Math.min(WORD_BLOCK, n - i);
    gen.fill(w, 0, k);
    const o = off + i;
    // typed-array stores convert as static_cast<scalar_t>(int64) does for these (int32 wraps, floats round)
    if (out instanceof Int32Array) for (let j = 0; j < k; j++) out[o + j] = wrapToInt32((w[j] % range) + base);
    else for (let j = 0; j < k; j++) out[o + j] = (w[j] % range) + base;
  }
}

function wrapToInt32(v: number): number {
  // v may exceed 2^32 when the base does: ToInt32 on a double is the modular wrap
  return v | 0;
}

/** Whether random_from_to_fill handles (dtype, range, base). */
export function random_from_to_fillable(dtype: RandomDtype, range: bigint, base: bigint): boolean {
  if (dtype !== "int64" && dtype !== "int32" && dtype !== "float32" && dtype !== "float64") return false;
  return !uses_random64_for_range(dtype, range) && base >= -(2n ** 52n) && base <= 2n ** 52n;
}

/** randperm_cpu into an int64 BigInt64Array (two int32 words each): Fisher-Yates from the front. */
export function randperm_fill(gen: CPUGeneratorImpl, out: BigInt64Array, off: number, n: number): void {
  const r = n <= 2 ** 31 ? new Int32Array(n) : null;
  if (r === null) throw new RuntimeError("randperm_fill: n >= 2^31");
  for (let i = 0; i < n; i++) r[i] = i;
  const w = words(WORD_BLOCK);
  for (let i = 0; i < n - 1; ) {
    const k = Math.min(WORD_BLOCK, n - 1 - i);
    gen.fill(w, 0, k);
    for (let j = 0; j < k; j++, i++) {
      const z = w[j] % (n - i);
      const sav = r[i];
      r[i] = r[z + i];
      r[z + i] = sav;
    }
  }
  const o32 = new Int32Array(out.buffer, out.byteOffset, out.length * 2);
  for (let i = 0, o = 2 * off; i < n; i++, o += 2) {
    o32[o] = r[i];
    o32[o + 1] = 0;
  }
}
