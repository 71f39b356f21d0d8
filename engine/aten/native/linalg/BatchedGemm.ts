// The batched GEMM behind bmm and baddbmm (and so matmul's batched case): C[b] = beta * C[b] +
// alpha * (A[b] @ B[b]) for every item b of a batch, operands strided in all three dims (a batch
// stride of 0 is a broadcast operand). PyTorch's bmm_out_or_baddbmm_ (LinearAlgebra.cpp) runs one
// gemm per item; bmm_stub lets a native kernel take the whole batch in one call (and split it over
// threads). The TypeScript kernel is that loop: one gemm_stub call per item.

import type { ScalarType } from "../../../c10/ScalarType.js";
import type { TypedView } from "../../../c10/ElementAccess.js";
import { DispatchStub } from "../DispatchStub.js";
import { gemm_stub } from "./Gemm.js";

/** A strided batch of matrices in a storage: element (b, i, j) at data[offset + b * bs + i * rs + j * cs]. */
export interface BatchedGemmOperand {
  data: TypedView;
  offset: number;
  bs: number;
  rs: number;
  cs: number;
}

export interface BatchedGemmParams {
  deviceType: string;
  dtype: ScalarType;
  batch: number;
  m: number;
  n: number;
  k: number;
  alpha: number;
  beta: number;
  a: BatchedGemmOperand; // batch x m x k
  b: BatchedGemmOperand; // batch x k x n
  c: BatchedGemmOperand; // batch x m x n, read (unless beta == 0) and written
}

export const bmm_stub = new DispatchStub<(p: BatchedGemmParams) => void>("bmm_stub", "aten/src/ATen/native/LinearAlgebra.cpp");

function item(op: BatchedGemmOperand, b: number) {
  return { data: op.data, offset: op.offset + b * op.bs, rs: op.rs, cs: op.cs };
}

bmm_stub.register("ts", (p) => {
  for (let b = 0; b < p.batch; b++) {
    gemm_stub.call(p.deviceType, { dtype: p.dtype, m: p.m, n: p.n, k: p.k, alpha: p.alpha, beta: p.beta, a: item(p.a, b), b: item(p.b, b), c: item(p.c, b) });
  }
});
