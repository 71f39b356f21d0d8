// mode (aten/src/ATen/native/TensorCompare.cpp, cpu/TensorCompareKernel.cpp): the most frequent value along
// a dim and its index. Each lane's (value, index) pairs are std::sorted by value alone (libstdc++'s
// algorithm, StdAlgorithms.ts, decides which index of a tied run comes last), then the longest run of
// equal values wins, the smallest value on a tie in length, with the index of the run's last element.

import { RuntimeError, IndexError } from "../../../c10/Errors.js";
import { int64, scalarTypeName } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { dimMask, reducedShape, gather, writeAll } from "../reduce/ReduceUtils.js";
import { lanes, hasData, emptyLike, namedPair, type Value, type ValuesIndices } from "./common.js";
import { stdSort } from "../../../c10/util/StdAlgorithms.js";

type ModeKernel = (values: Tensor, indices: Tensor, self: Tensor, dim: number) => void;
export const mode_stub = new DispatchStub<ModeKernel>("mode_stub", "aten/src/ATen/native/cpu/TensorCompareKernel.cpp");
mode_stub.register("ts", (values, indices, self, dim) => {
  const groups = gather(self, dimMask([dim], self.dim()));
  const vs: Value[] = [], is: Value[] = [];
  for (const g of groups) {
    const el = g.map((v, k) => [v, k] as [Value, number]);
    stdSort(el, 0, el.length, (x, y) => x[0] < y[0]);
    // the most frequent run of equal values; the first such run (smallest value) wins ties in frequency
    let mode: Value = 0, modei = 0, temp = 0, maxFreq = 0;
    for (let i = 0; i < el.length; i++) {
      temp++;
      if (i === el.length - 1 || el[i][0] !== el[i + 1][0]) {
        if (temp > maxFreq) [mode, modei, maxFreq] = [el[i][0], el[i][1], temp];
        temp = 0;
      }
    }
    vs.push(mode);
    is.push(BigInt(modei));
  }
  writeAll(values, vs);
  writeAll(indices, is);
});

/** mode_out (TensorCompare.cpp): dtype checks, the empty and 0-d shortcuts, then mode_stub. */
export function mode_out(self: Tensor, dim: number, keepdim: boolean, values: Tensor, indices: Tensor): ValuesIndices {
  if (self.device.type !== "cpu" && self.device.type !== "cuda") throw new RuntimeError(`mode only supports CPU AND CUDA device type, got: ${self.device.type}`);
  if (self.dtype !== values.dtype) {
    throw new RuntimeError(`expected scalar type '${scalarTypeName(self.dtype.scalarType)}' but got '${scalarTypeName(values.dtype.scalarType)}' for values output`);
  }
  if (indices.dtype !== int64) throw new RuntimeError(`expected scalar type 'Long' but got '${scalarTypeName(indices.dtype.scalarType)}' for indices output`);
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  if (self.numel() === 0) {
    if (sizes.length === 0 || sizes[d] === 0) throw new IndexError(`mode(): Expected reduction dim ${d} to have non-zero size.`);
    const shape = reducedShape(sizes, dimMask([d], sizes.length), keepdim);
    resize_output(values, shape);
    resize_output(indices, shape);
    return namedPair(values, indices);
  }
  if (sizes.length === 0) {
    // _dimreduce_return_trivial_no_ident: a 0-d input is its own mode
    resize_output(values, []);
    resize_output(indices, []);
    if (hasData(values)) {
      writeAll(values, lanes(self, 0).groups[0]);
      writeAll(indices, [0n]);
    }
    return namedPair(values, indices);
  }
  const shape = reducedShape(sizes, dimMask([d], sizes.length), keepdim);
  resize_output(values, shape);
  resize_output(indices, shape);
  if (hasData(values)) mode_stub.call(self.device.type, values, indices, self, d);
  return namedPair(values, indices);
}

/** mode (CPU): fresh outs, then at::native::mode_out directly (no dispatcher call). */
export const mode = (self: Tensor, dim: number, keepdim: boolean): ValuesIndices =>
  mode_out(self, dim, keepdim, emptyLike(self, [0], self.dtype), emptyLike(self, [0], int64));
