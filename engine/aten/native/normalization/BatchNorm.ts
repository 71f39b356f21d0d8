// Batch and instance normalization (aten/src/ATen/native/Normalization.cpp).
// batch_norm -> _batch_norm_impl_index (argument checks; an empty input is handled there) ->
// native_batch_norm. On CPU, training computes each channel's mean and biased variance, returns
// (output, save_mean, save_invstd) and updates running_mean / running_var in place:
//   running = momentum * stat + (1 - momentum) * running, with the unbiased variance (n - 1),
// in double (acc_type<float>), stored in the running tensors' dtype. Eval uses the running stats and
// returns empty save_mean / save_invstd. instance_norm is batch_norm over the input viewed as
// (1, N*C, ...), with the affine parameters and running stats repeated N times (and the running stats
// averaged back over the batch afterwards).

import { end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, uint8, float32, float64, isFloatingType, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { _batch_norm_impl_index_default } from "../../../generated/_batch_norm_impl_index.js";
import { native_batch_norm_default } from "../../../generated/native_batch_norm.js";
import { batch_norm_default } from "../../../generated/batch_norm.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { clone_default } from "../../../generated/clone.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { select_int } from "../../../generated/select.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { add_Tensor } from "../../../generated/add.js";
import { repeat_default } from "../../../generated/repeat.js";
import { view_default } from "../../../generated/view.js";
import { alias_default } from "../../../generated/alias.js";
import { copy__default } from "../../../generated/copy.js";
import { mean_dim } from "../../../generated/mean.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { readDense, writeDense } from "../conv/Dense.js";
import { contig } from "../conv/Convolution.js";
import { batch_norm_cpu_collect_stats_stub, batch_norm_cpu_stub, fma, rounder } from "./NormKernels.js";

const { Double, Float, BFloat16 } = ScalarType;

export function batch_norm(input: Tensor, weight: Tensor | null, bias: Tensor | null, runningMean: Tensor | null, runningVar: Tensor | null, training: boolean, momentum: number, eps: number, cudnnEnabled: boolean): Tensor {
  return (_batch_norm_impl_index_default.call(input, weight, bias, runningMean, runningVar, training, momentum, eps, cudnnEnabled) as unknown[])[0] as Tensor;
}

const checkFeatures = (name: string, expected: number, actual: number): void => {
  if (actual !== expected) throw new RuntimeError(`${name} should contain ${expected} elements not ${actual}`);
};

const empty = (sizes: number[], dt: dtype, like: Tensor): Tensor => empty_memory_format.call(sizes, dt, null, like.device, null, null) as Tensor;

/** toAccumulateType(dtype, is_cuda=false): double for float types on CPU. */
const accType = (dt: dtype): dtype => (dt.scalarType === Float || dt.scalarType === Double || dt.scalarType === BFloat16 ? float64 : dt);

export function _batch_norm_impl_index(input: Tensor, weight: Tensor | null, bias: Tensor | null, runningMean: Tensor | null, runningVar: Tensor | null, training: boolean, momentum: number, eps: number, _cudnnEnabled: boolean): [Tensor, Tensor, Tensor, Tensor, number] {
  const numFeatures = input.shape[maybe_wrap_dim(1, input.dim())];
  if (input.numel() === 0) {
    const reserve = empty([0], uint8, input);
    const saveMean = empty([numFeatures], accType(input.dtype), input);
    const saveInvstd = empty([numFeatures], accType(input.dtype), input);
    // not a view of input, nor an empty tensor: that would break the gradient chain
    let out = clone_default.call(input, null) as Tensor;
    if (weight !== null) out = mul_Tensor.call(out, select_int.call(weight, 0, 0)) as Tensor;
    if (bias !== null) out = add_Tensor.call(out, select_int.call(bias, 0, 0), 1) as Tensor;
    return [out, saveMean, saveInvstd, reserve, 0];
  }
  if (runningMean !== null) checkFeatures("running_mean", numFeatures, runningMean.numel());
  else if (!training) throw new RuntimeError("running_mean must be defined in evaluation mode");
  if (runningVar !== null) checkFeatures("running_var", numFeatures, runningVar.numel());
  else if (!training) throw new RuntimeError("running_var must be defined in evaluation mode");
  if (weight !== null) checkFeatures("weight", numFeatures, weight.numel());
  if (bias !== null) checkFeatures("bias", numFeatures, bias.numel());
  // neither cuDNN nor MIOpen on CPU: the native kernel
  const reserve = empty([0], uint8, input);
  const [out, saveMean, saveInvstd] = native_batch_norm_default.call(input, weight, bias, runningMean, runningVar, training, momentum, eps) as Tensor[];
  return [out, saveMean, saveInvstd, reserve, 0];
}

/** native_batch_norm on CPU (batch_norm_cpu). */
export function batch_norm_cpu(self: Tensor, weight: Tensor | null, bias: Tensor | null, runningMean: Tensor | null, runningVar: Tensor | null, train: boolean, momentum: number, eps: number): [Tensor, Tensor, Tensor] {
  AT_DISPATCH("batch_norm", self.dtype.scalarType, [Double, Float, BFloat16]);
  const C = self.shape[maybe_wrap_dim(1, self.dim())];
  // uninitialised: batch_norm_cpu_stub writes every element (zeroing it first was a third of the eval op's time)
  const output = wrap(empty_impl(self.shape, self.dtype, self.device, true));
  const r = rounder(self.dtype.scalarType);
  const madd = self.dtype.scalarType === Double ? fma : (a: number, b: number, c: number) => r(a * b + c);
  const w = weight ? readDense(weight) : null;
  const b = bias ? readDense(bias) : null;
  const alpha = new Float64Array(C);
  const beta = new Float64Array(C);
  let saveMean: Tensor;
  let saveInvstd: Tensor;
  if (!train) {
    saveMean = wrap(empty_impl([0], self.dtype, self.device));
    saveInvstd = wrap(empty_impl([0], self.dtype, self.device));
    const rm = readDense(runningMean!);
    const rv = readDense(runningVar!);
    for (let c = 0; c < C; c++) {
      const invstd = r(1 / r(Math.sqrt(r(rv[c] + r(eps)))));
      alpha[c] = r(invstd * (w ? w[c] : 1));
      beta[c] = madd(-rm[c], alpha[c], b ? b[c] : 0); // bias - mean * alpha, contracted to an fma
    }
  } else {
    const n = self.numel() / C;
    const stats = { mean: new Float64Array(C), varSum: new Float64Array(C) };
    // the contiguous kernel computes the mean itself; otherwise at::mean over all dims but 1 does
    const x = contig(self);
    if (self.is_contiguous()) batch_norm_cpu_collect_stats_stub.call("cpu", stats, x);
    else {
      const dims = [0, ...Array.from({ length: self.dim() - 2 }, (_, i) => i + 2)];
      stats.mean.set(readDense(mean_dim.call(self, dims, false, null) as Tensor));
      const xs = readDense(x);
      const image = self.numel() / Math.max(self.shape[0] * C, 1);
      for (let c = 0; c < C; c++) {
        let vs = 0;
        for (let k = 0; k < self.shape[0]; k++) for (let i = 0; i < image; i++) vs += (xs[(k * C + c) * image + i] - stats.mean[c]) ** 2;
        stats.varSum[c] = vs;
      }
    }
    saveMean = wrap(empty_impl([C], self.dtype, self.device));
    saveInvstd = wrap(empty_impl([C], self.dtype, self.device));
    const invstd = new Float64Array(C);
    const rm = runningMean ? readDense(runningMean) : null;
    const rv = runningVar ? readDense(runningVar) : null;
    for (let c = 0; c < C; c++) {
      const v = stats.varSum[c] / n;
      invstd[c] = r(v === 0 && eps === 0 ? 0 : 1 / Math.sqrt(v + eps)); // InvStd, in double
      // the running averages are updated in the parameters' type (float for float32), momentum cast to it
      const m = r(momentum);
      if (rm) rm[c] = r(r(m * stats.mean[c]) + r(r(1 - m) * rm[c]));
      if (rv) rv[c] = r(r(m * r(stats.varSum[c] / (n - 1))) + r(r(1 - m) * rv[c]));
      alpha[c] = r(invstd[c] * (w ? w[c] : 1));
      beta[c] = madd(-stats.mean[c], alpha[c], b ? b[c] : 0);
    }
    writeDense(saveMean, stats.mean);
    writeDense(saveInvstd, invstd);
    if (rm) writeDense(runningMean!, rm);
    if (rv) writeDense(runningVar!, rv);
  }
  if (output.numel() > 0) batch_norm_cpu_stub.call("cpu", output, self, alpha, beta);
  return [output, saveMean, saveInvstd];
}

/**
 * native_batch_norm on device='meta' (1.13 decomposes it in Python, torch/_decomp): the output like the
 * input (its strides kept), (C,) statistics in the compute dtype (float for bfloat16/half), and
 * torch.mean's dtype error for integer inputs.
 */
export function batch_norm_meta(input: Tensor, _w: Tensor | null, _b: Tensor | null, _rm: Tensor | null, _rv: Tensor | null, _train: boolean, _m: number, _eps: number): [Tensor, Tensor, Tensor] {
  const C = input.shape[maybe_wrap_dim(1, input.dim())];
  const statsType = meta_stats_dtype(input);
  const out = empty_like_default.call(input, null, null, null, null, null) as Tensor;
  return [out, wrap(empty_impl([C], statsType, input.device)), wrap(empty_impl([C], statsType, input.device))];
}

/** The dtype of the saved statistics the meta decompositions compute (they call torch.mean). */
export function meta_stats_dtype(input: Tensor): dtype {
  const t = input.dtype.scalarType;
  if (!isFloatingType(t)) {
    throw new RuntimeError(`mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ${scalarTypeName(t)}`);
  }
  return t === BFloat16 || t === ScalarType.Half ? float32 : input.dtype;
}

const repeatIfDefined = (t: Tensor | null, n: number): Tensor | null => (t === null ? null : (repeat_default.call(t, [n]) as Tensor));

export function instance_norm(input: Tensor, weight: Tensor | null, bias: Tensor | null, runningMean: Tensor | null, runningVar: Tensor | null, useInputStats: boolean, momentum: number, eps: number, cudnnEnabled: boolean): Tensor {
  if (!(useInputStats || (runningMean !== null && runningVar !== null))) {
    throw new RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false");
  }
  const shape = [...input.shape];
  const [bs, c] = [input.shape[0], input.shape[1]];
  shape[1] = bs * c;
  shape[0] = 1;
  const weight_ = repeatIfDefined(weight, bs);
  const bias_ = repeatIfDefined(bias, bs);
  const rm_ = repeatIfDefined(runningMean, bs);
  const rv_ = repeatIfDefined(runningVar, bs);
  const contiguous = contig(input);
  const reshaped = view_default.call(contiguous, shape) as Tensor;
  const out = batch_norm_default.call(reshaped, weight_, bias_, rm_, rv_, useInputStats, momentum, eps, cudnnEnabled) as Tensor;
  const made: (Tensor | null)[] = [weight_, bias_, rm_, rv_, contiguous, reshaped, out]; // the temporaries (end_composite)
  // running_mean and running_var are const arguments whose data is updated: through an alias
  const updateRunning = (running: Tensor, repeated: Tensor) => {
    const alias = alias_default.call(running) as Tensor;
    const perChannel = view_default.call(repeated, [bs, c]) as Tensor;
    const mean = mean_dim.call(perChannel, [0], false, null) as Tensor;
    copy__default.call(alias, mean, false);
    made.push(alias, perChannel, mean);
  };
  if (runningMean !== null) updateRunning(runningMean, rm_!);
  if (runningVar !== null) updateRunning(runningVar, rv_!);
  const result = view_default.call(out, [...input.shape]) as Tensor;
  end_composite(made, [result], [input]);
  return result;
}

