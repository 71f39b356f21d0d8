// linalg.svd, linalg.svdvals and _linalg_svd (structured, BatchLinearAlgebra.cpp). U and Vh are
// batches of column-major matrices, S is real and descending. svd computes U and Vh (full_matrices
// chooses square or reduced ones), svdvals only S. The kernel is a one-sided Jacobi SVD (Lapack.ts):
// S matches LAPACK's; the signs of singular vector pairs may differ (U S Vh reconstructs A).

import { GradMode } from "../../../c10/GradMode.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { int32 } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { _linalg_svd_default, _linalg_svd_U } from "../../../generated/_linalg_svd.js";
import { DispatchStub } from "../DispatchStub.js";
import { checkFloatingOrComplex, hasData, type StructuredMode } from "./common.js";
import { svd } from "./Lapack.js";
import { _linalg_check_errors, batched_matrix_contiguous_strides, checkIsMatrix, checkLapackDtype, namedTuple, readMatrices, stridedOutput, writeFlat, writeMatrices } from "./LinalgUtils.js";

export const svd_stub = new DispatchStub<(A: Tensor, full: boolean, U: Tensor | null, S: Tensor, Vh: Tensor | null) => void>("svd_stub", "aten/src/ATen/native/BatchLinearAlgebraKernel.cpp");
svd_stub.register("ts", (A, full, U, S, Vh) => {
  const m = A.size(-2), n = A.size(-1);
  const us: Float64Array[] = [], vhs: Float64Array[] = [], ss: number[] = [];
  for (const a of readMatrices(A)) {
    const r = svd(a, m, n, full);
    us.push(r.u);
    vhs.push(r.vh);
    ss.push(...r.s);
  }
  writeFlat(S, ss);
  if (U) writeMatrices(U, us);
  if (Vh) writeMatrices(Vh, vhs);
});

function identities(t: Tensor): void {
  const r = t.size(-2), c = t.size(-1);
  writeMatrices(t, readMatrices(t).map(() => { const e = new Float64Array(r * c); for (let i = 0; i < Math.min(r, c); i++) e[i + i * r] = 1; return e; }));
}

export function _linalg_svd_out(A: Tensor, full_matrices: boolean, compute_uv: boolean, driver: string | null, U: Tensor | null, S: Tensor | null, Vh: Tensor | null, mode: StructuredMode = "out"): Tensor[] {
  checkIsMatrix(A, "linalg.svd");
  checkFloatingOrComplex(A, "linalg.svd");
  const sizes = [...A._impl.sizes()];
  const m = sizes[sizes.length - 2], n = sizes[sizes.length - 1], k = Math.min(m, n);
  let u: Tensor, vh: Tensor;
  if (compute_uv) {
    const uShape = [...sizes.slice(0, -1), full_matrices ? m : k];
    u = stridedOutput(A, uShape, batched_matrix_contiguous_strides(uShape, true), A.dtype, U, mode);
    const vShape = [...sizes.slice(0, -2), full_matrices ? n : k, n];
    vh = stridedOutput(A, vShape, batched_matrix_contiguous_strides(vShape, true), A.dtype, Vh, mode);
  } else {
    u = stridedOutput(A, [0], [1], A.dtype, U, mode);
    vh = stridedOutput(A, [0], [1], A.dtype, Vh, mode);
  }
  const sShape = [...sizes.slice(0, -2), k];
  const s = stridedOutput(A, sShape, batched_matrix_contiguous_strides(sShape), A.dtype, S, mode);
  if (!hasData(s)) return namedTuple([u, s, vh], ["U", "S", "Vh"]);
  if (A.numel() === 0) {
    // the identity is a valid U or Vh for an empty matrix
    if (compute_uv && full_matrices) {
      if (u.numel() !== 0) identities(u);
      if (vh.numel() !== 0) identities(vh);
    }
    return namedTuple([u, s, vh], ["U", "S", "Vh"]);
  }
  if (driver !== null) throw new RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.");
  const batch = sizes.slice(0, -2);
  const info = stridedOutput(A, batch, batched_matrix_contiguous_strides(batch), int32, null, "functional");
  checkLapackDtype("linalg_svd_cpu", A.dtype.scalarType);
  svd_stub.call(A.device.type, A, full_matrices, compute_uv ? u : null, s, compute_uv ? vh : null);
  writeFlat(info, new Array(info.numel()).fill(0));
  _linalg_check_errors(info, "linalg.svd", A.dim() === 2);
  return namedTuple([u, s, vh], ["U", "S", "Vh"]);
}

export function linalg_svd(A: Tensor, full_matrices: boolean, driver: string | null): Tensor[] {
  const [U, S, Vh] = _linalg_svd_default.call(A, full_matrices, true, driver) as Tensor[];
  return namedTuple([U, S, Vh], ["U", "S", "Vh"]);
}

export function linalg_svd_out(A: Tensor, full_matrices: boolean, driver: string | null, U: Tensor, S: Tensor, Vh: Tensor): Tensor[] {
  _linalg_svd_U.call(A, full_matrices, true, driver, U, S, Vh);
  return namedTuple([U, S, Vh], ["U", "S", "Vh"]);
}

/** svdvals: S only; U and Vh too when A may need a gradient (PyTorch's _may_require_fw_or_bw_grad), as svd_backward reads them. */
export function linalg_svdvals(A: Tensor, driver: string | null): Tensor {
  const compute_uv = GradMode.is_enabled() && A.requires_grad;
  return (_linalg_svd_default.call(A, false, compute_uv, driver) as Tensor[])[1];
}

export function linalg_svdvals_out(A: Tensor, driver: string | null, result: Tensor): Tensor {
  const U = stridedOutput(A, [0], [1], A.dtype, null, "functional"), Vh = stridedOutput(A, [0], [1], A.dtype, null, "functional");
  _linalg_svd_U.call(A, false, false, driver, U, result, Vh);
  return result;
}
