// The pointwise loss kernels (aten/src/ATen/native/cpu/BinaryOpsKernel.cpp: mse_kernel,
// smooth_l1_kernel, huber_kernel) behind their DispatchStubs. Each is PyTorch's lambda with every
// operation rounding to the compute type: mse computes half in c10::Half (each operation rounds to
// half); smooth_l1 and huber round a - b to half (and huber to bfloat16), then std::abs returns a
// float and the rest is float arithmetic, rounded once on store.

import { ScalarType } from "../../../c10/ScalarType.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { typedView, readNumber, toRaw } from "../../../c10/ElementAccess.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { cpu_kernel_binary } from "../Loops.js";
import { DispatchStub } from "../DispatchStub.js";
import type { TensorIterator } from "../TensorIterator.js";
import { noBigint } from "../binary/common.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_HALF, ALL_TYPES_AND_BFLOAT16, INTEGRAL_TYPES } from "../unary/Dispatch.js";

const ALL_TYPES = [...INTEGRAL_TYPES, ScalarType.Double, ScalarType.Float] as const;
import { cpu_kernel_nary } from "../unary/NaryLoop.js";

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

/**
 * binary_cross_entropy's loop (aten/src/ATen/native/Loss.cpp binary_cross_entropy_out_cpu) over (loss, input, target) in one dtype:
 * L = (y - 1) * max(log1p(-x), -100) - y * max(log(x), -100), each input element checked to lie in [0, 1] as it is read.
 */
export const binary_cross_entropy_stub = new DispatchStub<(iter: TensorIterator) => void>("binary_cross_entropy_stub", "aten/src/ATen/native/Loss.cpp");
binary_cross_entropy_stub.register("ts", (iter) => {
  const t = iter.output.dtype.scalarType;
  AT_DISPATCH("binary_cross_entropy", t, [Double, Float]);
  const r = t === Double ? (x: number) => x : Math.fround;
  const out = iter.output._impl, [x, y] = iter.inputs.map((u) => u._impl);
  const ov = typedView(out.storage, out.dtype) as unknown as number[];
  const xv = typedView(x.storage, x.dtype), yv = typedView(y.storage, y.dtype);
  iter.forEachOffsets((o) => {
    const xi = readNumber(xv, t, o[1]), yi = readNumber(yv, t, o[2]);
    if (!(xi >= 0 && xi <= 1)) throw new RuntimeError("all elements of input should be between 0 and 1"); // 1.13 checks the input only
    const log1m = Math.max(r(Math.log1p(-xi)), -100), logx = Math.max(r(Math.log(xi)), -100);
    ov[o[0]] = toRaw(t, r(r(r(yi - 1) * log1m) - r(yi * logx))) as number;
  });
});

/**
 * binary_cross_entropy_with_logits without pos_weight over (loss, input, target) of one float dtype, element by
 * element: the steps of Loss.ts's composite, each rounded to the dtype as that op's result is:
 * max_val = max(-x, 0); loss = ((1 - t) * x + max_val) + log(exp(-max_val) + exp(-x - max_val)).
 */
export const binary_cross_entropy_with_logits_stub = new DispatchStub<(iter: TensorIterator) => void>("binary_cross_entropy_with_logits_stub", "aten/src/ATen/native/Loss.cpp");
binary_cross_entropy_with_logits_stub.register("ts", (iter) => {
  const t = iter.output.dtype.scalarType;
  AT_DISPATCH("binary_cross_entropy_with_logits", t, [Double, Float]);
  const r = t === Double ? (x: number) => x : Math.fround;
  cpu_kernel_binary(iter, {
    number: (x, y) => {
      const nx = -x, maxVal = nx < 0 ? 0 : nx; // clamp_min_(0): std::max, a NaN passes
      const logTerm = r(Math.log(r(r(Math.exp(-maxVal)) + r(Math.exp(r(nx - maxVal))))));
      return r(r(r(r(1 - y) * x) + maxVal) + logTerm);
    },
    bigint: noBigint,
  });
});

// ---- the backward kernels (cpu/PointwiseOpsKernel.cpp): three inputs (input, target, grad_output) ----


const REF_POINTWISE = "aten/src/ATen/native/cpu/PointwiseOpsKernel.cpp";

/** Scalar::to<int64_t>(): a double truncated toward zero. */
const toBig = (v: number): bigint => BigInt(Math.trunc(v));

/** A three-input kernel over the output's dtype (iter.dtype(0)); integer dtypes compute in int64 with C++'s truncation. */
function kernel3(iter: TensorIterator, name: string, types: readonly ScalarType[], f: (r: (x: number) => number, t: ScalarType) => (a: number, b: number, c: number) => number,
  big?: (t: ScalarType) => (a: bigint, b: bigint, c: bigint) => bigint): void {
  const t = iter.output.dtype.scalarType;
  AT_DISPATCH(name, t, types);
  const isFloat = t === Double || t === Float || t === Half || t === ScalarType.BFloat16;
  const compute = isFloat ? t : ScalarType.Long;
  cpu_kernel_nary(iter, compute, {
    number: isFloat ? f(stepOf(t), t) : (() => { throw new Error(`${name}: no double path for integers`); }),
    bigint: !isFloat && big ? big(t) : noBigint,
  });
}

/** mse_backward: norm * (self - target) * grad_output, every real type but bfloat16 and half (norm.to<scalar_t>(), so Mean's 2 / numel truncates for integers). */
export const mse_backward_stub = new DispatchStub<(iter: TensorIterator, norm: number) => void>("mse_backward_stub", REF_POINTWISE);
mse_backward_stub.register("ts", (iter, norm) =>
  kernel3(iter, "mse_backward_cpu_out", ALL_TYPES, (r) => {
    const n = r(norm);
    return (a, b, c) => r(r(n * r(a - b)) * c);
  }, (t) => {
    const n = toBig(norm);
    return (a, b, c) => n * (a - b) * c;
  }));

/**
 * smooth_l1_backward: x = input - target; x <= -beta ? -norm * grad : x >= beta ? norm * grad : norm * x * grad / beta
 * (the scalar lambda; PyTorch's vector lambda computes norm * (x / beta) * grad, within an ulp of it).
 */
export const smooth_l1_backward_stub = new DispatchStub<(iter: TensorIterator, norm: number, beta: number) => void>("smooth_l1_backward_stub", REF_POINTWISE);
smooth_l1_backward_stub.register("ts", (iter, norm, beta) =>
  kernel3(iter, "smooth_l1_backward_cpu_out", ALL_TYPES_AND_BFLOAT16, (r) => {
    const n = r(norm), b = r(beta);
    return (input, target, g) => {
      const x = r(input - target);
      return x <= -b ? r(-n * g) : x >= b ? r(n * g) : r(r(r(n * x) * g) / b);
    };
  }, (t) => {
    const n = toBig(norm), b = toBig(beta);
    return (input, target, g) => {
      const x = input - target;
      return x <= -b ? -n * g : x >= b ? n * g : (n * x * g) / b;
    };
  }));

/** huber_backward: x = input - target; x <= -delta ? -norm * grad * delta : x >= delta ? norm * grad * delta : norm * x * grad. */
export const huber_backward_stub = new DispatchStub<(iter: TensorIterator, norm: number, delta: number) => void>("huber_backward_stub", REF_POINTWISE);
huber_backward_stub.register("ts", (iter, norm, delta) =>
  kernel3(iter, "huber_backward_cpu_out", FLOATING_TYPES_AND_HALF, (r) => {
    const n = r(norm), d = r(delta);
    return (input, target, g) => {
      const x = r(input - target);
      return x <= -d ? r(r(-n * g) * d) : x >= d ? r(r(n * g) * d) : r(r(n * x) * g);
    };
  }));

/** binary_cross_entropy_backward's loop: grad * (input - target) / max((1 - input) * input, EPSILON), float and double. */
export const binary_cross_entropy_backward_stub = new DispatchStub<(iter: TensorIterator) => void>("binary_cross_entropy_backward_stub", "aten/src/ATen/native/Loss.cpp");
binary_cross_entropy_backward_stub.register("ts", (iter) =>
  kernel3(iter, "binary_cross_entropy_backward", [Double, Float], (r) => {
    const eps = r(1e-12);
    return (g, input, target) => r(r(g * r(input - target)) / Math.max(r(r(1 - input) * input), eps));
  }));
