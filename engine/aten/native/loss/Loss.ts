// The pointwise losses (aten/src/ATen/native/Loss.cpp): mse_loss and smooth_l1_loss (structured over
// a binary TensorIterator, then mean_out / sum_out into a 0-dim result), huber_loss, l1_loss
// (CompositeImplicitAutograd), binary_cross_entropy (a CPU loop with PyTorch's log clamp at -100),
// binary_cross_entropy_with_logits (CompositeExplicitAutograd, the log-sum-exp form), kl_div,
// cosine_embedding_loss and margin_ranking_loss (CompositeImplicitAutograd).

import { borrow, end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isIntegralType, scalarTypeName } from "../../../c10/ScalarType.js";
import { canCast } from "../../../c10/PromoteTypes.js";
import { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { wrapScalar } from "../binary/common.js";
import { build_unary, hasData, type StructuredMode } from "../unary/UnaryIterator.js";
import { below_ADInplaceOrView } from "../unary/Nested.js";
import { mean_default, mean_out } from "../../../generated/mean.js";
import { sum_default, sum_IntList_out } from "../../../generated/sum.js";
import { sub_Tensor, sub__Tensor } from "../../../generated/sub.js";
import { xlogy_Tensor } from "../../../generated/xlogy.js";
import { abs_default } from "../../../generated/abs.js";
import { neg_default } from "../../../generated/neg.js";
import { exp_default, exp__default } from "../../../generated/exp.js";
import { log__default } from "../../../generated/log.js";
import { clamp_min__default } from "../../../generated/clamp_min.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { mul_Tensor, mul__Tensor } from "../../../generated/mul.js";
import { add__Tensor } from "../../../generated/add.js";
import { squeeze_default } from "../../../generated/squeeze.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { sqrt__default } from "../../../generated/sqrt.js";
import { div_Tensor } from "../../../generated/div.js";
import { zeros_like_default } from "../../../generated/zeros_like.js";
import { where_self } from "../../../generated/where.js";
import { eq_Scalar } from "../../../generated/eq.js";
import { add_Tensor } from "../../../generated/add.js";
import { copy__default } from "../../../generated/copy.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import * as K from "./LossKernel.js";
import { Reduction } from "./Reduction.js";

/** apply_loss_reduction: unreduced.mean(), unreduced.sum(), or unreduced itself. */
export function apply_loss_reduction(unreduced: Tensor, reduction: number): Tensor {
  if (reduction === Reduction.Mean) return mean_default.call(unreduced, null) as Tensor;
  if (reduction === Reduction.Sum) return sum_default.call(unreduced, null) as Tensor;
  return unreduced;
}

/**
 * The end of a composite loss: apply_loss_reduction, then the tensors the loss made on the way (`made`,
 * the unreduced loss among them) die with it, as PyTorch's temporaries (c10/Dispose.ts end_composite):
 * a reduced loss then leaves no 4 MiB block behind for the collector on every call.
 */
function reduce_and_end(unreduced: Tensor, reduction: number, made: readonly (Tensor | null)[], inputs: readonly (Tensor | null)[]): Tensor {
  const result = apply_loss_reduction(unreduced, reduction);
  end_composite([...made, unreduced], [result], inputs);
  return result;
}

/** Tensor.resize_({}): a 0-dim tensor over the same storage (grown if it held nothing), without resize_output's warning. */
function resizeToScalar(t: Tensor): void {
  const impl = t._impl;
  const needed = (impl.storage_offset() + 1) * t.element_size();
  if (impl.storage.nbytes() < needed) impl.storage.resize(needed);
  impl.set_sizes_and_strides([], []);
}

// ---- mse_loss, smooth_l1_loss: structured ----

type PointwiseLoss = (iter: ReturnType<typeof build_unary>) => void;

/**
 * The shared shape of mse_loss_out and smooth_l1_loss_out: without reduction the structured iterator
 * is the result; with one, the loss goes to a temporary iterator and mean_out / sum_out write a
 * 0-dim result (the meta function's maybe_get_output().resize_({})).
 */
function reducedPointwise(self: Tensor, target: Tensor, reduction: number, out: Tensor | null, mode: StructuredMode, run: PointwiseLoss): Tensor {
  if (reduction === Reduction.None) {
    const iter = build_unary({ config: "promoting", inputs: [self, target], out, mode });
    if (hasData(iter)) run(iter);
    return iter.output;
  }
  const iter = build_unary({ config: "promoting", inputs: [self, target], out: null, mode: "functional" });
  const loss = iter.output;
  let result: Tensor;
  if (mode === "functional" || out === null) result = wrap(empty_impl([], loss.dtype, loss.device));
  else {
    if (!canCast(loss.dtype.scalarType, out.dtype.scalarType)) {
      throw new RuntimeError(`result type ${scalarTypeName(loss.dtype.scalarType)} can't be cast to the desired output type ${scalarTypeName(out.dtype.scalarType)}`);
    }
    resize_output(out, [...loss._impl.sizes()]); // build_borrowing_binary_op(maybe_get_output(), ...) sizes it first
    resizeToScalar(out); // then maybe_get_output().resize_({})
    result = out;
  }
  if (hasData(iter)) run(iter);
  below_ADInplaceOrView(() => (reduction === Reduction.Mean ? mean_out : sum_IntList_out).call(loss, [], false, null, result));
  loss.dispose(); // the unreduced loss dies here, as PyTorch's temporary iterator output
  return result;
}

export function mse_loss_out(self: Tensor, target: Tensor, reduction: number, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return reducedPointwise(self, target, reduction, out, mode, (iter) => K.mse_stub.call(iter.output.device.type, iter));
}

export function smooth_l1_loss_out(self: Tensor, target: Tensor, reduction: number, beta: number, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (!(beta >= 0)) throw new RuntimeError("smooth_l1_loss does not support negative values for beta.");
  return reducedPointwise(self, target, reduction, out, mode, (iter) => K.smooth_l1_stub.call(iter.output.device.type, iter, beta));
}

// ---- huber_loss: not structured ----

function checkDelta(delta: number): void {
  if (!(delta > 0)) throw new RuntimeError("huber_loss does not support non-positive values for delta.");
}

/** huber_loss: the loss into at::empty_like(input), then apply_loss_reduction. */
export function huber_loss(self: Tensor, target: Tensor, reduction: number, delta: number): Tensor {
  checkDelta(delta);
  return below_ADInplaceOrView(() => {
    const loss = empty_like_default.call(self, null, null, null, null, null) as Tensor;
    const iter = build_unary({ config: "promoting", inputs: [self, target], out: loss, mode: "out" });
    if (hasData(iter)) K.huber_stub.call(iter.output.device.type, iter, delta);
    return reduce_and_end(loss, reduction, [], [self, target]);
  });
}

/** huber_loss.out: the loss into `out`; a reduction then resizes it to 0-dim and copies the reduced value in. */
export function huber_loss_out(self: Tensor, target: Tensor, reduction: number, delta: number, out: Tensor): Tensor {
  checkDelta(delta);
  const iter = build_unary({ config: "promoting", inputs: [self, target], out, mode: "out" });
  if (hasData(iter)) K.huber_stub.call(iter.output.device.type, iter, delta);
  if (reduction !== Reduction.None) {
    below_ADInplaceOrView(() => {
      const reduced = apply_loss_reduction(out, reduction);
      resizeToScalar(out);
      copy__default.call(out, reduced, false);
      reduced.dispose();
    });
  }
  return out;
}

// ---- l1_loss ----

/** l1_loss (CompositeImplicitAutograd): apply_loss_reduction((input - target).abs(), reduction). */
export function l1_loss(self: Tensor, target: Tensor, reduction: number): Tensor {
  const diff = sub_Tensor.call(self, target, 1) as Tensor;
  return reduce_and_end(abs_default.call(diff) as Tensor, reduction, [diff], [self, target]);
}

// ---- binary_cross_entropy ----

/** binary_cross_entropy_cpu: binary_cross_entropy_out_cpu into at::empty_like(input). */
export function binary_cross_entropy_cpu(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  const loss = below_ADInplaceOrView(() => empty_like_default.call(self, null, null, null, null, null) as Tensor);
  return binary_cross_entropy_out_cpu(self, target, weight, reduction, loss);
}

/**
 * L = (y - 1) * max(log1p(-x), -100) - y * max(log(x), -100), over squeeze(input) and squeeze(target)
 * in a TensorIterator that wants one dtype; each input element is checked to lie in [0, 1] as it is read.
 */
export function binary_cross_entropy_out_cpu(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, loss: Tensor): Tensor {
  return below_ADInplaceOrView(() => {
    const lossSq = squeeze_default.call(loss) as Tensor;
    const inputs = [squeeze_default.call(self) as Tensor, squeeze_default.call(target) as Tensor];
    const iter = build_unary({ config: "promoting", inputs, out: lossSq, mode: "out" });
    for (const t of inputs) {
      if (t.dtype !== lossSq.dtype) throw new RuntimeError(`Found dtype ${scalarTypeName(t.dtype.scalarType)} but expected ${scalarTypeName(lossSq.dtype.scalarType)}`);
    }
    if (hasData(iter)) K.binary_cross_entropy_stub.call(iter.output.device.type, iter);
    for (const view of [lossSq, ...inputs]) borrow(view._impl); // the squeezed views die here (c10/Dispose.ts)
    if (weight !== null) mul__Tensor.call(loss, weight);
    if (reduction !== Reduction.None) {
      const reduced = apply_loss_reduction(loss, reduction);
      resizeToScalar(loss); // loss.resize_as_(loss_reduced)
      copy__default.call(loss, reduced, false);
      reduced.dispose();
    }
    return loss;
  });
}

// ---- binary_cross_entropy_with_logits ----

/** C++'s `scalar - tensor`: at::empty_like(y).fill_(x).sub_(y). */
function rsubScalar(x: number, y: Tensor): Tensor {
  const t = empty_like_default.call(y, null, null, null, null, "preserve_format") as Tensor;
  fill__Scalar.call(t, x);
  return sub__Tensor.call(t, y, 1) as Tensor;
}

/** Input and target of one float dtype and one shape: every step of the composite is then elementwise in that dtype. */
function fusesWithLogits(self: Tensor, target: Tensor): boolean {
  const t = self.dtype.scalarType;
  return (t === ScalarType.Float || t === ScalarType.Double) && target.dtype === self.dtype &&
    self.dim() === target.dim() && self.shape.every((n, d) => n === target.shape[d]);
}

/**
 * max_val = (-input).clamp_min_(0); loss = (1 - target) * input + max_val + log(exp(-max_val) + exp(-input - max_val)),
 * the log term scaled by 1 + (pos_weight - 1) * target when pos_weight is given; then * weight and the reduction.
 */
export function binary_cross_entropy_with_logits(self: Tensor, target: Tensor, weight: Tensor | null, pos_weight: Tensor | null, reduction: number): Tensor {
  return below_ADInplaceOrView(() => {
    if (pos_weight === null && fusesWithLogits(self, target)) {
      // the same steps element by element, into the composite's result (empty_like(target))
      const loss = empty_like_default.call(target, null, null, null, null, "preserve_format") as Tensor;
      const iter = build_unary({ config: "promoting", inputs: [self, target], out: loss, mode: "out" });
      if (hasData(iter)) K.binary_cross_entropy_with_logits_stub.call(iter.output.device.type, iter);
      if (weight !== null) mul__Tensor.call(loss, weight);
      return reduce_and_end(loss, reduction, [], [self, target]);
    }
    // the in-place steps return their own (mutated) operand: each temporary is listed once it is made
    const made: Tensor[] = [];
    const step = (t: unknown): Tensor => (made.push(t as Tensor), t as Tensor);
    const max_val = clamp_min__default.call(step(neg_default.call(self)), 0) as Tensor;
    const logTerm = () => {
      const a = exp__default.call(step(neg_default.call(max_val))) as Tensor;
      const b = exp__default.call(step(sub_Tensor.call(step(neg_default.call(self)), max_val, 1))) as Tensor;
      return log__default.call(add__Tensor.call(a, b, 1)) as Tensor;
    };
    let loss: Tensor;
    if (pos_weight !== null) {
      const log_weight = add__Tensor.call(mul_Tensor.call(step(sub_Tensor.call(pos_weight, wrapScalar(1), 1)), target), wrapScalar(1), 1) as Tensor;
      const scaled = mul__Tensor.call(step(log_weight), add__Tensor.call(logTerm(), max_val, 1)) as Tensor;
      loss = add__Tensor.call(mul__Tensor.call(step(rsubScalar(1, target)), self), scaled, 1) as Tensor;
    } else {
      const base = add__Tensor.call(mul__Tensor.call(step(rsubScalar(1, target)), self), max_val, 1) as Tensor;
      loss = add__Tensor.call(base, logTerm(), 1) as Tensor;
    }
    if (weight !== null) mul__Tensor.call(loss, weight);
    return reduce_and_end(loss, reduction, made, [self, target, weight, pos_weight]);
  });
}

// ---- kl_div ----

/** kl_div (CompositeImplicitAutograd): exp(target) * (target - input) for a log target, else xlogy(target, target) - target * input. */
export function kl_div(self: Tensor, target: Tensor, reduction: number, log_target: boolean): Tensor {
  if (isIntegralType(self.dtype.scalarType, true) || isIntegralType(target.dtype.scalarType, true)) {
    throw new RuntimeError("kl_div: Integral inputs not supported.");
  }
  let output: Tensor;
  if (log_target) {
    const diff = sub_Tensor.call(target, self, 1) as Tensor;
    const e = exp_default.call(target) as Tensor;
    output = mul_Tensor.call(e, diff) as Tensor;
    return reduce_and_end(output, reduction, [diff, e], [self, target]);
  }
  const prod = mul_Tensor.call(target, self) as Tensor;
  const xlogy = xlogy_Tensor.call(target, target) as Tensor;
  output = sub_Tensor.call(xlogy, prod, 1) as Tensor;
  return reduce_and_end(output, reduction, [prod, xlogy], [self, target]);
}

// ---- cosine_embedding_loss, margin_ranking_loss ----

const EPSILON = 1e-12;
const sizesText = (t: Tensor) => `[${t.shape.join(", ")}]`;

/**
 * cosine_embedding_loss (CompositeImplicitAutograd): the cosine along the last dim (squared magnitudes each
 * + 1e-12), then 1 - cos where target == 1 and max(cos - margin, 0) where target == -1 (0 elsewhere).
 */
export function cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: number, reduction: number): Tensor {
  const targ_dim = target.dim();
  if (!(targ_dim === 1 || targ_dim === 0)) throw new RuntimeError("0D or 1D target tensor expected, multi-target not supported");
  if (targ_dim === 1) {
    if (!(input1.dim() === 2 && input2.dim() === 2)) {
      throw new RuntimeError(`1D target tensor expects 2D input tensors, but found inputs with sizes ${sizesText(input1)} and ${sizesText(input2)}.`);
    }
  } else if (!(input1.dim() === 1 && input2.dim() === 1)) {
    throw new RuntimeError(`0D target tensor expects 1D input tensors, but found inputs with sizes ${sizesText(input1)} and ${sizesText(input2)}.`);
  }
  const sumDim = (t: Tensor) => sum_dim_IntList.call(t, [targ_dim], false, null) as Tensor;
  const prod_sum = sumDim(mul_Tensor.call(input1, input2) as Tensor);
  const mag_square1 = add_Tensor.call(sumDim(mul_Tensor.call(input1, input1) as Tensor), wrapScalar(EPSILON), 1) as Tensor;
  const mag_square2 = add_Tensor.call(sumDim(mul_Tensor.call(input2, input2) as Tensor), wrapScalar(EPSILON), 1) as Tensor;
  const denom = sqrt__default.call(mul_Tensor.call(mag_square1, mag_square2) as Tensor) as Tensor;
  const cos = div_Tensor.call(prod_sum, denom) as Tensor;
  const zeros = zeros_like_default.call(cos, null, null, null, null, "contiguous_format") as Tensor;
  const pos = rsubScalar(1, cos);
  const neg = clamp_min__default.call(sub_Tensor.call(cos, wrapScalar(margin), 1) as Tensor, 0) as Tensor;
  const output_pos = where_self.call(eq_Scalar.call(target, 1) as Tensor, pos, zeros) as Tensor;
  const output_neg = where_self.call(eq_Scalar.call(target, -1) as Tensor, neg, zeros) as Tensor;
  return apply_loss_reduction(add_Tensor.call(output_pos, output_neg, 1) as Tensor, reduction);
}

/** margin_ranking_loss (CompositeImplicitAutograd): max(-target * (input1 - input2) + margin, 0). */
export function margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: number, reduction: number): Tensor {
  const diff = sub_Tensor.call(input1, input2, 1) as Tensor;
  const scaled = mul_Tensor.call(neg_default.call(target) as Tensor, diff) as Tensor;
  const output = clamp_min__default.call(add_Tensor.call(scaled, wrapScalar(margin), 1) as Tensor, 0) as Tensor;
  return apply_loss_reduction(output, reduction);
}
