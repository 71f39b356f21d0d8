// The pointwise loss kernels (aten/src/ATen/native/cpu/BinaryOpsKernel.cpp: mse_kernel,
// smooth_l1_kernel, huber_kernel) behind their DispatchStubs. Each is PyTorch's lambda with every
// operation rounding to the compute type: mse computes half in c10::Half (each operation rounds to
// half); smooth_l1 and huber round a - b to half (and huber to bfloat16), then std::abs returns a
// float and the rest is float arithmetic, rounded once on store.

import { ScalarType } from "../../../c10/ScalarType.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { cpu_kernel_binary } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import type { TensorIterator } from "../TensorIterator.js";
import { noBigint } from "../binary/common.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_HALF } from "../unary/Dispatch.js";

const REF = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp";
const { Double, Float, Half } = ScalarType;

/** scalar_t arithmetic: float64 exact, float32 fround, half/bfloat16 rounded after each operation. */
const stepOf = (t: ScalarType) => (t === Double ? (x: number) => x : t === Float ? Math.fround : (x: number) => roundToScalarType(t, x));
/** The float arithmetic after std::abs: float for float32, half and bfloat16; double for float64. */
const opmathOf = (t: ScalarType) => (t === Double ? (x: number) => x : Math.fround);

let mseHalfWarned = false;

export const mse_stub = new DispatchStub<(iter: TensorIterator) => void>("mse_stub", REF);
mse_stub.register("ts", (iter) => {
  const t = iter.commonDtype.scalarType;
  if (t === Half && !mseHalfWarned) {
    mseHalfWarned = true; // TORCH_WARN_ONCE
    process.emitWarning(
      "Applying the CPU mse kernel on half-type tensors. This may be slower than using float or double-type tensors. (Triggered internally at  ./aten/src/ATen/native/cpu/BinaryOpsKernel.cpp:821.)",
      "UserWarning",
    );
  }
  AT_DISPATCH("mse_cpu", t, [Double, Float, Half]);
  const r = stepOf(t);
  cpu_kernel_binary(iter, { number: (a, b) => { const d = r(a - b); return r(d * d); }, bigint: noBigint });
});

/** smooth_l1: z = |a - b|; z < beta ? 0.5 * z * z / beta : z - 0.5 * beta. */
export const smooth_l1_stub = new DispatchStub<(iter: TensorIterator, beta: number) => void>("smooth_l1_stub", REF);
smooth_l1_stub.register("ts", (iter, beta) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("smooth_l1_cpu", t, FLOATING_TYPES_AND_HALF);
  // half is not vectorized on 1.13's CPU: a - b rounds to c10::Half; bfloat16's vector path subtracts in float
  const s = t === Half ? stepOf(t) : opmathOf(t), r = opmathOf(t), b = stepOf(t)(beta), halfBeta = r(0.5 * b);
  cpu_kernel_binary(iter, {
    number: (x, y) => { const z = Math.abs(s(x - y)); return z < b ? r(r(r(0.5 * z) * z) / b) : r(z - halfBeta); },
    bigint: noBigint,
  });
});

/** huber: z = |a - b|; z < delta ? 0.5 * z * z : delta * (z - 0.5 * delta). */
export const huber_stub = new DispatchStub<(iter: TensorIterator, delta: number) => void>("huber_stub", REF);
huber_stub.register("ts", (iter, delta) => {
  const t = iter.commonDtype.scalarType;
  AT_DISPATCH("huber_cpu", t, FLOATING_TYPES_AND_HALF);
  const s = stepOf(t), r = opmathOf(t), d = s(delta), halfDelta = r(0.5 * d);
  cpu_kernel_binary(iter, {
    number: (x, y) => { const z = Math.abs(s(x - y)); return z < d ? r(r(0.5 * z) * z) : r(d * r(z - halfDelta)); },
    bigint: noBigint,
  });
});
