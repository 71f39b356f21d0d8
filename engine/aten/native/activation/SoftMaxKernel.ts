// softmax and log_softmax over one dim of a contiguous input (aten/src/ATen/native/cpu/SoftMaxKernel.cpp).
//
// PyTorch has two kernels: the last dim (vec_softmax_lastdim / vec_log_softmax_lastdim: the row sum is a
// vectorized reduce_all, and softmax multiplies by 1 / sum), and any other dim (vec_softmax /
// vec_logsoftmax: each column sums in order, softmax divides by the sum). Both are followed here,
// each step rounding to the compute dtype (float32 for float32 and bfloat16). exp and log are
// correctly rounded here and SLEEF's u10 versions there, so results agree within a few ulp.

import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { writeAll } from "../reduce/ReduceUtils.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_BFLOAT16 } from "../unary/Dispatch.js";

const REF = "aten/src/ATen/native/cpu/SoftMaxKernel.cpp";

/**
 * What a softmax stub receives: the input (any layout), the contiguous output, and the
 * (outer, dim, inner) split of the input's row-major order. A native kernel reads the storages.
 */
export interface SoftmaxArgs {
  input: Tensor;
  output: Tensor;
  dtype: ScalarType;
  outer: number;
  dimSize: number;
  inner: number;
}

/** What the TypeScript kernels compute on: the input's row-major values as doubles, and the output's. */
interface SoftmaxValues {
  input: Float64Array;
  output: Float64Array;
  dtype: ScalarType;
  outer: number;
  dimSize: number;
  inner: number;
}

type Kernel = (a: SoftmaxValues) => void;
const step = (t: ScalarType) => (t === ScalarType.Double ? (x: number) => x : Math.fround);
/** Vectorized<scalar_t>::size() on AVX2: 8 floats (bfloat16 is computed as float), 4 doubles. */
const lanes = (t: ScalarType) => (t === ScalarType.Double ? 4 : 8);
/**
 * 1.13's last-dim log_softmax runs Vectorized<BFloat16> itself (16 lanes, every operation rounding
 * to bfloat16), where softmax and the inner-dim kernels compute bfloat16 in float.
 */
const logStep = (t: ScalarType) => (t === ScalarType.BFloat16 ? (x: number) => roundToScalarType(t, x) : step(t));
const logLanes = (t: ScalarType) => (t === ScalarType.BFloat16 ? 16 : lanes(t));

/** vec::reduce_all with +: lane-wise sums over full vectors, the tail added into the first lanes, then lane 0 + lane 1 + ... */
function reduceAllSum(xs: Float64Array, start: number, size: number, r: (x: number) => number, L: number): number {
  if (size < L) {
    let acc = xs[start];
    for (let i = 1; i < size; i++) acc = r(acc + xs[start + i]);
    return size === 0 ? 0 : acc;
  }
  const acc = Array.from(xs.subarray(start, start + L));
  let d = L;
  for (; d < size - (size % L); d += L) for (let j = 0; j < L; j++) acc[j] = r(acc[j] + xs[start + d + j]);
  for (let j = 0; d + j < size; j++) acc[j] = r(acc[j] + xs[start + d + j]);
  let s = acc[0];
  for (let j = 1; j < L; j++) s = r(s + acc[j]);
  return s;
}

const maxOf = (a: number, b: number) => (Number.isNaN(a) || a > b ? a : b); // vec::maximum propagates NaN

function lastdim(log: boolean): Kernel {
  return ({ input, output, dtype, outer, dimSize }) => {
    const r = log ? logStep(dtype) : step(dtype), L = log ? logLanes(dtype) : lanes(dtype);
    for (let i = 0; i < outer; i++) {
      const base = i * dimSize;
      let max = input[base];
      for (let d = 1; d < dimSize; d++) max = maxOf(max, input[base + d]);
      for (let d = 0; d < dimSize; d++) output[base + d] = r(Math.exp(r(input[base + d] - max)));
      const sum = reduceAllSum(output, base, dimSize, r, L);
      if (log) {
        const logSum = r(Math.log(sum));
        for (let d = 0; d < dimSize; d++) output[base + d] = r(r(input[base + d] - max) - logSum);
      } else {
        const inv = r(1 / sum);
        for (let d = 0; d < dimSize; d++) output[base + d] = r(output[base + d] * inv);
      }
    }
  };
}

function innerdim(log: boolean): Kernel {
  return ({ input, output, dtype, outer, dimSize, inner }) => {
    const r = step(dtype);
    for (let o = 0; o < outer; o++) {
      for (let k = 0; k < inner; k++) {
        const at = (d: number) => o * dimSize * inner + d * inner + k;
        let max = input[at(0)];
        for (let d = 1; d < dimSize; d++) max = maxOf(max, input[at(d)]);
        let sum = 0;
        for (let d = 0; d < dimSize; d++) {
          const e = r(Math.exp(r(input[at(d)] - max)));
          if (!log) output[at(d)] = e;
          sum = r(sum + e);
        }
        if (log) {
          const logSum = r(Math.log(sum));
          for (let d = 0; d < dimSize; d++) output[at(d)] = r(r(input[at(d)] - max) - logSum);
        } else {
          for (let d = 0; d < dimSize; d++) output[at(d)] = r(output[at(d)] / sum);
        }
      }
    }
  };
}

function kernelStub(name: string, dispatchName: string, k: Kernel): DispatchStub<(a: SoftmaxArgs) => void> {
  const s = new DispatchStub<(a: SoftmaxArgs) => void>(name, REF);
  s.register("ts", (a) => {
    AT_DISPATCH(dispatchName, a.dtype, FLOATING_TYPES_AND_BFLOAT16);
    const values = new Float64Array(a.outer * a.dimSize * a.inner);
    k({ ...a, input: a.input._flatNumbers(), output: values });
    writeAll(a.output, Array.from(values));
  });
  return s;
}

export const softmax_lastdim_kernel = kernelStub("softmax_lastdim_kernel", "softmax_lastdim_kernel_impl", lastdim(false));
export const log_softmax_lastdim_kernel = kernelStub("log_softmax_lastdim_kernel", "log_softmax_lastdim_kernel_impl", lastdim(true));
export const softmax_kernel = kernelStub("softmax_kernel", "softmax_kernel_impl", innerdim(false));
// PyTorch 1.13 names the inner-dim log_softmax dispatch "softmax_kernel_impl" too
export const log_softmax_kernel = kernelStub("log_softmax_kernel", "softmax_kernel_impl", innerdim(true));

// ---- the backward kernels (softmax_backward_lastdim_kernel, softmax_backward_kernel, and the log forms) ----

/** What a softmax backward stub receives: grad and output (any layout), the contiguous grad_input. */
export interface SoftmaxBackwardArgs {
  grad: Tensor;
  output: Tensor;
  gradInput: Tensor;
  dtype: ScalarType;
  outer: number;
  dimSize: number;
  inner: number;
}
/** The backward kernels' values: grad and output in row-major order as doubles, and grad_input's. */
interface SoftmaxBackwardValues {
  grad: Float64Array;
  output: Float64Array;
  gradInput: Float64Array;
  dtype: ScalarType;
  outer: number;
  dimSize: number;
  inner: number;
}
type BackwardKernel = (a: SoftmaxBackwardValues) => void;

/**
 * _vec_softmax_backward / _vec_log_softmax_backward on each row of the last dim: softmax's
 * dot = map2_reduce_all(grad * output), then (grad - dot) * output; log_softmax's
 * sum = reduce_all(grad), then grad - exp(output) * sum.
 */
function backwardLastdim(log: boolean): BackwardKernel {
  return ({ grad, output, gradInput, dtype, outer, dimSize }) => {
    // bfloat16 is computed in float here; 1.13's bfloat16 path rounds differently (the tests allow for it)
    const r = step(dtype), L = lanes(dtype);
    const prod = new Float64Array(dimSize);
    for (let i = 0; i < outer; i++) {
      const base = i * dimSize;
      if (log) {
        const sum = reduceAllSum(grad, base, dimSize, r, L);
        for (let d = 0; d < dimSize; d++) gradInput[base + d] = r(grad[base + d] - r(r(Math.exp(output[base + d])) * sum));
      } else {
        for (let d = 0; d < dimSize; d++) prod[d] = r(grad[base + d] * output[base + d]);
        const dot = reduceAllSum(prod, 0, dimSize, r, L);
        for (let d = 0; d < dimSize; d++) gradInput[base + d] = r(r(grad[base + d] - dot) * output[base + d]);
      }
    }
  };
}

/** Any other dim: each column sums in order (grad * output, or grad), then the same elementwise step. */
function backwardInnerdim(log: boolean): BackwardKernel {
  return ({ grad, output, gradInput, dtype, outer, dimSize, inner }) => {
    const r = step(dtype);
    for (let o = 0; o < outer; o++) {
      for (let k = 0; k < inner; k++) {
        const at = (d: number) => o * dimSize * inner + d * inner + k;
        let sum = 0;
        for (let d = 0; d < dimSize; d++) sum = r(sum + (log ? grad[at(d)] : r(grad[at(d)] * output[at(d)])));
        for (let d = 0; d < dimSize; d++) {
          const i = at(d);
          gradInput[i] = log ? r(grad[i] - r(r(Math.exp(output[i])) * sum)) : r(r(grad[i] - sum) * output[i]);
        }
      }
    }
  };
}

function backwardStub(name: string, dispatchName: string, k: BackwardKernel): DispatchStub<(a: SoftmaxBackwardArgs) => void> {
  const s = new DispatchStub<(a: SoftmaxBackwardArgs) => void>(name, REF);
  s.register("ts", (a) => {
    AT_DISPATCH(dispatchName, a.dtype, FLOATING_TYPES_AND_BFLOAT16);
    const values = new Float64Array(a.outer * a.dimSize * a.inner);
    k({ ...a, grad: a.grad._flatNumbers(), output: a.output._flatNumbers(), gradInput: values });
    writeAll(a.gradInput, Array.from(values));
  });
  return s;
}

export const softmax_backward_lastdim_kernel = backwardStub("softmax_backward_lastdim_kernel", "softmax_backward_lastdim_kernel_impl", backwardLastdim(false));
export const log_softmax_backward_lastdim_kernel = backwardStub("log_softmax_backward_lastdim_kernel", "log_softmax_backward_lastdim_kernel_impl", backwardLastdim(true));
export const softmax_backward_kernel = backwardStub("softmax_backward_kernel", "softmax_backward_kernel_impl", backwardInnerdim(false));
export const log_softmax_backward_kernel = backwardStub("log_softmax_backward_kernel", "log_softmax_backward_kernel_impl", backwardInnerdim(true));
