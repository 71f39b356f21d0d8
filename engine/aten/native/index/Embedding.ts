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

/** The legacy type name checkScalarTypes prints (torch.FloatTensor). */
const legacyName = (t: Tensor): string => `torch.${scalarTypeName(t.dtype.scalarType)}Tensor`;

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
  if (Number((min_default.call(self) as Tensor).item()) < 0) throw new RuntimeError("Class values must be non-negative.");
  const max = Number((max_default.call(self) as Tensor).item());
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
