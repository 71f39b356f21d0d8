// torch.nn.functional's vision functions (torch/nn/functional.py, PyTorch 1.13): interpolate's Python
// logic (size or scale_factor, one value or one per spatial dim; recompute_scale_factor turning scales
// into an output size; align_corners only for the interpolating modes) dispatching to the upsample
// .vec ops; pixel_shuffle / pixel_unshuffle (the builtins); unfold / fold over im2col / col2im with
// _pair'd arguments.
// interpolate's modes here: 'nearest' (3-d, 4-d), 'bilinear' (4-d) and 'area' (4-d, adaptive_avg_pool2d).
// The others ('linear', 'bicubic', 'trilinear', 'nearest-exact', 5-d inputs, antialias) have no
// kernels in Glasstorch yet and raise NotImplementedError saying so.

import * as G from "../../generated/index.js";
import * as nn from "../../generated/torch_nn_functions.js";
import { NotImplementedError, ValueError } from "../../c10/Errors.js";
import type { Tensor } from "../../aten/core/Tensor.js";
import { bindArgs } from "../_bind.js";
import { adaptive_avg_pool2d } from "./pooling.js";

const pyList = (v: unknown): string => (Array.isArray(v) ? `[${v.join(", ")}]` : String(v));
const _pair = (v: number | number[]): number[] => (Array.isArray(v) ? v : [v, v]);

export function interpolate(...args: unknown[]): Tensor {
  const a = bindArgs("interpolate", args, [["input"], ["size", null], ["scale_factor", null], ["mode", "nearest"], ["align_corners", null], ["recompute_scale_factor", null], ["antialias", false]]);
  const input = a.input as Tensor;
  const mode = a.mode as string;
  let alignCorners = a.align_corners as boolean | null;
  if (mode === "nearest" || mode === "area" || mode === "nearest-exact") {
    if (alignCorners !== null) throw new ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear");
  } else if (alignCorners === null) alignCorners = false;

  const dim = input.dim() - 2;
  const spatial = pyList(input.shape.slice(2));
  let outputSize: number[] | null = null;
  let scaleFactors: number[] | null = null;
  if (a.size !== null && a.scale_factor !== null) throw new ValueError("only one of size or scale_factor should be defined");
  else if (a.size !== null) {
    if (Array.isArray(a.size)) {
      if (a.size.length !== dim) {
        throw new ValueError(`Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of ${spatial} and output size of ${pyList(a.size)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.`);
      }
      outputSize = a.size;
    } else outputSize = new Array(dim).fill(a.size);
  } else if (a.scale_factor !== null) {
    if (Array.isArray(a.scale_factor)) {
      if (a.scale_factor.length !== dim) {
        throw new ValueError(`Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of ${spatial} and scale_factor of shape ${pyList(a.scale_factor)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.`);
      }
      scaleFactors = a.scale_factor;
    } else scaleFactors = new Array(dim).fill(a.scale_factor);
  } else throw new ValueError("either size or scale_factor should be defined");

  let recompute = a.recompute_scale_factor as boolean | null;
  if (recompute && a.size !== null) throw new ValueError("recompute_scale_factor is not meaningful with an explicit size.");
  if (mode === "area" && outputSize === null) recompute = true;
  if (recompute) {
    outputSize = scaleFactors!.map((s, i) => Math.floor(input.shape[i + 2] * s));
    scaleFactors = null;
  }
  if (a.antialias && !((mode === "bilinear" || mode === "bicubic") && input.dim() === 4)) {
    throw new ValueError("Anti-alias option is only supported for bilinear and bicubic modes");
  }

  const nd = input.dim();
  if (nd === 3 && mode === "nearest") return nn.upsample_nearest1d(input, outputSize, scaleFactors);
  if (nd === 4 && mode === "nearest") return nn.upsample_nearest2d(input, outputSize, scaleFactors);
  if (nd === 4 && mode === "area") return adaptive_avg_pool2d(input, outputSize!);
  if (nd === 4 && mode === "bilinear" && !a.antialias) return nn.upsample_bilinear2d(input, outputSize, alignCorners!, scaleFactors);
  const known = ["nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact"];
  if (known.includes(mode) && nd >= 3 && nd <= 5) {
    if (nd === 3 && mode === "bilinear") throw new NotImplementedError("Got 3D input, but bilinear mode needs 4D input");
    if (nd === 3 && mode === "trilinear") throw new NotImplementedError("Got 3D input, but trilinear mode needs 5D input");
    if (nd === 4 && mode === "linear") throw new NotImplementedError("Got 4D input, but linear mode needs 3D input");
    if (nd === 4 && mode === "trilinear") throw new NotImplementedError("Got 4D input, but trilinear mode needs 5D input");
    if (nd === 5 && mode === "linear") throw new NotImplementedError("Got 5D input, but linear mode needs 3D input");
    if (nd === 5 && mode === "bilinear") throw new NotImplementedError("Got 5D input, but bilinear mode needs 4D input");
    throw new NotImplementedError(`interpolate: mode '${mode}' on ${nd}D input${a.antialias ? " with antialias" : ""} has no kernel in Glasstorch yet`);
  }
  throw new NotImplementedError(`Input Error: Only 3D, 4D and 5D input Tensors supported (got ${nd}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got ${mode})`);
}

export const pixel_shuffle = G.pixel_shuffle;
export const pixel_unshuffle = G.pixel_unshuffle;

export function unfold(...args: unknown[]): Tensor {
  const a = bindArgs("unfold", args, [["input"], ["kernel_size"], ["dilation", 1], ["padding", 0], ["stride", 1]]);
  return nn.im2col(a.input, _pair(a.kernel_size), _pair(a.dilation), _pair(a.padding), _pair(a.stride));
}

export function fold(...args: unknown[]): Tensor {
  const a = bindArgs("fold", args, [["input"], ["output_size"], ["kernel_size"], ["dilation", 1], ["padding", 0], ["stride", 1]]);
  return nn.col2im(a.input, _pair(a.output_size), _pair(a.kernel_size), _pair(a.dilation), _pair(a.padding), _pair(a.stride));
}
