// transpose, t, permute, movedim, moveaxis (aten/src/ATen/native/TensorShape.cpp): views that
// reorder dims by reordering sizes and strides; the data does not move.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { as_strided_default } from "../../../generated/as_strided.js";
import { alias_default } from "../../../generated/alias.js";
import { transpose_int } from "../../../generated/transpose.js";
import { permute_default } from "../../../generated/permute.js";
import { movedim_int, movedim_intlist } from "../../../generated/movedim.js";

const list = (xs: readonly number[]) => `[${xs.join(", ")}]`;

export function transpose(self: Tensor, dim0: number, dim1: number): Tensor {
  const ndims = self.dim();
  const d0 = maybe_wrap_dim(dim0, ndims);
  const d1 = maybe_wrap_dim(dim1, ndims);
  if (d0 === d1) return alias_default.call(self) as Tensor;
  const sizes = [...self._impl.sizes()], strides = [...self._impl.strides()];
  [sizes[d0], sizes[d1]] = [sizes[d1], sizes[d0]];
  [strides[d0], strides[d1]] = [strides[d1], strides[d0]];
  return as_strided_default.call(self, sizes, strides, null) as Tensor;
}

/** t: transpose(0, 1) for matrices; vectors and scalars come back as they are (transpose(0, 0)). */
export function t(self: Tensor): Tensor {
  if (self.dim() > 2) throw new RuntimeError(`t() expects a tensor with <= 2 dimensions, but self is ${self.dim()}D`);
  return transpose_int.call(self, 0, self.dim() < 2 ? 0 : 1) as Tensor;
}

export function permute(self: Tensor, dims: readonly number[]): Tensor {
  const ndim = self.dim();
  // (PyTorch's text names sparse_coo: the check is shared with the sparse kernel)
  if (ndim !== dims.length) {
    throw new RuntimeError(
      "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions " +
        `i.e. input.dim() = ${ndim} is not equal to len(dims) = ${dims.length}`,
    );
  }
  const oldSizes = self._impl.sizes(), oldStrides = self._impl.strides();
  const seen = new Array<boolean>(ndim).fill(false);
  const sizes: number[] = [], strides: number[] = [];
  for (const dim of dims) {
    const d = maybe_wrap_dim(dim, ndim);
    if (seen[d]) throw new RuntimeError("permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes.push(oldSizes[d]);
    strides.push(oldStrides[d]);
  }
  return as_strided_default.call(self, sizes, strides, null) as Tensor;
}

/**
 * movedim: the dims in `source` go to the positions in `destination`; the others keep their order.
 * The int overload calls the int[] one through the dispatcher (as at::movedim does).
 */
export function movedim(self: Tensor, source: number | readonly number[], destination: number | readonly number[]): Tensor {
  if (typeof source === "number" || typeof destination === "number") {
    return movedim_intlist.call(self, [source as number], [destination as number]) as Tensor;
  }
  if (source.length !== destination.length) {
    throw new RuntimeError(
      `movedim: Invalid source or destination dims: source (${list(source)} dims) should contain the same number of dims as destination (${list(destination)} dims)`,
    );
  }
  const selfDim = self.dim();
  const src = source.map((d) => maybe_wrap_dim(d, selfDim));
  const dst = destination.map((d) => maybe_wrap_dim(d, selfDim));
  const unique = (ds: number[]) => new Set(ds).size === ds.length;
  if (!unique(src)) throw new RuntimeError(`movedim: repeated dim in \`source\` (${list(source)})`);
  if (!unique(dst)) throw new RuntimeError(`movedim: repeated dim in \`destination\` (${list(destination)})`);
  if (selfDim === 0) return alias_default.call(self) as Tensor;
  const order = new Array<number>(selfDim).fill(-1);
  src.forEach((s, i) => (order[dst[i]] = s));
  // the remaining source dims fill the remaining destination slots, in order
  const restSrc = [...Array(selfDim).keys()].filter((d) => !src.includes(d));
  const restDst = [...Array(selfDim).keys()].filter((d) => !dst.includes(d));
  restDst.forEach((d, i) => (order[d] = restSrc[i]));
  return permute_default.call(self, order) as Tensor;
}

/** moveaxis: NumPy's name for movedim (it calls the movedim overload of the same arguments). */
export function moveaxis(self: Tensor, source: number | readonly number[], destination: number | readonly number[]): Tensor {
  const op = typeof source === "number" ? movedim_int : movedim_intlist;
  return op.call(self, source, destination) as Tensor;
}
