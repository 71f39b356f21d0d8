// index_fill_ / index_fill and masked_fill_ / masked_fill (TensorAdvancedIndexing.cpp; cpu/IndexKernel.cpp:
// index_fill_kernel, masked_fill_kernel). The in-place kernels write one value; the out-of-place ops
// are PyTorch's CompositeExplicitAutograd decompositions (clone, then the in-place op).

import { IndexError, RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { Tensor, type Scalar } from "../../core/Tensor.js";
import { infer_size } from "../../ExpandUtils.js";
import { DispatchStub } from "../DispatchStub.js";
import { has_internal_overlap, assert_no_partial_overlap } from "../MemoryOverlap.js";
import { clone_default } from "../../../generated/clone.js";
import { expand_default } from "../../../generated/expand.js";
import { index_fill__int_Scalar, index_fill__int_Tensor } from "../../../generated/index_fill.js";
import { masked_fill__Scalar, masked_fill__Tensor } from "../../../generated/masked_fill.js";
import { item_default } from "../../../generated/item.js";
import { assert_no_overlap, elements, forEachIndex, hasData, indexValues, list, offsetAt, restride } from "./common.js";

const REF = "aten/src/ATen/native/cpu/IndexKernel.cpp";

// ---- index_fill_ ----

/** The kernel reads the (int64) index tensor itself; an index out of bounds raises when its turn comes. */
export const index_fill_stub = new DispatchStub<(self: Tensor, dim: number, index: Tensor, value: Scalar) => void>("index_fill_stub", REF);
index_fill_stub.register("ts", (self, dim, indexTensor, value) => {
  const index = indexValues(indexTensor);
  const e = elements(self);
  const size = self.size(dim);
  const rest = [...self._impl.sizes()];
  rest[dim] = 1;
  for (let i of index) {
    if (!(i >= -size && i < size)) throw new IndexError(`index ${i} is out of bounds for dimension ${dim} with size ${size}`);
    if (i < 0) i += size;
    forEachIndex(rest, (idx) => {
      const at = [...idx];
      at[dim] = i;
      e.set(offsetAt(self, at), e.st === ScalarType.Long ? BigInt(Math.trunc(Number(value))) : Number(value));
    });
  }
});

/** index_fill_.int_Scalar and .int_Tensor (a 0-dim value tensor) share this kernel. */
export function index_fill_(self: Tensor, dimArg: number, index: Tensor, source: Scalar | Tensor): Tensor {
  if (source instanceof Tensor) {
    if (source.dim() !== 0) throw new RuntimeError(`index_fill_ only supports a 0-dimensional value tensor, but got tensor with ${source.dim()} dimension(s).`);
    if (!hasData(self)) return self;
    source = item_default.call(source) as Scalar;
  }
  if (index.dtype.scalarType !== ScalarType.Long) throw new IndexError("index_fill_(): Expected dtype int64 for index.");
  assert_no_overlap(self, index);
  if (has_internal_overlap(self) === "yes") {
    process.emitWarning(
      "Use of index_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing this operation. This also applies to advanced indexing e.g. tensor[indices] = tensor",
      "UserWarning",
    );
  }
  // a 0-dim self is filled as a 1-element 1-D tensor
  const target = self.dim() === 0 ? restride(self, [1], [1]) : self;
  const dim = maybe_wrap_dim(dimArg, target.dim());
  if (index.dim() > 1) throw new RuntimeError("Index has to be a vector/scalar");
  if (!hasData(self)) return self;
  index_fill_stub.call(self.device.type, target, dim, index, source);
  return self;
}

/** index_fill (CompositeExplicitAutograd): self.clone(Preserve).index_fill_(dim, index, source). */
export function index_fill(self: Tensor, dim: number, index: Tensor, source: Scalar | Tensor): Tensor {
  const copy = clone_default.call(self, "preserve_format") as Tensor;
  const op = source instanceof Tensor ? index_fill__int_Tensor : index_fill__int_Scalar;
  return op.call(copy, dim, index, source) as Tensor;
}

// ---- masked_fill_ ----

export const masked_fill_stub = new DispatchStub<(self: Tensor, mask: Tensor, value: Scalar) => void>("masked_fill_stub", REF);
masked_fill_stub.register("ts", (self, mask, value) => {
  const e = elements(self);
  const bytes = new Uint8Array(mask._impl.storage.buffer());
  const itemsize = mask._impl.dtype.itemsize;
  const v = e.st === ScalarType.Long ? BigInt(Math.trunc(Number(value))) : Number(value);
  const isBool = mask.dtype.scalarType === ScalarType.Bool;
  forEachIndex(self._impl.sizes(), (idx) => {
    const b = bytes[offsetAt(mask, idx) * itemsize];
    if (!isBool && b > 1) throw new RuntimeError("Mask tensor can take 0 and 1 values only");
    if (b !== 0) e.set(offsetAt(self, idx), v);
  });
});

/** masked_fill__cpu (.Scalar and .Tensor): the mask broadcasts to self, which is not resized. */
export function masked_fill__cpu(self: Tensor, mask: Tensor, value: Scalar | Tensor): Tensor {
  if (value instanceof Tensor) {
    if (value.dim() !== 0) throw new RuntimeError(`masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ${value.dim()} dimension(s).`);
    if (!hasData(self)) return masked_fill_impl(self, mask, 0);
    value = item_default.call(value) as Scalar;
  }
  return masked_fill_impl(self, mask, value);
}

function masked_fill_impl(self: Tensor, mask: Tensor, value: Scalar): Tensor {
  // PyTorch 1.13 does not check the mask's dtype here: a bool mask is read as bool, any other as the
  // first byte of each element (uint8_t) — a float mask of 1.0 reads as false on little-endian machines
  const mt = mask.dtype.scalarType;
  if (mt === ScalarType.Byte) {
    process.emitWarning("masked_fill_ received a mask with dtype torch.uint8, this behavior is now deprecated,please use a mask with dtype torch.bool instead.", "UserWarning");
  }
  if (has_internal_overlap(self) === "yes") {
    process.emitWarning(
      "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar",
      "UserWarning",
    );
  }
  assert_no_partial_overlap(self, mask);
  // TensorIterator (resize_outputs(false)): the mask broadcasts to self's shape, self does not grow
  const shape = self._impl.sizes();
  const bshape = infer_size(shape, mask._impl.sizes());
  if (bshape.length !== shape.length || bshape.some((s, i) => s !== shape[i])) {
    throw new RuntimeError(`output with shape ${list(shape)} doesn't match the broadcast shape ${list(bshape)}`);
  }
  if (!hasData(self) || self.numel() === 0) return self;
  const ms = mask._impl.sizes(), mst = mask._impl.strides();
  const off = shape.length - ms.length;
  const bmask = restride(mask, shape, shape.map((s, i) => (i < off || ms[i - off] !== s ? 0 : mst[i - off])));
  masked_fill_stub.call(self.device.type, self, bmask, value);
  return self;
}

/** masked_fill (CompositeExplicitAutograd): expand_outplace(mask, self), clone contiguous, masked_fill_. */
export function masked_fill(self: Tensor, mask: Tensor, value: Scalar | Tensor): Tensor {
  const shape = infer_size(mask._impl.sizes(), self._impl.sizes());
  const same = (t: Tensor) => t.dim() === shape.length && t._impl.sizes().every((s, i) => s === shape[i]);
  // expand_outplace(mask, self): both are expanded unless their sizes are already equal
  const differ = !same(mask) || !same(self);
  if (differ) expand_default.call(mask, shape, false);
  const expanded = differ ? (expand_default.call(self, shape, false) as Tensor) : self;
  const result = clone_default.call(expanded, "contiguous_format") as Tensor;
  const op = value instanceof Tensor ? masked_fill__Tensor : masked_fill__Scalar;
  return op.call(result, mask, value) as Tensor;
}
