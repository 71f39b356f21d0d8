// addr: beta * self + alpha * outer(vec1, vec2) (aten/src/ATen/native/LinearAlgebra.cpp,
// cpu/LinearAlgebraKernel.cpp). The CPU kernel is a TensorIterator over (self expanded, vec1 as a
// column, vec2) with type promotion; beta == 0 ignores self (NaN in self does not propagate); bool
// computes (beta && self) || (alpha && vec1 && vec2). math_addr is the CompositeExplicitAutograd
// form (other backends, meta): outer, mul and add through the dispatcher.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isFloatingType, isComplexType } from "../../../c10/ScalarType.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { DispatchStub } from "../DispatchStub.js";
import { cpu_kernel_ternary, type TernaryScalarOp } from "../binary/TernaryLoop.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { reshape_default } from "../../../generated/reshape.js";
import { outer_default } from "../../../generated/outer.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { wrapScalar } from "../binary/common.js";
import { add_Tensor } from "../../../generated/add.js";
import { copy__default } from "../../../generated/copy.js";
import { resize_output } from "../Resize.js";
import { expand_size, list } from "./common.js";

export const addr_stub = new DispatchStub<(iter: TensorIterator, beta: Scalar, alpha: Scalar) => void>("addr_stub", "aten/src/ATen/native/cpu/LinearAlgebraKernel.cpp");

function addrOp(t: ScalarType, betaS: Scalar, alphaS: Scalar): TernaryScalarOp {
  const beta = Number(betaS), alpha = Number(alphaS);
  if (t === ScalarType.Bool) {
    return { number: (s, a, b) => ((beta !== 0 && s !== 0) || (alpha !== 0 && a !== 0 && b !== 0) ? 1 : 0) };
  }
  const r = (x: number) => (isFloatingType(t) ? roundToScalarType(t, x) : x);
  const bt = r(isFloatingType(t) ? beta : Math.trunc(beta)), al = r(isFloatingType(t) ? alpha : Math.trunc(alpha));
  const bb = BigInt(Math.trunc(beta)), ab = BigInt(Math.trunc(alpha));
  if (beta === 0) return { number: (_s, a, b) => r(r(al * a) * b), bigint: (_s, a, b) => ab * a * b };
  return { number: (s, a, b) => r(r(bt * s) + r(r(al * a) * b)), bigint: (s, a, b) => bb * s + ab * a * b };
}
addr_stub.register("ts", (iter, beta, alpha) => cpu_kernel_ternary(iter, addrOp(iter.commonDtype.scalarType, beta, alpha)));

function check_1d(t: Tensor, arg: string, fn: string): void {
  if (t.dim() !== 1) throw new RuntimeError(`${fn}: Expected 1-D argument ${arg}, but got ${t.dim()}-D`);
}

function check_addr_scalar(t: ScalarType, s: Scalar, name: string): void {
  if (typeof s === "boolean" && t !== ScalarType.Bool) throw new RuntimeError(`Boolean ${name} only supported for Boolean results.`);
  const integral = typeof s === "boolean" || typeof s === "bigint" || Number.isInteger(s);
  if (!(isFloatingType(t) || isComplexType(t) || integral)) {
    throw new RuntimeError(`For integral input tensors, argument ${name} must not be a floating point number.`);
  }
}

function build_addr_iter(result: Tensor | null, self: Tensor, vec1: Tensor, vec2: Tensor, inplace: boolean): TensorIterator {
  check_1d(vec1, "vec1", "addr");
  check_1d(vec2, "vec2", "addr");
  const n1 = vec1.size(0), n2 = vec2.size(0);
  const self_ = inplace ? self : expand_size(self, [n1, n2]);
  if (self_.dim() !== 2) throw new RuntimeError(`2D tensor expected, got ${self_.dim()}D tensor for input`);
  if (self_.size(0) !== n1 || self_.size(1) !== n2) {
    throw new RuntimeError(`size mismatch, input: ${list(self_._impl.sizes())}, v1: ${list(vec1._impl.sizes())}, v2: ${list(vec2._impl.sizes())}`);
  }
  return TensorIterator.build({ out: result, isInplace: inplace, inputs: [self_, reshape_default.call(vec1, [n1, 1]) as Tensor, vec2] });
}

function run(iter: TensorIterator, beta: Scalar, alpha: Scalar): Tensor {
  const t = iter.commonDtype.scalarType;
  check_addr_scalar(t, beta, "beta");
  check_addr_scalar(t, alpha, "alpha");
  addr_stub.call(iter.output.device.type, iter, beta, alpha);
  return iter.output;
}

export function addr(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Scalar, alpha: Scalar): Tensor {
  return run(build_addr_iter(null, self, vec1, vec2, false), beta, alpha);
}

export function addr_out(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Scalar, alpha: Scalar, result: Tensor): Tensor {
  run(build_addr_iter(result, self, vec1, vec2, result === self), beta, alpha);
  return result;
}

/** addr_ (CompositeExplicitAutograd): at::addr_out(self, self, ...). */
export function addr_(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Scalar, alpha: Scalar): Tensor {
  return addr_out(self, vec1, vec2, beta, alpha, self);
}

/** math_addr checks nothing itself: outer refuses non-vectors, and beta/alpha are not checked. */
export function math_addr(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Scalar, alpha: Scalar): Tensor {
  const b = Number(beta), a = Number(alpha);
  const o = () => outer_default.call(vec1, vec2) as Tensor;
  const scaled = () => (a === 1 ? o() : (mul_Tensor.call(o(), wrapScalar(alpha)) as Tensor));
  // (alpha * outer is mul.Scalar in PyTorch; mul.Tensor with a wrapped number here)
  // beta == 0: self is ignored, so NaN and inf in it do not propagate
  if (b === 0) return scaled();
  const s = b === 1 ? self : (mul_Tensor.call(self, wrapScalar(beta)) as Tensor);
  return add_Tensor.call(s, scaled(), 1) as Tensor;
}

export function math_addr_out(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Scalar, alpha: Scalar, result: Tensor): Tensor {
  const r = math_addr(self, vec1, vec2, beta, alpha);
  resize_output(result, [...r._impl.sizes()]);
  copy__default.call(result, r, false);
  return result;
}

