// embedding (Embedding.cpp, CompositeExplicitAutograd) and embedding_renorm_ (Embedding.cpp, CPU).
//   embedding: rows of weight — weight.index_select(0, indices), reshaped for N-d indices.
//   embedding_renorm_: rows named in indices whose norm exceeds max_norm are scaled down in place
//   (F.embedding's max_norm).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, isFloatingType, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { index_select_default } from "../../../generated/index_select.js";
import { reshape_default } from "../../../generated/reshape.js";
import { view_default } from "../../../generated/view.js";
import { roundTo } from "../reduce/ReduceUtils.js";
import { elements, indexValues, offsetAt } from "./common.js";

/** The legacy type name checkScalarTypes prints: torch.FloatTensor (MetaFloatType on meta). */
const legacyName = (t: Tensor): string =>
  t.is_meta ? `Meta${scalarTypeName(t.dtype.scalarType)}Type` : `torch.${scalarTypeName(t.dtype.scalarType)}Tensor`;

export function checkIndices(indices: Tensor, arg: string, fn: string): void {
  const st = indices.dtype.scalarType;
  if (st !== ScalarType.Long && st !== ScalarType.Int) {
    throw new RuntimeError(
      `Expected tensor for argument ${arg} to have one of the following scalar types: Long, Int; but got ${legacyName(indices)} instead (while checking arguments for ${fn})`,
    );
  }
}

export function embedding(weight: Tensor, indices: Tensor, _padding_idx: number, _scale_grad_by_freq: boolean, _sparse: boolean): Tensor {
  if (weight.dim() !== 2) throw new RuntimeError("'weight' must be 2-D");
  checkIndices(indices, "#1 'indices'", "embedding");
  if (indices.dim() === 1) return index_select_default.call(weight, 0, indices) as Tensor;
  const size = [...indices._impl.sizes(), ...weight._impl.sizes().slice(1)];
  const rows = index_select_default.call(weight, 0, reshape_default.call(indices, [-1])) as Tensor;
  return view_default.call(rows, size) as Tensor;
}

export const embedding_renorm_stub = new DispatchStub<(self: Tensor, rows: readonly number[], maxNorm: number, normType: number) => void>(
  "embedding_renorm_cpu_", "aten/src/ATen/native/Embedding.cpp",
);
embedding_renorm_stub.register("ts", (self, rows, maxNorm, p) => {
  const e = elements(self);
  const round = self.dtype.scalarType === ScalarType.Double ? (x: number) => x : Math.fround;
  const n = self.size(1);
  for (const r of rows) {
    const offs = Array.from({ length: n }, (_, j) => offsetAt(self, [r, j]));
    const vals = offs.map((o) => Number(e.get(o)));
    // row.norm(p), accumulated in the row's float type (opmath), as the CPU norm kernel does
    let norm: number;
    if (p === Infinity) norm = Math.max(...vals.map(Math.abs));
    else if (p === 0) norm = vals.filter((v) => v !== 0).length;
    else {
      let acc = 0;
      for (const v of vals) acc = round(acc + round(Math.abs(v) ** p));
      norm = p === 1 ? acc : p === 2 ? round(Math.sqrt(acc)) : round(acc ** (1 / p));
    }
    norm = roundTo(self.dtype, norm); // the norm is a tensor of self's dtype, read back with item<double>()
    if (norm > maxNorm) {
      // row *= scale: the Scalar is converted to the row's dtype (half stays half), the product rounds in float
      const scale = roundTo(self.dtype, maxNorm / (norm + 1e-7));
      offs.forEach((o, j) => e.set(o, round(vals[j] * scale)));
    }
  }
});

/**
 * embedding_renorm_cpu_: each row of self named in indices (once, in sorted order) whose
 * norm_type-norm exceeds max_norm is scaled by max_norm / (norm + 1e-7). CPU only, as in PyTorch.
 */
export function embedding_renorm_cpu_(self: Tensor, indices: Tensor, max_norm: number, norm_type: number): Tensor {
  if (self.dim() !== 2) {
    throw new RuntimeError(`Expected 2-dimensional tensor, but got ${self.dim()}-dimensional tensor for argument #1 'self' (while checking arguments for embedding_renorm_)`);
  }
  checkIndices(indices, "#2 'indices'", "embedding_renorm_");
  if (!isFloatingType(self.dtype.scalarType)) {
    throw new RuntimeError(`norm(): input dtype should be either floating point or complex. Got ${scalarTypeName(self.dtype.scalarType)} instead.`);
  }
  const rows = [...new Set(indexValues(indices))].sort((a, b) => a - b);
  embedding_renorm_stub.call(self.device.type, self, rows, max_norm, norm_type);
  return self;
}
