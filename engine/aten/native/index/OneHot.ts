// one_hot (Onehot.cpp, CompositeImplicitAutograd; torch.nn.functional.one_hot): checks the class
// values (dispatching min/max/item, as PyTorch does), then zeros(shape + [num_classes]) and
// scatter_(-1, self.unsqueeze(-1), 1).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { item_default } from "../../../generated/item.js";
import { max_default } from "../../../generated/max.js";
import { min_default } from "../../../generated/min.js";
import { scatter__value } from "../../../generated/scatter.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { zeros_default } from "../../../generated/zeros.js";

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
