// where (aten/src/ATen/native/TensorCompare.cpp): where.self / where.self_out and the Scalar overloads.
// The result dtype is result_type(self, other); out= must have exactly that dtype; the condition
// must be bool (uint8 is accepted, as PyTorch 1.13 does with a deprecation warning). The three
// operands broadcast together (TensorIterator), which lays the result out like them.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, dtypeOf, scalarTypeName } from "../../../c10/ScalarType.js";
import { typedView, toRaw, readNumber } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { resultTypeOf } from "../../TypeProperties.js";
import { wrapped_scalar_tensor } from "../../core/OpRegistration.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { TensorIterator } from "../TensorIterator.js";
import { DispatchStub } from "../DispatchStub.js";
import { where_self } from "../../../generated/where.js";

type Scalar = number | boolean;

/** where_kernel (cpu/TensorCompareKernel.cpp): out = condition ? self : other over the iterator's operands, in dtype rt. */
export const where_kernel = new DispatchStub<(iter: TensorIterator, rt: ScalarType) => void>("where_kernel", "aten/src/ATen/native/cpu/TensorCompareKernel.cpp");
where_kernel.register("ts", (iter, rt) => {
  const o = iter.output._impl;
  const ov = typedView(o.storage, o.dtype) as unknown as (number | bigint)[];
  const ins = iter.inputs.map((t) => ({ view: typedView(t._impl.storage, t._impl.dtype), st: t._impl.dtype.scalarType }));
  const long = rt === ScalarType.Long;
  const read = (k: number, off: number): number | bigint => {
    const { view, st } = ins[k];
    if (st === ScalarType.Long) return long ? (view[off] as bigint) : Number(view[off] as bigint);
    const v = readNumber(view, st, off);
    return long ? BigInt(v) : v;
  };
  iter.forEachOffsets((offs) => {
    const c = readNumber(ins[0].view, ins[0].st, offs[1]) !== 0;
    const v = c ? read(1, offs[2]) : read(2, offs[3]);
    ov[offs[0]] = typeof v === "bigint" ? v : toRaw(rt, v);
  });
});

export function where_self_out(condition: Tensor, self: Tensor, other: Tensor, out: Tensor): Tensor {
  const rt = resultTypeOf([self, other]);
  if (out.dtype.scalarType !== rt) {
    throw new RuntimeError(`Expected out type to be ${scalarTypeName(rt)} but got ${scalarTypeName(out.dtype.scalarType)}`);
  }
  const ct = condition.dtype.scalarType;
  if (ct !== ScalarType.Bool && ct !== ScalarType.Byte) {
    throw new RuntimeError(`where expected condition to be a boolean tensor, but got a tensor with dtype ${scalarTypeName(ct)}`);
  }
  const iter = TensorIterator.build({ out, isInplace: false, inputs: [condition, self, other], outputDtype: out.dtype });
  const o = iter.output._impl;
  if (!o.storage.hasData()) return iter.output;
  where_kernel.call(o.device.type, iter, rt);
  return iter.output;
}

export function where(condition: Tensor, self: Tensor, other: Tensor): Tensor {
  const rt = dtypeOf(resultTypeOf([self, other]));
  // out_device: the first operand not on the CPU (a wrapped scalar is a CPU tensor), else the CPU
  const device = [condition, self, other].find((t) => t.device.type !== "cpu")?.device ?? self.device;
  return where_self_out(condition, self, other, wrap(empty_impl([0], rt, device)));
}

// where.ScalarSelf / ScalarOther / Scalar: wrapped_scalar_tensor(scalar) and where.self.
export const where_scalar_self = (condition: Tensor, self: Scalar, other: Tensor): Tensor =>
  where_self.call(condition, wrapped_scalar_tensor(self), other) as Tensor;
export const where_scalar_other = (condition: Tensor, self: Tensor, other: Scalar): Tensor =>
  where_self.call(condition, self, wrapped_scalar_tensor(other)) as Tensor;
export const where_scalar = (condition: Tensor, self: Scalar, other: Scalar): Tensor =>
  where_self.call(condition, wrapped_scalar_tensor(self), wrapped_scalar_tensor(other)) as Tensor;
