// torch.nn.utils.clip_grad_norm_ / clip_grad_value_ (torch/nn/utils/clip_grad.py, 1.13): gradients
// scaled in place so that their total norm is at most max_norm, or clamped elementwise. The same ops
// as PyTorch: per-gradient norms stacked and normed again, clip_coef = max_norm / (total_norm + 1e-6)
// (Tensor.__rtruediv__: reciprocal, then mul), clamped to 1 and multiplied in even when it is 1.

import { Tensor } from "../../aten/core/Tensor.js";
import { RuntimeError } from "../../c10/Errors.js";
import { get_default_dtype } from "../../c10/DefaultDtype.js";
import { tensor } from "../../aten/tensor_new.js";
import { norm } from "../../aten/functional.js";
import * as T from "../../generated/torch_functions.js";

type Parameters_ = Tensor | Iterable<Tensor>;

/** Python's str() of a float: 2.0, inf, 0.5. */
function floatStr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

function gradsOf(parameters: Parameters_): Tensor[] {
  const ps = parameters instanceof Tensor ? [parameters] : [...parameters];
  return ps.map((p) => p.grad).filter((g): g is Tensor => g !== null);
}

/**
 * Scales the gradients of `parameters` in place so that their total norm (of order norm_type, inf for the
 * largest magnitude) is at most max_norm; returns the total norm before clipping (a 0-d tensor).
 */
export function clip_grad_norm_(
  parameters: Parameters_, max_norm: number, norm_type?: number | { norm_type?: number; error_if_nonfinite?: boolean }, error_if_nonfinite?: boolean,
): Tensor {
  let nt: number = 2.0, err = false;
  if (typeof norm_type === "object" && norm_type !== null) {
    nt = norm_type.norm_type ?? 2.0;
    err = norm_type.error_if_nonfinite ?? false;
  } else {
    nt = norm_type ?? 2.0;
    err = error_if_nonfinite ?? false;
  }
  const grads = gradsOf(parameters);
  max_norm = Number(max_norm);
  nt = Number(nt);
  if (grads.length === 0) return tensor(0, { dtype: get_default_dtype() });
  const device = grads[0].device;
  let total_norm: any;
  if (nt === Infinity) {
    const norms = grads.map((g: any) => g.detach().abs().max().to(device));
    total_norm = norms.length === 1 ? norms[0] : T.max(T.stack(norms));
  } else {
    total_norm = norm(T.stack(grads.map((g: any) => (norm(g.detach(), nt) as any).to(device))), nt);
  }
  if (err && (T.logical_or(total_norm.isnan(), total_norm.isinf()) as any).item()) {
    throw new RuntimeError(
      `The total norm of order ${floatStr(nt)} for gradients from \`parameters\` is non-finite, so it cannot be clipped. ` +
        "To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`",
    );
  }
  const clip_coef = total_norm.add(1e-6).reciprocal().mul(max_norm);
  // multiplying by a coefficient clamped to 1 is redundant, but avoids a data-dependent branch (as PyTorch)
  const clip_coef_clamped = T.clamp(clip_coef, { max: 1.0 }) as any;
  for (const g of grads as any[]) g.detach().mul_(clip_coef_clamped.to(g.device));
  return total_norm;
}

/** Clamps the gradients of `parameters` in place to [-clip_value, clip_value]. */
export function clip_grad_value_(parameters: Parameters_, clip_value: number): void {
  const ps = parameters instanceof Tensor ? [parameters] : [...parameters];
  clip_value = Number(clip_value);
  for (const p of ps) {
    const g = p.grad as any;
    if (g !== null) g.data.clamp_({ min: -clip_value, max: clip_value });
  }
}

/** The deprecated name of clip_grad_norm_ (warns). */
export function clip_grad_norm(
  parameters: Parameters_, max_norm: number, norm_type?: number | { norm_type?: number; error_if_nonfinite?: boolean }, error_if_nonfinite?: boolean,
): Tensor {
  process.emitWarning("torch.nn.utils.clip_grad_norm is now deprecated in favor of torch.nn.utils.clip_grad_norm_.", "UserWarning");
  return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite);
}
