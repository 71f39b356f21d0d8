// embedding (Embedding.cpp, CompositeExplicitAutograd) and one_hot (Onehot.cpp, CompositeImplicitAutograd):
// both are decompositions into other ops, so the dispatch trace shows what PyTorch runs.
//   embedding: rows of weight — weight.index_select(0, indices), reshaped for N-d indices.
//   one_hot:   zeros(shape + [num_classes]).scatter_(-1, self.unsqueeze(-1), 1).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { index_select_default } from "../../../generated/index_select.js";
import { reshape_default } from "../../../generated/reshape.js";
import { view_default } from "../../../generated/view.js";
import { min_default } from "../../../generated/min.js";
import { max_default } from "../../../generated/max.js";
import { zeros_default } from "../../../generated/zeros.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { scatter__value } from "../../../generated/scatter.js";
import { DispatchStub } from "../DispatchStub.js";
import { _local_scalar_dense_default } from "../../../generated/_local_scalar_dense.js";
import { item_default } from "../../../generated/item.js";
import { elements, indexValues, offsetAt } from "./common.js";

/** The legacy type name checkScalarTypes prints (torch.FloatTensor). */
const legacyName = (t: Tensor): string =>
  t.is_meta ? `Meta${scalarTypeName(t.dtype.scalarType)}Type` : `torch.${scalarTypeName(t.dtype.scalarType)}Tensor`;

export function embedding(weight: Tensor, indices: Tensor, _padding_idx: number, _scale_grad_by_freq: boolean, _sparse: boolean): Tensor {
  if (weight.dim() !== 2) throw new RuntimeError("'weight' must be 2-D");
  const st = indices.dtype.scalarType;
  if (st !== ScalarType.Long && st !== ScalarType.Int) {
    throw new RuntimeError(
      `Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ${legacyName(indices)} instead (while checking arguments for embedding)`,
    );
  }
  if (indices.dim() === 1) return index_select_default.call(weight, 0, indices) as Tensor;
  const size = [...indices._impl.sizes(), ...weight._impl.sizes().slice(1)];
  const rows = index_select_default.call(weight, 0, reshape_default.call(indices, [-1])) as Tensor;
  return view_default.call(rows, size) as Tensor;
}

export function one_hot(self: Tensor, numClassesArg: number): Tensor {
  let numClasses = numClassesArg;
  if (self.dtype.scalarType !== ScalarType.Long) throw new RuntimeError("one_hot is only applicable to index tensor.");
  const shape = [...self._impl.sizes()];
  // empty tensor could be converted to one hot representation, but shape inference is not possible.
  if (self.numel() === 0) {
    if (numClasses <= 0) throw new RuntimeError("Can not infer total number of classes from empty tensor.");
    return empty_memory_format.call([...shape, numClasses], self.dtype, null, self.device, null, null) as Tensor;
  }
  if (self.is_meta) throw new RuntimeError("Can not infer total number of classes from meta tensor.");
  if (Number(item_default.call(min_default.call(self))) < 0) throw new RuntimeError("Class values must be non-negative.");
  const max = Number(item_default.call(max_default.call(self)));
  if (numClasses === -1) numClasses = max + 1;
  else if (!(numClasses > max)) throw new RuntimeError("Class values must be smaller than num_classes.");
  const ret = zeros_default.call([...shape, numClasses], self.dtype, null, self.device, null) as Tensor;
  scatter__value.call(ret, -1, unsqueeze_default.call(self, -1), 1);
  return ret;
}

/** lift_fresh (CompositeExplicitAutograd): returns self — a marker PyTorch's tensor constructors dispatch. */
export function lift_fresh(self: Tensor): Tensor {
  return self;
}

/** empty.names (TensorFactories.cpp, CompositeExplicitAutograd): without names it is at::empty. */
export function empty_names(
  size: readonly number[], names: readonly string[] | null, dtype: unknown, layout: unknown, device: unknown, pin_memory: unknown, memory_format: unknown,
): Tensor {
  if (names !== null && names !== undefined) throw new RuntimeError("empty.names: named tensors are not supported in Glasstorch (names must be None)");
  return empty_memory_format.call(size, dtype, layout, device, pin_memory, memory_format) as Tensor;
}

/**
 * embedding_renorm_cpu_ (Embedding.cpp): each row of self named in indices (once, in sorted order)
 * whose norm_type-norm exceeds max_norm is scaled by max_norm / (norm + 1e-7). CPU only, as in PyTorch.
 */
export function embedding_renorm_cpu_(self: Tensor, indices: Tensor, max_norm: number, norm_type: number): Tensor {
  if (self.dim() !== 2) throw new RuntimeError(`Expected 2-dimensional tensor, but got ${self.dim()}-dimensional tensor for argument #1 'self' (while checking arguments for embedding_renorm_)`);
  const st = indices.dtype.scalarType;
  if (st !== ScalarType.Long && st !== ScalarType.Int) {
    throw new RuntimeError(
      `Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; but got ${legacyName(indices)} instead (while checking arguments for embedding_renorm_)`,
    );
  }
  const rows = [...new Set(indexValues(indices))].sort((a, b) => a - b);
  embedding_renorm_stub.call(self.device.type, self, rows, max_norm, norm_type);
  return self;
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
    // row.norm(p): accumulated in the row's float type (opmath), as the CPU norm kernel does
    let norm: number;
    if (p === Infinity) norm = Math.max(...vals.map(Math.abs));
    else if (p === 0) norm = vals.filter((v) => v !== 0).length;
    else {
      let acc = 0;
      for (const v of vals) acc = round(acc + round(Math.abs(v) ** p));
      norm = p === 1 ? acc : p === 2 ? round(Math.sqrt(acc)) : round(acc ** (1 / p));
    }
    if (norm > maxNorm) {
      const scale = round(maxNorm / (norm + 1e-7));
      offs.forEach((o, j) => e.set(o, vals[j] * scale));
    }
  }
});

/** item (Scalar.cpp, CompositeImplicitAutograd): at::_local_scalar_dense(self). */
export function item(self: Tensor): number | boolean {
  return _local_scalar_dense_default.call(self) as number | boolean;
}

/** _local_scalar_dense_cpu (Scalar.cpp): the one element of self as a Scalar. */
export function _local_scalar_dense_cpu(self: Tensor): number | boolean {
  return self.item();
}

/** fill_meta_ (Fill.cpp): fill_.Tensor on meta checks the value's dim and writes nothing. */
export function fill_meta_(self: Tensor, value: Tensor | number | boolean): Tensor {
  if (typeof value === "object" && value.dim() !== 0) {
    throw new RuntimeError(`fill_ only supports 0-dimension value tensor but got tensor with ${value.dim()} dimensions.`);
  }
  return self;
}
