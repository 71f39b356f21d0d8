// isclose, allclose (aten/src/ATen/native/TensorCompare.cpp) and equal (cpu_equal in ReduceOps.cpp).
// isclose is composite: |self - other| <= atol + |rtol * other|, or equal, or (equal_nan) both NaN,
// built from other operators exactly as PyTorch builds it, so the trace shows each step.

import { NotImplementedError, RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, bool, dtypeOf, scalarTypeName, isFloatingType, isIntegralType, type dtype } from "../../../c10/ScalarType.js";
import { get_default_dtype } from "../../../c10/DefaultDtype.js";
import { typedView, readNumber, offsetOf } from "../../../c10/ElementAccess.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { resultTypeOf } from "../../TypeProperties.js";
import type { Tensor } from "../../core/Tensor.js";
import { TensorIterator } from "../TensorIterator.js";
import { cpu_kernel_unary } from "../Loops.js";
import { add_Tensor } from "../../../generated/add.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { sub_Tensor } from "../../../generated/sub.js";
import { eq_Tensor } from "../../../generated/eq.js";
import { ne_Tensor } from "../../../generated/ne.js";
import { le_Tensor } from "../../../generated/le.js";
import { bitwise_or__Tensor } from "../../../generated/bitwise_or.js";
import { bitwise_and__Tensor } from "../../../generated/bitwise_and.js";
import { isclose_default } from "../../../generated/isclose.js";
import { wrapScalar } from "./common.js";

// ---- stand-ins for abs, isfinite and to(dtype), which belong to other operator families ----

function unaryInto(t: Tensor, outputDtype: dtype | undefined, f: (x: number) => number, big?: (x: bigint) => bigint): Tensor {
  const iter = TensorIterator.build({ out: null, isInplace: false, inputs: [t], outputDtype });
  cpu_kernel_unary(iter, { number: f, bigint: big });
  return iter.output;
}
const abs = (t: Tensor) => unaryInto(t, undefined, Math.abs, (x) => (x < 0n ? -x : x));
const isfinite = (t: Tensor) => unaryInto(t, bool, (x) => (Number.isFinite(x) ? 1 : 0), () => 1n);
const to = (t: Tensor, dt: dtype) => unaryInto(t, dt, (x) => x);

/** How C++'s ostream prints a double (%g, 6 significant digits): 1e-05, -1, 0.5. */
function cppDouble(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const exp = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(6)))));
  if (exp < -4 || exp >= 6) {
    const [m, e] = x.toExponential(5).split("e");
    const mant = m.includes(".") ? m.replace(/\.?0+$/, "") : m;
    const n = Number(e);
    return `${mant}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  const s = x.toPrecision(6);
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/** isclose (CompositeImplicitAutograd). */
export function isclose(self: Tensor, other: Tensor, rtol: number, atol: number, equal_nan: boolean): Tensor {
  if (self.dtype !== other.dtype) throw new RuntimeError(`${scalarTypeName(self.dtype.scalarType)} did not match ${scalarTypeName(other.dtype.scalarType)}`);
  if (!(rtol >= 0)) throw new RuntimeError(`rtol must be greater than or equal to zero, but got ${cppDouble(rtol)}`);
  if (!(atol >= 0)) throw new RuntimeError(`atol must be greater than or equal to zero, but got ${cppDouble(atol)}`);
  // equality first: it covers infinities and, with equal_nan, NaN == NaN
  const close = eq_Tensor.call(self, other) as Tensor;
  if (equal_nan && self.is_floating_point()) {
    const bothNan = bitwise_and__Tensor.call(ne_Tensor.call(self, self), ne_Tensor.call(other, other)) as Tensor;
    bitwise_or__Tensor.call(close, bothNan);
  }
  if (rtol === 0 && atol === 0) return close;
  // integer (and bool) operands compute their errors in the default float dtype, so that uint8's
  // self - other cannot wrap around: other is cast, and self follows by promotion (bool is cast too)
  const st = self.dtype.scalarType;
  const castSelf = st === ScalarType.Bool ? to(self, get_default_dtype()) : self;
  const castOther = isIntegralType(st, true) ? to(other, get_default_dtype()) : other;
  const allowed = add_Tensor.call(abs(mul_Tensor.call(castOther, wrapScalar(rtol)) as Tensor), wrapScalar(atol), 1) as Tensor;
  const actual = abs(sub_Tensor.call(castSelf, castOther, 1) as Tensor);
  const finiteAndClose = bitwise_and__Tensor.call(isfinite(actual), le_Tensor.call(actual, allowed)) as Tensor;
  return bitwise_or__Tensor.call(close, finiteAndClose) as Tensor;
}

/** allclose (CompositeExplicitAutograd): isclose(...).all().item(). */
export function allclose(self: Tensor, other: Tensor, rtol: number, atol: number, equal_nan: boolean): boolean {
  const close = isclose_default.call(self, other, rtol, atol, equal_nan) as Tensor;
  if (!close._impl.storage.hasData()) {
    throw new NotImplementedError(`Could not run 'aten::_local_scalar_dense' with arguments from the '${close.device.type === "meta" ? "Meta" : close.device.type}' backend.`);
  }
  const impl = close._impl;
  const view = typedView(impl.storage, impl.dtype);
  for (let i = 0; i < impl.numel(); i++) if (view[offsetOf(impl, i)] === 0) return false;
  return true;
}

/** cpu_equal: same sizes and every element equal, compared in the common dtype (NaN is never equal). */
export function cpu_equal(self: Tensor, other: Tensor): boolean {
  if (String(self.device) !== String(other.device)) {
    throw new RuntimeError(`Cannot compare two tensors on different devices. Got: ${self.device} and ${other.device}`);
  }
  const a = self._impl, b = other._impl;
  const sa = a.sizes(), sb = b.sizes();
  if (sa.length !== sb.length || sa.some((s, i) => s !== sb[i])) return false;
  const common = dtypeOf(resultTypeOf([self, other])).scalarType;
  const va = typedView(a.storage, a.dtype), vb = typedView(b.storage, b.dtype);
  const ta = a.dtype.scalarType, tb = b.dtype.scalarType;
  // static_cast<common>(value): float dtypes round, bool tests, integers truncate
  const conv = (v: number) => (isFloatingType(common) ? roundToScalarType(common, v) : common === ScalarType.Bool ? (v !== 0 ? 1 : 0) : Math.trunc(v));
  for (let i = 0; i < a.numel(); i++) {
    const oa = offsetOf(a, i), ob = offsetOf(b, i);
    if (common === ScalarType.Long) {
      const x = ta === ScalarType.Long ? (va[oa] as bigint) : BigInt(readNumber(va, ta, oa));
      const y = tb === ScalarType.Long ? (vb[ob] as bigint) : BigInt(readNumber(vb, tb, ob));
      if (x !== y) return false;
      continue;
    }
    if (conv(readNumber(va, ta, oa)) !== conv(readNumber(vb, tb, ob))) return false;
  }
  return true;
}
