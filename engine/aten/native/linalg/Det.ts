// linalg.det and linalg.slogdet (LinearAlgebra.cpp, PyTorch 1.13). _linalg_det and _linalg_slogdet
// are structured and also return the LU factorization (for the backward): det = det(P) * prod(diag U),
// sign = det(P) * prod(sgn(diag U)), logabsdet = sum(log|diag U|). A contiguous A is factored as A^T
// (det(A^T) = det(A)), which saves the copy into a column-major matrix.

import { int32, ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { _linalg_det_default, _linalg_det_result } from "../../../generated/_linalg_det.js";
import { _linalg_slogdet_default, _linalg_slogdet_sign } from "../../../generated/_linalg_slogdet.js";
import { linalg_det_default } from "../../../generated/linalg_det.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { checkFloatingOrComplex, hasData, type StructuredMode } from "./common.js";
import { luFactorInto, luFactorOutputs } from "./LuFactor.js";
import { batched_matrix_contiguous_strides, namedTuple, readFlat, readMatrices, squareCheckInputs, stridedOutput, writeFlat } from "./LinalgUtils.js";
import { rawTranspose } from "./RawViews.js";

/** Per matrix: det(P) (from the pivots) and the diagonal of U. */
function luDiagonals(A: Tensor, LU: Tensor, pivots: Tensor, info: Tensor): { sign: number[]; diags: number[][] } {
  luFactorInto(A.is_contiguous() ? rawTranspose(A) : A, LU, pivots, info);
  const n = A.size(-1);
  const piv = readFlat(pivots);
  const mats = readMatrices(LU);
  return {
    sign: mats.map((_, b) => {
      let s = 1;
      for (let i = 0; i < n; i++) if (piv[b * n + i] !== i + 1) s = -s; // each swap flips the sign
      return s;
    }),
    diags: mats.map((a) => Array.from({ length: n }, (_, i) => a[i + i * n])),
  };
}

const round = (t: ScalarType) => (t === ScalarType.Float ? Math.fround : (x: number) => x);

export function _linalg_det_out(A: Tensor, result: Tensor | null, LU: Tensor | null, pivots: Tensor | null, mode: StructuredMode = "out"): Tensor[] {
  squareCheckInputs(A, "linalg.det");
  checkFloatingOrComplex(A, "linalg.det");
  const shape = [...A._impl.sizes()], batch = shape.slice(0, -2);
  const det = stridedOutput(A, batch, batched_matrix_contiguous_strides(batch), A.dtype, result, mode);
  const [lu, piv] = luFactorOutputs(A, LU, pivots, null, mode);
  if (hasData(det)) {
    const info = stridedOutput(A, batch, batched_matrix_contiguous_strides(batch), int32, null, "functional");
    const { sign, diags } = luDiagonals(A, lu, piv, info);
    // the product is taken in the dtype, as at::prod does
    const r = round(A.dtype.scalarType);
    writeFlat(det, diags.map((d, b) => r(sign[b] * d.reduce((p, x) => r(p * r(x)), 1))));
  }
  return namedTuple([det, lu, piv], ["result", "LU", "pivots"]);
}

export function linalg_det(A: Tensor): Tensor {
  return (_linalg_det_default.call(A) as Tensor[])[0];
}

export function linalg_det_out(A: Tensor, result: Tensor): Tensor {
  const LU = empty_memory_format.call([0], A.dtype, null, A.device, null, null) as Tensor;
  const pivots = empty_memory_format.call([0], int32, null, A.device, null, null) as Tensor;
  _linalg_det_result.call(A, result, LU, pivots);
  return result;
}

/** torch.det: an alias of linalg.det. */
export function det(self: Tensor): Tensor {
  return linalg_det_default.call(self) as Tensor;
}

export function _linalg_slogdet_out(A: Tensor, sign: Tensor | null, logabsdet: Tensor | null, LU: Tensor | null, pivots: Tensor | null, mode: StructuredMode = "out"): Tensor[] {
  squareCheckInputs(A, "linalg.slogdet");
  checkFloatingOrComplex(A, "linalg.slogdet", false);
  const shape = [...A._impl.sizes()], batch = shape.slice(0, -2);
  const strides = batched_matrix_contiguous_strides(batch);
  const s = stridedOutput(A, batch, strides, A.dtype, sign, mode);
  const l = stridedOutput(A, batch, strides, A.dtype, logabsdet, mode);
  const [lu, piv] = luFactorOutputs(A, LU, pivots, null, mode);
  if (hasData(s)) {
    const info = stridedOutput(A, batch, strides, int32, null, "functional");
    const { sign: p, diags } = luDiagonals(A, lu, piv, info);
    const r = round(A.dtype.scalarType);
    writeFlat(s, diags.map((d, b) => p[b] * d.reduce((acc, x) => acc * Math.sign(r(x)), 1)));
    writeFlat(l, diags.map((d) => d.reduce((acc, x) => r(acc + r(Math.log(Math.abs(r(x))))), 0)));
  }
  return namedTuple([s, l, lu, piv], ["sign", "logabsdet", "LU", "pivots"]);
}

export function linalg_slogdet(A: Tensor): Tensor[] {
  const [sign, logabsdet] = _linalg_slogdet_default.call(A) as Tensor[];
  return namedTuple([sign, logabsdet], ["sign", "logabsdet"]);
}

export function linalg_slogdet_out(A: Tensor, sign: Tensor, logabsdet: Tensor): Tensor[] {
  const LU = empty_memory_format.call([0], A.dtype, null, A.device, null, null) as Tensor;
  const pivots = empty_memory_format.call([0], int32, null, A.device, null, null) as Tensor;
  _linalg_slogdet_sign.call(A, sign, logabsdet, LU, pivots);
  return namedTuple([sign, logabsdet], ["sign", "logabsdet"]);
}
