// arange, linspace, logspace (aten/src/ATen/native/RangeFactories.cpp + cpu/RangeFactoriesKernel.cpp).
// The element formulas follow PyTorch's CPU kernels, including the arithmetic type they compute in,
// so a float32 linspace rounds exactly as PyTorch's does.

import { get_default_dtype } from "../c10/DefaultDtype.js";
import { RuntimeError, TypeError_ } from "../c10/Errors.js";
import { ScalarType, int64 } from "../c10/ScalarType.js";
import { empty_impl, wrap } from "./core/empty.js";
import { Tensor } from "./core/Tensor.js";
import { isOptionsObject, pythonTypeName, resolveOptions, type TensorOptions } from "./core/TensorOptions.js";
import { fill_kernel, write_values_kernel } from "./cpu/FillKernel.js";
import { applyRequiresGrad } from "./TensorFactories.js";
import { arange_stub, linspace_stub, logspace_kernel } from "./cpu/RangeFactoriesKernel.js";

function checkNumber(op: string, name: string, v: unknown): asserts v is number {
  if (typeof v !== "number") throw new TypeError_(`${op}(): argument '${name}' must be Number, not ${pythonTypeName(v)}`, { op });
}

/** torch.arange(end) | arange(start, end) | arange(start, end, step), options last. */
export function arange(...args: (number | TensorOptions | undefined)[]): Tensor {
  const options = isOptionsObject(args[args.length - 1]) || args[args.length - 1] === undefined ? (args.pop() as TensorOptions | undefined) : undefined;
  const nums = args as number[];
  if (nums.length === 0 || nums.length > 3) throw new TypeError_(`arange() received an invalid combination of arguments`, { op: "arange" });
  const [start, end, step] = nums.length === 1 ? [0, nums[0], 1] : [nums[0], nums[1], nums[2] ?? 1];
  checkNumber("arange", "start", start);
  checkNumber("arange", "end", end);
  checkNumber("arange", "step", step);
  // Python ints give int64; any float argument gives the default dtype
  const inferred = [start, end, step].every(Number.isInteger) ? int64 : get_default_dtype();
  const o = resolveOptions("arange", options, inferred);
  const t = o.dtype.scalarType;

  // Integral dtypes accumulate in int64: start, end and step are truncated first (RangeFactories.cpp)
  const integral = !o.dtype.is_floating_point;
  const [xstart, xend, xstep] = integral ? [Math.trunc(start), Math.trunc(end), Math.trunc(step)] : [start, end, step];
  let sizeD: number;
  if (t === ScalarType.Long) {
    const sgn = Math.sign(xstep);
    sizeD = Math.ceil(Math.trunc((xend - xstart + xstep - sgn) / xstep));
  } else {
    sizeD = Math.ceil((end - start) / step);
  }
  if (xstep === 0) throw new RuntimeError("step must be nonzero", { op: "arange" });
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    throw new RuntimeError(`unsupported range: ${pyNum(start)} -> ${pyNum(end)}`, { op: "arange" });
  }
  if (!((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart))) {
    throw new RuntimeError("upper bound and larger bound inconsistent with step sign", { op: "arange" });
  }
  if (!(sizeD >= 0 && sizeD <= 2 ** 63)) throw new RuntimeError("invalid size, possible overflow?", { op: "arange" });

  const size = sizeD;
  const impl = empty_impl([size], o.dtype, o.device, true); // uninitialised: the kernel writes every element
  if (impl.storage.hasData()) arange_stub.call(impl.device.type, impl, xstart, xstep, size);
  return applyRequiresGrad(wrap(impl), o.requires_grad, "arange");
}

function pyNum(v: number): string {
  return Number.isFinite(v) ? String(v) : v > 0 ? "inf" : v < 0 ? "-inf" : "nan";
}

function checkSteps(op: string, steps: unknown): asserts steps is number {
  if (typeof steps !== "number" || !Number.isInteger(steps)) {
    throw new TypeError_(`${op}(): argument 'steps' (position 3) must be int, not ${pythonTypeName(steps)}`, { op });
  }
  if (steps < 0) throw new RuntimeError("number of steps must be non-negative", { op });
}

export function linspace(start: number, end: number, steps: number, options?: TensorOptions): Tensor {
  checkNumber("linspace", "start", start);
  checkNumber("linspace", "end", end);
  checkSteps("linspace", steps);
  const o = resolveOptions("linspace", options, get_default_dtype());
  const impl = empty_impl([steps], o.dtype, o.device, true); // uninitialised: the kernel writes every element
  if (steps > 0 && impl.storage.hasData()) linspace_stub.call(impl.device.type, impl, start, end, steps);
  return applyRequiresGrad(wrap(impl), o.requires_grad, "linspace");
}

export function logspace(start: number, end: number, steps: number, base?: number | TensorOptions, options?: TensorOptions): Tensor {
  if (typeof base === "object") {
    options = base;
    base = undefined;
  }
  const b = base ?? 10;
  checkNumber("logspace", "start", start);
  checkNumber("logspace", "end", end);
  checkNumber("logspace", "base", b);
  checkSteps("logspace", steps);
  const o = resolveOptions("logspace", options, get_default_dtype());
  const impl = empty_impl([steps], o.dtype, o.device);
  if (steps === 1) {
    fill_kernel(impl, Math.pow(b, start));
  } else {
    write_values_kernel(impl, logspace_kernel(o.dtype.scalarType, start, end, steps, b));
  }
  return applyRequiresGrad(wrap(impl), o.requires_grad, "logspace");
}

