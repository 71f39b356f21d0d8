// The factory functions (aten/src/ATen/native/TensorFactories.cpp): empty, zeros, ones, full, eye and the *_like forms.
// Sizes come as varargs or one array, options last: torch.zeros(2, 3, {dtype: torch.int32}).

import { get_default_dtype } from "../c10/DefaultDtype.js";
import { RuntimeError, TypeError_ } from "../c10/Errors.js";
import { bool, int64, type dtype } from "../c10/ScalarType.js";
import { TensorImpl } from "../c10/TensorImpl.js";
import { empty_impl, wrap } from "./core/empty.js";
import { parseSizeArgs } from "./core/SizeArgs.js";
import { Tensor, type Scalar } from "./core/Tensor.js";
import { resolveOptions, type ResolvedOptions, type TensorOptions } from "./core/TensorOptions.js";
import { fill_kernel } from "./cpu/FillKernel.js";
import { toDevice } from "../c10/Device.js";

type SizeVarargs = (number | readonly number[] | TensorOptions | undefined)[];

/** requires_grad=True at creation: only floating (and complex) tensors may; note the factory's own wording. */
export function applyRequiresGrad(t: Tensor, requiresGrad: boolean, op: string): Tensor {
  if (!requiresGrad) return t;
  if (!(t.dtype.is_floating_point || t.dtype.is_complex)) {
    throw new RuntimeError("Only Tensors of floating point and complex dtype can require gradients", { op });
  }
  t._impl.set_requires_grad(true);
  return t;
}

function create(op: string, sizes: number[], o: ResolvedOptions, fill?: number): Tensor {
  const t = wrap(empty_impl(sizes, o.dtype, o.device));
  // a CPU allocation starts zeroed (ArrayBuffer memory is 0), so filling it with +0 would be work done twice
  const alreadyZero = Object.is(fill, 0) && t._impl.storage.allocatedZeroed();
  if (fill !== undefined && !alreadyZero) fill_kernel(t._impl, fill);
  return applyRequiresGrad(t, o.requires_grad, op);
}

export function empty(...args: SizeVarargs): Tensor {
  const { sizes, options } = parseSizeArgs<TensorOptions>("empty", args);
  return create("empty", sizes, resolveOptions("empty", options, get_default_dtype()));
}

export function zeros(...args: SizeVarargs): Tensor {
  const { sizes, options } = parseSizeArgs<TensorOptions>("zeros", args);
  return create("zeros", sizes, resolveOptions("zeros", options, get_default_dtype()), 0);
}

export function ones(...args: SizeVarargs): Tensor {
  const { sizes, options } = parseSizeArgs<TensorOptions>("ones", args);
  return create("ones", sizes, resolveOptions("ones", options, get_default_dtype()), 1);
}

/** The dtype full() infers from its fill value: bool -> bool, integral -> int64, else the default float. */
export function inferScalarDtype(value: Scalar): dtype {
  if (typeof value === "boolean") return bool;
  return Number.isInteger(value) ? int64 : get_default_dtype();
}

function checkFillValue(op: string, value: unknown): asserts value is Scalar {
  if (typeof value !== "number" && typeof value !== "boolean") {
    throw new TypeError_(`${op}(): argument 'fill_value' must be Number, not ${typeof value === "string" ? "str" : typeof value}`, { op });
  }
}

export function full(size: readonly number[] | number, fill_value: Scalar, options?: TensorOptions): Tensor {
  checkFillValue("full", fill_value);
  const { sizes } = parseSizeArgs<TensorOptions>("full", [size]);
  const o = resolveOptions("full", options, inferScalarDtype(fill_value));
  return create("full", sizes, o, Number(fill_value));
}

export function eye(n: number, m?: number | TensorOptions, options?: TensorOptions): Tensor {
  if (typeof m === "object") {
    options = m;
    m = undefined;
  }
  const cols = m ?? n;
  for (const [name, v] of [["n", n], ["m", cols]] as const) {
    if (!Number.isInteger(v)) throw new TypeError_(`eye(): argument '${name}' must be int, not ${typeof v === "number" ? "float" : typeof v}`, { op: "eye" });
    if (v < 0) throw new RuntimeError(`${name} must be greater or equal to 0, got ${v}`, { op: "eye" });
  }
  const o = resolveOptions("eye", options, get_default_dtype());
  const t = create("eye", [n, cols], o, 0);
  // write 1 along the diagonal through a strided window (stride cols+1) onto the same storage
  const diagonal = new TensorImpl(t._impl.storage, o.dtype, [Math.min(n, cols)], [cols + 1], 0, t._impl.version_counter);
  fill_kernel(diagonal, 1);
  return t;
}

// ---- *_like: size, dtype and device come from the input unless overridden ----

function likeOptions(op: string, input: Tensor, options?: TensorOptions): ResolvedOptions {
  if (!(input instanceof Tensor)) throw new TypeError_(`${op}(): argument 'input' (position 1) must be Tensor, not ${typeof input}`, { op });
  const o = resolveOptions(op, options, input.dtype);
  if (options?.device == null) o.device = toDevice(input.device);
  return o;
}

export function empty_like(input: Tensor, options?: TensorOptions): Tensor {
  return create("empty_like", [...input.shape], likeOptions("empty_like", input, options));
}

export function zeros_like(input: Tensor, options?: TensorOptions): Tensor {
  return create("zeros_like", [...input.shape], likeOptions("zeros_like", input, options), 0);
}

export function ones_like(input: Tensor, options?: TensorOptions): Tensor {
  return create("ones_like", [...input.shape], likeOptions("ones_like", input, options), 1);
}

export function full_like(input: Tensor, fill_value: Scalar, options?: TensorOptions): Tensor {
  checkFillValue("full_like", fill_value);
  return create("full_like", [...input.shape], likeOptions("full_like", input, options), Number(fill_value));
}
