// pairwise_distance and cosine_similarity (aten/src/ATen/native/Distance.cpp), CompositeImplicitAutograd:
// pairwise_distance is norm(x1 - x2 + eps) over the last dim; cosine_similarity (1.13) divides each input
// by its norm (sum of squares over dim, clamped below by eps^2, square-rooted in place) before the sum of
// the products.

import { end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { float64, isFloatingType, scalarTypeName } from "../../../c10/ScalarType.js";
import { toDevice } from "../../../c10/Device.js";
import { Tensor } from "../../core/Tensor.js";
import { empty_impl } from "../../core/empty.js";
import { fill_kernel } from "../../cpu/FillKernel.js";
import { result_type } from "../../TypeProperties.js";
import { infer_size } from "../../ExpandUtils.js";
import { norm_ScalarOpt_dim } from "../../../generated/norm.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { sqrt__default } from "../../../generated/sqrt.js";
import { pow_Tensor_Scalar } from "../../../generated/pow.js";
import { sub_Tensor } from "../../../generated/sub.js";
import { add_Tensor } from "../../../generated/add.js";
import { div_Tensor } from "../../../generated/div.js";
import { clamp_min__default } from "../../../generated/clamp_min.js";
import { expand_default } from "../../../generated/expand.js";
import { to_dtype } from "../../../generated/to.js";

// ---- pairwise_distance, cosine_similarity (Distance.cpp) ----

/** A double Scalar as PyTorch wraps it for Tensor + Scalar (a 0-d float64 wrapped number). */
function doubleScalar(v: number): Tensor {
  const impl = empty_impl([], float64, toDevice("cpu"));
  fill_kernel(impl, v);
  impl.is_wrapped_number = true;
  return new Tensor(impl);
}

/** pairwise_distance: at::norm(x1 - x2 + eps, p, innermost dim, keepdim). */
export function pairwise_distance(x1: Tensor, x2: Tensor, p: number, eps: number, keepdim: boolean): Tensor {
  const innermost = Math.max(x1.dim(), x2.dim()) - 1;
  const sub = sub_Tensor.call(x1, x2, 1) as Tensor;
  const diff = add_Tensor.call(sub, doubleScalar(eps), 1) as Tensor;
  const result = norm_ScalarOpt_dim.call(diff, p, [innermost], keepdim) as Tensor;
  end_composite([sub, diff], [result], [x1, x2]); // the temporaries die here (c10/Dispose.ts)
  return result;
}

/**
 * cosine_similarity (PyTorch 1.13): both inputs converted to their common (floating) dtype and expanded to
 * one shape; each squared norm (sum of x^2 over dim, kept) clamped below by eps^2 and square-rooted in
 * place; then the sum over dim of (x1 / ||x1||) * (x2 / ||x2||).
 */
export function cosine_similarity(x1_: Tensor, x2_: Tensor, dim: number, eps: number): Tensor {
  const common = result_type(x1_, x2_);
  if (!isFloatingType(common.scalarType)) {
    throw new RuntimeError(`expected common dtype to be floating point, yet common dtype is ${scalarTypeName(common.scalarType)}`);
  }
  const shape = infer_size(x1_._impl.sizes(), x2_._impl.sizes());
  // every tensor made on the way dies with the op (end_composite), as PyTorch's temporaries
  const made: Tensor[] = [];
  const step = (t: unknown): Tensor => (made.push(t as Tensor), t as Tensor);
  const x1 = step(expand_default.call(step(to_dtype.call(x1_, common, false, false, null)), shape, false));
  const x2 = step(expand_default.call(step(to_dtype.call(x2_, common, false, false, null)), shape, false));
  // Each full-size temporary dies as soon as its last use is done, as PyTorch frees it (refcount): x^2 once
  // summed, the quotients once multiplied. The op then holds at most three input-sized temporaries at once
  // (all five alive at once made every call cross the allocator's young-collection volume: a scavenge per call).
  const squaredNorm = (x: Tensor) => {
    const sq = pow_Tensor_Scalar.call(x, 2) as Tensor;
    const n = sum_dim_IntList.call(sq, [dim], true, null) as Tensor;
    end_composite([sq], [n], [x1_, x2_]);
    return step(n);
  };
  const n1 = squaredNorm(x1);
  const n2 = squaredNorm(x2);
  clamp_min__default.call(n1, eps * eps);
  clamp_min__default.call(n2, eps * eps);
  sqrt__default.call(n1);
  sqrt__default.call(n2);
  const q1 = div_Tensor.call(x1, n1) as Tensor;
  const q2 = div_Tensor.call(x2, n2) as Tensor;
  const prod = step(mul_Tensor.call(q1, q2));
  end_composite([q1, q2], [prod], [x1_, x2_]);
  const result = sum_dim_IntList.call(prod, [dim], false, null) as Tensor;
  end_composite(made, [result], [x1_, x2_]);
  return result;
}
