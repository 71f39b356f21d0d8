// repeat and tile (aten/src/ATen/native/TensorShape.cpp). repeat expands self to the padded shape,
// allocates the result, views it through one unfold per dim so that each window is one copy of
// self, and copies the expanded self into all windows at once. tile pads `dims` with leading 1s
// and calls repeat.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { expand_default } from "../../../generated/expand.js";
import { expand_as_default } from "../../../generated/expand_as.js";
import { alias_default } from "../../../generated/alias.js";
import { unfold_default } from "../../../generated/unfold.js";
import { copy__default } from "../../../generated/copy.js";
import { repeat_default } from "../../../generated/repeat.js";
import { borrow } from "../../../c10/Dispose.js";

export function repeat(self: Tensor, repeats: readonly number[]): Tensor {
  if (repeats.length < self.dim()) {
    throw new RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  }
  const paddedSize = [...new Array<number>(repeats.length - self.dim()).fill(1), ...self._impl.sizes()];
  let zeroTensor = false;
  const targetSize = repeats.map((r, i) => {
    if (r === 0) zeroTensor = true;
    return paddedSize[i] * r;
  });
  const xtensor = expand_default.call(self, paddedSize, false) as Tensor;
  const result = empty_memory_format.call(targetSize, self.dtype, null, self.device, null, null) as Tensor;
  if (zeroTensor) {
    borrow(xtensor._impl);
    return result;
  }
  // the views made here (of self and of the result) are temporaries: they give up their shares
  // (c10/Dispose.ts), so result.dispose() frees the block, as PyTorch's die with the op
  const views = [xtensor, alias_default.call(result) as Tensor];
  for (let i = 0; i < xtensor.dim(); i++) {
    // can't unfold with step 0, so make sure step is at least 1
    views.push(unfold_default.call(views[views.length - 1], i, xtensor.size(i), Math.max(xtensor.size(i), 1)) as Tensor);
  }
  const urtensor = views[views.length - 1];
  views.push(expand_as_default.call(xtensor, urtensor) as Tensor);
  copy__default.call(urtensor, views[views.length - 1], false);
  for (const v of views) borrow(v._impl);
  return result;
}

export function tile(self: Tensor, reps: readonly number[]): Tensor {
  const sizeDiff = self.dim() - reps.length;
  if (sizeDiff > 0) return repeat_default.call(self, [...new Array<number>(sizeDiff).fill(1), ...reps]) as Tensor;
  return repeat_default.call(self, reps) as Tensor;
}
