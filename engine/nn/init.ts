// torch.nn.init (torch/nn/init.py, PyTorch 1.13): in-place initialisers, run under no_grad, drawing from
// the generator in PyTorch's order so a seeded model gets PyTorch's exact values.

import type { Tensor } from "../aten/core/Tensor.js";
import { ValueError } from "../c10/Errors.js";
import { AutoGradMode } from "../c10/GradMode.js";
import type { Generator } from "../aten/Generator.js";
import * as T from "../generated/torch_functions.js";
import { qr as linalg_qr } from "../generated/torch_linalg_functions.js";
import { eye } from "../aten/TensorFactories.js";
import { bindArgs } from "./_bind.js";

function warn(message: string): void {
  process.emitWarning(message, "UserWarning");
}

function noGrad<T>(f: () => T): T {
  using _g = new AutoGradMode(false);
  return f();
}

/** Python's repr of a list of strings, for error texts. */
const pyList = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(", ")}]`;

export function calculate_gain(nonlinearity: string, param: number | null = null): number {
  const linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"];
  if (linear_fns.includes(nonlinearity) || nonlinearity === "sigmoid") return 1;
  if (nonlinearity === "tanh") return 5.0 / 3;
  if (nonlinearity === "relu") return Math.sqrt(2.0);
  if (nonlinearity === "leaky_relu") {
    let negative_slope: number;
    if (param === null || param === undefined) negative_slope = 0.01;
    else if (typeof param === "number") negative_slope = param;
    else throw new ValueError(`negative_slope ${param} not a valid number`);
    return Math.sqrt(2.0 / (1 + negative_slope ** 2));
  }
  if (nonlinearity === "selu") return 3.0 / 4;
  throw new ValueError(`Unsupported nonlinearity ${nonlinearity}`);
}

export function uniform_(tensor: Tensor, a = 0, b = 1, opts?: { generator?: Generator | null }): Tensor {
  return noGrad(() => tensor.uniform_(a, b, opts));
}

export function normal_(tensor: Tensor, mean = 0, std = 1, opts?: { generator?: Generator | null }): Tensor {
  return noGrad(() => tensor.normal_(mean, std, opts));
}

/** trunc_normal_: uniform on [2l-1, 2u-1] of the normal CDF, then erfinv, scale, shift and clamp (1.13's algorithm). */
export function trunc_normal_(...args: unknown[]): Tensor {
  const { tensor, mean, std, a, b } = bindArgs("trunc_normal_", args, [["tensor"], ["mean", 0], ["std", 1], ["a", -2], ["b", 2]]);
  const norm_cdf = (x: number) => (1 + erf(x / Math.sqrt(2))) / 2;
  if (mean < a - 2 * std || mean > b + 2 * std) {
    warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may be incorrect.");
  }
  return noGrad(() => {
    const l = norm_cdf((a - mean) / std);
    const u = norm_cdf((b - mean) / std);
    const t = tensor as Tensor;
    t.uniform_(2 * l - 1, 2 * u - 1);
    (t as any).erfinv_();
    (t as any).mul_(std * Math.sqrt(2));
    (t as any).add_(mean);
    (t as any).clamp_(a, b);
    return t;
  });
}

export function constant_(tensor: Tensor, val: number): Tensor {
  return noGrad(() => (tensor as any).fill_(val) as Tensor);
}

export function ones_(tensor: Tensor): Tensor {
  return noGrad(() => (tensor as any).fill_(1) as Tensor);
}

export function zeros_(tensor: Tensor): Tensor {
  return noGrad(() => (tensor as any).zero_() as Tensor);
}

export function eye_(tensor: Tensor): Tensor {
  if (tensor.dim() !== 2) throw new ValueError("Only tensors with 2 dimensions are supported");
  return noGrad(() => {
    const [n, m] = tensor.shape;
    (tensor as any).copy_(eye(n, m, { dtype: tensor.dtype }));
    return tensor;
  });
}

export function dirac_(tensor: Tensor, groups = 1): Tensor {
  const dimensions = tensor.dim();
  if (![3, 4, 5].includes(dimensions)) throw new ValueError("Only tensors with 3, 4, or 5 dimensions are supported");
  const sizes = tensor.shape;
  if (sizes[0] % groups !== 0) throw new ValueError("dim 0 must be divisible by groups");
  const out_chans_per_grp = Math.floor(sizes[0] / groups);
  const min_dim = Math.min(out_chans_per_grp, sizes[1]);
  return noGrad(() => {
    (tensor as any).zero_();
    for (let g = 0; g < groups; g++) {
      for (let d = 0; d < min_dim; d++) {
        const idx = [g * out_chans_per_grp + d, d, ...sizes.slice(2).map((s) => Math.floor(s / 2))];
        (tensor as any).set(...idx, 1);
      }
    }
    return tensor;
  });
}

export function _calculate_fan_in_and_fan_out(tensor: Tensor): [number, number] {
  const dimensions = tensor.dim();
  if (dimensions < 2) throw new ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  const num_input_fmaps = tensor.size(1);
  const num_output_fmaps = tensor.size(0);
  let receptive_field_size = 1;
  for (const s of tensor.shape.slice(2)) receptive_field_size *= s;
  return [num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size];
}

export function _calculate_correct_fan(tensor: Tensor, mode: string): number {
  mode = mode.toLowerCase();
  const valid_modes = ["fan_in", "fan_out"];
  if (!valid_modes.includes(mode)) throw new ValueError(`Mode ${mode} not supported, please use one of ${pyList(valid_modes)}`);
  const [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  return mode === "fan_in" ? fan_in : fan_out;
}

export function xavier_uniform_(tensor: Tensor, gain = 1): Tensor {
  const [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const std = gain * Math.sqrt(2.0 / (fan_in + fan_out));
  const a = Math.sqrt(3.0) * std;
  return uniform_(tensor, -a, a);
}

export function xavier_normal_(tensor: Tensor, gain = 1): Tensor {
  const [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const std = gain * Math.sqrt(2.0 / (fan_in + fan_out));
  return normal_(tensor, 0, std);
}

export function kaiming_uniform_(...args: unknown[]): Tensor {
  const { tensor, a, mode, nonlinearity } = bindArgs("kaiming_uniform_", args, [["tensor"], ["a", 0], ["mode", "fan_in"], ["nonlinearity", "leaky_relu"]]);
  if ((tensor as Tensor).shape.includes(0)) {
    warn("Initializing zero-element tensors is a no-op");
    return tensor;
  }
  const fan = _calculate_correct_fan(tensor, mode);
  const gain = calculate_gain(nonlinearity, a);
  const std = gain / Math.sqrt(fan);
  const bound = Math.sqrt(3.0) * std;
  return noGrad(() => (tensor as Tensor).uniform_(-bound, bound));
}

export function kaiming_normal_(...args: unknown[]): Tensor {
  const { tensor, a, mode, nonlinearity } = bindArgs("kaiming_normal_", args, [["tensor"], ["a", 0], ["mode", "fan_in"], ["nonlinearity", "leaky_relu"]]);
  if ((tensor as Tensor).shape.includes(0)) {
    warn("Initializing zero-element tensors is a no-op");
    return tensor;
  }
  const fan = _calculate_correct_fan(tensor, mode);
  const gain = calculate_gain(nonlinearity, a);
  const std = gain / Math.sqrt(fan);
  return noGrad(() => (tensor as Tensor).normal_(0, std));
}

/** orthogonal_: QR of a normal matrix (rows x numel/rows, transposed when wide), Q's columns signed by diag(R). */
export function orthogonal_(tensor: Tensor, gain = 1): Tensor {
  if (tensor.dim() < 2) throw new ValueError("Only tensors with 2 or more dimensions are supported");
  if (tensor.numel() === 0) return tensor;
  const rows = tensor.size(0);
  const cols = Math.floor(tensor.numel() / rows);
  return noGrad(() => {
    let flattened = (T.empty([rows, cols], { dtype: tensor.dtype }) as Tensor).normal_(0, 1);
    if (rows < cols) flattened = (flattened as any).t();
    const [q0, r] = linalg_qr(flattened) as unknown as [Tensor, Tensor];
    const d = (r as any).diagonal() as Tensor; // torch.diag(r, 0)
    const ph = (d as any).sign() as Tensor;
    let q = (q0 as any).mul(ph) as Tensor;
    if (rows < cols) q = (q as any).t();
    (tensor as any).view_as(q).copy_(q);
    (tensor as any).mul_(gain);
    return tensor;
  });
}

/** math.erf (Python's libm erf; W. J. Cody's rational approximations, as CPython's own fallback). */
function erf(x: number): number {
  // CPython's pure-Python-era algorithm: series for small |x|, continued fraction for large
  const ERF_SERIES_CUTOFF = 1.5;
  const ERF_SERIES_TERMS = 25;
  const ERFC_CONTFRAC_CUTOFF = 30.0;
  const ERFC_CONTFRAC_TERMS = 50;
  const SQRTPI = 1.772453850905516027298167483341145182798;
  const absx = Math.abs(x);
  if (absx < ERF_SERIES_CUTOFF) {
    const x2 = x * x;
    let acc = 0.0;
    let fk = ERF_SERIES_TERMS + 0.5;
    for (let i = 0; i < ERF_SERIES_TERMS; i++) {
      acc = 2.0 + (x2 * acc) / fk;
      fk -= 1.0;
    }
    return (acc * x * Math.exp(-x2)) / SQRTPI;
  }
  let cf: number;
  if (absx >= ERFC_CONTFRAC_CUTOFF) cf = 0.0;
  else {
    const x2 = absx * absx;
    let a = 0.0;
    let da = 0.5;
    let p = 1.0;
    let p_last = 0.0;
    let q = da + x2;
    let q_last = 1.0;
    for (let i = 0; i < ERFC_CONTFRAC_TERMS; i++) {
      a += da;
      da += 2.0;
      const b = da + x2;
      let temp = p;
      p = b * p - a * p_last;
      p_last = temp;
      temp = q;
      q = b * q - a * q_last;
      q_last = temp;
    }
    cf = ((p / q) * absx * Math.exp(-x2)) / SQRTPI;
  }
  return x > 0 ? 1.0 - cf : cf - 1.0;
}
