// torch.nn.functional's pooling (torch/nn/functional.py, PyTorch 1.13). max_pool1d/2d and
// adaptive_max_pool2d are boolean_dispatch pairs: return_indices (by keyword or at its position) picks
// the op returning (values, indices). A stride of None becomes [] (the op then uses the kernel size).
// avg_pool1d and avg_pool2d are the builtins themselves; adaptive pooling fills None output sizes from
// the input (_list_with_default).

import * as G from "../../generated/index.js";
import * as nn from "../../generated/torch_nn_functions.js";
import type { Tensor } from "../../aten/core/Tensor.js";
import { bindArgs, type Params } from "../_bind.js";
import { _list_with_default } from "./_params.js";
import { isOptionsObject } from "../../aten/core/TensorOptions.js";

const MAX_POOL: Params = [["input"], ["kernel_size"], ["stride", null], ["padding", 0], ["dilation", 1], ["ceil_mode", false], ["return_indices", false]];

/** boolean_dispatch (torch/_jit_internal.py): the flag by keyword, else at its position, else the default. */
function dispatchFlag(args: readonly unknown[], name: string, index: number): boolean {
  const last = args[args.length - 1];
  const kw = args.length > 0 && isOptionsObject(last) ? last : null;
  const positional = kw ? args.length - 1 : args.length;
  if (kw && kw[name] !== undefined) return Boolean(kw[name]);
  if (index < positional) return Boolean(args[index]);
  return false;
}

export function max_pool1d(...args: unknown[]): Tensor | [Tensor, Tensor] {
  const withIndices = dispatchFlag(args, "return_indices", 6);
  const a = bindArgs(withIndices ? "max_pool1d_with_indices" : "_max_pool1d", args, MAX_POOL);
  const stride = a.stride ?? [];
  if (withIndices) return G.max_pool1d_with_indices(a.input, a.kernel_size, stride, a.padding, a.dilation, a.ceil_mode);
  return G.max_pool1d(a.input, a.kernel_size, stride, a.padding, a.dilation, a.ceil_mode);
}

export function max_pool2d(...args: unknown[]): Tensor | [Tensor, Tensor] {
  const withIndices = dispatchFlag(args, "return_indices", 6);
  const a = bindArgs(withIndices ? "max_pool2d_with_indices" : "_max_pool2d", args, MAX_POOL);
  const stride = a.stride ?? [];
  if (withIndices) return nn.max_pool2d_with_indices(a.input, a.kernel_size, stride, a.padding, a.dilation, a.ceil_mode);
  return G.max_pool2d(a.input, a.kernel_size, stride, a.padding, a.dilation, a.ceil_mode);
}

export const avg_pool1d = G.avg_pool1d;
export const avg_pool2d = nn.avg_pool2d;

export function adaptive_avg_pool2d(...args: unknown[]): Tensor {
  const a = bindArgs("adaptive_avg_pool2d", args, [["input"], ["output_size"]]);
  return nn.adaptive_avg_pool2d(a.input, _list_with_default(a.output_size, a.input.shape));
}

export function adaptive_max_pool2d(...args: unknown[]): Tensor | [Tensor, Tensor] {
  const withIndices = dispatchFlag(args, "return_indices", 2);
  const a = bindArgs(withIndices ? "adaptive_max_pool2d_with_indices" : "_adaptive_max_pool2d", args, [["input"], ["output_size"], ["return_indices", false]]);
  const r = nn.adaptive_max_pool2d(a.input, _list_with_default(a.output_size, a.input.shape)) as unknown as [Tensor, Tensor];
  if (withIndices) return r;
  r[1].dispose(); // the indices die here unless backward saved them (it keeps its own share)
  return r[0];
}
