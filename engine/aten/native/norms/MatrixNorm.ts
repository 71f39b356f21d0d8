// linalg.matrix_norm (aten/src/ATen/native/LinearAlgebra.cpp, PyTorch 1.13; CompositeImplicitAutograd).
// ord 'fro' is the vector 2-norm over the two dims; 'nuc' sums the singular values and +-2 takes their
// max / min (linalg_svdvals of A with the two dims moved to the end); +-1 reduces |A| over dim[0] with a
// vector 1-norm and then takes the max / min over dim[1], and +-inf is the same with the dims swapped.
// Every step is a dispatched call, so the trace shows PyTorch's ops. The out= forms compute the result,
// check out's dtype, then resize_output + copy_.

import { RuntimeError } from "../../../c10/Errors.js";
import { scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { linalg_vector_norm_default } from "../../../generated/linalg_vector_norm.js";
import { linalg_svdvals_default } from "../../../generated/linalg_svdvals.js";
import { amax_default } from "../../../generated/amax.js";
import { amin_default } from "../../../generated/amin.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { permute_default } from "../../../generated/permute.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { to_dtype } from "../../../generated/to.js";
import { copy__default } from "../../../generated/copy.js";
import { resize_output } from "../Resize.js";
import { checkIsMatrix } from "../linalg/LinalgUtils.js";
import { checkFloatingOrComplex } from "../linalg/common.js";
import { checkNormDtype } from "../reduce3/Norms.js";
import { create_dim_backshift_permutation, create_reverse_permutation, maybe_wrap_dims } from "./Permutations.js";

/** A C++ double as ostream prints it in the "Order ... not supported." text (3 -> "3", inf -> "inf"). */
export const doubleStr = (v: number): string => (Number.isNaN(v) ? "nan" : Number.isFinite(v) ? String(v) : v > 0 ? "inf" : "-inf");

/** _linalg_matrix_norm_checks: A, then dim (wrapped in place), then dtype. */
function matrixNormChecks(A: Tensor, dim: readonly number[], dt: dtype | null, lowPrecision: boolean): number[] {
  checkIsMatrix(A, "linalg.matrix_norm");
  checkFloatingOrComplex(A, "linalg.matrix_norm", lowPrecision);
  // std::vector's operator<< prints the elements separated by spaces
  if (dim.length !== 2) throw new RuntimeError(`linalg.matrix_norm: dim must be a 2-tuple. Got ${dim.join(" ")}`);
  const d = maybe_wrap_dims(dim, A.dim());
  if (d[0] === d[1]) throw new RuntimeError(`linalg.matrix_norm: dims must be different. Got (${d[0]}, ${d[1]})`);
  checkNormDtype(dt, A.dtype.scalarType, "linalg.matrix_norm");
  return d;
}

/** The singular values of A over dims d, reduced over the last dim; with keepdim the two dims come back as size 1. */
function svdvalsReduced(A: Tensor, d: number[], keepdim: boolean, dt: dtype | null, reduce: (S: Tensor) => Tensor): Tensor {
  const A_ = dt !== null ? (to_dtype.call(A, dt, false, false, null) as Tensor) : A;
  const permutation = create_dim_backshift_permutation(d[0], d[1], A_.dim());
  let result = reduce(linalg_svdvals_default.call(permute_default.call(A_, permutation), null) as Tensor);
  if (keepdim) result = permute_default.call(unsqueeze_default.call(result, -1), create_reverse_permutation(permutation)) as Tensor;
  return result;
}

/** linalg_matrix_norm(A, Scalar ord, dim, keepdim, dtype): ord is +-1, +-2 or +-inf. */
export function linalg_matrix_norm(A: Tensor, scalarOrd: number | boolean, dim: readonly number[], keepdim: boolean, dt: dtype | null): Tensor {
  // ord is checked first, as it decides the dtype check on A
  const ord = Number(scalarOrd);
  const absOrd = Math.abs(ord);
  if (!(absOrd === 2 || absOrd === 1 || absOrd === Infinity)) throw new RuntimeError(`linalg.matrix_norm: Order ${doubleStr(ord)} not supported.`);
  const d = matrixNormChecks(A, dim, dt, absOrd !== 2);
  const maxMin = (t: Tensor, dm: number): Tensor => (ord > 0 ? amax_default : amin_default).call(t, [dm], keepdim) as Tensor;
  if (absOrd === 2) return svdvalsReduced(A, d, keepdim, dt, (S) => maxMin(S, -1));
  // 1, -1, inf, -inf: the inf norm is the 1 norm of the transposed matrix
  if (absOrd === Infinity) d.reverse();
  // the first reduction removes dim d[0]; when it comes before d[1], d[1] moves down by one
  if (!keepdim && d[0] < d[1]) d[1]--;
  return maxMin(linalg_vector_norm_default.call(A, 1, [d[0]], keepdim, dt) as Tensor, d[1]);
}

/** linalg_matrix_norm.str_ord: ord is 'fro' or 'nuc'. */
export function linalg_matrix_norm_str_ord(A: Tensor, ord: string, dim: readonly number[], keepdim: boolean, dt: dtype | null): Tensor {
  if (ord !== "fro" && ord !== "nuc") throw new RuntimeError(`linalg.matrix_norm: Order ${ord} not supported.`);
  const d = matrixNormChecks(A, dim, dt, ord !== "nuc");
  if (ord === "fro") return linalg_vector_norm_default.call(A, 2, d, keepdim, dt) as Tensor;
  return svdvalsReduced(A, d, keepdim, dt, (S) => sum_dim_IntList.call(S, [-1], keepdim, null) as Tensor);
}

/** The out= forms of the composite norms: compute, check out's dtype, resize_output, copy_. */
export function copyToOut(result: Tensor, out: Tensor, fn: string): Tensor {
  if (result.dtype !== out.dtype) {
    throw new RuntimeError(`${fn} expected out tensor dtype ${scalarTypeName(result.dtype.scalarType)} but got: ${scalarTypeName(out.dtype.scalarType)}`);
  }
  resize_output(out, result._impl.sizes());
  copy__default.call(out, result, false);
  return out;
}

export function linalg_matrix_norm_out(A: Tensor, ord: number | boolean, dim: readonly number[], keepdim: boolean, dt: dtype | null, out: Tensor): Tensor {
  return copyToOut(linalg_matrix_norm(A, ord, dim, keepdim, dt), out, "linalg.matrix_norm");
}

export function linalg_matrix_norm_str_ord_out(A: Tensor, ord: string, dim: readonly number[], keepdim: boolean, dt: dtype | null, out: Tensor): Tensor {
  return copyToOut(linalg_matrix_norm_str_ord(A, ord, dim, keepdim, dt), out, "linalg.matrix_norm");
}
