// The convolution decompositions (aten/src/ATen/native/Convolution.cpp): conv1d/conv2d and their
// transposed forms batchify the input and call convolution -> _convolution, which checks shapes,
// views 1-d as 2-d, picks a backend and calls it (per group, then cat, for the slow backends: here the
// group loop is conv2d_grouped_stub's TypeScript implementation, and the native one takes every group in
// one call, GroupedConv.ts).
//
// Backend choice (_select_conv_backend) on CPU in this engine is the one PyTorch 1.13 makes with
// MKLDNN disabled (torch.backends.mkldnn.flags(enabled=False)): Empty for a zero batch or channel
// count, SlowTranspose2d for transposed, SlowDilated2d when dilated, else Slow2d (thnn_conv2d).
// With MKLDNN on, PyTorch sends float32 4-d non-transposed convolutions to mkldnn_convolution
// instead; the values agree within float32 rounding, the dispatch trace does not.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { convolution_default } from "../../../generated/convolution.js";
import { _convolution_default } from "../../../generated/_convolution.js";
import { _convolution_mode_default } from "../../../generated/_convolution_mode.js";
import { constant_pad_nd_default } from "../../../generated/constant_pad_nd.js";
import { thnn_conv2d_default } from "../../../generated/thnn_conv2d.js";
import { slow_conv_dilated2d_default } from "../../../generated/slow_conv_dilated2d.js";
import { slow_conv_transpose2d_default } from "../../../generated/slow_conv_transpose2d.js";
import { squeeze_dim } from "../../../generated/squeeze.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { contiguous_default } from "../../../generated/contiguous.js";
import { narrow_default } from "../../../generated/narrow.js";
import { cat_default, cat_out } from "../../../generated/cat.js";
import { _unsafe_view_default } from "../../../generated/_unsafe_view.js";
import { view_default } from "../../../generated/view.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { add__Tensor } from "../../../generated/add.js";
import { select_int } from "../../../generated/select.js";
import { batchify, check_shape_forward, conv_input_size, conv_output_size, expand_param_if_needed, same_padding_lr, type ConvParams } from "./ConvUtils.js";
import { sizesStr } from "./Dense.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { borrow } from "../../../c10/Dispose.js";
import { hasData } from "./Dense.js";
import { conv2d_grouped_stub } from "./GroupedConv.js";
import type { Conv2dArgs } from "./ConvKernels.js";

/** Tensor::contiguous(): returns self without a dispatch when already contiguous. */
export const contig = (t: Tensor): Tensor => (t.is_contiguous() ? t : (contiguous_default.call(t, null) as Tensor));

/** Gives up an internal tensor the op made (a view, a temporary) once it is no longer needed, so that a
 * result's dispose() can free its block at once (c10/Dispose.ts); never one of the caller's tensors. */
export function drop(t: Tensor | null, ...callers: (Tensor | null)[]): void {
  if (t !== null && !callers.includes(t)) t.dispose();
}

/** A result made as a view of the op's own intermediate: the intermediate gives up its share of the
 * storage (it stays usable: it is the view's _base), so the result's dispose() frees the block. */
export function view_result(base: Tensor, result: Tensor): Tensor {
  if (base !== result && base._impl.storage === result._impl.storage) borrow(base._impl);
  return result;
}

/** The unbatched result: the batch-of-one output viewed without its batch dim. */
const squeeze0 = (t: Tensor): Tensor => view_result(t, squeeze_dim.call(t, 0) as Tensor);

/** batchify's result, and drops its unsqueezed view of the input after the call. */
function batched_call(input: Tensor, dim: number, name: string, f: (x: Tensor) => Tensor): Tensor {
  const [x, batched] = batchify(input, dim, name);
  const out = f(x);
  drop(x, input);
  return batched ? out : squeeze0(out);
}

export function conv1d(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: number[], dilation: number[], groups: number): Tensor {
  return batched_call(input, 1, "conv1d", (x) => convolution_default.call(x, weight, bias, stride, padding, dilation, false, [0], groups) as Tensor);
}

export function conv2d(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: number[], dilation: number[], groups: number): Tensor {
  if (bias !== null && bias.dtype !== input.dtype) {
    throw new RuntimeError(`Input type (${typeMetaName(input.dtype.scalarType)}) and bias type (${typeMetaName(bias.dtype.scalarType)}) should be the same`);
  }
  return batched_call(input, 2, "conv2d", (x) => convolution_default.call(x, weight, bias, stride, padding, dilation, false, [0, 0], groups) as Tensor);
}

export function conv1d_padding(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: string, dilation: number[], groups: number): Tensor {
  return batched_call(input, 1, "conv1d", (x) => _convolution_mode_default.call(x, weight, bias, stride, padding, dilation, groups) as Tensor);
}

export function conv2d_padding(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: string, dilation: number[], groups: number): Tensor {
  return batched_call(input, 2, "conv2d", (x) => _convolution_mode_default.call(x, weight, bias, stride, padding, dilation, groups) as Tensor);
}

export function conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: number[], outputPadding: number[], groups: number, dilation: number[]): Tensor {
  return batched_call(input, 1, "conv_transpose1d", (x) => convolution_default.call(x, weight, bias, stride, padding, dilation, true, outputPadding, groups) as Tensor);
}

export function conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: number[], outputPadding: number[], groups: number, dilation: number[]): Tensor {
  return batched_call(input, 2, "conv_transpose2d", (x) => convolution_default.call(x, weight, bias, stride, padding, dilation, true, outputPadding, groups) as Tensor);
}

/** convolution_same: 'same' padding; an odd total padding pads the input on the right first. */
function convolution_same(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], dilation: number[], groups: number): Tensor {
  const k = weight.dim();
  if (!(k > 2)) throw new RuntimeError("weight should have at least three dimensions");
  const dim = k - 2;
  if (k !== input.dim()) {
    throw new RuntimeError(`Expected ${k}-dimensional input for ${k}-dimensional weight${sizesStr(weight.shape)}, but got ${input.dim()}-dimensional input of size ${sizesStr(input.shape)} instead`);
  }
  if (!(stride.length === dim || stride.length === 1)) throw new RuntimeError(`stride cannot broadcast to ${dim} dimensions`);
  if (!(dilation.length === dim || dilation.length === 1)) throw new RuntimeError(`dilation cannot broadcast to ${dim} dimensions`);
  for (const s of stride) if (s !== 1) throw new RuntimeError("padding='same' is not supported for strided convolutions");
  const left: number[] = [];
  const right: number[] = [];
  let symmetric = true;
  for (let i = 0; i < dim; i++) {
    const d = dilation.length === 1 ? dilation[0] : dilation[i];
    const [l, r] = same_padding_lr(weight.shape[i + 2], d);
    left.push(l);
    right.push(r);
    if (l !== r) symmetric = false;
  }
  const outputPadding = new Array<number>(dim).fill(0);
  if (symmetric) return convolution_default.call(input, weight, bias, stride, left, dilation, false, outputPadding, groups) as Tensor;
  process.emitWarning("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of the input be created", "UserWarning");
  const pad = new Array<number>(2 * dim).fill(0);
  for (let i = 0; i < dim; i++) {
    const delta = right[i] - left[i];
    const idx = 2 * (dim - 1 - i); // F.pad goes from the last dim to the first
    if (delta > 0) pad[idx + 1] = delta;
    else {
      pad[idx] = delta;
      left[i] = right[i];
    }
  }
  const padded = constant_pad_nd_default.call(input, pad, 0) as Tensor;
  const out = convolution_default.call(padded, weight, bias, stride, left, dilation, false, outputPadding, groups) as Tensor;
  padded.dispose();
  return out;
}

export function _convolution_mode(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: string, dilation: number[], groups: number): Tensor {
  if (padding === "same") return convolution_same(input, weight, bias, stride, dilation, groups);
  if (padding === "valid") return convolution_default.call(input, weight, bias, stride, [0], dilation, false, [0], groups) as Tensor;
  throw new RuntimeError(`Invalid padding string: '${padding}'`);
}

/** at::convolution: _convolution with the global cuDNN flags (benchmark, deterministic, enabled, allow_tf32). */
export function convolution(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: number[], dilation: number[], transposed: boolean, outputPadding: number[], groups: number): Tensor {
  return _convolution_default.call(input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups, false, false, true, true) as Tensor;
}

export function _convolution_deprecated(input: Tensor, weight: Tensor, bias: Tensor | null, stride: number[], padding: number[], dilation: number[], transposed: boolean, outputPadding: number[], groups: number, benchmark: boolean, deterministic: boolean, cudnnEnabled: boolean): Tensor {
  return _convolution_default.call(input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups, benchmark, deterministic, cudnnEnabled, true) as Tensor;
}

export function params(weight: Tensor, stride: number[], padding: number[], dilation: number[], transposed: boolean, outputPadding: number[], groups: number): ConvParams {
  const dim = weight.dim() - 2;
  return {
    stride: expand_param_if_needed(stride, "stride", dim),
    padding: expand_param_if_needed(padding, "padding", dim),
    dilation: expand_param_if_needed(dilation, "dilation", dim),
    transposed,
    output_padding: expand_param_if_needed(outputPadding, "output_padding", dim),
    groups,
  };
}

export type Backend = "Empty" | "SlowTranspose2d" | "SlowDilated2d" | "Slow2d";

/** _select_conv_backend for a CPU tensor with MKLDNN (and NNPACK, XNNPACK) unavailable. */
export function select_backend(input: Tensor, p: ConvParams): Backend {
  if (input.shape[0] === 0 || input.shape[1] === 0) return "Empty";
  if (input.numel() === 0) throw new RuntimeError(`Only zero batch or zero channel inputs are supported, but got input shape: ${sizesStr(input.shape)}`);
  if (input.dim() !== 4) throw new RuntimeError("unsupported ConvNd parameters"); // 3-d convolutions are not part of this engine yet
  if (p.transposed) return "SlowTranspose2d";
  return p.dilation.some((d) => d !== 1) ? "SlowDilated2d" : "Slow2d";
}

function nogroup_backend(input: Tensor, weight: Tensor, bias: Tensor | null, backend: Backend, p: ConvParams): Tensor {
  const kernel = weight.shape.slice(2);
  switch (backend) {
    case "Slow2d":
      return thnn_conv2d_default.call(input, weight, kernel, bias, p.stride, p.padding) as Tensor;
    case "SlowDilated2d":
      return slow_conv_dilated2d_default.call(input, weight, kernel, bias, p.stride, p.padding, p.dilation) as Tensor;
    default:
      return slow_conv_transpose2d_default.call(input, weight, kernel, bias, p.stride, p.padding, p.output_padding, p.dilation) as Tensor;
  }
}

/** subtensor (Convolution.cpp): group g's slice along dim, contiguous (the narrow view dropped after a copy). */
export const subtensor = (t: Tensor | null, dim: number, groups: number, g: number): Tensor | null => {
  if (t === null) return null;
  const n = t.shape[dim] / groups;
  const slice = narrow_default.call(t, dim, n * g, n) as Tensor;
  const c = contig(slice);
  if (c !== slice) slice.dispose();
  return c;
};

const conv_args = (p: ConvParams): Conv2dArgs => ({ stride: p.stride, padding: p.padding, dilation: p.dilation });

/** 1.13's group loop: a slow backend per group on contiguous slices, then cat. */
function per_group(input: Tensor, weight: Tensor, bias: Tensor | null, backend: Backend, p: ConvParams, out: Tensor | null): Tensor {
  const outputs: Tensor[] = [];
  for (let g = 0; g < p.groups; g++) {
    const [x, w, b] = [subtensor(input, 1, p.groups, g)!, subtensor(weight, 0, p.groups, g)!, subtensor(bias, 0, p.groups, g)];
    outputs.push(nogroup_backend(x, w, b, backend, p));
    drop(x, input);
    drop(w, weight);
    drop(b, bias);
  }
  const output = out === null ? (cat_default.call(outputs, 1) as Tensor) : (cat_out.call(outputs, 1, out) as Tensor);
  for (const o of outputs) o.dispose();
  return output;
}

/** conv2d_grouped_stub's TypeScript implementation: the group loop, cat into output. */
function per_group_forward(output: Tensor, input: Tensor, weight: Tensor, bias: Tensor | null, a: Conv2dArgs, groups: number): void {
  const p: ConvParams = { stride: [...a.stride], padding: [...a.padding], dilation: [...a.dilation], transposed: false, output_padding: [0, 0], groups };
  per_group(input, weight, bias, p.dilation.some((d) => d !== 1) ? "SlowDilated2d" : "Slow2d", p, output);
}
conv2d_grouped_stub.register("ts", per_group_forward);

export function _convolution(inputR: Tensor, weightR: Tensor, bias: Tensor | null, stride: number[], padding: number[], dilation: number[], transposed: boolean, outputPadding: number[], groups: number, _benchmark: boolean, _deterministic: boolean, _cudnnEnabled: boolean, _allowTf32: boolean): Tensor {
  let input = inputR;
  let weight = weightR;
  const k = weight.dim();
  const weightSizes = [...weight.shape];
  if (!(k - 2 > 0)) throw new RuntimeError("weight should have at least three dimensions");
  if (!(groups > 0)) throw new RuntimeError("non-positive groups is not supported");
  const p = params(weight, stride, padding, dilation, transposed, outputPadding, groups);
  check_shape_forward(input, weightSizes, bias, p);
  if (k === 3) {
    // view1d_as_2d: a 1-d convolution runs as a 2-d one over a height of 1
    input = contig(input);
    p.stride.unshift(1);
    p.padding.unshift(0);
    p.dilation.unshift(1);
    p.output_padding.unshift(0);
    input = unsqueeze_default.call(input, 2) as Tensor;
    weight = unsqueeze_default.call(weight, 2) as Tensor;
  }
  const backend = select_backend(input, p);
  let output: Tensor;
  if (backend === "Empty") {
    const weightView = _unsafe_view_default.call(weight, [-1]) as Tensor;
    output = input.shape[1] === 0
      ? (mul_Tensor.call(view_default.call(input, [-1]), weightView) as Tensor)
      : (mul_Tensor.call(input, select_int.call(weightView, 0, 0)) as Tensor);
    if (bias !== null) add__Tensor.call(output, select_int.call(bias, 0, 0), 1);
    const size = p.transposed
      ? conv_input_size(input.shape, weight.shape, p.padding, p.output_padding, p.stride, p.dilation, p.groups)
      : conv_output_size(input.shape, weight.shape, p.padding, p.stride, p.dilation);
    if (input.shape[1] === 0) size[1] = 0;
    output = view_default.call(output, size) as Tensor;
  } else {
    input = contig(input);
    weight = contig(weight);
    if (p.groups === 1) output = nogroup_backend(input, weight, bias, backend, p);
    else {
      // the groups' outputs side by side in one [N, O, OH, OW] tensor (conv2d_grouped_stub, GroupedConv.ts);
      // the loop itself for the rest (transposed, meta, an output too small: the backends' errors)
      const size = conv_output_size(input.shape, weight.shape, p.padding, p.stride, p.dilation);
      if (backend !== "SlowTranspose2d" && input.device.type === "cpu" && hasData(input) && size.every((s) => s > 0)) {
        output = wrap(empty_impl(size, input.dtype, input.device));
        conv2d_grouped_stub.call("cpu", output, input, weight, bias, conv_args(p), p.groups);
      } else output = per_group(input, weight, bias, backend, p, null);
    }
  }
  drop(input, inputR);
  drop(weight, weightR);
  if (k === 3) {
    if (output.dim() !== 4) throw new RuntimeError(`expected 4D tensor, got tensor with ${output.dim()} dimensions instead`);
    output = view_result(output, squeeze_dim.call(output, 2) as Tensor);
  }
  return output;
}
