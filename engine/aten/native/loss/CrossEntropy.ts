// cross_entropy_loss (aten/src/ATen/native/LossNLL.cpp), CompositeImplicitAutograd:
// - target of the input's shape: class probabilities, -(log_softmax(input) * target [* weight]) summed
//   over the class dim and reduced (the mean divides by the number of samples, numel / C);
// - label_smoothing > 0 with class indices: (1 - ls) * nll_loss_nd + ls / C * the smoothed sum;
// - otherwise nll_loss_nd(log_softmax(input, class_dim), target, weight, reduction, ignore_index).

import { end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { isFloatingType, scalarTypeName } from "../../../c10/ScalarType.js";
import { Tensor } from "../../core/Tensor.js";
import { wrapScalar } from "../binary/common.js";
import { log_softmax_int } from "../../../generated/log_softmax.js";
import { nll_loss_nd_default } from "../../../generated/nll_loss_nd.js";
import { view_default } from "../../../generated/view.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { add_Tensor } from "../../../generated/add.js";
import { div_Tensor } from "../../../generated/div.js";
import { neg_default } from "../../../generated/neg.js";
import { sum_default, sum_dim_IntList } from "../../../generated/sum.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { eq_Scalar } from "../../../generated/eq.js";
import { where_self } from "../../../generated/where.js";
import { zeros_default } from "../../../generated/zeros.js";
import { bitwise_not_default } from "../../../generated/bitwise_not.js";
import { tensor } from "../../tensor_new.js";
import { Reduction } from "./Reduction.js";
import { cppDouble } from "../../cpu/DistributionKernels.js";

const list = (s: readonly number[]) => `[${s.join(", ")}]`;
const mul = (a: Tensor, b: Tensor | number) => mul_Tensor.call(a, b instanceof Tensor ? b : wrapScalar(b)) as Tensor;
const sum = (a: Tensor) => sum_default.call(a, null) as Tensor;
const neg = (a: Tensor) => neg_default.call(a) as Tensor;

/** weight viewed as (1, C, 1, ...) to broadcast against an input of rank `ndim` (class dim 1). */
function broadcastWeight(weight: Tensor, ndim: number, classDim: number): Tensor {
  if (ndim <= 1) return weight;
  const shape = new Array<number>(ndim).fill(1);
  shape[classDim] = weight.size(0);
  return view_default.call(weight, shape) as Tensor;
}

function invalidReduction(reduction: number): RuntimeError {
  return new RuntimeError(`Invalid reduction type encountered in cross_entropy: ${reduction}`);
}

function checkSmoothing(ls: number): void {
  if (!(ls <= 1.0)) throw new RuntimeError(`label_smoothing must be between 0.0 and 1.0. Got: ${cppDouble(ls)}`);
}

function cross_entropy_loss_prob_target(self: Tensor, target_: Tensor, weight: Tensor | null, reduction: number, ls: number): Tensor {
  const classDim = self.dim() === 1 ? 0 : 1;
  const nClasses = self.size(classDim);
  if (weight !== null && !(weight.dim() === 1 && weight.numel() === nClasses)) {
    throw new RuntimeError(`cross_entropy: weight tensor should be defined either for all ${nClasses} classes or no classes but got weight tensor of shape: ${list(weight._impl.sizes())}`);
  }
  const input = log_softmax_int.call(self, classDim, self.dtype) as Tensor;
  let target = target_;
  if (ls > 0.0) {
    checkSmoothing(ls);
    target = add_Tensor.call(mul(target_, 1 - ls), wrapScalar(ls / nClasses), 1) as Tensor;
  }
  let prod = mul(input, target);
  if (weight !== null) prod = mul(prod, broadcastWeight(weight, input.dim(), 1));
  switch (reduction) {
    case Reduction.Mean:
      if (input.numel() === 0) return fill__Scalar.call(neg(sum(prod)), NaN) as Tensor;
      return div_Tensor.call(neg(sum(prod)), wrapScalar(Math.trunc(input.numel() / nClasses))) as Tensor;
    case Reduction.Sum:
      return neg(sum(prod));
    case Reduction.None:
      return neg(sum_dim_IntList.call(prod, [classDim], false, null) as Tensor);
    default:
      throw invalidReduction(reduction);
  }
}

/**
 * The sum of weight[target] over the targets not ignored, in order: PyTorch's
 * weight.gather(0, target.masked_select(~ignore_mask).flatten()).sum(). Glasstorch has no gather or
 * masked_select operator yet, so the gathered weights are collected here and summed by aten::sum.
 */
function gatheredWeightSum(weight: Tensor, target: Tensor, ignore_index: number): Tensor {
  const w = weight._flatNumbers(), tg = target._flatNumbers();
  const picked: number[] = [];
  for (const t of tg) if (t !== ignore_index) picked.push(w[t]);
  return sum(tensor(picked, { dtype: weight.dtype }));
}

function cross_entropy_loss_label_smoothing(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, ls: number): Tensor {
  const classDim = self.dim() === 1 ? 0 : 1;
  const input = log_softmax_int.call(self, classDim, self.dtype) as Tensor;
  const nllloss = nll_loss_nd_default.call(input, target, weight, reduction, ignore_index) as Tensor;
  const nClasses = input.size(classDim);
  const ignore_mask = eq_Scalar.call(target, ignore_index) as Tensor;
  let smooth_loss =
    weight !== null
      ? neg(sum_dim_IntList.call(mul(input, broadcastWeight(weight, input.dim(), classDim)), [classDim], false, null) as Tensor)
      : neg(sum_dim_IntList.call(input, [classDim], false, null) as Tensor);
  // smooth_loss.index_put_({ignore_mask}, 0.0): Glasstorch has no index_put_ yet; where() gives the same values
  const zero = zeros_default.call([], smooth_loss.dtype, null, smooth_loss.device, null) as Tensor;
  smooth_loss = where_self.call(ignore_mask, zero, smooth_loss) as Tensor;
  let ret: Tensor;
  switch (reduction) {
    case Reduction.Mean:
      ret = weight !== null
        ? (div_Tensor.call(sum(smooth_loss), gatheredWeightSum(weight, target, ignore_index)) as Tensor)
        : (div_Tensor.call(sum(smooth_loss), sum(bitwise_not_default.call(ignore_mask) as Tensor)) as Tensor);
      break;
    case Reduction.Sum:
      ret = sum(smooth_loss);
      break;
    case Reduction.None:
      ret = smooth_loss;
      break;
    default:
      throw invalidReduction(reduction);
  }
  return add_Tensor.call(mul(nllloss, 1 - ls), mul(ret, ls / nClasses), 1) as Tensor;
}

export function cross_entropy_loss(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, label_smoothing: number): Tensor {
  if (list(self._impl.sizes()) === list(target._impl.sizes())) {
    if (!isFloatingType(target.dtype.scalarType)) {
      throw new RuntimeError(`Expected floating point type for target with class probabilities, got ${scalarTypeName(target.dtype.scalarType)}`);
    }
    if (!(ignore_index < 0)) throw new RuntimeError("ignore_index is not supported for floating point target");
    return cross_entropy_loss_prob_target(self, target, weight, reduction, label_smoothing);
  }
  if (label_smoothing > 0.0) {
    checkSmoothing(label_smoothing);
    return cross_entropy_loss_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing);
  }
  const classDim = self.dim() === 1 ? 0 : 1;
  const logProbs = log_softmax_int.call(self, classDim, self.dtype) as Tensor;
  const result = nll_loss_nd_default.call(logProbs, target, weight, reduction, ignore_index) as Tensor;
  end_composite([logProbs], [result], [self, target, weight]); // nll_loss's backward keeps its own share
  return result;
}

