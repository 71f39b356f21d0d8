// convolution_backward (Convolution.cpp, CompositeExplicitAutograd): the backward of at::convolution.
// It checks the shapes as the forward does, views a 1-d convolution as a 2-d one, selects the backend
// the forward selected (Empty, Slow2d, SlowDilated2d, SlowTranspose2d here: the non-mkldnn CPU path;
// on device='meta' PyTorch 1.13 selects Overrideable, whose default kernel raises) and calls that
// backend's backward per group: at::_slow_conv2d_backward (an op), or the DispatchStubs
// slow_conv_dilated2d_backward_stub / slow_conv_transpose2d_backward_stub (not ops in 1.13: a trace
// shows them as stubs under convolution_backward). Undefined outputs (output_mask false) are null.
// Groups: conv2d_grouped_backward_stub (GroupedConv.ts), whose TypeScript implementation is that loop.

import { NotImplementedError, RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { _slow_conv2d_backward_output_mask } from "../../../generated/_slow_conv2d_backward.js";
import { zeros_like_default } from "../../../generated/zeros_like.js";
import { zeros_default } from "../../../generated/zeros.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { cat_default, cat_out } from "../../../generated/cat.js";
import { convolution_default } from "../../../generated/convolution.js";
import { add_Tensor } from "../../../generated/add.js";
import { expand_default } from "../../../generated/expand.js";
import { view_default } from "../../../generated/view.js";
import { transpose_int } from "../../../generated/transpose.js";
import { narrow_default } from "../../../generated/narrow.js";
import { squeeze_dim } from "../../../generated/squeeze.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { AT_DISPATCH, ALL_TYPES_AND_BFLOAT16 } from "../unary/Dispatch.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import { check_shape_forward, type ConvParams } from "./ConvUtils.js";
import { contig, drop, params, select_backend, subtensor, view_result, type Backend } from "./Convolution.js";
import { conv2d_grouped_backward_stub } from "./GroupedConv.js";
import type { Conv2dArgs } from "./ConvKernels.js";
import { slow_conv_dilated2d_backward_stub, slow_conv_transpose2d_backward_stub, type ConvGrads } from "./ConvBackwardKernels.js";
import { hasData } from "./Dense.js";

type Grads3 = [Tensor | null, Tensor | null, Tensor | null];

const newLike = (t: Tensor): Tensor => wrap(empty_impl([...t.shape], t.dtype, t.device));

function sameDtype(input: Tensor, ...others: Tensor[]): void {
  for (const o of others) {
    if (o.dtype !== input.dtype) throw new RuntimeError(`expected scalar type ${scalarTypeName(input.dtype.scalarType)} but found ${scalarTypeName(o.dtype.scalarType)}`);
  }
}

/** The stub backends (dilated, transposed): outputs allocated here, filled by the stub. */
function stubBackward(backend: Backend, gradOutput: Tensor, input: Tensor, weight: Tensor, p: ConvParams, mask: readonly boolean[]): Grads3 {
  const transposed = backend === "SlowTranspose2d";
  if (transposed) AT_DISPATCH("slow_conv_transpose2d_backward_out_cpu", input.dtype.scalarType, [ScalarType.Double, ScalarType.Float]);
  else AT_DISPATCH("slow_conv_dilated<>", input.dtype.scalarType, ALL_TYPES_AND_BFLOAT16);
  sameDtype(input, gradOutput, weight);
  if (!transposed) {
    // slow_conv_dilated_shape_check with grad_output
    const o = [0, 1].map((i) => Math.floor((input.shape[i + 2] + 2 * p.padding[i] - (p.dilation[i] * (weight.shape[i + 2] - 1) + 1)) / p.stride[i]) + 1);
    const gs = gradOutput.shape.slice(2);
    if (gs[0] !== o[0] || gs[1] !== o[1]) throw new RuntimeError(`grad_output[2:] shape[${gs.join(", ")}] must be equal to output size ${o.join(" ")}`);
  }
  const go = contig(gradOutput);
  const grads: ConvGrads = {
    grad_input: mask[0] ? newLike(input) : null,
    grad_weight: mask[1] ? newLike(weight) : null,
    grad_bias: mask[2] ? wrap(empty_impl([transposed ? weight.shape[1] : weight.shape[0]], weight.dtype, weight.device)) : null,
  };
  const stub = transposed ? slow_conv_transpose2d_backward_stub : slow_conv_dilated2d_backward_stub;
  if (mask.some(Boolean)) stub.call(input.device.type, grads, go, input, weight, { stride: p.stride, padding: p.padding, dilation: p.dilation, output_padding: p.output_padding });
  return [grads.grad_input, grads.grad_weight, grads.grad_bias];
}

/** _convolution_backward_nogroup_backend */
function nogroupBackward(gradOutput: Tensor, input: Tensor, weight: Tensor, mask: readonly boolean[], backend: Backend, p: ConvParams): Grads3 {
  const kernel = weight.shape.slice(2);
  if (backend === "Slow2d") return _slow_conv2d_backward_output_mask.call(gradOutput, input, weight, kernel, p.stride, p.padding, [...mask]) as Grads3;
  return stubBackward(backend, gradOutput, input, weight, p, mask);
}

/** 1.13's group loop: each group's backward on contiguous slices, then cat (into grads' tensors when given). */
function per_group_backward(gradOutput: Tensor, input: Tensor, weight: Tensor, mask: readonly boolean[], backend: Backend, p: ConvParams, into: ConvGrads | null): Grads3 {
  const gis: Tensor[] = [], gws: Tensor[] = [], gbs: Tensor[] = [];
  for (let g = 0; g < p.groups; g++) {
    const [go, x, w] = [subtensor(gradOutput, 1, p.groups, g)!, subtensor(input, 1, p.groups, g)!, subtensor(weight, 0, p.groups, g)!];
    const [a, b, c] = nogroupBackward(go, x, w, mask, backend, p);
    drop(go, gradOutput);
    drop(x, input);
    drop(w, weight);
    if (a) gis.push(a);
    if (b) gws.push(b);
    if (c) gbs.push(c);
  }
  const join = (parts: Tensor[], dim: number, out: Tensor | null | undefined): Tensor => {
    const r = out ? (cat_out.call(parts, dim, out) as Tensor) : (cat_default.call(parts, dim) as Tensor);
    for (const t of parts) t.dispose();
    return r;
  };
  return [
    mask[0] ? join(gis, 1, into?.grad_input) : null,
    mask[1] ? join(gws, 0, into?.grad_weight) : null,
    mask[2] ? join(gbs, 0, into?.grad_bias) : null,
  ];
}

/** conv2d_grouped_backward_stub's TypeScript implementation: the group loop, cat into the given gradients. */
function per_group_backward_stub(grads: ConvGrads, gradOutput: Tensor, input: Tensor, weight: Tensor, a: Conv2dArgs, groups: number): void {
  const p: ConvParams = { stride: [...a.stride], padding: [...a.padding], dilation: [...a.dilation], transposed: false, output_padding: [0, 0], groups };
  const mask = [grads.grad_input !== null, grads.grad_weight !== null, grads.grad_bias !== null];
  per_group_backward(gradOutput, input, weight, mask, p.dilation.some((d) => d !== 1) ? "SlowDilated2d" : "Slow2d", p, grads);
}
conv2d_grouped_backward_stub.register("ts", per_group_backward_stub);

export function convolution_backward(
  gradOutputR: Tensor, inputR: Tensor, weightR: Tensor, biasSizes: number[] | null, stride: number[], padding: number[], dilation: number[],
  transposed: boolean, outputPadding: number[], groups: number, outputMask: boolean[],
): Grads3 {
  let gradOutput = gradOutputR, input = inputR, weight = weightR;
  const k = weight.dim();
  const dim = k - 2;
  if (!(dim > 0)) throw new RuntimeError("weight should have at least three dimensions");
  const p = params(weight, stride, padding, dilation, transposed, outputPadding, groups);
  // check_shape_backward: the forward's checks with no bias
  check_shape_forward(input, [...weight.shape], null, p);
  if (input.dim() !== gradOutput.dim()) {
    throw new RuntimeError(`Expected input and grad_output to have the same number of dimensions, but got: ${input.dim()} and ${gradOutput.dim()}`);
  }
  if (!p.transposed && p.output_padding.some((x) => x !== 0)) {
    throw new RuntimeError(`output_padding is not supported for non-transposed convolutions; got: ${p.output_padding.join(" ")}`);
  }
  if (k === 3) {
    // view1d_as_2d (view4d): a height of 1
    input = contig(input);
    p.stride.unshift(1);
    p.padding.unshift(0);
    p.dilation.unshift(1);
    p.output_padding.unshift(0);
    gradOutput = unsqueeze_default.call(gradOutput, 2) as Tensor;
    input = unsqueeze_default.call(input, 2) as Tensor;
    weight = unsqueeze_default.call(weight, 2) as Tensor;
  }
  const meta = !hasData(input);
  const empty = input.shape[0] === 0 || input.shape[1] === 0;
  let gi: Tensor | null = null, gw: Tensor | null = null, gb: Tensor | null = null;
  if (empty) {
    if (outputMask[0]) gi = zeros_like_default.call(input, null, null, null, null, null) as Tensor;
    if (outputMask[1]) gw = zeros_like_default.call(weight, null, null, null, null, null) as Tensor;
    if (outputMask[2]) gb = zeros_default.call(biasSizes!, weight.dtype, null, weight.device, null) as Tensor;
  } else if (meta) {
    // ConvBackend::Overrideable: at::convolution_backward_overrideable's default kernel
    throw new NotImplementedError("convolution_backward_overrideable: You are likely triggering this with tensor backend other than CPU/CUDA/MKLDNN, if this is intended, please use TORCH_LIBRARY_IMPL to override this function ");
  } else {
    const backend = select_backend(input, p);
    input = contig(input);
    weight = contig(weight);
    if (p.groups === 1) [gi, gw, gb] = nogroupBackward(gradOutput, input, weight, outputMask, backend, p);
    else if (backend !== "SlowTranspose2d" && input.device.type === "cpu") {
      // grad_input and grad_weight of every group in one stub call (GroupedConv.ts); grad_bias by the sum below
      if (outputMask[0]) gi = newLike(input);
      if (outputMask[1]) gw = newLike(weight);
      if (gi !== null || gw !== null) {
        const go = contig(gradOutput);
        conv2d_grouped_backward_stub.call("cpu", { grad_input: gi, grad_weight: gw, grad_bias: null }, go, input, weight, { stride: p.stride, padding: p.padding, dilation: p.dilation }, p.groups);
        drop(go, gradOutput);
      }
    } else [gi, gw, gb] = per_group_backward(gradOutput, input, weight, outputMask, backend, p, null);
  }
  drop(input, inputR);
  drop(weight, weightR);
  if (outputMask[2] && gb === null) gb = sum_dim_IntList.call(gradOutput, [0, 2, 3], false, null) as Tensor;
  if (k === 3) {
    // view3d (grad_output's 4-d view dropped)
    if (outputMask[0]) gi = view_result(gi!, squeeze_dim.call(gi!, 2) as Tensor);
    if (outputMask[1]) gw = view_result(gw!, squeeze_dim.call(gw!, 2) as Tensor);
    drop(gradOutput);
  }
  return [gi, gw, gb];
}

// ---- _convolution_double_backward (Convolution.cpp, CompositeImplicitAutograd) ----
// The backward of convolution_backward, from the gradients of its three outputs (ggI, ggW, ggb):
//   ggO = conv(ggI, w) + conv(input, ggW) + ggb   (the gradient of grad_output)
//   gW  = conv(ggI^T, gO^T)^T with stride and dilation exchanged, per group, cut to the kernel's size
//   gI  = convT(gO, ggW) (conv(gO, ggW) when transposed), output_padding making up the input's size
// Every step is a differentiable op, so a third derivative differentiates this again.

const conv = (i: Tensor, w: Tensor, s: number[], p: number[], d: number[], t: boolean, op: number[], g: number): Tensor =>
  convolution_default.call(i, w, null, s, p, d, t, op, g) as Tensor;

export function _convolution_double_backward(
  ggI: Tensor | null, ggW: Tensor | null, ggb: Tensor | null, gO: Tensor, weight: Tensor, input: Tensor,
  stride: number[], padding: number[], dilation: number[], transposed: boolean, outputPadding: number[], groups: number, _outputMask: boolean[],
): Grads3 {
  const p = params(weight, stride, padding, dilation, transposed, outputPadding, groups);
  let ggO: Tensor | null = null;
  if (input.numel() !== 0) {
    if (ggI !== null) ggO = conv(ggI, weight, p.stride, p.padding, p.dilation, p.transposed, p.output_padding, p.groups);
    if (ggW !== null) {
      const term = conv(input, ggW, p.stride, p.padding, p.dilation, p.transposed, p.output_padding, p.groups);
      ggO = ggO === null ? term : (add_Tensor.call(ggO, term, 1) as Tensor);
    }
  }
  if (ggb !== null) {
    const size = new Array<number>(gO.dim()).fill(1);
    size[1] = ggb.shape[0];
    const expanded = expand_default.call(view_default.call(contig(ggb), size), [...gO.shape], false) as Tensor;
    ggO = ggO === null ? expanded : (add_Tensor.call(ggO, expanded, 1) as Tensor);
  }
  let gW: Tensor | null = null;
  if (ggI !== null) {
    // groups handled one by one; stride and dilation swap roles; batch and channel dims transposed
    const gOt = transpose_int.call(gO, 0, 1) as Tensor;
    const ggIt = transpose_int.call(ggI, 0, 1) as Tensor;
    const run = (a: Tensor, b: Tensor): Tensor =>
      p.transposed ? conv(b, a, p.dilation, p.padding, p.stride, false, p.output_padding, 1) : conv(a, b, p.dilation, p.padding, p.stride, false, p.output_padding, 1);
    let gWt: Tensor;
    if (p.groups === 1) gWt = run(ggIt, gOt);
    else {
      const parts: Tensor[] = [];
      for (let g = 0; g < p.groups; g++) parts.push(run(subvariable(ggIt, 0, p.groups, g), subvariable(gOt, 0, p.groups, g)));
      gWt = cat_default.call(parts, 1) as Tensor;
    }
    gW = transpose_int.call(gWt, 0, 1) as Tensor;
    for (let i = 2; i < gW.dim(); i++) if (gW.shape[i] > weight.shape[i]) gW = narrow_default.call(gW, i, 0, weight.shape[i]) as Tensor;
  }
  let gI: Tensor | null = null;
  if (input.numel() !== 0 && ggW !== null) {
    const op = [...p.output_padding];
    if (p.transposed) {
      gI = conv(gO, ggW, p.stride, p.padding, p.dilation, false, op, p.groups);
      for (let i = 2; i < gI.dim(); i++) if (gI.shape[i] > input.shape[i]) gI = narrow_default.call(gI, i, 0, input.shape[i]) as Tensor;
    } else {
      // the output_padding that makes the transposed convolution's output the input's size
      const k = weight.shape.slice(2), is = input.shape.slice(2), gs = gO.shape.slice(2);
      for (let i = 0; i < k.length; i++) {
        const expected = (k[i] - 1) * p.dilation[i] - 2 * p.padding[i] + (p.stride[i] * (gs[i] - 1) + 1);
        if (expected !== is[i]) op[i] = is[i] - expected;
      }
      gI = conv(gO, ggW, p.stride, p.padding, p.dilation, true, op, p.groups);
    }
  }
  return [ggO, gI, gW];
}

/** subvariable (Convolution.cpp): group g's slice along dim, no contiguous() */
function subvariable(t: Tensor, dim: number, groups: number, g: number): Tensor {
  const n = t.shape[dim] / groups;
  return narrow_default.call(t, dim, n * g, n) as Tensor;
}
