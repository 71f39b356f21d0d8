// linalg.lu_factor_ex (structured, BatchLinearAlgebra.cpp) and linalg.lu_factor (composite): the LU
// factorization with partial pivoting A = P L U of a batch of matrices, as LAPACK's getrf stores it
// (L below the diagonal, U on and above, column-major), with 1-based int32 pivots and int32 info.

import { RuntimeError } from "../../../c10/Errors.js";
import { int32 } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { linalg_lu_factor_ex_default } from "../../../generated/linalg_lu_factor_ex.js";
import { linalg_lu_factor_ex_out as lu_factor_ex_out_op } from "../../../generated/linalg_lu_factor_ex.js";
import { _linalg_check_errors_default } from "../../../generated/_linalg_check_errors.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { DispatchStub } from "../DispatchStub.js";
import { hasData, list, type StructuredMode } from "./common.js";
import { getrf } from "./Lapack.js";
import {
  _linalg_check_errors, batched_matrix_contiguous_strides, checkLapackDtype, namedTuple, readMatrices, stridedOutput, writeFlat, writeMatrices,
} from "./LinalgUtils.js";

/** lu_factor_stub: factors every matrix of LU in place, writing pivots and info. */
export const lu_factor_stub = new DispatchStub<(LU: Tensor, pivots: Tensor, info: Tensor) => void>("lu_factor_stub", "aten/src/ATen/native/BatchLinearAlgebraKernel.cpp");
lu_factor_stub.register("ts", (LU, pivots, info) => {
  const m = LU.size(-2), n = LU.size(-1), k = Math.min(m, n);
  const mats = readMatrices(LU);
  const piv: number[] = [], infos: number[] = [];
  for (const a of mats) {
    const p = new Int32Array(k);
    infos.push(getrf(a, m, n, p));
    piv.push(...p);
  }
  writeMatrices(LU, mats);
  writeFlat(pivots, piv);
  writeFlat(info, infos);
});

/** The three outputs of lu_factor_ex: LU (column-major batch), pivots (..., min(m, n)), info (...). */
export function luFactorOutputs(A: Tensor, LU: Tensor | null, pivots: Tensor | null, info: Tensor | null, mode: StructuredMode): [Tensor, Tensor, Tensor] {
  const sizes = [...A._impl.sizes()];
  const m = sizes[sizes.length - 2], n = sizes[sizes.length - 1];
  const lu = stridedOutput(A, sizes, batched_matrix_contiguous_strides(sizes, true), A.dtype, LU, mode);
  const ps = [...sizes.slice(0, -2), Math.min(m, n)];
  const p = stridedOutput(A, ps, batched_matrix_contiguous_strides(ps), int32, pivots, mode);
  const is = sizes.slice(0, -2);
  const i = stridedOutput(A, is, batched_matrix_contiguous_strides(is), int32, info, mode);
  return [lu, p, i];
}

/** LU.copy_(A) then lu_factor_stub; an empty A only zeroes info. */
export function luFactorInto(A: Tensor, LU: Tensor, pivots: Tensor, info: Tensor): void {
  if (!hasData(LU)) return;
  if (A.numel() === 0) {
    writeFlat(info, new Array(info.numel()).fill(0));
    return;
  }
  checkLapackDtype("lu_cpu", A.dtype.scalarType);
  if (LU !== A) writeMatrices(LU, readMatrices(A));
  lu_factor_stub.call(A.device.type, LU, pivots, info);
}

export function linalg_lu_factor_ex_out(A: Tensor, pivot: boolean, check_errors: boolean, LU: Tensor | null, pivots: Tensor | null, info: Tensor | null, mode: StructuredMode = "out"): Tensor[] {
  if (A.dim() < 2) throw new RuntimeError(`torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: ${list(A._impl.sizes())} instead`);
  const outs = luFactorOutputs(A, LU, pivots, info, mode);
  // the impl's check: a meta call has its outputs without it
  if (!pivot && hasData(outs[0])) throw new RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  luFactorInto(A, ...outs);
  if (check_errors) _linalg_check_errors(outs[2], "torch.linalg.lu_factor_ex", A.dim() === 2);
  return namedTuple(outs, ["LU", "pivots", "info"]);
}

export function linalg_lu_factor(A: Tensor, pivot: boolean): Tensor[] {
  const [LU, pivots, info] = linalg_lu_factor_ex_default.call(A, pivot, false) as Tensor[];
  _linalg_check_errors_default.call(info, "torch.linalg.lu_factor", A.dim() === 2);
  return namedTuple([LU, pivots], ["LU", "pivots"]);
}

export function linalg_lu_factor_out(A: Tensor, pivot: boolean, LU: Tensor, pivots: Tensor): Tensor[] {
  const info = empty_memory_format.call([0], int32, null, A.device, null, null) as Tensor;
  lu_factor_ex_out_op.call(A, pivot, false, LU, pivots, info);
  _linalg_check_errors_default.call(info, "torch.linalg.lu_factor", A.dim() === 2);
  return namedTuple([LU, pivots], ["LU", "pivots"]);
}

/** _linalg_check_errors (CompositeExplicitAutograd), the dispatched op. */
export function _linalg_check_errors_op(info: Tensor, api_name: string, is_matrix: boolean): void {
  _linalg_check_errors(info, api_name, is_matrix);
}
