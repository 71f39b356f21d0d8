// The Tensor methods PyTorch writes by hand instead of generating (torch/csrc/autograd/
// python_variable_methods.cpp; gen_python_functions.py lists them in SKIP_PYTHON_BINDINGS).
//
// Tensor.to: one binding over three signatures (a device with an optional dtype, a dtype, or another
// tensor), parsed by parse_to_conversion and sent to the aten overload that fits (dispatch_to).

import { Tensor } from "./core/Tensor.js";
import { PythonArgParser } from "./python_arg_parser.js";
import { device as Device } from "../c10/Device.js";
import { strided } from "../c10/Layout.js";
import type { dtype } from "../c10/ScalarType.js";
import { isTracing, noteApiBinding } from "../trace/session.js";
import { to_device, to_dtype, to_dtype_layout } from "../generated/to.js";

const to_parser = new PythonArgParser([
  "to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
  "to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
  "to(Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
]);

const asDevice = (d: unknown): Device | null => (d === null || d === undefined ? null : d instanceof Device ? d : new Device(d as string));

function Tensor_to(this: Tensor, ...args: unknown[]): Tensor {
  if (isTracing()) noteApiBinding("Tensor.to");
  const r = to_parser.parse(args);
  const v = r.values as unknown[];
  let device: Device | null, scalarType: dtype | null;
  if (r.index === 0) [device, scalarType] = [asDevice(v[0]), v[1] as dtype | null];
  else if (r.index === 1) [device, scalarType] = [null, v[0] as dtype];
  else [device, scalarType] = [(v[0] as Tensor).device, (v[0] as Tensor).dtype];
  const [non_blocking, copy, memory_format] = v.slice(r.index === 0 ? 2 : 1) as [boolean, boolean, unknown];
  if (!device && !scalarType && !copy && memory_format == null) return this;
  // dispatch_to: no device -> to.dtype; no dtype -> to.dtype_layout with self's options; both -> to.device
  if (!device && !scalarType) return to_dtype_layout.call(this, this.dtype, strided, this.device, false, non_blocking, copy, memory_format) as Tensor;
  if (!device) return to_dtype.call(this, scalarType, non_blocking, copy, memory_format) as Tensor;
  if (!scalarType) return to_dtype_layout.call(this, this.dtype, strided, device, false, non_blocking, copy, memory_format) as Tensor;
  return to_device.call(this, device, scalarType, non_blocking, copy, memory_format) as Tensor;
}

Object.assign(Tensor.prototype, { to: Tensor_to });

declare module "./core/Tensor.js" {
  interface Tensor {
    to(device?: Device | string | number | null, dtype?: dtype | null, non_blocking?: boolean, copy?: boolean, options?: { memory_format?: unknown }): Tensor;
    to(dtype: dtype, non_blocking?: boolean, copy?: boolean, options?: { memory_format?: unknown }): Tensor;
    to(other: Tensor, non_blocking?: boolean, copy?: boolean, options?: { memory_format?: unknown }): Tensor;
    to(options: { device?: Device | string | number | null; dtype?: dtype | null; non_blocking?: boolean; copy?: boolean; memory_format?: unknown }): Tensor;
  }
}
