// The codegen's model of derivatives.yaml: PyTorch's tools/autograd/load_derivatives.py (and the data
// model of torchgen/api/autograd.py: DifferentiabilityInfo, Derivative, ForwardDerivative, SavedAttribute).
// Formulas are TypeScript expressions (the language is defined at the top of engine/ops/derivatives.yaml);
// where PyTorch finds names with regexes, we parse each formula with the `typescript` package and walk the
// AST, so a wrong name is reported at its own line and column in the yaml.

import { readFileSync } from "node:fs";
import ts from "typescript";
import { LineCounter, parseDocument, isMap, isScalar, isSeq, type Node, type Scalar } from "yaml";
import { YamlError, type Loc, type NativeFunction } from "./model.js";
import type { Argument, FunctionSchema } from "../dispatcher/schema/FunctionSchema.js";

// ---------------------------------------------------------------------------------------------------------------
// The language's fixed names

/** Helper functions a formula may call: FunctionsManual.cpp names (and ATen's where PyTorch uses those). */
export const HELPERS: Readonly<Record<string, { readonly args: readonly [number, number]; readonly pytorch: string }>> = {
  handle_r_to_c: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  maybe_multiply: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  mul_tensor_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  sum_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  sum_to: { args: [2, 2], pytorch: "aten/src/ATen/ExpandUtils.h" },
  zeros_like: { args: [1, 2], pytorch: "aten/src/ATen/native/TensorFactories.cpp" },
  not_implemented: { args: [1, 1], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  log1p_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  sigmoid_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  tanh_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  sgn_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  infinitely_differentiable_logit_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  clamp_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  clamp_backward_min_max: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  atan2_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  copysign_tensor_self_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  div_tensor_self_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  div_tensor_other_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  pow_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  pow_backward_self: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  pow_backward_exponent: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  _safe_size: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  mean_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  restore_reduced_dims: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  scale_grad_by_count: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  evenly_distribute_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  value_selecting_reduction_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  prod_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  var_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  std_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  var_mean_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  std_mean_backward: { args: [7, 7], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  permute_backwards: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  unsqueeze_to: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  as_strided_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  split_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  split_with_sizes_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  unbind_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  diagonal_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  unfold_backward: { args: [5, 5], pytorch: "aten/src/ATen/native/UnfoldBackward.h" },
  repeat_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  roll_backward: { args: [3, 3], pytorch: "tools/autograd/derivatives.yaml (roll)" },
  cat_tensors_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  stack_tensors_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  select_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  slice_backward_wrapper: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  _to_copy_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  // ---- linalg ----
  mm_mat1_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  mm_mat2_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  _trilinear_backward: { args: [9, 9], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  linalg_det_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  slogdet_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  cholesky_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  linalg_solve_backward: { args: [8, 8], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  linalg_qr_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  svd_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  // ---- index ----
  index_Tensor: { args: [2, 2], pytorch: "at::index (grad.index(indices) in tools/autograd/derivatives.yaml)" },
  index_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  index_select_backward: { args: [4, 4], pytorch: "aten/src/ATen/native/TensorAdvancedIndexing.cpp" },
  gather_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  take_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  masked_select_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  masked_fill_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  cumsum_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  cumprod_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  cummaxmin_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  logcumsumexp_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  logsumexp_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  norm_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  linalg_vector_norm_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  scatter_reduce_backward: { args: [9, 9], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  _unique_unsorted: { args: [1, 1], pytorch: "std::get<0>(at::_unique(index, false)) in tools/autograd/derivatives.yaml" },
  // act family
  nll_loss_backward: { args: [7, 7], pytorch: "aten/src/ATen/native/LossNLL.cpp" },
  nll_loss2d_backward: { args: [7, 7], pytorch: "aten/src/ATen/native/LossNLL2d.cpp" },
  nll_loss: { args: [5, 5], pytorch: "aten/src/ATen/native/LossNLL.cpp" },
  nll_loss2d: { args: [5, 5], pytorch: "aten/src/ATen/native/LossNLL2d.cpp" },
  threshold_backward: { args: [3, 3], pytorch: "aten/src/ATen/native/Activation.cpp" },
  leaky_relu_backward: { args: [4, 4], pytorch: "aten/src/ATen/native/Activation.cpp" },
  hardtanh_backward: { args: [4, 4], pytorch: "aten/src/ATen/native/Activation.cpp" },
  hardsigmoid_backward: { args: [2, 2], pytorch: "aten/src/ATen/native/Activation.cpp" },
  glu_backward: { args: [3, 3], pytorch: "aten/src/ATen/native/GatedLinearUnit.cpp" },
  glu_double_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  glu_double_backward_grad_output: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  elu_backward: { args: [6, 6], pytorch: "aten/src/ATen/native/Activation.cpp" },
  gelu_backward: { args: [3, 3], pytorch: "aten/src/ATen/native/Activation.cpp" },
  softplus_backward: { args: [4, 4], pytorch: "aten/src/ATen/native/Activation.cpp" },
  hardswish_backward: { args: [2, 2], pytorch: "aten/src/ATen/native/Activation.cpp" },
  prelu_backward: { args: [3, 3], pytorch: "aten/src/ATen/native/Activation.cpp" },
  silu_backward: { args: [2, 2], pytorch: "aten/src/ATen/native/Activation.cpp" },
  mish_backward: { args: [2, 2], pytorch: "aten/src/ATen/native/Activation.cpp" },
  log_sigmoid_backward: { args: [3, 3], pytorch: "aten/src/ATen/native/Activation.cpp" },
  _softmax_backward_data: { args: [4, 4], pytorch: "aten/src/ATen/native/SoftMax.cpp" },
  _log_softmax_backward_data: { args: [4, 4], pytorch: "aten/src/ATen/native/SoftMax.cpp" },
  mse_loss_backward: { args: [4, 4], pytorch: "aten/src/ATen/native/Loss.cpp" },
  smooth_l1_loss_backward: { args: [5, 5], pytorch: "aten/src/ATen/native/Loss.cpp" },
  huber_loss_backward: { args: [5, 5], pytorch: "aten/src/ATen/native/Loss.cpp" },
  binary_cross_entropy_backward: { args: [5, 5], pytorch: "aten/src/ATen/native/Loss.cpp" },
  xlogy: { args: [2, 2], pytorch: "aten/src/ATen/native/BinaryOps.cpp (at::xlogy)" },
  xlogy_self_zero_other_nonpositive: { args: [2, 2], pytorch: "(self == 0.) & (other <= 0.) in tools/autograd/derivatives.yaml (xlogy.Tensor)" },
  GradMode_is_enabled: { args: [0, 0], pytorch: "c10/core/GradMode.h (GradMode::is_enabled)" },
  infinitely_differentiable_silu_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  infinitely_differentiable_mish_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  elu_double_backward: { args: [7, 7], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  gelu_double_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  softplus_double_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  log_sigmoid_double_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  softmax_double_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  mse_loss_double_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  smooth_l1_loss_double_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  huber_loss_double_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  huber_loss_double_backward_grad_output: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  binary_cross_entropy_double_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  binary_cross_entropy_double_backward_grad_output: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  binary_cross_entropy_double_backward_target: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  binary_cross_entropy_target_backward: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  binary_cross_entropy_with_logits_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  binary_cross_entropy_with_logits_target_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  // layers: composites standing in for PyTorch's fused backward ops (see FunctionsManual.ts)
  convolution_backward: { args: [11, 11], pytorch: "at::convolution_backward (conv.yaml)" },
  _slow_conv2d_backward: { args: [7, 7], pytorch: "at::_slow_conv2d_backward.output_mask (conv.yaml)" },
  _convolution_double_backward: { args: [13, 13], pytorch: "at::_convolution_double_backward (conv.yaml)" },
  max_pool_double_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  max_pool2d_with_indices_backward: { args: [8, 8], pytorch: "at::max_pool2d_with_indices_backward (pooling.yaml)" },
  avg_pool2d_backward: { args: [8, 8], pytorch: "at::avg_pool2d_backward (pooling.yaml)" },
  avg_pool2d: { args: [7, 7], pytorch: "at::avg_pool2d (pooling.yaml)" },
  constant_pad_nd_backward: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  im2col: { args: [5, 5], pytorch: "at::im2col (vision.yaml)" },
  col2im: { args: [6, 6], pytorch: "at::col2im (vision.yaml)" },
  pixel_shuffle: { args: [2, 2], pytorch: "at::pixel_shuffle (vision.yaml)" },
  pixel_unshuffle: { args: [2, 2], pytorch: "at::pixel_unshuffle (vision.yaml)" },
  _adaptive_avg_pool2d: { args: [2, 2], pytorch: "at::_adaptive_avg_pool2d (pooling.yaml)" },
  _adaptive_avg_pool2d_backward: { args: [2, 2], pytorch: "at::_adaptive_avg_pool2d_backward (pooling.yaml)" },
  adaptive_max_pool2d_backward: { args: [3, 3], pytorch: "at::adaptive_max_pool2d_backward (pooling.yaml)" },
  _pack_padded_sequence_backward: { args: [4, 4], pytorch: "at::_pack_padded_sequence_backward (packed.yaml)" },
  // ---- layers backward ----
  native_batch_norm_backward: { args: [10, 10], pytorch: "at::native_batch_norm_backward (normalization.yaml)" },
  native_layer_norm_backward: { args: [8, 8], pytorch: "at::native_layer_norm_backward (normalization.yaml)" },
  native_group_norm_backward: { args: [10, 10], pytorch: "at::native_group_norm_backward (normalization.yaml)" },
  batchnorm_double_backward: { args: [13, 13], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  layer_norm_double_backward: { args: [10, 10], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  infinitely_differentiable_native_group_norm_backward: { args: [13, 13], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  embedding_backward: { args: [6, 6], pytorch: "at::embedding_backward (index.yaml)" },
  embedding_dense_double_backward: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  upsample_nearest1d: { args: [3, 3], pytorch: "at::upsample_nearest1d (vision.yaml)" },
  upsample_nearest1d_vec: { args: [3, 3], pytorch: "at::upsample_nearest1d, .vec overload (vision.yaml)" },
  upsample_nearest1d_backward: { args: [4, 4], pytorch: "at::upsample_nearest1d_backward (vision.yaml)" },
  upsample_nearest1d_backward_vec: { args: [4, 4], pytorch: "at::upsample_nearest1d_backward, .vec overload (vision.yaml)" },
  upsample_nearest2d: { args: [4, 4], pytorch: "at::upsample_nearest2d (vision.yaml)" },
  upsample_nearest2d_vec: { args: [3, 3], pytorch: "at::upsample_nearest2d, .vec overload (vision.yaml)" },
  upsample_nearest2d_backward: { args: [5, 5], pytorch: "at::upsample_nearest2d_backward (vision.yaml)" },
  upsample_nearest2d_backward_vec: { args: [4, 4], pytorch: "at::upsample_nearest2d_backward, .vec overload (vision.yaml)" },
  upsample_bilinear2d: { args: [5, 5], pytorch: "at::upsample_bilinear2d (vision.yaml)" },
  upsample_bilinear2d_vec: { args: [4, 4], pytorch: "at::upsample_bilinear2d, .vec overload (vision.yaml)" },
  upsample_bilinear2d_backward: { args: [6, 6], pytorch: "at::upsample_bilinear2d_backward (vision.yaml)" },
  upsample_bilinear2d_backward_vec: { args: [5, 5], pytorch: "at::upsample_bilinear2d_backward, .vec overload (vision.yaml)" },
  reflection_pad1d: { args: [2, 2], pytorch: "at::reflection_pad1d (pad.yaml)" },
  reflection_pad2d: { args: [2, 2], pytorch: "at::reflection_pad2d (pad.yaml)" },
  reflection_pad3d: { args: [2, 2], pytorch: "at::reflection_pad3d (pad.yaml)" },
  replication_pad1d: { args: [2, 2], pytorch: "at::replication_pad1d (pad.yaml)" },
  replication_pad2d: { args: [2, 2], pytorch: "at::replication_pad2d (pad.yaml)" },
  replication_pad3d: { args: [2, 2], pytorch: "at::replication_pad3d (pad.yaml)" },
  reflection_pad1d_backward: { args: [3, 3], pytorch: "at::reflection_pad1d_backward (pad.yaml)" },
  reflection_pad2d_backward: { args: [3, 3], pytorch: "at::reflection_pad2d_backward (pad.yaml)" },
  reflection_pad3d_backward: { args: [3, 3], pytorch: "at::reflection_pad3d_backward (pad.yaml)" },
  replication_pad1d_backward: { args: [3, 3], pytorch: "at::replication_pad1d_backward (pad.yaml)" },
  replication_pad2d_backward: { args: [3, 3], pytorch: "at::replication_pad2d_backward (pad.yaml)" },
  replication_pad3d_backward: { args: [3, 3], pytorch: "at::replication_pad3d_backward (pad.yaml)" },
  // ---- forward AD: the *_jvp helpers of forward formulas ----
  clamp_jvp: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  amaxamin_jvp: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  gather_with_keepdimed_indices: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  evenly_read_jvp: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  logsumexp_jvp: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  norm_jvp: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  linalg_vector_norm_jvp: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  cumprod_jvp: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  cat_jvp: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  stack_jvp: { args: [2, 2], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  _trilinear: { args: [8, 8], pytorch: "at::_trilinear (linalg.yaml)" },
  linalg_det_jvp: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  slogdet_jvp: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  linalg_solve_jvp: { args: [5, 5], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  cholesky_jvp: { args: [3, 3], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  // ---- misc ----
  lu_factor_ex_backward: { args: [4, 4], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
  linalg_lu_backward: { args: [6, 6], pytorch: "torch/csrc/autograd/FunctionsManual.cpp" },
};

/**
 * Metadata of a Tensor `t` a formula may name as `t_<kind>`: saved at forward time instead of the tensor
 * (load_derivatives.py's REPLACEMENTS, which rewrite `self.sym_sizes()` to `self_sym_sizes`). Value: its type.
 */
export const METADATA = {
  sym_sizes: "SymInt[]",
  sym_strides: "SymInt[]",
  scalar_type: "ScalarType",
  dim: "int",
  sym_numel: "SymInt",
  layout: "Layout",
  options: "TensorOptions",
  geometry: "TensorGeometry",
} as const;
/**
 * Metadata of a Tensor[] argument `ts`, one entry per tensor (PyTorch's to_args_sizes(tensors) and
 * to_args_scalartypes(tensors), which load_derivatives.py saves as tensors_args_sizes / _args_scalartypes).
 */
export const LIST_METADATA = {
  args_sizes: "SymInt[][]",
  args_scalartypes: "ScalarType[]",
} as const;
export type MetadataKind = keyof typeof METADATA | keyof typeof LIST_METADATA | "sym_sizes_opt";

// ---------------------------------------------------------------------------------------------------------------
// The model

/** One value a backward Node keeps from the forward call (torchgen SavedAttribute). */
export interface SavedAttribute {
  /** The Node's field, as the formula names it: `other`, `alpha`, `self_sym_sizes`, `result`. */
  readonly name: string;
  /** Taken from an argument of the op, or from one of its outputs (saved_inputs vs saved_outputs). */
  readonly from: "input" | "output";
  /** The argument or output it is taken from: `self` for `self_sym_sizes`. */
  readonly source: string;
  /** null: the value itself (a SavedVariable when it is a Tensor); else the metadata read from it. */
  readonly metadata: MetadataKind | null;
  /** Schema type of the saved value: `Tensor`, `Scalar`, `int[1]?`, `SymInt[]`, `ScalarType`. */
  readonly type: string;
}

/** A backward formula for one input, or one fused formula for several (torchgen Derivative). */
export interface Derivative {
  /** The inputs it computes, in the key's order: `["self"]`, or `["self", "other"]` for a tuple formula. */
  readonly varNames: readonly string[];
  readonly formula: string;
  /** The parsed expression; its positions are offsets into `(${formula})` (sourceFile.text). */
  readonly expr: ts.Expression;
  readonly sourceFile: ts.SourceFile;
  readonly savedInputs: readonly SavedAttribute[];
  readonly savedOutputs: readonly SavedAttribute[];
  /** `grad_<name>` gradients it uses; `grads[i]` indices it uses; whether it uses `grad`. */
  readonly namedGradients: readonly string[];
  readonly usedGradIndices: readonly number[];
  readonly usesGrad: boolean;
  /** Uses `grads` other than as `grads[<number>]` (passes the list, or indexes it with a variable). */
  readonly usesGradsList: boolean;
  /** Helpers it calls, in first-use order. */
  readonly helpers: readonly string[];
  readonly loc: Loc;
}

/** A forward-mode (JVP) formula for one or more outputs (torchgen ForwardDerivative). */
export interface ForwardDerivative {
  readonly varNames: readonly string[];
  /** `formula`: written out; `auto_linear` / `auto_element_wise`: derived by the codegen (expr is null). */
  readonly kind: "formula" | "auto_linear" | "auto_element_wise";
  readonly formula: string;
  readonly expr: ts.Expression | null;
  readonly sourceFile: ts.SourceFile | null;
  /** Inputs whose tangent (`x_t`) / primal (`x_p`) the formula reads. */
  readonly requiredInputsTangent: readonly string[];
  readonly requiredInputsPrimal: readonly string[];
  /** Arguments, outputs and metadata the formula names (bound in the generated kernel), first use first. */
  readonly uses: readonly SavedAttribute[];
  /** Helpers it calls. */
  readonly helpers: readonly string[];
  readonly loc: Loc;
}

/** One entry of derivatives.yaml, matched to its operator (torchgen DifferentiabilityInfo). */
export interface DifferentiabilityInfo {
  /** The operator's name without overload, as PyTorch's defn_name: `add`, `fill_`. */
  readonly name: string;
  /** The `name:` text, which is the operator's schema. */
  readonly schema: string;
  readonly fn: NativeFunction;
  /** The backward Node class: `<CamelName>Backward<N>`, N counting entries of that name in file order; null when nothing is differentiable. */
  readonly op: string | null;
  readonly derivatives: readonly Derivative[];
  readonly forwardDerivatives: readonly ForwardDerivative[];
  /** What the Node saves: the union of its derivatives' lists, first use first. */
  readonly allSavedInputs: readonly SavedAttribute[];
  readonly allSavedOutputs: readonly SavedAttribute[];
  /** Inputs with a formula, in the schema's argument order. */
  readonly argsWithDerivatives: readonly string[];
  readonly nonDifferentiableArgNames: readonly string[];
  /** As written (`[True, False]`), or null: every output differentiable. */
  readonly outputDifferentiability: readonly boolean[] | null;
  /** Names formulas use for the outputs: `result`, `result0`..., or the outputs' names (cpp.return_names). */
  readonly outputNames: readonly string[];
  readonly availableNamedGradients: readonly string[];
  readonly usedNamedGradients: readonly string[];
  /** The `name:` value's position, and the entry's last line. */
  readonly loc: Loc;
  readonly endLine: number;
}

/** Every problem found in the file; the message lists them all, one `file:line:col: message` per line. */
export class DerivativesError extends YamlError {
  constructor(readonly problems: readonly YamlError[]) {
    const first = problems[0];
    const prefix = `${first.loc.file}:${first.loc.line}:${first.loc.column}: `;
    super([first.message.slice(prefix.length), ...problems.slice(1).map((p) => p.message)].join("\n"), first.loc);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Loading

/** Reads derivatives.yaml and matches it to the operators; throws DerivativesError listing every problem. */
export function loadDerivatives(path: string, displayPath: string, nativeFunctions: readonly NativeFunction[]): DifferentiabilityInfo[] {
  const { infos, problems } = parseDerivatives(readFileSync(path, "utf8"), displayPath, nativeFunctions);
  if (problems.length) throw new DerivativesError(problems);
  return infos;
}

/** The same from text, returning the problems instead of throwing (for the language server's diagnostics). */
export function parseDerivatives(
  text: string,
  displayPath: string,
  nativeFunctions: readonly NativeFunction[],
): { infos: DifferentiabilityInfo[]; problems: YamlError[] } {
  const src = new YamlSource(text, displayPath);
  const doc = parseDocument(text, { lineCounter: src.lineCounter });
  for (const e of doc.errors) src.problem(e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, ""), e.pos[0]);
  if (doc.errors.length) return { infos: [], problems: src.problems };
  const infos: DifferentiabilityInfo[] = [];
  if (doc.contents === null) return { infos, problems: src.problems };
  if (!isSeq(doc.contents)) {
    src.problem("expected a list of derivative entries (`- name: ...`)", doc.contents.range?.[0] ?? 0);
    return { infos, problems: src.problems };
  }
  const bySchema = new Map(nativeFunctions.map((f) => [String(f.func), f]));
  const seen = new Map<string, number>();
  const opCounter = new Map<string, number>();
  for (const item of doc.contents.items) {
    const info = loadEntry(item as Node, src, bySchema, seen);
    if (!info) continue;
    if (info.argsWithDerivatives.length > 0) {
      // load_derivatives.py: only an entry that differentiates something gets a Node class name.
      const prefix = opPrefix(info.name);
      const n = opCounter.get(prefix) ?? 0;
      opCounter.set(prefix, n + 1);
      info.op = `${prefix}${n}`;
    }
    infos.push(info);
  }
  return { infos, problems: src.sorted() };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function loadEntry(item: Node, src: YamlSource, bySchema: Map<string, NativeFunction>, seen: Map<string, number>): Mutable<DifferentiabilityInfo> | null {
  if (!isMap(item)) return src.problem("each entry must be a mapping starting with 'name:'", item.range?.[0] ?? 0), null;
  const nameNode = item.get("name", true);
  if (!isScalar(nameNode) || typeof nameNode.value !== "string") return src.problem("missing 'name:' (the operator's schema)", item.range?.[0] ?? 0), null;
  const schema = nameNode.value.trim();
  const nameLoc = src.at(nameNode, 0);
  const first = seen.get(schema);
  if (first !== undefined) return src.problemAt(`duplicate entry for ${schema} (first defined at line ${first})`, nameLoc), null;
  seen.set(schema, nameLoc.line);
  const fn = bySchema.get(schema);
  if (!fn) {
    // load_derivatives.py: "could not find ATen function for schema: ... Available signatures: ..."
    const base = schema.split(/[.(]/)[0];
    const avail = [...bySchema.keys()].filter((k) => k.split(/[.(]/)[0] === base);
    const hint = avail.length ? `; operators named ${base}: ${avail.join("; ")}` : "";
    return src.problemAt(`could not find an operator in native_functions.yaml for schema: ${schema}${hint}`, nameLoc), null;
  }
  const entry = new EntryScope(fn.func);
  for (const bad of ["grad_input_mask", "result"]) {
    if (fn.func.argument(bad)) src.problemAt(`the schema has an argument named '${bad}', a name formulas reserve`, nameLoc);
  }

  // output_differentiability first: it decides which grad_<name> the formulas may use.
  const odNode = item.get("output_differentiability", true);
  const outputDifferentiability = odNode === undefined ? null : readOutputDifferentiability(odNode as Node, fn.func, src);
  entry.setDifferentiability(outputDifferentiability);
  const derivatives: Derivative[] = [];
  const forward: { names: string[]; value: Scalar }[] = [];
  const nonDifferentiable: string[] = [];
  const defined = new Set<string>();
  // PyTorch processes the keys sorted (Python's code-point order; it fixes the order of saved fields); so do we.
  const pairs = [...item.items].sort((a, b) => (keyText(a.key) < keyText(b.key) ? -1 : keyText(a.key) > keyText(b.key) ? 1 : 0));
  for (const pair of pairs) {
    const key = keyText(pair.key);
    const keyNode = pair.key as Scalar;
    if (key === "name" || key === "output_differentiability") continue;
    if (key === "dispatch") {
      src.problem("per-dispatch-key formulas ('dispatch:') are not supported yet: write the Default formulas directly", keyNode.range?.[0] ?? 0);
      continue;
    }
    const names = splitNames(key);
    const value = pair.value;
    if (!isScalar(value) || value.value === null || String(value.value).trim() === "") {
      src.problemAt(`'${key}' needs a formula`, src.at(keyNode, 0));
      continue;
    }
    const valueText = typeof value.value === "string" ? value.value : src.raw(value);
    // load_derivatives.py's is_forward_derivative_definition: keys that are not arguments name outputs.
    if (!fn.func.argument(names[0].name)) {
      let ok = true;
      for (const n of names) {
        if (!entry.outputNames.includes(n.name)) {
          src.problemAt(
            `'${n.name}' is neither an input of ${fn.func.fullName()} (${fn.func.arguments.map((a) => a.name).join(", ")}) nor an output (${entry.outputNames.join(", ")})`,
            src.at(keyNode, n.offset),
          );
          ok = false;
        }
      }
      if (ok) forward.push({ names: names.map((n) => n.name), value });
      continue;
    }
    const nonDiff = valueText.trim().toLowerCase() === "non_differentiable";
    let ok = true;
    for (const n of names) {
      const arg = fn.func.argument(n.name);
      const where = src.at(keyNode, n.offset);
      if (!arg) src.problemAt(`'${n.name}' is not an input of ${fn.func.fullName()} (${fn.func.arguments.map((a) => a.name).join(", ")})`, where);
      else if (!nonDiff && !arg.type.isTensorLike()) src.problemAt(`'${n.name}' is a ${arg.type}: only Tensor inputs have gradients`, where);
      else if (defined.has(n.name)) src.problemAt(`'${n.name}' has two formulas`, where);
      else continue;
      ok = false;
    }
    if (!ok) continue;
    names.forEach((n) => defined.add(n.name));
    if (nonDiff) {
      nonDifferentiable.push(...names.map((n) => n.name));
      continue;
    }
    const d = parseBackward(valueText, value, names.map((n) => n.name), entry, src);
    if (d) derivatives.push(d);
  }

  // From the keys, not the formulas that parsed: one bad formula should not make the forward ones fail too.
  const argsWithDerivatives = fn.func.arguments.map((a) => a.name).filter((n) => defined.has(n) && !nonDifferentiable.includes(n));
  checkGradUsage(derivatives, fn.func, src, nameLoc);
  const forwardDerivatives = forward
    .map((f) => parseForward(f.value, f.names, entry, argsWithDerivatives, derivatives, forward.length, src))
    .filter((f): f is ForwardDerivative => f !== null);
  return {
    name: fn.func.unqualifiedName,
    schema,
    fn,
    op: null,
    derivatives,
    forwardDerivatives,
    allSavedInputs: dedup(derivatives.flatMap((d) => d.savedInputs)),
    allSavedOutputs: dedup(derivatives.flatMap((d) => d.savedOutputs)),
    argsWithDerivatives,
    nonDifferentiableArgNames: nonDifferentiable,
    outputDifferentiability,
    outputNames: entry.outputNames,
    availableNamedGradients: entry.namedGradients(),
    usedNamedGradients: [...new Set(derivatives.flatMap((d) => d.namedGradients))],
    loc: nameLoc,
    endLine: src.lineCounter.linePos(Math.max((item.range?.[1] ?? 1) - 1, 0)).line,
  };
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : "";
}

/** `"self, other"` -> the names with their offsets in the key. */
function splitNames(key: string): { name: string; offset: number }[] {
  const out: { name: string; offset: number }[] = [];
  const re = /[^,]+/g;
  for (let m = re.exec(key); m; m = re.exec(key)) {
    const lead = m[0].length - m[0].trimStart().length;
    out.push({ name: m[0].trim(), offset: m.index + lead });
  }
  return out;
}

function readOutputDifferentiability(node: Node, func: FunctionSchema, src: YamlSource): boolean[] | null {
  if (!isSeq(node)) return src.problem("output_differentiability must be a list like [True, False]", node?.range?.[0] ?? 0), null;
  const out: boolean[] = [];
  for (const item of node.items) {
    if (!isScalar(item) || typeof item.value !== "boolean") return src.problem("output_differentiability entries must be True or False", (item as Node).range?.[0] ?? 0), null;
    out.push(item.value);
  }
  if (out.length > func.returns.length) src.problem(`output_differentiability has ${out.length} entries but ${func.fullName()} returns ${func.returns.length}`, node.range?.[0] ?? 0);
  return out;
}

function dedup(attrs: SavedAttribute[]): SavedAttribute[] {
  const seen = new Set<string>();
  return attrs.filter((a) => !seen.has(a.name) && !!seen.add(a.name));
}

/** load_derivatives.py `_create_op_prefix`: `fill_` -> `FillBackward`, `max_pool2d` -> `MaxPool2DBackward`. */
export function opPrefix(name: string): string {
  const title = (p: string) => p.replace(/[A-Za-z]+/g, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase()); // Python str.title()
  return (name.split("_").map(title).join("") + "Backward").replaceAll("ForwardBackward", "Backward");
}

// ---------------------------------------------------------------------------------------------------------------
// What a formula may name (the scope), and what using a name costs (what the Node saves)

type Binding =
  | { kind: "grad" | "grads" | "grad_input_mask" | "torch" | "helper" }
  | { kind: "named_grad"; output: string }
  | { kind: "saved"; attr: SavedAttribute; order: number };

class EntryScope {
  readonly outputNames: string[];
  private differentiability: boolean[] | null = null;
  private readonly saved = new Map<string, { attr: SavedAttribute; order: number }>();

  constructor(readonly func: FunctionSchema) {
    this.outputNames = returnNames(func);
    let order = 0;
    // Arguments first, then outputs; per value its metadata before itself (saved_variables' loop order).
    const add = (from: "input" | "output", name: string, type: string) => {
      if (type === "Tensor") {
        for (const [m, t] of Object.entries(METADATA)) {
          this.saved.set(`${name}_${m}`, { attr: { name: `${name}_${m}`, from, source: name, metadata: m as MetadataKind, type: t }, order: order++ });
        }
      }
      if (type === "Tensor?") {
        // `bias->sym_sizes()` of an optional tensor: load_derivatives.py saves it as bias_sym_sizes_opt (null when absent)
        this.saved.set(`${name}_sym_sizes_opt`, { attr: { name: `${name}_sym_sizes_opt`, from, source: name, metadata: "sym_sizes_opt", type: "SymInt[]?" }, order: order++ });
      }
      if (type === "Tensor[]") {
        for (const [m, t] of Object.entries(LIST_METADATA)) {
          this.saved.set(`${name}_${m}`, { attr: { name: `${name}_${m}`, from, source: name, metadata: m as MetadataKind, type: t }, order: order++ });
        }
      }
      this.saved.set(name, { attr: { name, from, source: name, metadata: null, type }, order: order++ });
    };
    for (const a of func.arguments) add("input", a.name, String(a.type));
    func.returns.forEach((r, i) => add("output", this.outputNames[i], String(r.type)));
  }

  setDifferentiability(d: boolean[] | null): void {
    this.differentiability = d;
  }

  /** `grad_<name>` for each named, differentiable Tensor output (load_derivatives.py available_named_gradients). */
  namedGradients(): string[] {
    return this.func.returns
      .filter((r, i) => r.name !== null && r.type.isTensorLike() && (this.differentiability === null || this.differentiability[i] === true))
      .map((r) => `grad_${r.name}`);
  }

  resolve(name: string, forward: boolean): Binding | null {
    if (name === "torch") return { kind: "torch" };
    if (Object.hasOwn(HELPERS, name)) return { kind: "helper" };
    if (!forward) {
      if (name === "grad" || name === "grads" || name === "grad_input_mask") return { kind: name };
      if (this.namedGradients().includes(name)) return { kind: "named_grad", output: name.slice(5) };
    }
    const s = this.saved.get(name);
    return s ? { kind: "saved", ...s } : null;
  }

  describeScope(forward: boolean): string {
    const args = this.func.arguments.map((a) => a.name).join(", ");
    const grads = forward ? "" : "grad, grads[i], ";
    return `${grads}the arguments (${args}), the outputs (${this.outputNames.join(", ")}), <tensor>_sym_sizes-style metadata, torch, or a helper (${Object.keys(HELPERS).join(", ")})`;
  }
}

/** torchgen cpp.return_names, with load_derivatives.py's `self` -> `result` for in-place ops. */
function returnNames(func: FunctionSchema): string[] {
  const outs = func.outArguments();
  return func.returns.map((r, i) => {
    if (func.operatorName.inplace) return "result";
    if (outs.length) return outs[i].name;
    if (r.name) return func.arguments.some((a) => a.name === r.name) ? `${r.name}_return` : r.name;
    return func.returns.length === 1 ? "result" : `result${i}`;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Formulas

function parseBackward(
  text: string,
  value: Scalar,
  varNames: string[],
  scope: EntryScope,
  src: YamlSource,
): Derivative | null {
  const parsed = parseFormula(text, value, src);
  if (!parsed) return null;
  const saved: { attr: SavedAttribute; order: number }[] = [];
  const namedGradients = new Set<string>();
  const gradIndices: number[] = [];
  const helpers = new Set<string>();
  let usesGrad = false;
  let usesGradsList = false;
  let ok = true;
  for (const use of parsed.names) {
    const b = scope.resolve(use.name, false);
    const where = src.at(value, use.offset);
    if (!b) {
      src.problemAt(`unknown name '${use.name}' in the formula for ${varNames.join(", ")}: expected ${scope.describeScope(false)}`, where);
      ok = false;
    } else if (b.kind === "helper") {
      if (checkHelperCall(use, src, where)) helpers.add(use.name);
      else ok = false;
    } else if (b.kind === "grad") usesGrad = true;
    else if (b.kind === "named_grad") namedGradients.add(use.name);
    else if (b.kind === "grads") {
      const i = gradIndex(use.node);
      if (i !== null && i >= scope.func.returns.length) {
        src.problemAt(`grads[${i}] is out of bounds: ${scope.func.fullName()} returns ${scope.func.returns.length} output(s)`, where);
        ok = false;
      }
      if (i !== null) gradIndices.push(i);
      else usesGradsList = true;
    } else if (b.kind === "saved") saved.push(b);
  }
  if (!ok) return null;
  const attrs = dedup(saved.sort((a, b) => a.order - b.order).map((s) => s.attr));
  return {
    varNames,
    formula: text,
    expr: parsed.expr,
    sourceFile: parsed.sourceFile,
    savedInputs: attrs.filter((a) => a.from === "input"),
    savedOutputs: attrs.filter((a) => a.from === "output"),
    namedGradients: [...namedGradients],
    usedGradIndices: gradIndices,
    usesGrad,
    usesGradsList,
    helpers: [...helpers],
    loc: src.at(value, 0),
  };
}

function parseForward(
  value: Scalar,
  varNames: string[],
  scope: EntryScope,
  argsWithDerivatives: string[],
  derivatives: Derivative[],
  forwardCount: number,
  src: YamlSource,
): ForwardDerivative | null {
  const text = typeof value.value === "string" ? value.value.trim() : src.raw(value);
  const loc = src.at(value, 0);
  const base = { varNames, formula: text, expr: null, sourceFile: null, requiredInputsPrimal: [] as string[], uses: [] as SavedAttribute[], helpers: [] as string[], loc };
  // load_derivatives.py postprocess_forward_derivatives: the two formulas the codegen derives itself.
  if (text === "auto_element_wise") {
    if (argsWithDerivatives.length !== 1 || forwardCount > 1 || varNames.length > 1 || derivatives.length !== 1) {
      src.problemAt("auto_element_wise needs exactly one differentiable input with a backward formula and one output", loc);
      return null;
    }
    return { ...base, kind: "auto_element_wise", requiredInputsTangent: argsWithDerivatives };
  }
  if (text === "auto_linear") {
    if (forwardCount > 1 || varNames.length > 1) return src.problemAt("auto_linear works only for an op with a single differentiable output", loc), null;
    if (argsWithDerivatives.length === 0) return src.problemAt("auto_linear needs a differentiable input", loc), null;
    return { ...base, kind: "auto_linear", requiredInputsTangent: argsWithDerivatives };
  }
  const parsed = parseFormula(text, value, src);
  if (!parsed) return null;
  const tangents = new Set<string>();
  const primals = new Set<string>();
  const uses: SavedAttribute[] = [];
  const helpers = new Set<string>();
  let ok = true;
  for (const use of parsed.names) {
    const where = src.at(value, use.offset);
    const m = /^(.*)_([pt])$/.exec(use.name);
    if (m && argsWithDerivatives.includes(m[1])) {
      (m[2] === "t" ? tangents : primals).add(m[1]);
      continue;
    }
    // a Tensor[] input is passed whole (cat_jvp(tensors, dim) reads each tensor's tangent itself)
    const isList = String(scope.func.argument(use.name)?.type ?? "").replace(/\?$/, "") === "Tensor[]";
    if (argsWithDerivatives.includes(use.name) && !isList) {
      // PyTorch's own error text for this mistake.
      src.problemAt(`the forward formula is using the base name of the ${use.name} argument which is ambiguous: use ${use.name}_p for the primal value and ${use.name}_t for the tangent`, where);
      ok = false;
      continue;
    }
    const b = scope.resolve(use.name, true);
    if (!b) {
      src.problemAt(`unknown name '${use.name}' in the forward formula for ${varNames.join(", ")}: expected <input>_p, <input>_t, ${scope.describeScope(true)}`, where);
      ok = false;
    } else if (b.kind === "helper") {
      if (checkHelperCall(use, src, where)) helpers.add(use.name);
      else ok = false;
    } else if (b.kind === "saved") uses.push(b.attr);
  }
  if (!ok) return null;
  const order = (s: Set<string>) => argsWithDerivatives.filter((a) => s.has(a));
  return {
    ...base,
    kind: "formula",
    expr: parsed.expr,
    sourceFile: parsed.sourceFile,
    requiredInputsTangent: order(tangents),
    requiredInputsPrimal: order(primals),
    uses: dedup(uses),
    helpers: [...helpers],
  };
}

/** load_derivatives.py check_grad_usage: `grad`, `grads[i]` and `grad_<name>` are not mixed; `grads[0]` alone means `grad`. */
function checkGradUsage(derivatives: Derivative[], func: FunctionSchema, src: YamlSource, at: Loc): void {
  const usesGrad = derivatives.some((d) => d.usesGrad);
  const indices = derivatives.flatMap((d) => d.usedGradIndices);
  const usesGrads = derivatives.some((d) => d.usesGradsList || d.usedGradIndices.length > 0);
  const usesNamed = derivatives.some((d) => d.namedGradients.length > 0);
  const name = func.fullName();
  if (usesGrad && usesGrads) src.problemAt(`the formulas of ${name} mix 'grad' and 'grads': replace 'grad' with 'grads[0]'`, at);
  if (usesNamed && (usesGrad || usesGrads)) src.problemAt(`the formulas of ${name} mix 'grad_<output>' with 'grad' or 'grads[i]': use one style`, at);
  const onlyIndexed = derivatives.every((d) => !d.usesGradsList);
  if (usesGrads && onlyIndexed && indices.length > 0 && indices.every((i) => i === 0)) {
    src.problemAt(`the formulas of ${name} only use 'grads[0]': if the first output is the only differentiable one, write 'grad'`, at);
  }
}

function gradIndex(id: ts.Identifier): number | null {
  const p = id.parent;
  if (ts.isElementAccessExpression(p) && p.expression === id && ts.isNumericLiteral(p.argumentExpression)) return Number(p.argumentExpression.text);
  return null;
}

function checkHelperCall(use: NameUse, src: YamlSource, where: Loc): boolean {
  const p = use.node.parent;
  if (!ts.isCallExpression(p) || p.expression !== use.node) return src.problemAt(`${use.name} is a helper function: call it`, where), false;
  const [min, max] = HELPERS[use.name].args;
  const n = p.arguments.length;
  if (n < min || n > max) return src.problemAt(`${use.name} takes ${min === max ? min : `${min} to ${max}`} argument(s), got ${n}`, where), false;
  return true;
}

interface NameUse {
  readonly name: string;
  /** Offset of the identifier in the formula text. */
  readonly offset: number;
  readonly node: ts.Identifier;
}

/** Parses `text` as one expression of the formula language; reports problems at their place in `value`. */
function parseFormula(text: string, value: Scalar, src: YamlSource): { expr: ts.Expression; sourceFile: ts.SourceFile; names: NameUse[] } | null {
  // Wrapped in parentheses so that a formula cannot end the expression and start a statement of its own.
  const sf = ts.createSourceFile("formula.ts", `(${text})`, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const at = (wrappedOffset: number) => src.at(value, Math.min(Math.max(wrappedOffset - 1, 0), text.length));
  // parseDiagnostics is what tsc reports as syntax errors; the public API exposes it only through a Program.
  const diags = (sf as unknown as { parseDiagnostics: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics;
  if (diags.length) {
    const d = diags[0];
    src.problemAt(`malformed formula: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`, at(d.start));
    return null;
  }
  const st = sf.statements[0];
  if (sf.statements.length !== 1 || !ts.isExpressionStatement(st) || !ts.isParenthesizedExpression(st.expression) || st.expression.end !== sf.text.length) {
    src.problemAt("malformed formula: expected a single expression", at(1));
    return null;
  }
  const expr = st.expression.expression;
  const names: NameUse[] = [];
  let ok = true;
  const reject = (node: ts.Node, what: string) => {
    src.problemAt(`${what} is not part of the formula language`, at(node.getStart(sf)));
    ok = false;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) names.push({ name: node.text, offset: node.getStart(sf) - 1, node });
    else if (ts.isNumericLiteral(node) || ts.isStringLiteral(node)) return;
    else if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.NullKeyword) return;
    else if (ts.isPropertyAccessExpression(node)) {
      if (node.questionDotToken) return reject(node.questionDotToken, "optional chaining '?.'");
      if (!ts.isIdentifier(node.name)) return reject(node.name, "a private name");
      visit(node.expression); // the member name is not a free name
    } else if (ts.isElementAccessExpression(node)) {
      if (node.questionDotToken) return reject(node.questionDotToken, "optional chaining '?.'");
      visit(node.expression);
      visit(node.argumentExpression);
    } else if (ts.isCallExpression(node)) {
      if (node.questionDotToken) return reject(node.questionDotToken, "optional chaining '?.'");
      if (node.typeArguments) return reject(node.typeArguments[0], "a type argument");
      visit(node.expression);
      node.arguments.forEach(visit);
    } else if (ts.isParenthesizedExpression(node)) visit(node.expression);
    else if (ts.isPrefixUnaryExpression(node)) {
      if (!PREFIX_OPS.has(node.operator)) return reject(node, `the operator '${ts.tokenToString(node.operator)}'`);
      visit(node.operand);
    } else if (ts.isBinaryExpression(node)) {
      if (!BINARY_OPS.has(node.operatorToken.kind)) return reject(node.operatorToken, `the operator '${node.operatorToken.getText(sf)}'`);
      visit(node.left);
      visit(node.right);
    } else if (ts.isConditionalExpression(node)) [node.condition, node.whenTrue, node.whenFalse].forEach(visit);
    else if (ts.isArrayLiteralExpression(node)) {
      for (const e of node.elements) if (ts.isSpreadElement(e) || ts.isOmittedExpression(e)) reject(e, "a spread or a hole");
        else visit(e);
    } else if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) visit(p.initializer);
        else if (ts.isShorthandPropertyAssignment(p) && !p.objectAssignmentInitializer) visit(p.name);
        else reject(p, "this kind of object property");
      }
    } else reject(node, `${describeKind(node.kind)}`);
  };
  visit(expr);
  return ok ? { expr, sourceFile: sf, names } : null;
}

const PREFIX_OPS = new Set([ts.SyntaxKind.MinusToken, ts.SyntaxKind.PlusToken, ts.SyntaxKind.ExclamationToken]);
const BINARY_OPS = new Set([
  ts.SyntaxKind.PlusToken, ts.SyntaxKind.MinusToken, ts.SyntaxKind.AsteriskToken, ts.SyntaxKind.SlashToken, ts.SyntaxKind.PercentToken,
  ts.SyntaxKind.AsteriskAsteriskToken, ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken, ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken,
]);

/** `ArrowFunction` -> `an arrow function`. */
function describeKind(kind: ts.SyntaxKind): string {
  const words = ts.SyntaxKind[kind].replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Positions in the yaml

/** The file's text and line table; problems are collected, not thrown, so one run reports them all. */
class YamlSource {
  readonly lineCounter = new LineCounter();
  readonly problems: YamlError[] = [];

  constructor(
    readonly text: string,
    readonly file: string,
  ) {}

  loc(offset: number): Loc {
    const p = this.lineCounter.linePos(offset);
    return { file: this.file, line: p.line, column: p.col };
  }

  problem(message: string, offset: number): void {
    this.problemAt(message, this.loc(offset));
  }
  problemAt(message: string, loc: Loc): void {
    this.problems.push(new YamlError(message, loc));
  }
  /** In file order (entries' keys are visited sorted, as PyTorch does). */
  sorted(): YamlError[] {
    return [...this.problems].sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column);
  }

  /** The scalar as written in the file, quotes included. */
  raw(node: Scalar): string {
    const [start, end] = node.range ?? [0, 0];
    return this.text.slice(start, end);
  }

  /**
   * The position of character `i` of a scalar's value. A plain scalar is its source text; for quoted or
   * folded ones, the value's characters are matched in order against the source (quotes, escapes and
   * line folds skipped), falling back to the scalar's start if that fails.
   */
  at(node: Scalar, i: number): Loc {
    const start = node.range?.[0] ?? 0;
    const raw = this.raw(node);
    const value = typeof node.value === "string" ? node.value : raw;
    if (raw === value) return this.loc(start + i);
    let j = 0;
    for (let k = 0; k <= i && k < value.length; k++) {
      const c = value[k];
      while (j < raw.length && raw[j] !== c && !(c === " " && /\s/.test(raw[j]))) j++;
      if (j >= raw.length) return this.loc(start);
      if (k < i) j++;
    }
    return this.loc(start + Math.min(j, raw.length));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// From an operator to its entry (gen_variable_type.py match_differentiability_info)

/** torchgen FunctionSchema.signature(strip_default=True): the schema an in-place/out variant shares with its functional one (no overload name, no out arguments, no defaults). */
export function functionalSignature(func: FunctionSchema): string {
  const outs = new Set<Argument>(func.outArguments());
  const args = func.arguments.filter((a) => !outs.has(a));
  const parts: string[] = [];
  let kw = false;
  for (const a of args) {
    if (a.kwarg_only && !kw) parts.push("*");
    kw ||= a.kwarg_only;
    parts.push(`${a.type} ${a.name}`);
  }
  const base = func.operatorName.base;
  const rets = func.returns.map((r) => String(r.type)).join(", ");
  // torchgen drops the overload name too: pow_.Scalar pairs with pow.Tensor_Scalar by its arguments' types
  return `${base}(${parts.join(", ")}) -> (${rets})`;
}

/**
 * The entry that differentiates `fn`: its own, else (for an in-place variant) its functional variant's, as
 * PyTorch derives `add_` from `add`'s formulas, or (for a functional op with none) its in-place variant's.
 * out= variants are never differentiable: null.
 */
export function findDerivative(fn: NativeFunction, infos: readonly DifferentiabilityInfo[]): { info: DifferentiabilityInfo; exact: boolean } | null {
  const own = infos.find((i) => i.fn === fn);
  if (own) return { info: own, exact: true };
  if (fn.func.kind() === "out") return null;
  const sig = functionalSignature(fn.func);
  const functional = infos.find((i) => i.fn.func.kind() === "functional" && functionalSignature(i.fn.func) === sig);
  if (functional) return { info: functional, exact: false };
  // a functional op PyTorch generates from an in-place one (autogen: zero, _index_put_impl) takes the
  // in-place entry's formulas and Node (load_derivatives.py pairs them the other way round too)
  if (fn.func.kind() !== "functional") return null;
  const inplace = infos.find((i) => i.fn.func.kind() === "inplace" && functionalSignature(i.fn.func) === sig);
  return inplace ? { info: inplace, exact: false } : null;
}
