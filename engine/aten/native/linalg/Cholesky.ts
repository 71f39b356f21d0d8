// linalg.cholesky_ex (structured, BatchLinearAlgebra.cpp) and linalg.cholesky: A = L L^H from the
// lower triangle of A (or A = U^H U from the upper one), as LAPACK's potrf. On CPU the factor starts
// as tril(A) (triu for upper), so the other triangle of the result is zero; info is the order of
// the first leading minor that is not positive-definite.

import { int32 } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { linalg_cholesky_ex_default, linalg_cholesky_ex_L } from "../../../generated/linalg_cholesky_ex.js";
import { _linalg_check_errors_default } from "../../../generated/_linalg_check_errors.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { DispatchStub } from "../DispatchStub.js";
import { checkFloatingOrComplex, hasData, type StructuredMode } from "./common.js";
import { potrf } from "./Lapack.js";
import { _linalg_check_errors, batched_matrix_contiguous_strides, checkLapackDtype, namedTuple, readMatrices, squareCheckInputs, stridedOutput, writeFlat, writeMatrices } from "./LinalgUtils.js";

export const cholesky_stub = new DispatchStub<(L: Tensor, info: Tensor, upper: boolean) => void>("cholesky_stub", "aten/src/ATen/native/BatchLinearAlgebraKernel.cpp");
cholesky_stub.register("ts", (L, info, upper) => {
  const n = L.size(-1);
  const mats = readMatrices(L);
  writeFlat(info, mats.map((a) => potrf(a, n, upper)));
  writeMatrices(L, mats);
});

export function linalg_cholesky_ex_out(A: Tensor, upper: boolean, check_errors: boolean, L: Tensor | null, info: Tensor | null, mode: StructuredMode = "out"): Tensor[] {
  squareCheckInputs(A, "linalg.cholesky");
  checkFloatingOrComplex(A, "linalg.cholesky");
  const shape = [...A._impl.sizes()], batch = shape.slice(0, -2);
  const l = stridedOutput(A, shape, batched_matrix_contiguous_strides(shape, true), A.dtype, L, mode);
  const inf = stridedOutput(A, batch, batched_matrix_contiguous_strides(batch), int32, info, mode);
  if (hasData(l)) {
    if (l.numel() === 0) writeFlat(inf, new Array(inf.numel()).fill(0));
    else {
      // triu_out / tril_out(L, A): the triangle potrf reads, zeros elsewhere
      const n = A.size(-1);
      writeMatrices(l, readMatrices(A).map((a) => a.map((v, idx) => ((upper ? idx % n <= Math.floor(idx / n) : idx % n >= Math.floor(idx / n)) ? v : 0))));
      checkLapackDtype("cholesky_cpu", A.dtype.scalarType);
      cholesky_stub.call(A.device.type, l, inf, upper);
      if (check_errors) _linalg_check_errors(inf, "linalg.cholesky_ex", A.dim() === 2);
    }
  }
  return namedTuple([l, inf], ["L", "info"]);
}

export function linalg_cholesky(A: Tensor, upper: boolean): Tensor {
  const [L, info] = linalg_cholesky_ex_default.call(A, upper, false) as Tensor[];
  _linalg_check_errors_default.call(info, "linalg.cholesky", A.dim() === 2);
  return L;
}

export function linalg_cholesky_out(A: Tensor, upper: boolean, L: Tensor): Tensor {
  const info = empty_memory_format.call([0], int32, null, A.device, null, null) as Tensor;
  linalg_cholesky_ex_L.call(A, upper, false, L, info);
  _linalg_check_errors_default.call(info, "linalg.cholesky", A.dim() === 2);
  return L;
}
