// linalg.solve and linalg.inv (BatchLinearAlgebra.cpp, PyTorch 1.13). _linalg_solve_ex (structured)
// factors A with lu_factor (A^T when A is contiguous, so the copy into a column-major matrix is free,
// then solving A^T^T X = B) and solves with the factors, B broadcast against A's batch; a 1-D B (or a
// batch of vectors) is a vector right-hand side. linalg_solve_ex / linalg_solve are composites over
// it plus _linalg_check_errors. linalg_inv_ex solves A X = I.

import { RuntimeError } from "../../../c10/Errors.js";
import { int32, scalarTypeName } from "../../../c10/ScalarType.js";
import { infer_size } from "../../ExpandUtils.js";
import type { Tensor } from "../../core/Tensor.js";
import { _linalg_solve_ex_default, _linalg_solve_ex_result } from "../../../generated/_linalg_solve_ex.js";
import { linalg_solve_ex_default, linalg_solve_ex_out as solve_ex_out_op } from "../../../generated/linalg_solve_ex.js";
import { linalg_inv_ex_default, linalg_inv_ex_inverse } from "../../../generated/linalg_inv_ex.js";
import { _linalg_check_errors_default } from "../../../generated/_linalg_check_errors.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { checkFloatingOrComplex, hasData, sameList, type StructuredMode } from "./common.js";
import { getrs } from "./Lapack.js";
import { luFactorInto, luFactorOutputs } from "./LuFactor.js";
import { _linalg_check_errors, batched_matrix_contiguous_strides, checkIsMatrix, matrixOffsets, namedTuple, readMatrices, squareCheckInputs, stridedOutput, writeMatrices } from "./LinalgUtils.js";
import { rawTranspose, rawUnsqueeze, rawExpand } from "./RawViews.js";

/** linalg_solve_is_vector_rhs: B is 1-D, or a batch of vectors with A's batch shape. */
function isVectorRhs(A: Tensor, B: Tensor): boolean {
  const expected = A._impl.sizes().slice(0, -1);
  return B.dim() === 1 || (A.dim() - 1 === B.dim() && sameList(B._impl.sizes(), expected));
}

export function _linalg_solve_ex_out(A: Tensor, B: Tensor, left: boolean, check_errors: boolean, result: Tensor | null, LU: Tensor | null, pivots: Tensor | null, info: Tensor | null, mode: StructuredMode = "out"): Tensor[] {
  // ---- meta ----
  checkFloatingOrComplex(A, "linalg.solve");
  if (A.dtype !== B.dtype) {
    throw new RuntimeError(`linalg.solve: Expected A and B to have the same dtype, but found A of type ${scalarTypeName(A.dtype.scalarType)} and B of type ${scalarTypeName(B.dtype.scalarType)} instead`);
  }
  const vectorCase = isVectorRhs(A, B);
  const B_ = vectorCase ? rawUnsqueeze(B, -1) : B;
  squareCheckInputs(A, "linalg.solve");
  checkIsMatrix(B_, "linalg.solve", "B");
  if (left ? A.size(-2) !== B_.size(-2) : A.size(-1) !== B_.size(-1)) {
    throw new RuntimeError(`linalg.solve: Incompatible shapes of A and B for the equation ${left ? "AX = B" : "XA = B"} (${A.size(-2)}x${A.size(-1)} and ${B_.size(-2)}x${B_.size(-1)})`);
  }
  const batch = infer_size(B_._impl.sizes().slice(0, -2), A._impl.sizes().slice(0, -2));
  const bBroad = [...batch, ...B_._impl.sizes().slice(-2)];
  if (!left && vectorCase) {
    throw new RuntimeError("linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)");
  }
  const resultShape = vectorCase ? bBroad.slice(0, -1) : bBroad;
  const res = stridedOutput(B, resultShape, batched_matrix_contiguous_strides(resultShape, left), B.dtype, result, mode);
  const [lu, piv, inf] = luFactorOutputs(A, LU, pivots, info, mode);
  // ---- impl ----
  if (hasData(res)) {
    const useAT = A.is_contiguous(); // factor A^T: already column-major in memory
    luFactorInto(useAT ? rawTranspose(A) : A, lu, piv, inf);
    if (check_errors) _linalg_check_errors(inf, "torch.linalg.solve_ex", A.dim() === 2);
    solveWithLU(lu, piv, vectorCase ? rawExpand(B_, bBroad) : rawExpand(B, bBroad), vectorCase ? rawUnsqueeze(res, -1) : res, left, useAT);
  }
  return namedTuple([res, lu, piv, inf], ["result", "LU", "pivots", "info"]);
}

/**
 * linalg_lu_solve with the factors of A (or of A^T when adjoint): X = A^-1 B (left) or B A^-1, for
 * every matrix of the broadcast batch.
 */
function solveWithLU(lu: Tensor, piv: Tensor, B: Tensor, X: Tensor, left: boolean, adjoint: boolean): void {
  const n = lu.size(-1);
  const batch = B._impl.sizes().slice(0, -2);
  // A's factors broadcast over B's batch
  const lus = readMatrices(rawExpand(lu, [...batch, n, n])), pivs = readMatrices(rawExpand(rawUnsqueeze(piv, -1), [...batch, n, 1]));
  const bs = readMatrices(B);
  const rows = B.size(-2), cols = B.size(-1);
  const out = bs.map((b, i) => {
    const a = lus[i];
    const p = Int32Array.from(pivs[i]);
    if (left) {
      const x = Float64Array.from(b);
      getrs(a, n, p, x, cols, adjoint);
      return x;
    }
    // X A = B  <=>  A^T X^T = B^T
    const bt = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) bt[c + r * cols] = b[r + c * rows];
    getrs(a, n, p, bt, rows, !adjoint);
    const x = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) x[r + c * rows] = bt[c + r * cols];
    return x;
  });
  writeMatrices(X, out);
}

export function linalg_solve_ex(A: Tensor, B: Tensor, left: boolean, check_errors: boolean): Tensor[] {
  const [result, , , info] = _linalg_solve_ex_default.call(A, B, left, check_errors) as Tensor[];
  return namedTuple([result, info], ["result", "info"]);
}

export function linalg_solve_ex_out(A: Tensor, B: Tensor, left: boolean, check_errors: boolean, result: Tensor, info: Tensor): Tensor[] {
  const LU = empty_memory_format.call([0], B.dtype, null, B.device, null, null) as Tensor;
  const pivots = empty_memory_format.call([0], int32, null, B.device, null, null) as Tensor;
  _linalg_solve_ex_result.call(A, B, left, check_errors, result, LU, pivots, info);
  return namedTuple([result, info], ["result", "info"]);
}

export function linalg_solve(A: Tensor, B: Tensor, left: boolean): Tensor {
  const [result, info] = linalg_solve_ex_default.call(A, B, left, false) as Tensor[];
  _linalg_check_errors_default.call(info, "torch.linalg.solve", A.dim() === 2);
  return result;
}

export function linalg_solve_out(A: Tensor, B: Tensor, left: boolean, result: Tensor): Tensor {
  const info = empty_memory_format.call([0], int32, null, A.device, null, null) as Tensor;
  solve_ex_out_op.call(A, B, left, false, result, info);
  _linalg_check_errors_default.call(info, "torch.linalg.solve", A.dim() === 2);
  return result;
}

// ---- inv ----

export function linalg_inv_ex_out(A: Tensor, check_errors: boolean, inverse: Tensor | null, info: Tensor | null, mode: StructuredMode = "out"): Tensor[] {
  squareCheckInputs(A, "linalg.inv");
  checkFloatingOrComplex(A, "linalg.inv", false);
  const shape = [...A._impl.sizes()];
  const result = stridedOutput(A, shape, batched_matrix_contiguous_strides(shape, true), A.dtype, inverse, mode);
  const is = shape.slice(0, -2);
  const inf = stridedOutput(A, is, batched_matrix_contiguous_strides(is), int32, info, mode);
  if (hasData(result)) {
    // result = I, then linalg_solve_ex_out(result, info, A, result)
    const n = A.size(-1);
    writeMatrices(result, matrixOffsets(result).map(() => {
      const e = new Float64Array(n * n);
      for (let i = 0; i < n; i++) e[i + i * n] = 1;
      return e;
    }));
    const [lu, piv] = luFactorOutputs(A, null, null, null, "functional");
    if (A.numel() !== 0) {
      const useAT = A.is_contiguous();
      luFactorInto(useAT ? rawTranspose(A) : A, lu, piv, inf);
      solveWithLU(lu, piv, result, result, true, useAT);
    } else luFactorInto(A, lu, piv, inf);
    if (check_errors) _linalg_check_errors(inf, "linalg.inv_ex", A.dim() === 2);
  }
  return namedTuple([result, inf], ["inverse", "info"]);
}

export function linalg_inv(A: Tensor): Tensor {
  const [result, info] = linalg_inv_ex_default.call(A, false) as Tensor[];
  _linalg_check_errors_default.call(info, "linalg.inv", A.dim() === 2);
  return result;
}

export function linalg_inv_out(A: Tensor, result: Tensor): Tensor {
  const info = empty_memory_format.call([0], int32, null, A.device, null, null) as Tensor;
  linalg_inv_ex_inverse.call(A, false, result, info);
  _linalg_check_errors_default.call(info, "linalg.inv", A.dim() === 2);
  return result;
}
