// torch.device (c10/core/Device.cpp, c10/core/DeviceType.cpp): a device type plus an optional index.

import { RuntimeError } from "./Errors.js";

/** Every type PyTorch's device-string parser accepts, in its error message's order. */
const knownTypes = [
  "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
  "fpga", "ort", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "privateuseone",
] as const;

export type DeviceType = (typeof knownTypes)[number];

export type DeviceLike = device | string;

export class device {
  readonly type: DeviceType;
  /** null when no index was given: torch.device('cuda') is not equal to torch.device('cuda:0'). */
  readonly index: number | null;

  constructor(spec: DeviceLike, index?: number) {
    if (spec instanceof device) {
      if (index !== undefined) throw new RuntimeError("type (string) must not include an index because index was passed explicitly: " + String(spec));
      this.type = spec.type;
      this.index = spec.index;
      return;
    }
    if (typeof spec !== "string") throw new RuntimeError(`device(): argument 'type' must be str, not ${typeof spec}`);
    const parsed = parseDeviceString(spec);
    if (index !== undefined) {
      if (parsed.index !== null) throw new RuntimeError(`type (string) must not include an index because index was passed explicitly: ${spec}`);
      if (!Number.isInteger(index)) throw new RuntimeError(`Device index must be an integer, got ${index}`);
      if (index < 0) throw new RuntimeError("Device index must not be negative");
      parsed.index = index;
    }
    this.type = parsed.type;
    this.index = parsed.index;
  }

  /** str(device): 'cpu', 'cuda:1' */
  toString(): string {
    return this.index === null ? this.type : `${this.type}:${this.index}`;
  }

  /** repr(device): "device(type='cuda', index=1)" */
  repr(): string {
    return this.index === null ? `device(type='${this.type}')` : `device(type='${this.type}', index=${this.index})`;
  }

  equals(other: DeviceLike): boolean {
    const o = toDevice(other);
    return o.type === this.type && o.index === this.index;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.repr();
  }
}

/** Parses 'cuda:1' as c10::Device's string constructor does, with its error texts. */
function parseDeviceString(s: string): { type: DeviceType; index: number | null } {
  if (s.length === 0) throw new RuntimeError("Device string must not be empty");
  const m = /^([a-z]+)(?::(.*))?$/.exec(s);
  const typeName = m ? m[1] : /^[^:]*/.exec(s)![0];
  if (!(knownTypes as readonly string[]).includes(typeName)) {
    throw new RuntimeError(
      `Expected one of ${knownTypes.join(", ")} device type at start of device string: ${s}`,
    );
  }
  if (!m) throw new RuntimeError(`Invalid device string: '${s}'`);
  if (m[2] === undefined) return { type: typeName as DeviceType, index: null };
  // PyTorch accepts only a plain non-negative decimal index without leading zeros.
  if (!/^(0|[1-9][0-9]*)$/.test(m[2])) throw new RuntimeError(`Invalid device string: '${s}'`);
  return { type: typeName as DeviceType, index: Number(m[2]) };
}

/** Devices by the strings that named them: a device is immutable, and factories name "cpu" on every call. */
const parsedDevices = new Map<string, device>();

export function toDevice(d: DeviceLike): device {
  if (d instanceof device) return d;
  let parsed = parsedDevices.get(d);
  if (parsed === undefined) {
    parsed = new device(d);
    if (parsedDevices.size < 64) parsedDevices.set(d, parsed);
  }
  return parsed;
}

export const cpu = new device("cpu");
export const meta = new device("meta");
