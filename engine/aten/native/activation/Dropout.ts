// dropout and its feature (channel-wise) and alpha forms (aten/src/ATen/native/Dropout.cpp,
// _dropout_impl): CompositeImplicitAutograd kernels. On CPU the noise is a tensor like the input
// (or of shape (N, C, 1, ...) for feature dropout) filled by bernoulli_.float(1 - p) from the default
// generator, then divided by 1 - p, and the input is multiplied by it — so the same
// torch.manual_seed gives PyTorch's masks. p == 0, train == false or an empty input return the
// input itself; p == 1 multiplies by a zero scalar tensor.

import { end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { bernoulli__float } from "../../../generated/bernoulli.js";
import { cppDouble } from "../../cpu/DistributionKernels.js";
import { wrapScalar } from "../binary/common.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { zeros_default } from "../../../generated/zeros.js";
import { mul_Tensor, mul__Tensor } from "../../../generated/mul.js";
import { div__Scalar } from "../../../generated/div.js";
import { add_Tensor, add__Tensor } from "../../../generated/add.js";

/** make_feature_noise: input.new_empty({N, C, 1, 1, ...}). */
function make_feature_noise(input: Tensor): Tensor {
  const sizes = input._impl.sizes();
  if (sizes.length < 2) throw new RuntimeError("Feature dropout requires at least 2 dimensions in the input");
  const shape = [sizes[0], sizes[1], ...sizes.slice(2).map(() => 1)];
  return empty_memory_format.call(shape, input.dtype, null, input.device, null, null) as Tensor;
}

/** multiply<inplace>: input.mul_(noise) or input.mul(noise). */
const multiply = (input: Tensor, noise: Tensor, inplace: boolean): Tensor =>
  (inplace ? mul__Tensor : mul_Tensor).call(input, noise) as Tensor;

function _dropout_impl(input: Tensor, p: number, train: boolean, feature: boolean, alpha: boolean, inplace: boolean): Tensor {
  if (!(p >= 0 && p <= 1)) throw new RuntimeError(`dropout probability has to be between 0 and 1, but got ${cppDouble(p)}`);
  if (p === 0 || !train || input.numel() === 0) return input;
  if (p === 1) return multiply(input, zeros_default.call([], input.dtype, null, input.device, null) as Tensor, inplace);

  // LEGACY_CONTIGUOUS_MEMORY_FORMAT: the noise is contiguous whatever the input's layout
  const noise = feature ? make_feature_noise(input) : (empty_like_default.call(input, null, null, null, null, "contiguous_format") as Tensor);
  bernoulli__float.call(noise, 1 - p, null); // noise.bernoulli_(1 - p): aten::bernoulli_.float
  if (alpha) {
    const ALPHA = 1.7580993408473766;
    const a = 1 / Math.sqrt((ALPHA * ALPHA * p + 1) * (1 - p));
    const b = add_Tensor.call(noise, wrapScalar(-1), 1) as Tensor;
    mul__Tensor.call(b, wrapScalar(ALPHA * a));
    add__Tensor.call(b, wrapScalar(ALPHA * a * p), 1);
    mul__Tensor.call(noise, wrapScalar(a));
    const out = add__Tensor.call(multiply(input, noise, inplace), b, 1) as Tensor;
    end_composite([noise, b], [out], [input]);
    return out;
  }
  div__Scalar.call(noise, 1 - p);
  const out = multiply(input, noise, inplace);
  // the noise dies here (backward keeps its own share: c10/Dispose.ts), as PyTorch's temporary
  end_composite([noise], [out], [input]);
  return out;
}

export const dropout = (input: Tensor, p: number, train: boolean) => _dropout_impl(input, p, train, false, false, false);
export const dropout_ = (self: Tensor, p: number, train: boolean) => _dropout_impl(self, p, train, false, false, true);
export const feature_dropout = (input: Tensor, p: number, train: boolean) => _dropout_impl(input, p, train, true, false, false);
export const feature_dropout_ = (self: Tensor, p: number, train: boolean) => _dropout_impl(self, p, train, true, false, true);
export const alpha_dropout = (input: Tensor, p: number, train: boolean) => _dropout_impl(input, p, train, false, true, false);
export const alpha_dropout_ = (self: Tensor, p: number, train: boolean) => _dropout_impl(self, p, train, false, true, true);
export const feature_alpha_dropout = (input: Tensor, p: number, train: boolean) => _dropout_impl(input, p, train, true, true, false);
export const feature_alpha_dropout_ = (self: Tensor, p: number, train: boolean) => _dropout_impl(self, p, train, true, true, true);
