// index_put_ / index_put / _index_put_impl_ (TensorAdvancedIndexing.cpp; cpu/IndexKernel.cpp:
// index_put_kernel). self[indices] = values, or += with accumulate=True (duplicate indices then add up;
// without accumulate the last write wins, as the serial CPU loop does). A single bool mask with a
// one-element CPU value goes to masked_fill_ instead (canDispatchToMaskedFill), as in PyTorch.

import { IndexError, RuntimeError } from "../../../c10/Errors.js";
import { scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { DispatchStub } from "../DispatchStub.js";
import { has_internal_overlap } from "../MemoryOverlap.js";
import { _index_put_impl__default } from "../../../generated/_index_put_impl.js";
import { index_put__default } from "../../../generated/index_put.js";
import { clone_default } from "../../../generated/clone.js";
import { masked_fill__Scalar } from "../../../generated/masked_fill.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { item_default } from "../../../generated/item.js";
import { make_info, end_index, type AdvancedIndex, type OptTensor } from "./AdvancedIndex.js";
import { forEachIndexed } from "./IndexTensor.js";
import { arith, assert_no_overlap, elements, hasData, isMask, list, offsetAt, restride } from "./common.js";

const REF = "aten/src/ATen/native/cpu/IndexKernel.cpp";

/** index_put_stub: writes (or adds) value, broadcast over the indexing result, into self's selected elements. */
export const index_put_stub = new DispatchStub<(info: AdvancedIndex, value: Tensor, accumulate: boolean) => void>("index_put_stub", REF);
index_put_stub.register("ts", (info, value, accumulate) => {
  const dst = elements(info.src), v = elements(value);
  const add = arith(info.src.dtype).add;
  forEachIndexed(info, (idx, off) => {
    const x = v.get(offsetAt(value, idx));
    dst.set(off, accumulate ? add(dst.get(off), x) : x);
  });
});

/** is_expandable_to (ExpandUtils.h): shape broadcasts to desired without changing desired. */
function is_expandable_to(shape: readonly number[], desired: readonly number[]): boolean {
  if (shape.length > desired.length) return false;
  for (let i = 0; i < shape.length; i++) {
    const s = shape[shape.length - 1 - i], t = desired[desired.length - 1 - i];
    if (s !== t && s !== 1) return false;
  }
  return true;
}

/** canDispatchToMaskedFill: exactly one bool/byte mask (the other indices null) and a one-element CPU value. */
function canDispatchToMaskedFill(self: Tensor, indices: readonly OptTensor[], value: Tensor): Tensor | null {
  if (!(value.numel() === 1 && value.device.type === "cpu")) return null;
  let numInd = 0;
  let mask: Tensor | null = null;
  for (const index of indices) {
    if (!index) {
      numInd++;
      continue;
    }
    if (!isMask(index) || index.device.type !== self.device.type || mask) return null;
    mask = index;
    for (let j = 0; j < index.dim(); j++) {
      const srcIdx = numInd + j;
      if (index.size(j) !== self.size(srcIdx)) {
        throw new IndexError(
          `The shape of the mask ${list(index._impl.sizes())} at index ${j} does not match the shape of the indexed tensor ${list(self._impl.sizes())} at index ${srcIdx}`,
        );
      }
    }
    numInd += mask.dim();
  }
  if (!mask) return null; // all indices null: no mask to fill through
  for (let i = numInd; i < self.dim(); i++) mask = unsqueeze_default.call(mask, -1) as Tensor;
  return mask;
}

export function _index_put_impl_(self: Tensor, indices: readonly OptTensor[], value: Tensor, accumulate: boolean, _unsafe: boolean): Tensor {
  if (indices.length > self.dim()) {
    throw new IndexError(`too many indices for tensor of dimension ${self.dim()} (got ${indices.length})`);
  }
  if (has_internal_overlap(self) === "yes") {
    process.emitWarning(
      "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before performing this operation. This also applies to advanced indexing e.g. tensor[indices] = tensor",
      "UserWarning",
    );
  }
  if (!accumulate) {
    const mask = canDispatchToMaskedFill(self, indices, value);
    if (mask) return masked_fill__Scalar.call(self, mask, item_default.call(value)) as Tensor;
  }
  assert_no_overlap(self, value);
  for (const index of indices) if (index) assert_no_overlap(self, index);
  const info = make_info(self, indices);
  // make_index_put_iterator's checks
  const shape = info.src._impl.sizes();
  if (!is_expandable_to(value._impl.sizes(), shape)) {
    throw new RuntimeError(`shape mismatch: value tensor of shape ${list(value._impl.sizes())} cannot be broadcast to indexing result of shape ${list(shape)}`);
  }
  if (value.dtype !== info.src.dtype) {
    throw new RuntimeError(
      `Index put requires the source and destination dtypes match, got ${scalarTypeName(info.src.dtype.scalarType)} for the destination and ${scalarTypeName(value.dtype.scalarType)} for the source.`,
    );
  }
  if (!hasData(self) || info.src.numel() === 0) {
    end_index(info);
    return self;
  }
  // the value broadcast over the indexing result (stride 0 on its broadcast dims)
  const vs = value._impl.sizes(), vst = value._impl.strides();
  const off = shape.length - vs.length;
  const bValue = restride(value, shape, shape.map((s, i) => (i < off || vs[i - off] !== s ? 0 : vst[i - off])));
  index_put_stub.call(self.device.type, info, bValue, accumulate);
  end_index(info);
  return self;
}

/** index_put_ (CompositeExplicitAutograd): at::_index_put_impl_(self, indices, values, accumulate, unsafe=false). */
export function index_put_(self: Tensor, indices: readonly OptTensor[], values: Tensor, accumulate: boolean): Tensor {
  return _index_put_impl__default.call(self, indices, values, accumulate, false) as Tensor;
}

/** index_put (CompositeExplicitAutograd): self.clone(Preserve).index_put_(indices, values, accumulate). */
export function index_put(self: Tensor, indices: readonly OptTensor[], values: Tensor, accumulate: boolean): Tensor {
  const copy = clone_default.call(self, "preserve_format") as Tensor;
  return index_put__default.call(copy, indices, values, accumulate) as Tensor;
}
