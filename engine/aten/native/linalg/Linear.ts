// linear, bilinear and _trilinear (aten/src/ATen/native/Linear.cpp, PyTorch 1.13). linear is
// addmm(bias, input, weight.t()) for a 2-D input with a bias (the fused op), the same on a flattened
// contiguous 3-D input, and matmul (+ bias) otherwise. bilinear flattens both inputs and calls
// _trilinear, which contracts the three operands with sumproduct_pair, one slice of unroll_dim at a time.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { addmm_default, addmm_out } from "../../../generated/addmm.js";
import { matmul_default, matmul_out } from "../../../generated/matmul.js";
import { add_Tensor, add__Tensor } from "../../../generated/add.js";
import { t_default } from "../../../generated/t.js";
import { view_default } from "../../../generated/view.js";
import { reshape_default } from "../../../generated/reshape.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { narrow_default } from "../../../generated/narrow.js";
import { zeros_default } from "../../../generated/zeros.js";
import { squeeze__dim } from "../../../generated/squeeze.js";
import { _trilinear_default } from "../../../generated/_trilinear.js";
import { sumproduct_pair } from "./Einsum.js";

export function linear(input: Tensor, weight: Tensor, bias: Tensor | null): Tensor {
  if (input.dim() === 2 && bias !== null) {
    return addmm_default.call(bias, input, t_default.call(weight), 1, 1) as Tensor; // the fused op is marginally faster
  }
  if (input.dim() === 3 && bias !== null && input.is_contiguous()) {
    // also the fused path for a contiguous 3-D input
    const s = input._impl.sizes();
    const weightT = t_default.call(weight); // gcc evaluates C++ call arguments right to left: weight.t() runs first
    const result = addmm_default.call(bias, view_default.call(input, [s[0] * s[1], s[2]]), weightT, 1, 1) as Tensor;
    return view_default.call(result, [s[0], s[1], result.size(1)]) as Tensor;
  }
  let output = matmul_default.call(input, t_default.call(weight)) as Tensor;
  if (bias !== null) output = add_Tensor.call(output, bias, 1) as Tensor;
  return output;
}

export function linear_out(input: Tensor, weight: Tensor, bias: Tensor | null, output: Tensor): Tensor {
  if (input.dim() === 2 && bias !== null) return addmm_out.call(bias, input, t_default.call(weight), 1, 1, output) as Tensor;
  matmul_out.call(input, t_default.call(weight), output);
  if (bias !== null) add__Tensor.call(output, bias, 1);
  return output;
}

export function bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | null): Tensor {
  if (input1.dim() !== input2.dim()) throw new RuntimeError(`bilinear(): input dimensions do not match: got ${input1.dim()} and ${input2.dim()}`);
  for (let i = 0; i < input1.dim() - 1; i++) {
    if (input1.size(i) !== input2.size(i)) {
      throw new RuntimeError(`bilinear(): input batch dimensions do not match: got ${input1.size(i)} and ${input2.size(i)}`);
    }
  }
  const last1 = input1.size(input1.dim() - 1), last2 = input2.size(input2.dim() - 1);
  if (last1 !== weight.size(1)) throw new RuntimeError(`bilinear(): input1 size does not match weight size: got ${last1} but expected ${weight.size(1)}`);
  if (last2 !== weight.size(2)) throw new RuntimeError(`bilinear(): input2 size does not match weight size: got ${last2} but expected ${weight.size(2)}`);
  if (bias !== null && bias.size(0) !== weight.size(0)) {
    throw new RuntimeError(`bilinear(): bias size does not match weight size: got ${bias.size(0)} but expected ${weight.size(0)}`);
  }
  const outputSize = [...input1._impl.sizes().slice(0, -1), weight.size(0)];
  const input1Flattened = reshape_default.call(input1, [-1, last1]) as Tensor;
  const input2Flattened = reshape_default.call(input2, [-1, last2]) as Tensor;
  let output = reshape_default.call(_trilinear_default.call(input1Flattened, weight, input2Flattened, [1, 3], [0], [1, 2], [2, 3], 1), outputSize) as Tensor;
  if (bias !== null) output = add_Tensor.call(output, bias, 1) as Tensor;
  return output;
}

function bitset(dims: readonly number[], n: number): boolean[] {
  const s = new Array<boolean>(n).fill(false);
  for (const d of dims) {
    const w = maybe_wrap_dim(d, n);
    if (s[w]) throw new RuntimeError(`dim ${w} appears multiple times in the list of dims`);
    s[w] = true;
  }
  return s;
}

export function _trilinear(i1_: Tensor, i2_: Tensor, i3_: Tensor, expand1_: readonly number[], expand2_: readonly number[], expand3_: readonly number[], sumdim_: readonly number[], unrollDim: number): Tensor {
  const totalDim = i1_.dim() + expand1_.length;
  if (!(unrollDim >= 0 && unrollDim < totalDim)) throw new RuntimeError(`unroll_dim must be in [0,${totalDim - 1}]`);
  const expand1 = bitset(expand1_, totalDim), expand2 = bitset(expand2_, totalDim), expand3 = bitset(expand3_, totalDim);
  const sumdim = bitset(sumdim_, totalDim);
  let i1 = i1_, i2 = i2_, i3 = i3_;
  const outputSize: number[] = [], sumDims12: number[] = [], sumDims23: number[] = [];
  let unrollSize = -1;
  for (let i = 0; i < totalDim; i++) {
    let s = 0;
    if (expand1[i]) i1 = unsqueeze_default.call(i1, i) as Tensor;
    else s = i1.size(i);
    if (expand2[i]) i2 = unsqueeze_default.call(i2, i) as Tensor;
    else s = i2.size(i);
    if (expand3[i]) {
      i3 = unsqueeze_default.call(i3, i) as Tensor;
      if (sumdim[i] && i !== unrollDim) sumDims12.push(i);
    } else {
      s = i3.size(i);
      if (sumdim[i] && i !== unrollDim) sumDims23.push(i);
    }
    outputSize.push(sumdim[i] ? 1 : s);
    if (i === unrollDim) unrollSize = s;
  }
  const m1 = expand1[unrollDim] ? 0 : 1, m2 = expand2[unrollDim] ? 0 : 1, m3 = expand3[unrollDim] ? 0 : 1;
  const output = zeros_default.call(outputSize, i1.dtype, null, i1.device, null) as Tensor;
  if (i1.numel() !== 0 && i2.numel() !== 0 && i3.numel() !== 0) {
    for (let k = 0; k < unrollSize; k++) {
      let buf = sumproduct_pair(narrow_default.call(i1, unrollDim, k * m1, 1) as Tensor, narrow_default.call(i2, unrollDim, k * m2, 1) as Tensor, sumDims12, true);
      buf = sumproduct_pair(buf, narrow_default.call(i3, unrollDim, k * m3, 1) as Tensor, sumDims23, true);
      if (!sumdim[unrollDim]) add__Tensor.call(narrow_default.call(output, unrollDim, k, 1), buf, 1);
      else add__Tensor.call(output, buf, 1);
    }
  }
  for (let i = outputSize.length - 1; i >= 0; i--) if (sumdim[i]) squeeze__dim.call(output, i);
  return output;
}
