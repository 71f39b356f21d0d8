// topk (aten/src/ATen/native/Sorting.cpp, TopKImpl.h; structured): the k largest (or smallest) along a
// dim. Each lane's (value, index) pairs go through libstdc++'s std::partial_sort when k * 64 <= n, else
// std::nth_element then std::sort of the first k - 1 (when sorted) — reproduced in StdAlgorithms.ts, so
// ties, NaN (counted largest) and the unsorted order come out as PyTorch's CPU kernel leaves them.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, int64 } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { writeAll, type StructuredMode } from "../reduce/ReduceUtils.js";
import { lanes, hasData, isNaNValue, emptyLike, checkOutDtype, notImplementedFor, namedPair, type Value, type ValuesIndices } from "./common.js";
import { stdSort, stdNthElement, stdPartialSort } from "../../../c10/util/StdAlgorithms.js";

/** The two-output structured registration passes one null for both outs: see reduce/ReduceOps.ts outsAndMode. */
const outsAndMode = (second: Tensor | null | StructuredMode, mode: StructuredMode): [Tensor | null, StructuredMode] =>
  typeof second === "string" ? [null, second] : [second, mode];

type TopkKernel = (values: Tensor, indices: Tensor, self: Tensor, k: number, dim: number, largest: boolean, sorted: boolean) => void;
export const topk_stub = new DispatchStub<TopkKernel>("topk_stub", "aten/src/ATen/native/TopKImpl.h");
topk_stub.register("ts", (values, indices, self, k, dim, largest, sorted) => {
  const { groups } = lanes(self, dim);
  const outLanes = lanes(values, dim);
  const vs: Value[] = new Array(values.numel());
  const is: Value[] = new Array(values.numel());
  // NaN counts as the largest value (numpy's order)
  const big = (x: [Value, number], y: [Value, number]) => (isNaNValue(x[0]) && !isNaNValue(y[0])) || x[0] > y[0];
  const small = (x: [Value, number], y: [Value, number]) => (!isNaNValue(x[0]) && isNaNValue(y[0])) || x[0] < y[0];
  const comp = largest ? big : small;
  groups.forEach((g, li) => {
    const q = g.map((v, i) => [v, i] as [Value, number]);
    if (k * 64 <= q.length) {
      stdPartialSort(q, 0, k, q.length, comp); // few of many: a heap of the k best, sorted
    } else {
      stdNthElement(q, 0, k - 1, q.length, comp);
      if (sorted) stdSort(q, 0, k - 1, comp);
    }
    for (let j = 0; j < k; j++) {
      vs[outLanes.at(li, j)] = q[j][0];
      is[outLanes.at(li, j)] = BigInt(q[j][1]);
    }
  });
  writeAll(values, vs);
  writeAll(indices, is);
});

/** TORCH_PRECOMPUTE_META_FUNC(topk) + TORCH_IMPL_FUNC(topk_out_cpu). */
export function topk_out_cpu(self: Tensor, k: number, dim: number, largest: boolean, sorted: boolean,
  valuesArg: Tensor | null, indicesArg: Tensor | null | StructuredMode, modeArg: StructuredMode = "out"): ValuesIndices {
  const [indicesOut, mode] = outsAndMode(indicesArg, modeArg);
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  const sliceSize = sizes.length === 0 ? 1 : sizes[d];
  if (!(k >= 0 && k <= sliceSize)) throw new RuntimeError("selected index k out of range");
  const shape = [...sizes];
  if (shape.length > 0) shape[d] = k;
  let values: Tensor, indices: Tensor;
  if (mode === "out" && valuesArg !== null && indicesOut !== null) {
    checkOutDtype(valuesArg, self.dtype);
    checkOutDtype(indicesOut, int64);
    resize_output(valuesArg, shape);
    resize_output(indicesOut, shape);
    [values, indices] = [valuesArg, indicesOut];
  } else {
    values = emptyLike(self, shape, self.dtype);
    indices = emptyLike(self, shape, int64);
  }
  if (!hasData(values)) return namedPair(values, indices);
  const st = self.dtype.scalarType;
  if (sizes.length > 0 && (st === ScalarType.Half || st === ScalarType.Bool)) throw notImplementedFor("topk_cpu", st);
  if (values.numel() === 0) return namedPair(values, indices);
  if (sizes.length === 0) {
    writeAll(values, lanes(self, 0).groups[0]);
    writeAll(indices, [0n]);
  } else topk_stub.call(self.device.type, values, indices, self, k, d, largest, sorted);
  return namedPair(values, indices);
}
