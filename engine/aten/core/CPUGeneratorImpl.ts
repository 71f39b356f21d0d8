// PyTorch's CPU random generator: an mt19937 engine plus the cached second Box-Muller sample.
// Mirrors aten/src/ATen/CPUGeneratorImpl.{h,cpp} (PyTorch 1.13), including the byte layout of
// torch.get_rng_state(), so a state saved by PyTorch restores here and vice versa.

import { mt19937, MERSENNE_STATE_N } from "./MT19937.js";
import { RuntimeError } from "../../c10/Errors.js";
import { c_sin } from "./DistributionsHelper.js";
import { getRandomValues } from "node:crypto";

/** The seed of a freshly constructed generator (`torch.Generator().initial_seed()`). */
export const default_rng_seed_val = 67280421310721n;

const U64 = 1n << 64n;

/**
 * Layout of `CPUGeneratorImplState` on x86-64 (CPUGeneratorImpl.cpp), 5056 bytes:
 *   legacy_pod (CPUGeneratorImplStateLegacy, 5048 bytes):
 *     0    int64   the_initial_seed
 *     8    int32   left
 *     12   int32   seeded
 *     16   uint64  next
 *     24   uint64  state[624]            (each uint32 word widened to 64 bits)
 *     5016 double  normal_x              (unused since 1.5; written as 0)
 *     5024 double  normal_y              (the cached double normal sample)
 *     5032 double  normal_rho            (unused; 0)
 *     5040 int32   normal_is_valid       (+4 bytes padding)
 *   5048 float   next_float_normal_sample
 *   5052 bool    is_next_float_normal_sample_valid (+3 bytes padding)
 */
export const CPU_GENERATOR_STATE_SIZE = 5056;
export const CPU_GENERATOR_LEGACY_STATE_SIZE = 5048;
const OFF_STATE = 24;
const OFF_NORMAL_X = 5016;
const OFF_NORMAL_Y = 5024;
const OFF_NORMAL_RHO = 5032;
const OFF_NORMAL_IS_VALID = 5040;
const OFF_FLOAT_SAMPLE = 5048;
const OFF_FLOAT_SAMPLE_VALID = 5052;

/**
 * 64 bits from the OS, like c10::detail::getNonDeterministicRandom() (which reads /dev/urandom).
 * Used for torch.seed() and for the default generator's seed at startup.
 */
export function getNonDeterministicRandom(): bigint {
  const w = getRandomValues(new Uint32Array(2));
  return (BigInt(w[0]) << 32n) | BigInt(w[1]);
}

/** Python's int -> uint64 the way THPGenerator_manualSeed takes it: negatives wrap (two's complement). */
function toUint64Seed(seed: number | bigint): bigint {
  const s = typeof seed === "bigint" ? seed : BigInt(Math.trunc(seed));
  if (s < -(1n << 63n) || s >= U64) throw new RuntimeError("Overflow when unpacking long");
  return s < 0n ? s + U64 : s;
}

export class CPUGeneratorImpl {
  private engine_: mt19937;
  // Box-Muller yields two samples; the unused one waits here (normal_distribution in
  // DistributionsHelper.h). Only the double one is used by 1.13's CPU kernels.
  private next_float_normal_sample_: number | undefined = undefined;
  private next_double_normal_sample_: number | undefined = undefined;

  constructor(seed_in: number | bigint = default_rng_seed_val) {
    this.engine_ = new mt19937(toUint64Seed(seed_in));
  }

  /** PyTorch's set_current_seed: a new engine, and the cached normal samples are dropped. */
  set_current_seed(seed: bigint): void {
    this.next_float_normal_sample_ = undefined;
    this.next_double_normal_sample_ = undefined;
    this.engine_ = new mt19937(seed);
  }

  /** torch.manual_seed / Generator.manual_seed: accepts [-2^63, 2^64); negatives wrap like PyTorch. */
  manual_seed(seed: number | bigint): this {
    this.set_current_seed(toUint64Seed(seed));
    return this;
  }

  /** The seed last set (as an unsigned 64-bit integer). */
  current_seed(): bigint {
    return this.engine_.seed();
  }

  initial_seed(): bigint {
    return this.current_seed();
  }

  /** torch.seed(): reseed from the OS and return the new seed. */
  seed(): bigint {
    const random = getNonDeterministicRandom();
    this.set_current_seed(random);
    return random;
  }

  /** One 32-bit draw, as an unsigned integer in [0, 2^32). */
  random(): number {
    return this.engine_.random();
  }

  /** out[at .. at+n) = the next n 32-bit draws (n calls of random(), in one loop). */
  fill(out: Uint32Array, at: number, n: number): void {
    this.engine_.fill(out, at, n);
  }

  /**
   * The engine's live state words (mt19937.stateArray()): what a native kernel advances in place.
   * manual_seed and set_state install a new engine, so fetch it for every call.
   */
  engineState(): Uint32Array {
    return this.engine_.stateArray();
  }

  /**
   * One 64-bit draw: the first 32-bit draw is the high word, the second the low word
   * (detail::make64BitsFrom32Bits). Hot loops call random() twice instead of building a BigInt;
   * see DistributionsHelper.ts.
   */
  random64(): bigint {
    const hi = this.engine_.random();
    const lo = this.engine_.random();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  next_float_normal_sample(): number | undefined {
    return this.next_float_normal_sample_;
  }

  next_double_normal_sample(): number | undefined {
    return this.next_double_normal_sample_;
  }

  set_next_float_normal_sample(randn: number | undefined): void {
    this.next_float_normal_sample_ = randn === undefined ? undefined : Math.fround(randn);
  }

  set_next_double_normal_sample(randn: number | undefined): void {
    this.next_double_normal_sample_ = randn;
  }

  engine(): mt19937 {
    return this.engine_.clone();
  }

  set_engine(engine: mt19937): void {
    this.engine_ = engine.clone();
  }

  clone(): CPUGeneratorImpl {
    const g = new CPUGeneratorImpl();
    g.engine_ = this.engine_.clone();
    g.next_float_normal_sample_ = this.next_float_normal_sample_;
    g.next_double_normal_sample_ = this.next_double_normal_sample_;
    return g;
  }

  /** The bytes of torch.get_rng_state(): a CPUGeneratorImplState (layout above). */
  get_state(): Uint8Array {
    const bytes = new Uint8Array(CPU_GENERATOR_STATE_SIZE);
    const v = new DataView(bytes.buffer);
    const d = this.engine_.data();
    v.setBigUint64(0, d.seed_, true);
    v.setInt32(8, d.left_, true);
    v.setInt32(12, d.seeded_ ? 1 : 0, true);
    v.setBigUint64(16, BigInt(d.next_), true);
    for (let i = 0; i < MERSENNE_STATE_N; i++) v.setUint32(OFF_STATE + 8 * i, d.state_[i], true);
    // normal_x and normal_rho stay 0: 1.13 stores the cached sample itself in normal_y.
    if (this.next_double_normal_sample_ !== undefined) {
      v.setInt32(OFF_NORMAL_IS_VALID, 1, true);
      v.setFloat64(OFF_NORMAL_Y, this.next_double_normal_sample_, true);
    }
    if (this.next_float_normal_sample_ !== undefined) {
      bytes[OFF_FLOAT_SAMPLE_VALID] = 1;
      v.setFloat32(OFF_FLOAT_SAMPLE, this.next_float_normal_sample_, true);
    }
    return bytes;
  }

  /**
   * torch.set_rng_state(bytes). Accepts the 5056-byte current layout or the 5048-byte legacy one
   * (whose cached normal is rebuilt from normal_x / normal_rho, as PyTorch does).
   */
  set_state(new_state: Uint8Array): void {
    const size = new_state.length;
    const v = new DataView(new_state.buffer, new_state.byteOffset, new_state.byteLength);
    let float_normal_sample: number | undefined = undefined;
    let double_normal_sample: number | undefined = undefined;
    if (size === CPU_GENERATOR_LEGACY_STATE_SIZE) {
      if (v.getInt32(OFF_NORMAL_IS_VALID, true) !== 0) {
        const r = v.getFloat64(OFF_NORMAL_RHO, true);
        const theta = 2.0 * Math.PI * v.getFloat64(OFF_NORMAL_X, true);
        // The old generator cached (x, rho); the sample it would have returned next is the sin one.
        double_normal_sample = r * c_sin(theta);
      }
    } else if (size === CPU_GENERATOR_STATE_SIZE) {
      if (new_state[OFF_FLOAT_SAMPLE_VALID] !== 0) float_normal_sample = v.getFloat32(OFF_FLOAT_SAMPLE, true);
      if (v.getInt32(OFF_NORMAL_IS_VALID, true) !== 0) double_normal_sample = v.getFloat64(OFF_NORMAL_Y, true);
    } else {
      throw new RuntimeError(
        `Expected either a CPUGeneratorImplStateLegacy of size ${CPU_GENERATOR_LEGACY_STATE_SIZE} ` +
          `or a CPUGeneratorImplState of size ${CPU_GENERATOR_STATE_SIZE} ` +
          `but found the input RNG state size to be ${size}`,
      );
    }
    const state = new Uint32Array(MERSENNE_STATE_N);
    // The legacy struct held 64-bit words; the engine keeps their low 32 bits.
    for (let i = 0; i < MERSENNE_STATE_N; i++) state[i] = v.getUint32(OFF_STATE + 8 * i, true);
    const engine = new mt19937();
    engine.set_data({
      seed_: v.getBigUint64(0, true),
      left_: v.getInt32(8, true),
      seeded_: v.getInt32(12, true) !== 0,
      next_: Number(v.getBigUint64(16, true) & 0xffffffffn),
      state_: state,
    });
    if (!engine.is_valid()) throw new RuntimeError("Invalid mt19937 state");
    this.engine_ = engine;
    this.next_float_normal_sample_ = float_normal_sample;
    this.next_double_normal_sample_ = double_normal_sample;
  }
}

let defaultCPUGenerator: CPUGeneratorImpl | undefined;

/**
 * The process-wide generator behind torch.rand & co (at::detail::getDefaultCPUGenerator).
 * Like PyTorch, it is seeded from the OS on first use, so without torch.manual_seed every
 * process draws different numbers; only `new CPUGeneratorImpl()` starts at 67280421310721.
 */
export function getDefaultCPUGenerator(): CPUGeneratorImpl {
  if (defaultCPUGenerator === undefined) defaultCPUGenerator = new CPUGeneratorImpl(getNonDeterministicRandom());
  return defaultCPUGenerator;
}

/** A new generator (at::detail::createCPUGenerator). */
export function createCPUGenerator(seed_val: number | bigint = default_rng_seed_val): CPUGeneratorImpl {
  return new CPUGeneratorImpl(seed_val);
}
