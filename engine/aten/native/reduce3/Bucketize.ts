// searchsorted and bucketize (aten/src/ATen/native/Bucketization.cpp, BucketizationUtils.h): for every
// input value, the position in its row of the sorted boundaries where it would be inserted — the first
// position whose boundary is >= the value (left) or > the value (right); `sorter` gives the order of an
// unsorted row. Boundaries and input of different dtypes are both converted to their common dtype.
// CPU only in PyTorch 1.13.

import { RuntimeError } from "../../../c10/Errors.js";
import { int32, int64, float64, bool as boolDtype, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl } from "../../core/empty.js";
import { fill_kernel } from "../../cpu/FillKernel.js";
import { toDevice } from "../../../c10/Device.js";
import { Tensor as TensorClass } from "../../core/Tensor.js";
import { result_type } from "../../TypeProperties.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { dimMask, gather, writeAll } from "../reduce/ReduceUtils.js";
import { castTo, type Value } from "./common.js";

const flat = (t: Tensor): Value[] => (t.numel() === 0 ? [] : gather(t, dimMask(null, t.dim()))[0]);
const sizesStr = (t: Tensor): string => `[${t._impl.sizes().join(", ")}]`;

/** searchsorted_pre_check: the argument checks, in PyTorch's order. */
function preCheck(boundaries: Tensor, input: Tensor, output: Tensor, outInt32: boolean, right: boolean, side: string | null, sorter: Tensor | null): void {
  if (side !== null) {
    if (side !== "left" && side !== "right") throw new RuntimeError(`torch.searchsorted(): side can only be 'left' or 'right' but got ${side}`);
    if (right && side !== "right") throw new RuntimeError(`torch.searchsorted(): side and right can't be set to opposites, got side of ${side} while right was True`);
  }
  if (sorter !== null) {
    const [a, b] = [sorter._impl.sizes(), boundaries._impl.sizes()];
    if (a.length !== b.length || a.some((s, i) => s !== b[i])) {
      throw new RuntimeError(`torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor ${sizesStr(boundaries)}and got sorter tensor ${sizesStr(sorter)}`);
    }
    if (sorter.dtype !== int64) throw new RuntimeError(`torch.searchsorted(): sorter must be a tensor of long dtype but got dtype ${scalarTypeName(sorter.dtype.scalarType)}`);
    // (PyTorch 1.13 does not check that the sorter's indices are in range)
  }
  if (!(input.dim() > 0 || (input.dim() === 0 && input.numel() === 1 && boundaries.dim() === 1))) {
    throw new RuntimeError(`torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(${boundaries.dim()}) and input value's dim(${input.dim()}) numel(${input.numel()})`);
  }
  if (boundaries.dim() === 0) throw new RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension");
  const bs = boundaries._impl.sizes(), is = input._impl.sizes();
  const matched = bs.length === is.length && bs.slice(0, -1).every((s, i) => s === is[i]);
  if (!(boundaries.dim() === 1 || matched)) {
    throw new RuntimeError(`torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor ${sizesStr(boundaries)} and input value tensor ${sizesStr(input)}`);
  }
  const od = output.dtype;
  if (!((od === int64 && !outInt32) || (od === int32 && outInt32))) {
    throw new RuntimeError(`torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype ${scalarTypeName(od.scalarType)} and out_int32 flag is ${outInt32 ? "True" : "False"}`);
  }
}

type SearchKernel = (out: Tensor, input: Tensor, boundaries: Tensor, right: boolean, sorter: Tensor | null) => void;
export const searchsorted_stub = new DispatchStub<SearchKernel>("searchsorted", "aten/src/ATen/native/Bucketization.cpp");
searchsorted_stub.register("ts", (out, input, boundaries, right, sorter) => {
  // searchsorted_maybe_trim_input_tensors: both sides in their common dtype
  const common = result_type(input, boundaries);
  const xs = flat(input).map((v) => castTo(common, v));
  const bd = flat(boundaries).map((v) => castTo(common, v));
  const sort = sorter === null ? null : flat(sorter).map(Number);
  const rowLen = boundaries._impl.sizes()[boundaries.dim() - 1];
  const inRow = input.dim() === 0 ? 1 : input._impl.sizes()[input.dim() - 1];
  const oneRow = boundaries.dim() === 1;
  writeAll(out, xs.map((val, i) => {
    let start = oneRow ? 0 : Math.floor(i / inRow) * rowLen;
    let end = start + rowLen;
    const orig = start;
    while (start < end) {
      const mid = start + ((end - start) >> 1);
      const m = sort ? bd[sort[mid] + orig] : bd[mid];
      if (right ? !(m > val) : !(m >= val)) start = mid + 1;
      else end = mid;
    }
    return BigInt(start - orig);
  }));
});

/** searchsorted_out_cpu. */
export function searchsorted_out_cpu(sortedSequence: Tensor, self: Tensor, outInt32: boolean, right: boolean, side: string | null, sorter: Tensor | null, result: Tensor): Tensor {
  preCheck(sortedSequence, self, result, outInt32, right, side, sorter);
  resize_output(result, self._impl.sizes());
  if (self.numel() === 0) return result;
  searchsorted_stub.call(self.device.type, result, self, sortedSequence, side !== null ? side === "right" : right, sorter);
  return result;
}

const emptyIndex = (self: Tensor, outInt32: boolean): Tensor => new TensorClass(empty_impl([0], outInt32 ? int32 : int64, self.device));

export const searchsorted_cpu = (sortedSequence: Tensor, self: Tensor, outInt32: boolean, right: boolean, side: string | null, sorter: Tensor | null): Tensor =>
  searchsorted_out_cpu(sortedSequence, self, outInt32, right, side, sorter, emptyIndex(self, outInt32));

/** searchsorted_scalar_tensor: the Scalar as a 0-d wrapped-number tensor (int64, float64 or bool). */
function scalarTensor(v: number | boolean): Tensor {
  const dt = typeof v === "boolean" ? boolDtype : Number.isInteger(v) ? int64 : float64;
  const impl = empty_impl([], dt, toDevice("cpu"));
  fill_kernel(impl, Number(v));
  impl.is_wrapped_number = true;
  return new TensorClass(impl);
}

export const searchsorted_scalar_cpu = (sortedSequence: Tensor, self: number | boolean, outInt32: boolean, right: boolean, side: string | null, sorter: Tensor | null): Tensor =>
  searchsorted_cpu(sortedSequence, scalarTensor(self), outInt32, right, side, sorter);

/** bucketize_out_cpu: 1-d boundaries, then searchsorted. */
export function bucketize_out_cpu(self: Tensor, boundaries: Tensor, outInt32: boolean, right: boolean, result: Tensor): Tensor {
  if (boundaries.dim() !== 1) throw new RuntimeError(`boundaries tensor must be 1 dimension, but got dim(${boundaries.dim()})`);
  return searchsorted_out_cpu(boundaries, self, outInt32, right, null, null, result);
}
export const bucketize_cpu = (self: Tensor, boundaries: Tensor, outInt32: boolean, right: boolean): Tensor =>
  bucketize_out_cpu(self, boundaries, outInt32, right, emptyIndex(self, outInt32));
export const bucketize_scalar_cpu = (self: number | boolean, boundaries: Tensor, outInt32: boolean, right: boolean): Tensor =>
  bucketize_cpu(scalarTensor(self), boundaries, outInt32, right);
