// torch.nn.functional's dropout functions (torch/nn/functional.py): the probability check in Python,
// then aten::dropout / feature_dropout / alpha_dropout (or their in-place forms). dropout1d and
// dropout3d add a batch dim to unbatched inputs; dropout2d warns about inputs that are not 3-D or 4-D.

import type { Tensor } from "../../aten/core/Tensor.js";
import { ValueError, RuntimeError } from "../../c10/Errors.js";
import * as T from "../../generated/torch_functions.js";
import { signature, warn } from "./_args.js";

type DropoutOpts = { p?: number; training?: boolean; inplace?: boolean };

function checkP(p: number): void {
  // str(p): an integral JavaScript number counts as a Python int (README), so -1 prints as "-1"
  if (p < 0.0 || p > 1.0) throw new ValueError(`dropout probability has to be between 0 and 1, but got ${p}`);
}

function parsed(name: string, training: boolean) {
  return signature(`${name}(Tensor input, float p=0.5, bool training=${training ? "True" : "False"}, bool inplace=False)`);
}

const pDropout = parsed("dropout", true);
export function dropout(input: Tensor, p?: number, training?: boolean, inplace?: boolean): Tensor;
export function dropout(input: Tensor, options?: DropoutOpts): Tensor;
export function dropout(input: Tensor, p: number, options?: DropoutOpts): Tensor;
export function dropout(...args: unknown[]): Tensor {
  const [input, p, training, inplace] = pDropout(args);
  checkP(p);
  return inplace ? T.dropout_(input, p, training) : T.dropout(input, p, training);
}

const pAlpha = parsed("alpha_dropout", false);
export function alpha_dropout(input: Tensor, p?: number, training?: boolean, inplace?: boolean): Tensor;
export function alpha_dropout(input: Tensor, options?: DropoutOpts): Tensor;
export function alpha_dropout(...args: unknown[]): Tensor {
  const [input, p, training, inplace] = pAlpha(args);
  checkP(p);
  return inplace ? T.alpha_dropout_(input, p, training) : T.alpha_dropout(input, p, training);
}

const pFeatureAlpha = parsed("feature_alpha_dropout", false);
export function feature_alpha_dropout(input: Tensor, p?: number, training?: boolean, inplace?: boolean): Tensor;
export function feature_alpha_dropout(input: Tensor, options?: DropoutOpts): Tensor;
export function feature_alpha_dropout(...args: unknown[]): Tensor {
  const [input, p, training, inplace] = pFeatureAlpha(args);
  checkP(p);
  return inplace ? T.feature_alpha_dropout_(input, p, training) : T.feature_alpha_dropout(input, p, training);
}

const featureDropout = (input: Tensor, p: number, training: boolean, inplace: boolean): Tensor =>
  inplace ? T.feature_dropout_(input, p, training) : T.feature_dropout(input, p, training);

/**
 * dropout1d / dropout3d: an unbatched input gets a batch dim for the call and loses it after. PyTorch's
 * in-place form does input.unsqueeze_(0) ... squeeze_(0) and returns input; Glasstorch has no
 * unsqueeze_ yet, so it drops out through an unsqueezed view of input (same storage, same values
 * written, same version bump) and returns input itself, which is what PyTorch returns.
 */
function batchedFeatureDropout(input: Tensor, p: number, training: boolean, inplace: boolean, batched: boolean): Tensor {
  if (batched) return featureDropout(input, p, training, inplace);
  const x: any = input;
  if (inplace) {
    featureDropout(x.unsqueeze(0), p, training, true);
    return input;
  }
  return (featureDropout(x.unsqueeze(0), p, training, false) as any).squeeze(0);
}

const pDropout1d = parsed("dropout1d", true);
export function dropout1d(input: Tensor, p?: number, training?: boolean, inplace?: boolean): Tensor;
export function dropout1d(input: Tensor, options?: DropoutOpts): Tensor;
export function dropout1d(...args: unknown[]): Tensor {
  const [input, p, training, inplace] = pDropout1d(args) as [Tensor, number, boolean, boolean];
  checkP(p);
  const d = input.dim();
  if (d !== 2 && d !== 3) {
    throw new RuntimeError(
      `dropout1d: Expected 2D or 3D input, but received a ${d}D input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).`,
    );
  }
  return batchedFeatureDropout(input, p, training, inplace, d === 3);
}

const pDropout2d = parsed("dropout2d", true);
export function dropout2d(input: Tensor, p?: number, training?: boolean, inplace?: boolean): Tensor;
export function dropout2d(input: Tensor, options?: DropoutOpts): Tensor;
export function dropout2d(...args: unknown[]): Tensor {
  const [input, p, training, inplace] = pDropout2d(args) as [Tensor, number, boolean, boolean];
  checkP(p);
  const d = input.dim();
  if (d !== 3 && d !== 4) {
    warn(
      `dropout2d: Received a ${d}-D input to dropout2d, which is deprecated and will result in an error in a future release. To retain the behavior and silence this warning, please use dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).`,
    );
  }
  if (d === 3) {
    warn(
      "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will change in a future release to interpret the input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d instead.",
    );
  }
  return featureDropout(input, p, training, inplace);
}

const pDropout3d = parsed("dropout3d", true);
export function dropout3d(input: Tensor, p?: number, training?: boolean, inplace?: boolean): Tensor;
export function dropout3d(input: Tensor, options?: DropoutOpts): Tensor;
export function dropout3d(...args: unknown[]): Tensor {
  const [input, p, training, inplace] = pDropout3d(args) as [Tensor, number, boolean, boolean];
  checkP(p);
  const d = input.dim();
  if (d !== 4 && d !== 5) {
    warn(
      `dropout3d: Received a ${d}-D input to dropout3d, which is deprecated and will result in an error in a future release. To retain the behavior and silence this warning, please use dropout instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).`,
    );
  }
  return batchedFeatureDropout(input, p, training, inplace, d === 5);
}
