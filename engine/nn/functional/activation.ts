// torch.nn.functional's activations and softmax family (torch/nn/functional.py): each picks the
// in-place or the functional aten op by `inplace` and calls it through its binding (torch.* or
// torch._C._nn, as the Python code does); softmax, log_softmax and softmin choose an implicit dim
// with a deprecation warning when dim is None (_get_softmax_dim).

import { end_composite } from "../../c10/Dispose.js";
import type { Tensor } from "../../aten/core/Tensor.js";
import type { dtype } from "../../c10/ScalarType.js";
import * as T from "../../generated/torch_functions.js";
import * as nn from "../../generated/torch_nn_functions.js";
import { signature, warn } from "./_args.js";
import { RuntimeError } from "../../c10/Errors.js";

type Opts<K extends string, V = unknown> = Partial<Record<K, V>>;
const sig = signature;

const pThreshold = sig("threshold(Tensor input, float threshold, float value, bool inplace=False)");
export function threshold(input: Tensor, threshold: number, value: number, options?: { inplace?: boolean }): Tensor;
export function threshold(...args: unknown[]): Tensor {
  const [input, th, value, inplace] = pThreshold(args);
  return inplace ? T.threshold_(input, th, value) : T.threshold(input, th, value);
}
export const threshold_ = T.threshold_;

const pRelu = sig("relu(Tensor input, bool inplace=False)");
export function relu(input: Tensor, options?: { inplace?: boolean }): Tensor;
export function relu(...args: unknown[]): Tensor {
  const [input, inplace] = pRelu(args);
  return inplace ? T.relu_(input) : T.relu(input);
}
export const relu_ = T.relu_;

const pRelu6 = sig("relu6(Tensor input, bool inplace=False)");
export function relu6(input: Tensor, options?: { inplace?: boolean }): Tensor;
export function relu6(...args: unknown[]): Tensor {
  const [input, inplace] = pRelu6(args);
  return inplace ? nn.relu6_(input) : nn.relu6(input);
}

const pHardtanh = sig("hardtanh(Tensor input, float min_val=-1., float max_val=1., bool inplace=False)");
export function hardtanh(input: Tensor, min_val?: number, max_val?: number, options?: Opts<"min_val" | "max_val", number> & { inplace?: boolean }): Tensor;
export function hardtanh(...args: unknown[]): Tensor {
  const [input, lo, hi, inplace] = pHardtanh(args);
  return inplace ? nn.hardtanh_(input, lo, hi) : nn.hardtanh(input, lo, hi);
}
export const hardtanh_ = nn.hardtanh_;

const pElu = sig("elu(Tensor input, float alpha=1.0, bool inplace=False)");
export function elu(input: Tensor, alpha?: number, options?: { alpha?: number; inplace?: boolean }): Tensor;
export function elu(...args: unknown[]): Tensor {
  const [input, alpha, inplace] = pElu(args);
  return inplace ? nn.elu_(input, alpha) : nn.elu(input, alpha);
}
export const elu_ = nn.elu_;

const pSelu = sig("selu(Tensor input, bool inplace=False)");
export function selu(input: Tensor, options?: { inplace?: boolean }): Tensor;
export function selu(...args: unknown[]): Tensor {
  const [input, inplace] = pSelu(args);
  return inplace ? T.selu_(input) : T.selu(input);
}

const pCelu = sig("celu(Tensor input, float alpha=1.0, bool inplace=False)");
export function celu(input: Tensor, alpha?: number, options?: { alpha?: number; inplace?: boolean }): Tensor;
export function celu(...args: unknown[]): Tensor {
  const [input, alpha, inplace] = pCelu(args);
  return inplace ? T.celu_(input, alpha) : T.celu(input, alpha);
}

const pLeaky = sig("leaky_relu(Tensor input, float negative_slope=0.01, bool inplace=False)");
export function leaky_relu(input: Tensor, negative_slope?: number, options?: { negative_slope?: number; inplace?: boolean }): Tensor;
export function leaky_relu(...args: unknown[]): Tensor {
  const [input, slope, inplace] = pLeaky(args);
  return inplace ? nn.leaky_relu_(input, slope) : nn.leaky_relu(input, slope);
}
export const leaky_relu_ = nn.leaky_relu_;

/** gelu and softplus are torch._C._nn's own functions. */
export const gelu = nn.gelu;
export const softplus = nn.softplus;

function inplaceOnly(name: string, fn: (x: Tensor) => Tensor, fn_: (x: Tensor) => Tensor) {
  const p = sig(`${name}(Tensor input, bool inplace=False)`);
  function f(input: Tensor, options?: { inplace?: boolean }): Tensor;
  function f(input: Tensor, inplace?: boolean): Tensor;
  function f(...args: unknown[]): Tensor {
    const [x, inplace] = p(args);
    return inplace ? fn_(x) : fn(x);
  }
  return f;
}

export const silu = inplaceOnly("silu", nn.silu, nn.silu_);
export const mish = inplaceOnly("mish", nn.mish, nn.mish_);
export const hardsigmoid = inplaceOnly("hardsigmoid", nn.hardsigmoid, nn.hardsigmoid_);
export const hardswish = inplaceOnly("hardswish", nn.hardswish, nn.hardswish_);

// ---- softmax family ----

/** _get_softmax_dim: the legacy implicit dim (0 for 0-, 1- and 3-D inputs, else 1), with its warning. */
export function _get_softmax_dim(name: string, ndim: number): number {
  warn(`Implicit dimension choice for ${name} has been deprecated. Change the call to include dim=X as an argument.`);
  return ndim === 0 || ndim === 1 || ndim === 3 ? 0 : 1;
}

type SoftmaxOpts = { dim?: number | null; _stacklevel?: number; dtype?: dtype | null };

function softmaxLike(name: string, negate: boolean, method: "softmax" | "log_softmax") {
  const p = sig(`${name}(Tensor input, int? dim=None, int _stacklevel=3, ScalarType? dtype=None)`);
  function f(input: Tensor, dim?: number | null, options?: SoftmaxOpts): Tensor;
  function f(input: Tensor, options?: SoftmaxOpts): Tensor;
  function f(...args: unknown[]): Tensor {
    const [input, dimArg, , dt] = p(args) as [Tensor, number | null, number, dtype | null];
    const dim = dimArg ?? _get_softmax_dim(name, input.dim());
    const x: any = negate ? T.neg(input) : input;
    return dt === null ? x[method](dim) : x[method](dim, { dtype: dt });
  }
  return f;
}

export const softmax = softmaxLike("softmax", false, "softmax");
export const log_softmax = softmaxLike("log_softmax", false, "log_softmax");
export const softmin = softmaxLike("softmin", true, "softmax");

// ---- log-sigmoid and the small Python-level ones ----

/** logsigmoid is torch._C._nn.log_sigmoid itself. */
export const logsigmoid = nn.log_sigmoid;

/** glu: a 0-d input is refused here, before torch._C._nn.glu (whose own check says the same). */
const pGlu = sig("glu(Tensor input, int dim=-1)");
export function glu(input: Tensor, dim?: number): Tensor;
export function glu(...args: unknown[]): Tensor {
  const [input, dim] = pGlu(args);
  if (input.dim() === 0) throw new RuntimeError("glu does not support scalars because halving size must be even");
  return nn.glu(input, dim);
}

/**
 * softsign: input / (input.abs() + 1). The two temporaries die with the op (end_composite), as PyTorch's
 * do when the Python function returns: left to the collector, each call's 2 blocks of fresh memory made
 * it ~3x slower at 2^20 elements (a saved variable keeps its own share when autograd records them).
 */
export function softsign(input: Tensor): Tensor {
  const magnitude = T.abs(input);
  const denominator = T.add(magnitude, 1);
  const result = T.div(input, denominator);
  end_composite([magnitude, denominator], [result], [input]);
  return result;
}

/** tanhshrink: input - input.tanh() (its temporary dies with the op, as softsign's). */
export function tanhshrink(input: Tensor): Tensor {
  const tanh = T.tanh(input);
  const result = T.sub(input, tanh);
  end_composite([tanh], [result], [input]);
  return result;
}

/** sigmoid (deprecated in torch.nn.functional): input.sigmoid(), with PyTorch's warning. */
export function sigmoid(input: Tensor): Tensor {
  warn("nn.functional.sigmoid is deprecated. Use torch.sigmoid instead.");
  return (input as any).sigmoid();
}

/** tanh (deprecated in torch.nn.functional): input.tanh(), with PyTorch's warning. */
export function tanh(input: Tensor): Tensor {
  warn("nn.functional.tanh is deprecated. Use torch.tanh instead.");
  return (input as any).tanh();
}

/** prelu(input, weight): torch.prelu. */
export function prelu(input: Tensor, weight: Tensor): Tensor {
  return T.prelu(input, weight);
}
