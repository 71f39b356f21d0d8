// Layer normalization (aten/src/ATen/native/layer_norm.cpp): layer_norm is native_layer_norm's first
// output. The input is split at `axis` = dim - len(normalized_shape) into M rows of N elements; each row
// is normalized, then scaled by weight and shifted by bias (both of normalized_shape). The saved mean
// and rstd come back shaped like the input with the normalized dims set to 1.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { native_layer_norm_default } from "../../../generated/native_layer_norm.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { view_default } from "../../../generated/view.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { sizesStr, writeDense } from "../conv/Dense.js";
import { contig } from "../conv/Convolution.js";
import { LayerNormKernel } from "./NormKernels.js";
import { meta_stats_dtype } from "./BatchNorm.js";

const { Double, Float, BFloat16 } = ScalarType;

export function layer_norm(input: Tensor, normalizedShape: number[], weight: Tensor | null, bias: Tensor | null, eps: number, _cudnnEnable: boolean): Tensor {
  const [out, mean, rstd] = native_layer_norm_default.call(input, normalizedShape, weight, bias, eps) as Tensor[];
  mean.dispose(); // the statistics die here unless backward saved them (it keeps its own share)
  rstd.dispose();
  return out;
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** _check_layer_norm_inputs: returns [M, N]. */
export function checkInputs(input: Tensor, normalizedShape: number[], weight: Tensor | null, bias: Tensor | null): [number, number] {
  const nd = normalizedShape.length;
  const ns = sizesStr(normalizedShape);
  if (!(nd >= 1)) throw new RuntimeError(`Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = ${ns}`);
  if (weight !== null && !same(weight.shape, normalizedShape)) {
    throw new RuntimeError(`Expected weight to be of same shape as normalized_shape, but got weight of shape ${sizesStr(weight.shape)} and normalized_shape = ${ns}`);
  }
  if (bias !== null && !same(bias.shape, normalizedShape)) {
    throw new RuntimeError(`Expected bias to be of same shape as normalized_shape, but got bias of shape ${sizesStr(bias.shape)} and normalized_shape = ${ns}`);
  }
  const s = input.shape;
  if (s.length < nd || !same(s.slice(s.length - nd), normalizedShape)) {
    throw new RuntimeError(`Given normalized_shape=${ns}, expected input with shape [*${normalizedShape.map((x) => `, ${x}`).join("")}], but got input of size${sizesStr(s)}`);
  }
  const axis = s.length - nd;
  const prod = (xs: number[]) => xs.reduce((a, b) => a * b, 1);
  return [prod(s.slice(0, axis)), prod(s.slice(axis))];
}

const statShape = (input: Tensor, nd: number): number[] => input.shape.map((v, i) => (i < input.dim() - nd ? v : 1));

export function layer_norm_cpu(input: Tensor, normalizedShape: number[], weight: Tensor | null, bias: Tensor | null, eps: number): [Tensor, Tensor, Tensor] {
  const [M, N] = checkInputs(input, normalizedShape, weight, bias);
  const X = contig(input);
  // uninitialised (at::empty): LayerNormKernel writes every element when M > 0, and Y is empty otherwise
  const Y = wrap(empty_impl(X.shape, X.dtype, X.device, true));
  let mean = empty_memory_format.call([M], X.dtype, null, X.device, null, null) as Tensor;
  let rstd = empty_memory_format.call([M], X.dtype, null, X.device, null, null) as Tensor;
  AT_DISPATCH("LayerNormKernelImpl", X.dtype.scalarType, [Double, Float, BFloat16]);
  if (M > 0) {
    const m = new Float64Array(M), r = new Float64Array(M);
    LayerNormKernel.call("cpu", X, weight ? contig(weight) : null, bias ? contig(bias) : null, M, N, eps, Y, m, r);
    writeDense(mean, m);
    writeDense(rstd, r);
  }
  const shape = statShape(input, normalizedShape.length);
  mean = view_default.call(mean, shape) as Tensor;
  rstd = view_default.call(rstd, shape) as Tensor;
  return [Y, mean, rstd];
}

/** math_native_layer_norm (the CompositeExplicitAutograd form, which device='meta' runs): shapes only here. */
export function math_native_layer_norm(input: Tensor, normalizedShape: number[], weight: Tensor | null, bias: Tensor | null, _eps: number): [Tensor, Tensor, Tensor] {
  checkInputs(input, normalizedShape, weight, bias);
  if (input.device.type !== "meta") throw new RuntimeError("math_native_layer_norm: only the meta (shape) form is implemented");
  const st = meta_stats_dtype(input);
  const mk = (s: number[], dt = input.dtype) => wrap(empty_impl(s, dt, input.device));
  const shape = statShape(input, normalizedShape.length);
  return [mk([...input.shape]), mk(shape, st), mk(shape, st)];
}
