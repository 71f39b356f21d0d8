// logsumexp (aten/src/ATen/native/ReduceOps.cpp): log(sum(exp(x))) over dims, computed around the maximum.
// PyTorch 1.13 composes it from ops (amax, squeeze, abs, eq, masked_fill_, sub, exp_, sum, log_, add_);
// here one kernel computes the same steps in the element type (the sum runs in double, so float32 may
// differ in the last bits: the tests allow 1e-6), and raises the same errors.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isFloatingType, isIntegralType, scalarTypeName } from "../../../c10/ScalarType.js";
import { get_default_dtype } from "../../../c10/DefaultDtype.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { dimMask, reducedShape, structuredOutput, gather, writeAll, roundTo } from "../reduce/ReduceUtils.js";
import { hasData, asDouble, notImplementedFor } from "./common.js";

// ---- logsumexp ----

/**
 * logsumexp_out_impl: m = amax over dims (keepdim; |m| = inf replaced by 0), then log(sum(exp(x - m))) + m;
 * an empty input gives log(sum(exp(x))). Integral inputs are first converted to the default dtype.
 * float16 has no exp kernel on CPU in 1.13. With dims=[] the kept-dim maxes ([1, ..., 1]) cannot be
 * added in place to the 0-d sum: PyTorch 1.13 raises the broadcast error, so this does too.
 */
type LseKernel = (result: Tensor, self: Tensor, mask: readonly boolean[]) => void;
export const logsumexp_stub = new DispatchStub<LseKernel>("logsumexp", "aten/src/ATen/native/ReduceOps.cpp");
logsumexp_stub.register("ts", (result, self, mask) => {
  const cdt = isIntegralType(self.dtype.scalarType, true) ? get_default_dtype() : self.dtype;
  const r = (v: number) => roundTo(cdt, v);
  writeAll(result, gather(self, mask).map((g0) => {
    const g = g0.map((v) => r(asDouble(v)));
    let m = g.length ? g.reduce((a, x) => (Number.isNaN(a) || Number.isNaN(x) ? NaN : Math.max(a, x)), -Infinity) : 0;
    if (Math.abs(m) === Infinity) m = 0;
    const s = g.reduce((a, x) => a + r(Math.exp(r(x - m))), 0);
    return r(r(Math.log(r(s))) + m);
  }));
});

export function logsumexp_out(self: Tensor, dims: readonly number[], keepdim: boolean, out: Tensor): Tensor {
  if (!isFloatingType(out.dtype.scalarType)) {
    throw new RuntimeError(`logsumexp(): Expected floating point type for result tensor, but got: ${scalarTypeName(out.dtype.scalarType)}`);
  }
  const sizes = self._impl.sizes();
  const mask = dimMask(dims, sizes.length);
  const cdt = isIntegralType(self.dtype.scalarType, true) ? get_default_dtype() : self.dtype;
  if (cdt.scalarType === ScalarType.Half && hasData(out)) throw notImplementedFor("exp_vml_cpu", ScalarType.Half);
  const result = structuredOutput(self, reducedShape(sizes, mask, keepdim), out.dtype, out, "out");
  if (self.numel() !== 0 && dims.length === 0 && !keepdim && sizes.length > 0) {
    throw new RuntimeError(`output with shape [] doesn't match the broadcast shape [${sizes.map(() => 1).join(", ")}]`);
  }
  if (hasData(result)) logsumexp_stub.call(self.device.type, result, self, mask);
  return result;
}

/** logsumexp (CompositeExplicitAutograd): integral inputs give the default dtype. */
export function logsumexp(self: Tensor, dims: readonly number[], keepdim: boolean): Tensor {
  const dt = isIntegralType(self.dtype.scalarType, true) ? get_default_dtype() : self.dtype;
  return logsumexp_out(self, dims, keepdim, structuredOutput(self, [0], dt, null, "functional"));
}
