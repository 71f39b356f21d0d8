// cat (aten/src/ATen/native/TensorShape.cpp: TORCH_PRECOMPUTE_META_FUNC(cat) and TORCH_IMPL_FUNC(cat_out_cpu)).
//
// The meta part checks the list and computes the output: zero-dim inputs are refused, the dim is
// wrapped against the first input that is not a legacy empty tensor (1-D of size 0, which is
// "skipped" everywhere for backwards compatibility), the dtype is the promotion of every input's
// (or out's, if the promoted type casts to it), and every non-skipped input must match the first
// one in all dims but `dim`. The impl part copies each input into its slice of the output with
// copy_stub, taking one of PyTorch's three paths (serial kernel; one restrided iterator when all
// inputs share sizes and strides; a narrow() per input), so a trace shows the same narrow calls.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { canCast, promoteTypes } from "../../../c10/PromoteTypes.js";
import { dtypeOf, isFloatingType, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_cpu, empty_meta } from "../EmptyTensor.js";
import { narrow_default } from "../../../generated/narrow.js";
import { copy_stub } from "../shape/CopyKernel.js";
import { assert_no_internal_overlap } from "../shape/MemoryLayout.js";
import { resize_output } from "../Resize.js";
import { borrow } from "../../../c10/Dispose.js";
import { assert_no_overlap, hasData, rawWindow, sameList, type StructuredMode } from "./common.js";

const GRAIN_SIZE = 32768; // at::internal::GRAIN_SIZE

/** cat_should_skip_tensor: the legacy empty tensor (1-D, size 0). */
export const cat_should_skip_tensor = (t: Tensor): boolean => t.numel() === 0 && t.dim() === 1;

/** legacy_cat_wrap_dim (WrapDimUtils.h): wrap against the first input that is not skipped. */
export function legacy_cat_wrap_dim(dim: number, tensors: readonly Tensor[]): number {
  for (const t of tensors) {
    if (t.dim() === 1 && t.size(0) === 0) continue;
    return maybe_wrap_dim(dim, t.dim());
  }
  return dim;
}

/** check_cat_shape_except_dim */
function check_cat_shape_except_dim(first: Tensor, second: Tensor, dimension: number, index: number): void {
  const fd = first.dim(), sd = second.dim();
  if (fd !== sd) throw new RuntimeError(`Tensors must have same number of dimensions: got ${fd} and ${sd}`);
  for (let d = 0; d < fd; d++) {
    if (d === dimension) continue;
    const a = first.size(d), b = second.size(d);
    if (a !== b) {
      throw new RuntimeError(
        `Sizes of tensors must match except in dimension ${dimension}. Expected size ${a} but got size ${b} for tensor number ${index} in the list.`,
      );
    }
  }
}

export function cat_out_cpu(tensors: readonly Tensor[], dimArg: number, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const outDefined = mode === "out" && out !== null;
  // ---- meta ----
  tensors.forEach((t, i) => {
    if (t.dim() === 0) throw new RuntimeError(`zero-dimensional tensor (at position ${i}) cannot be concatenated`);
  });
  const dim = legacy_cat_wrap_dim(dimArg, tensors);
  if (tensors.length === 0) throw new RuntimeError("torch.cat(): expected a non-empty list of Tensors");
  let valid = tensors.findIndex((t) => !cat_should_skip_tensor(t));
  if (valid < 0) valid = tensors.length;
  // result_type(tensors): every input is at least 1-D here, so the promotion of all their dtypes
  let outType = tensors.map((t) => t.dtype.scalarType).reduce((a, b) => promoteTypes(a, b));
  let allContiguous = true, allSameDtype = true, allSameSizesAndStride = true;
  if (outDefined) {
    if (!canCast(outType, out.dtype.scalarType)) {
      throw new RuntimeError(`torch.cat(): input types can't be cast to the desired output type ${scalarTypeName(out.dtype.scalarType)}`);
    }
    outType = out.dtype.scalarType;
    allContiguous = out.is_contiguous();
  }
  let sizes = [0];
  let device = tensors[0].device;
  if (valid < tensors.length) {
    const first = tensors[valid];
    if (dim > first.dim()) throw new RuntimeError(`torch.cat(): dimension ${dim}out of bounds for ${first.dim()}`);
    let sizeAtDim = 0;
    tensors.forEach((t, i) => {
      allSameDtype = allSameDtype && outType === t.dtype.scalarType;
      if (!cat_should_skip_tensor(t)) {
        check_cat_shape_except_dim(first, t, dim, i);
        sizeAtDim += t.size(dim);
        allContiguous = allContiguous && t.is_contiguous();
        allSameSizesAndStride = allSameSizesAndStride && sameList(t._impl.sizes(), first._impl.sizes()) && sameList(t._impl.strides(), first._impl.strides());
      } else {
        allContiguous = false;
      }
    });
    sizes = [...first._impl.sizes()];
    sizes[dim] = sizeAtDim;
    device = first.device;
  }
  let result: Tensor;
  if (outDefined) {
    resize_output(out, sizes);
    result = out;
    assert_no_internal_overlap(result._impl);
    for (const t of tensors) assert_no_overlap(result._impl, t._impl);
  } else {
    // a structured kernel allocates its output directly (at::detail::empty_cpu / empty_meta), not through the dispatcher
    result = (device.type === "meta" ? empty_meta : empty_cpu)(sizes, dtypeOf(outType), null, device, null, null);
  }
  // ---- impl ----
  if (result.numel() === 0 || !hasData(result)) return result;
  // each window of the result is a temporary that owns no share of its block (c10/Dispose.ts), so the
  // result alone owns it and result.dispose() frees it at once, as PyTorch's slices die with the op
  const copy = (dst: Tensor, src: Tensor) => {
    borrow(dst._impl);
    copy_stub.call(dst.device.type, dst._impl, src._impl);
  };
  const dtypeOfValid = tensors[valid].dtype.scalarType;
  // the serial kernel (cat_serial_stub): one thread, everything contiguous, one floating dtype
  if (allContiguous && allSameDtype && isFloatingType(dtypeOfValid) && result.numel() < GRAIN_SIZE) {
    let offset = 0;
    for (const t of tensors) {
      if (cat_should_skip_tensor(t)) continue;
      const n = t.size(dim);
      copy(rawWindow(result, t._impl.sizes(), result._impl.strides(), result.storage_offset() + offset * result.stride(dim)), t);
      offset += n;
    }
    return result;
  }
  let offset = 0;
  if (allSameSizesAndStride && result.is_contiguous() && allSameDtype) {
    // one result.narrow(dim, 0, size) whose data pointer is moved along for each input
    const n = tensors[valid].size(dim);
    const slice = narrow_default.call(result, dim, 0, n) as Tensor;
    for (const t of tensors) {
      if (cat_should_skip_tensor(t)) continue;
      copy(rawWindow(slice, slice._impl.sizes(), slice._impl.strides(), slice.storage_offset() + offset * result.stride(dim)), t);
      offset += n;
    }
    borrow(slice._impl);
    return result;
  }
  for (const t of tensors) {
    if (cat_should_skip_tensor(t)) continue;
    const n = t.size(dim);
    copy(narrow_default.call(result, dim, offset, n) as Tensor, t);
    offset += n;
  }
  return result;
}
