// torch.Generator and the default generator's functions (torch/random.py, torch/csrc/Generator.cpp).
// A Generator is the user's handle on a CPUGeneratorImpl: the mt19937 state plus cached normals.

import { CPUGeneratorImpl, getDefaultCPUGenerator } from "./core/CPUGeneratorImpl.js";
import { device, toDevice, type DeviceLike } from "../c10/Device.js";
import { RuntimeError, TypeError_ } from "../c10/Errors.js";
import { uint8 } from "../c10/ScalarType.js";
import { empty_impl, wrap } from "./core/empty.js";
import { Tensor } from "./core/Tensor.js";
import { typedView } from "../c10/ElementAccess.js";

export class Generator {
  readonly device: device;
  readonly _impl: CPUGeneratorImpl;

  constructor(dev: DeviceLike = "cpu", impl?: CPUGeneratorImpl) {
    this.device = toDevice(dev);
    if (this.device.type !== "cpu") throw new RuntimeError(`Device type ${this.device.type.toUpperCase()} is not supported for torch.Generator() api.`);
    this._impl = impl ?? new CPUGeneratorImpl();
  }

  manual_seed(seed: number | bigint): this {
    this._impl.manual_seed(checkSeed(seed));
    return this;
  }

  initial_seed(): number {
    return Number(this._impl.initial_seed());
  }

  /** Seeds from a non-deterministic source and returns the seed. */
  seed(): number {
    return Number(this._impl.seed());
  }

  /** The state as a uint8 tensor, byte-compatible with PyTorch's torch.get_rng_state(). */
  get_state(): Tensor {
    const bytes = this._impl.get_state();
    const t = wrap(empty_impl([bytes.length], uint8, toDevice("cpu")));
    (typedView(t._impl.storage, uint8) as Uint8Array).set(bytes);
    return t;
  }

  set_state(state: Tensor): this {
    if (!(state instanceof Tensor) || state.dtype !== uint8) {
      throw new TypeError_(`expected a torch.ByteTensor, but got ${state instanceof Tensor ? state.dtype.name : typeof state}`);
    }
    const bytes = Uint8Array.from(state.tolist() as number[]);
    this._impl.set_state(bytes);
    return this;
  }
}

/** Python ints may be negative seeds; PyTorch takes them modulo 2^64. Non-integers are refused. */
function checkSeed(seed: number | bigint): bigint {
  if (typeof seed === "number" && !Number.isInteger(seed)) throw new TypeError_(`manual_seed expected an int, got float ${seed}`);
  if (typeof seed !== "number" && typeof seed !== "bigint") throw new TypeError_(`manual_seed expected an int`);
  return BigInt.asUintN(64, BigInt(seed));
}

export const default_generator = new Generator("cpu", getDefaultCPUGenerator());

export function manual_seed(seed: number | bigint): Generator {
  return default_generator.manual_seed(seed);
}

export function initial_seed(): number {
  return default_generator.initial_seed();
}

export function seed(): number {
  return default_generator.seed();
}

export function get_rng_state(): Tensor {
  return default_generator.get_state();
}

export function set_rng_state(state: Tensor): void {
  default_generator.set_state(state);
}
