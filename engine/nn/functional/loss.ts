// torch.nn.functional's losses (torch/nn/functional.py) over the aten ops of the loss family:
// the reduction string becomes at::Reduction (torch/nn/_reduction.py), the legacy size_average /
// reduce arguments map onto it with their deprecation warning, and each function makes the
// Python-level checks and broadcasts PyTorch makes before calling torch._C._nn / torch.*.

import type { Tensor } from "../../aten/core/Tensor.js";
import { RuntimeError, ValueError } from "../../c10/Errors.js";
import { infer_size } from "../../aten/ExpandUtils.js";
import * as T from "../../generated/torch_functions.js";
import * as nn from "../../generated/torch_nn_functions.js";
import { signature, warn } from "./_args.js";

// ---- torch/nn/_reduction.py ----

/** _Reduction.get_enum: 'none' 0, 'mean' 1 ('elementwise_mean' with a warning), 'sum' 2. */
export function get_enum(reduction: string): number {
  if (reduction === "none") return 0;
  if (reduction === "mean") return 1;
  if (reduction === "elementwise_mean") {
    warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.");
    return 1;
  }
  if (reduction === "sum") return 2;
  throw new ValueError(`${reduction} is not a valid value for reduction`);
}

/** _Reduction.legacy_get_string: size_average and reduce (None counting as True) mapped to a string, with a warning. */
export function legacy_get_string(size_average: boolean | null, reduce: boolean | null): string {
  const sa = size_average ?? true, r = reduce ?? true;
  const ret = sa && r ? "mean" : r ? "sum" : "none";
  warn(`size_average and reduce args will be deprecated, please use reduction='${ret}' instead.`);
  return ret;
}

/** The reduction a loss runs: the legacy pair when either is given, else the string. */
function reductionOf(size_average: boolean | null, reduce: boolean | null, reduction: string): number {
  return get_enum(size_average !== null || reduce !== null ? legacy_get_string(size_average, reduce) : reduction);
}

const sameSize = (a: Tensor, b: Tensor) => String(a.shape) === String(b.shape);

function warnSizeMismatch(input: Tensor, target: Tensor): void {
  if (sameSize(input, target)) return;
  warn(
    `Using a target size (${target.shape}) that is different to the input size (${input.shape}). ` +
      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
  );
}

/** torch.broadcast_tensors(input, target): each expanded to the broadcast shape, unless it has it already
 * (at::expand_outplace returns such a tensor itself, so PyTorch's log shows no aten::expand for it). */
function broadcast(input: Tensor, target: Tensor): [Tensor, Tensor] {
  const shape = infer_size([...input.shape], [...target.shape]);
  const to = (t: Tensor) => ([...t.shape].join() === shape.join() ? t : (t as any).expand(shape));
  return [to(input), to(target)];
}

type LegacyOpts = { size_average?: boolean | null; reduce?: boolean | null; reduction?: string };

// ---- nll_loss, cross_entropy ----

const pNll = signature("nll_loss(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, int ignore_index=-100, bool? reduce=None, str reduction=\"mean\")");
export function nll_loss(input: Tensor, target: Tensor, options?: { weight?: Tensor | null; ignore_index?: number } & LegacyOpts): Tensor;
export function nll_loss(input: Tensor, target: Tensor, weight?: Tensor | null, ...rest: unknown[]): Tensor;
export function nll_loss(...args: unknown[]): Tensor {
  const [input, target, weight, size_average, ignore_index, reduce, reduction] = pNll(args);
  return nn.nll_loss_nd(input, target, weight, reductionOf(size_average, reduce, reduction), ignore_index);
}

const pCe = signature(
  "cross_entropy(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, int ignore_index=-100, bool? reduce=None, str reduction=\"mean\", float label_smoothing=0.0)",
);
export function cross_entropy(input: Tensor, target: Tensor, options?: { weight?: Tensor | null; ignore_index?: number; label_smoothing?: number } & LegacyOpts): Tensor;
export function cross_entropy(input: Tensor, target: Tensor, weight?: Tensor | null, ...rest: unknown[]): Tensor;
export function cross_entropy(...args: unknown[]): Tensor {
  const [input, target, weight, size_average, ignore_index, reduce, reduction, label_smoothing] = pCe(args);
  return nn.cross_entropy_loss(input, target, weight, reductionOf(size_average, reduce, reduction), ignore_index, label_smoothing);
}

// ---- mse_loss, l1_loss, smooth_l1_loss, huber_loss ----

function pointwise(name: string, call: (a: Tensor, b: Tensor, reduction: number, extra: number) => Tensor, extra?: string) {
  const legacy = extra !== "delta";
  const p = signature(
    legacy
      ? `${name}(Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, str reduction="mean"${extra ? `, float ${extra}=1.0` : ""})`
      : `${name}(Tensor input, Tensor target, str reduction="mean", float delta=1.0)`,
  );
  return (...args: unknown[]): Tensor => {
    const v = p(args);
    const [input, target] = v as [Tensor, Tensor];
    warnSizeMismatch(input, target);
    const reduction = legacy ? reductionOf(v[2], v[3], v[4]) : get_enum(v[2]);
    const [a, b] = broadcast(input, target);
    return call(a, b, reduction, legacy ? v[5] : v[3]);
  };
}

type PointwiseLoss = (input: Tensor, target: Tensor, options?: LegacyOpts) => Tensor;
export const mse_loss: PointwiseLoss = pointwise("mse_loss", (a, b, r) => nn.mse_loss(a, b, r));
export const l1_loss: PointwiseLoss = pointwise("l1_loss", (a, b, r) => nn.l1_loss(a, b, r));
/** beta == 0 runs l1_loss, as torch/nn/functional.py does (smooth_l1 degenerates to it). */
export const smooth_l1_loss: (input: Tensor, target: Tensor, options?: LegacyOpts & { beta?: number }) => Tensor = pointwise(
  "smooth_l1_loss",
  (a, b, r, beta) => (beta === 0.0 ? nn.l1_loss(a, b, r) : nn.smooth_l1_loss(a, b, r, beta)),
  "beta",
);
export const huber_loss: (input: Tensor, target: Tensor, options?: { reduction?: string; delta?: number }) => Tensor = pointwise(
  "huber_loss",
  (a, b, r, delta) => nn.huber_loss(a, b, r, delta),
  "delta",
);

// ---- binary_cross_entropy, binary_cross_entropy_with_logits ----

const pBce = signature("binary_cross_entropy(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction=\"mean\")");
export function binary_cross_entropy(input: Tensor, target: Tensor, options?: { weight?: Tensor | null } & LegacyOpts): Tensor;
export function binary_cross_entropy(input: Tensor, target: Tensor, weight?: Tensor | null, ...rest: unknown[]): Tensor;
export function binary_cross_entropy(...args: unknown[]): Tensor {
  const [input, target, weightArg, size_average, reduce, reduction] = pBce(args) as [Tensor, Tensor, Tensor | null, boolean | null, boolean | null, string];
  const r = reductionOf(size_average, reduce, reduction);
  if (!sameSize(input, target)) {
    throw new ValueError(`Using a target size (${target.shape}) that is different to the input size (${input.shape}) is deprecated. Please ensure they have the same size.`);
  }
  let weight = weightArg;
  if (weight !== null) weight = (weight as any).expand(infer_size([...target.shape], [...weight.shape]));
  return nn.binary_cross_entropy(input, target, weight, r);
}

const pBcel = signature(
  "binary_cross_entropy_with_logits(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction=\"mean\", Tensor? pos_weight=None)",
);
export function binary_cross_entropy_with_logits(input: Tensor, target: Tensor, options?: { weight?: Tensor | null; pos_weight?: Tensor | null } & LegacyOpts): Tensor;
export function binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight?: Tensor | null, ...rest: unknown[]): Tensor;
export function binary_cross_entropy_with_logits(...args: unknown[]): Tensor {
  const [input, target, weight, size_average, reduce, reduction, pos_weight] = pBcel(args);
  const r = reductionOf(size_average, reduce, reduction);
  if (!sameSize(input, target)) throw new ValueError(`Target size (${target.shape}) must be the same as input size (${input.shape})`);
  return T.binary_cross_entropy_with_logits(input, target, weight, pos_weight, r);
}

// ---- kl_div ----

const pKl = signature("kl_div(Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, str reduction=\"mean\", bool log_target=False)");
export function kl_div(input: Tensor, target: Tensor, options?: { log_target?: boolean } & LegacyOpts): Tensor;
export function kl_div(...args: unknown[]): Tensor {
  const [input, target, size_average, reduce, reduction, log_target] = pKl(args) as [Tensor, Tensor, boolean | null, boolean | null, string, boolean];
  let r: number;
  if (size_average !== null || reduce !== null) r = get_enum(legacy_get_string(size_average, reduce));
  else {
    if (reduction === "mean") {
      warn(
        "reduction: 'mean' divides the total loss by both the batch size and the support size." +
          "'batchmean' divides only by the batch size, and aligns with the KL div math definition." +
          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
      );
    }
    r = get_enum(reduction === "batchmean" ? "sum" : reduction);
  }
  const reduced = T.kl_div(input, target, r, { log_target });
  if (reduction === "batchmean" && input.dim() !== 0) return T.div(reduced, input.size(0));
  return reduced;
}

// ---- cosine_embedding_loss, margin_ranking_loss ----

const pCos = signature("cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0, bool? size_average=None, bool? reduce=None, str reduction=\"mean\")");
export function cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, options?: { margin?: number } & LegacyOpts): Tensor;
export function cosine_embedding_loss(...args: unknown[]): Tensor {
  const [input1, input2, target, margin, size_average, reduce, reduction] = pCos(args);
  return T.cosine_embedding_loss(input1, input2, target, margin, reductionOf(size_average, reduce, reduction));
}

const pRank = signature("margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0, bool? size_average=None, bool? reduce=None, str reduction=\"mean\")");
export function margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, options?: { margin?: number } & LegacyOpts): Tensor;
export function margin_ranking_loss(...args: unknown[]): Tensor {
  const [input1, input2, target, margin, size_average, reduce, reduction] = pRank(args) as [Tensor, Tensor, Tensor, number, boolean | null, boolean | null, string];
  const r = reductionOf(size_average, reduce, reduction);
  if (input1.dim() !== input2.dim() || input1.dim() !== target.dim()) {
    const sz = (t: Tensor) => `torch.Size([${t.shape.join(", ")}])`;
    throw new RuntimeError(
      `margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: ${sz(input1)}, input2: ${sz(input2)}, target: ${sz(target)} `,
    );
  }
  return T.margin_ranking_loss(input1, input2, target, margin, r);
}
