// embedding's backward ops (Embedding.cpp): embedding_backward (CompositeImplicitAutograd) picks the dense
// or the sparse form; embedding_dense_backward_cpu sums each grad row into the weight row its index names
// (none into padding_idx), scaled by 1/count of that index when scale_grad_by_freq. Each row is added with
// add_stub (grad_weight[k].add_(grad[i], scale)): in the grad's dtype, one rounding per add, in index order.

import { RuntimeError } from "../../../c10/Errors.js";
import { isFloatingType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { embedding_dense_backward_default } from "../../../generated/embedding_dense_backward.js";
import { zeros_default } from "../../../generated/zeros.js";
import { roundTo } from "../reduce/ReduceUtils.js";
import { hasData, readDense, writeDense } from "../conv/Dense.js";
import { contig } from "../conv/Convolution.js";
import { indexValues } from "./common.js";
import { checkIndices } from "./Embedding.js";

export function embedding_backward_symint(grad: Tensor, indices: Tensor, numWeights: number, paddingIdx: number, scaleGradByFreq: boolean, sparse: boolean): Tensor {
  // at::embedding_sparse_backward returns a sparse COO tensor: Glasstorch has no sparse layout
  if (sparse) throw new RuntimeError("embedding_backward: sparse gradients (sparse=True) need the sparse COO layout, which Glasstorch does not have");
  return embedding_dense_backward_default.call(grad, indices, numWeights, paddingIdx, scaleGradByFreq) as Tensor;
}

type DenseBackwardFn = (gradWeight: Tensor, grad: Tensor, idx: Float64Array, paddingIdx: number, scaleGradByFreq: boolean) => void;
export const embedding_dense_backward_stub = new DispatchStub<DenseBackwardFn>("embedding_dense_backward_cpu", "aten/src/ATen/native/Embedding.cpp");
embedding_dense_backward_stub.register("ts", (gw, grad, idx, paddingIdx, scale) => {
  const D = gw.shape[1];
  const g = readDense(grad);
  const out = new Float64Array(gw.numel());
  const counts = new Map<number, number>();
  if (scale) for (const k of idx) counts.set(k, (counts.get(k) ?? 0) + 1);
  const dt = gw.dtype;
  const integral = !isFloatingType(dt.scalarType);
  for (let i = 0; i < idx.length; i++) {
    const k = idx[i];
    if (k === paddingIdx) continue;
    // the double scale becomes add's alpha in the grad's type (truncated for integers)
    let alpha = scale ? 1 / counts.get(k)! : 1;
    alpha = integral ? Math.trunc(alpha) : roundTo(dt, alpha);
    for (let j = 0; j < D; j++) out[k * D + j] = roundTo(dt, out[k * D + j] + (alpha === 1 ? g[i * D + j] : roundTo(dt, alpha * g[i * D + j])));
  }
  writeDense(gw, out);
});

export function embedding_dense_backward_cpu(grad: Tensor, indices: Tensor, numWeights: number, paddingIdx: number, scaleGradByFreq: boolean): Tensor {
  checkIndices(indices, "#2 'indices'", "embedding_backward");
  const D = grad.shape[grad.dim() - 1];
  const gradWeight = zeros_default.call([numWeights, D], grad.dtype, null, grad.device, null) as Tensor;
  if (!hasData(grad)) return gradWeight; // meta: the size only
  const idx = indexValues(contig(indices));
  if (idx.length > 0 && D > 0) embedding_dense_backward_stub.call("cpu", gradWeight, contig(grad), idx, paddingIdx, scaleGradByFreq);
  return gradWeight;
}
