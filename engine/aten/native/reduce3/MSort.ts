// msort (aten/src/ATen/native/Sorting.cpp), CompositeImplicitAutograd: the values of a sort along dim 0,
// through the dispatcher (sort lives in engine/aten/native/join/Sort.ts).

import { int64 } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { sort_default, sort_values } from "../../../generated/sort.js";
import { empty_memory_format } from "../../../generated/empty.js";

/** msort (CompositeImplicitAutograd): std::get<0>(at::sort(self, 0, false)). */
export const msort = (self: Tensor): Tensor => (sort_default.call(self, 0, false) as Tensor[])[0];
/** msort.out: at::sort_out(values, indices, self, 0, false) with a scratch int64 indices tensor. */
export function msort_out(self: Tensor, out: Tensor): Tensor {
  sort_values.call(self, 0, false, out, empty_memory_format.call([0], int64, null, self.device, null, null));
  return out;
}
