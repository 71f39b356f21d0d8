// split, split_with_sizes, chunk, unbind (aten/src/ATen/native/TensorShape.cpp): one tensor into a
// list of views along a dim. split narrows through the dispatcher; split_with_sizes calls
// at::native::slice directly, so its trace shows only the as_strided calls.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { narrow_default } from "../../../generated/narrow.js";
import { select_int } from "../../../generated/select.js";
import { split_Tensor } from "../../../generated/split.js";
import { split_with_sizes_default } from "../../../generated/split_with_sizes.js";
import { slice } from "./Slice.js";

const list = (xs: readonly number[]) => `[${xs.join(", ")}]`;

/**
 * split(split_size, dim): pieces of split_size along dim, the last one smaller. The int[] overload
 * (split.sizes) is split_with_sizes.
 */
export function split(self: Tensor, split_size: number | readonly number[], dim: number): Tensor[] {
  if (typeof split_size !== "number") return split_with_sizes_default.call(self, split_size, dim) as Tensor[];
  if (self.dim() === 0) throw new RuntimeError("split expects at least a 1-dimensional tensor");
  if (split_size < 0) throw new RuntimeError(`split expects split_size be non-negative, but got split_size=${split_size}`);
  const dimSize = self.size(dim);
  if (!(split_size > 0 || dimSize === 0)) {
    throw new RuntimeError(`split_size can only be 0 if dimension size is 0, but got dimension size of ${dimSize}`);
  }
  // at least one piece: a split_size larger than the dim gives the whole dim
  const numSplits = split_size === 0 ? 1 : Math.max(Math.floor((dimSize + split_size - 1) / split_size), 1);
  const lastSplitSize = split_size - (split_size * numSplits - dimSize);
  const pieces: Tensor[] = [];
  for (let i = 0; i < numSplits; i++) {
    const length = i < numSplits - 1 ? split_size : lastSplitSize;
    pieces.push(narrow_default.call(self, dim, i * split_size, length) as Tensor);
  }
  return pieces;
}

export function split_with_sizes(self: Tensor, split_sizes: readonly number[], dim: number): Tensor[] {
  if (self.dim() === 0) throw new RuntimeError("split expects at least a 1-dimensional tensor");
  const dimSize = self.size(dim);
  const pieces: Tensor[] = [];
  let startIdx = 0;
  for (const length of split_sizes) {
    if (length < 0) {
      throw new RuntimeError(`split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=${list(split_sizes)}`);
    }
    pieces.push(slice(self, dim, startIdx, startIdx + length, 1));
    startIdx += length;
  }
  if (startIdx !== dimSize) {
    throw new RuntimeError(
      `split_with_sizes expects split_sizes to sum exactly to ${dimSize} (input tensor's size at dimension ${dim}), but got split_sizes=${list(split_sizes)}`,
    );
  }
  return pieces;
}

/** chunk(chunks, dim): at most `chunks` pieces of equal size (the last smaller). */
export function chunk(self: Tensor, chunks: number, dim: number): Tensor[] {
  if (self.dim() <= 0) throw new RuntimeError("chunk expects at least a 1-dimensional tensor");
  if (chunks <= 0) throw new RuntimeError(`chunk expects \`chunks\` to be greater than 0, got: ${chunks}`);
  const dimSize = self.size(dim);
  const splitSize = Math.floor((dimSize + chunks - 1) / chunks);
  // an empty dim still gives `chunks` (empty) pieces: split would give one
  if (splitSize === 0 && dimSize === 0) {
    const sizes = new Array<number>(chunks).fill(splitSize);
    sizes[chunks - 1] = splitSize - (splitSize * chunks - dimSize);
    return split_with_sizes_default.call(self, sizes, dim) as Tensor[];
  }
  return split_Tensor.call(self, splitSize, dim) as Tensor[];
}

/** unbind(dim): every index along dim, each a select. */
export function unbind(self: Tensor, dim: number): Tensor[] {
  const d = maybe_wrap_dim(dim, self.dim());
  const size = self.size(d);
  const out: Tensor[] = [];
  for (let i = 0; i < size; i++) out.push(select_int.call(self, d, i) as Tensor);
  return out;
}
