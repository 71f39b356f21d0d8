// linalg.norm (aten/src/ATen/native/LinearAlgebra.cpp, PyTorch 1.13; CompositeImplicitAutograd): a matrix
// norm (linalg_matrix_norm) when ord is given and there are two dims (dim of length 2, or no dim and a 2-D
// input), else a vector norm (linalg_vector_norm, ord 2 by default — with ord=None the 2-norm and the
// Frobenius norm agree, so any input goes through vector_norm). A str ord is always a matrix norm.

import { RuntimeError } from "../../../c10/Errors.js";
import type { dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { linalg_vector_norm_default } from "../../../generated/linalg_vector_norm.js";
import { linalg_matrix_norm_default, linalg_matrix_norm_str_ord } from "../../../generated/linalg_matrix_norm.js";
import { copyToOut } from "./MatrixNorm.js";

const listStr = (xs: readonly number[]): string => `[${xs.join(", ")}]`;

export function linalg_norm(X: Tensor, ord: number | boolean | null, dim: readonly number[] | null, keepdim: boolean, dt: dtype | null): Tensor {
  if (dim !== null) {
    if (dim.length !== 1 && dim.length !== 2) throw new RuntimeError(`linalg.norm: If dim is specified, it must be of length 1 or 2. Got ${listStr(dim)}`);
  } else if (ord !== null && X.dim() !== 1 && X.dim() !== 2) {
    throw new RuntimeError(`linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ${X.dim()}D.`);
  }
  if (ord !== null && ((dim !== null && dim.length === 2) || (dim === null && X.dim() === 2))) {
    return linalg_matrix_norm_default.call(X, ord, dim ?? [0, 1], keepdim, dt) as Tensor;
  }
  return linalg_vector_norm_default.call(X, ord ?? 2, dim, keepdim, dt) as Tensor;
}

export function linalg_norm_ord_str(X: Tensor, ord: string, dim: readonly number[] | null, keepdim: boolean, dt: dtype | null): Tensor {
  if (dim !== null) {
    // (sic: "mut" is PyTorch 1.13's text for the str overload)
    if (dim.length !== 1 && dim.length !== 2) throw new RuntimeError(`linalg.norm: If dim is specified, it mut be of length 1 or 2. Got ${listStr(dim)}`);
  } else if (X.dim() !== 1 && X.dim() !== 2) {
    throw new RuntimeError(`linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ${X.dim()}D.`);
  }
  return linalg_matrix_norm_str_ord.call(X, ord, dim ?? [0, 1], keepdim, dt) as Tensor;
}

export function linalg_norm_out(X: Tensor, ord: number | boolean | null, dim: readonly number[] | null, keepdim: boolean, dt: dtype | null, out: Tensor): Tensor {
  return copyToOut(linalg_norm(X, ord, dim, keepdim, dt), out, "linalg.norm");
}

export function linalg_norm_ord_str_out(X: Tensor, ord: string, dim: readonly number[] | null, keepdim: boolean, dt: dtype | null, out: Tensor): Tensor {
  return copyToOut(linalg_norm_ord_str(X, ord, dim, keepdim, dt), out, "linalg.norm");
}
