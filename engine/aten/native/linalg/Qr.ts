// linalg.qr (structured, BatchLinearAlgebra.cpp): Householder QR as LAPACK's geqrf + orgqr, so the
// signs of Q and R are LAPACK's (R's diagonal is -sign(a_jj) * norm). mode 'reduced' gives Q (m x k)
// and R (k x n), 'complete' Q (m x m) and R (m x n), 'r' only R (Q is empty). k = min(m, n).

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { checkFloatingOrComplex, hasData, type StructuredMode } from "./common.js";
import { geqrf, orgqr } from "./Lapack.js";
import { batched_matrix_contiguous_strides, checkIsMatrix, checkLapackDtype, namedTuple, readMatrices, stridedOutput, writeMatrices } from "./LinalgUtils.js";

/** _parse_qr_mode: [compute_q, reduced]. */
function parseQrMode(mode: string): [boolean, boolean] {
  if (mode === "reduced") return [true, true];
  if (mode === "complete") return [true, false];
  if (mode === "r") return [false, true];
  throw new RuntimeError(`qr received unrecognized mode '${mode}' but expected one of 'reduced' (default), 'r', or 'complete'`);
}

export const linalg_qr_stub = new DispatchStub<(A: Tensor, Q: Tensor | null, R: Tensor) => void>("geqrf_stub", "aten/src/ATen/native/BatchLinearAlgebraKernel.cpp");
linalg_qr_stub.register("ts", (A, Q, R) => {
  const m = A.size(-2), n = A.size(-1);
  const rRows = R.size(-2), qCols = Q ? Q.size(-1) : 0;
  const rs: Float64Array[] = [], qs: Float64Array[] = [];
  for (const a of readMatrices(A)) {
    const tau = geqrf(a, m, n);
    const r = new Float64Array(rRows * n);
    for (let j = 0; j < n; j++) for (let i = 0; i <= Math.min(j, rRows - 1); i++) r[i + j * rRows] = i < m ? a[i + j * m] : 0;
    rs.push(r);
    if (Q) qs.push(orgqr(a, m, tau, qCols));
  }
  writeMatrices(R, rs);
  if (Q) writeMatrices(Q, qs);
});

export function linalg_qr_out(A: Tensor, mode: string, Q: Tensor | null, R: Tensor | null, smode: StructuredMode = "out"): Tensor[] {
  checkIsMatrix(A, "linalg.qr");
  checkFloatingOrComplex(A, "linalg.qr");
  const [computeQ, reduced] = parseQrMode(mode);
  const shape = [...A._impl.sizes()];
  const m = shape[shape.length - 2], n = shape[shape.length - 1], k = Math.min(m, n);
  let q: Tensor;
  if (computeQ) {
    const qShape = [...shape.slice(0, -1), reduced ? k : m];
    q = stridedOutput(A, qShape, batched_matrix_contiguous_strides(qShape, true), A.dtype, Q, smode);
  } else q = stridedOutput(A, [0], [1], A.dtype, Q, smode);
  const rShape = [...shape.slice(0, -2), reduced || !computeQ ? k : m, n];
  const r = stridedOutput(A, rShape, batched_matrix_contiguous_strides(rShape, true), A.dtype, R, smode);
  if (hasData(r) && A.numel() !== 0) {
    checkLapackDtype("geqrf_cpu", A.dtype.scalarType);
    linalg_qr_stub.call(A.device.type, A, computeQ ? q : null, r);
  } else if (hasData(r) && computeQ && q.numel() !== 0) {
    // an empty A: Q is the identity (orgqr with no reflectors), R is empty or zeros
    const qm = q.size(-2), qc = q.size(-1);
    writeMatrices(q, readMatrices(q).map(() => { const e = new Float64Array(qm * qc); for (let i = 0; i < Math.min(qm, qc); i++) e[i + i * qm] = 1; return e; }));
    writeMatrices(r, readMatrices(r).map((x) => x.fill(0)));
  }
  return namedTuple([q, r], ["Q", "R"]);
}
