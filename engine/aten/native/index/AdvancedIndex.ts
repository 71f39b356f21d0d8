// make_info and AdvancedIndex (aten/src/ATen/native/TensorAdvancedIndexing.cpp, IndexingUtils.h):
// how index / index_put_ turn `self[i0, i1, ...]` with index tensors into one strided walk.
//  1. checkIndexTensorTypes: only long, byte and bool index tensors.
//  2. expandTensors: a bool/byte mask becomes its nonzero() coordinates, one long index per mask dim.
//  3. the index tensors broadcast together; missing trailing indices are null (":").
//  4. if the non-null indices are not adjacent, self and the indices are transposed to the front
//     (so x[:, i, :, j] puts the indexed dims first in the result, as NumPy does).
//  5. the result shape is self's dims before the indexed ones, then the broadcast index shape, then
//     the dims after; src is self.as_strided to that shape with stride 0 over the index shape, and
//     each index is reshaped to line up with it (the views PyTorch dispatches, in its order).

import { IndexError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { broadcast_shapes } from "../../ExpandUtils.js";
import { nonzero_default } from "../../../generated/nonzero.js";
import { select_int } from "../../../generated/select.js";
import { expand_default } from "../../../generated/expand.js";
import { permute_default } from "../../../generated/permute.js";
import { as_strided_default } from "../../../generated/as_strided.js";
import { reshape_default } from "../../../generated/reshape.js";
import { indexValues, list } from "./common.js";

export type OptTensor = Tensor | null | undefined;

export interface AdvancedIndex {
  /** self, transposed when the indexed dims were not adjacent */
  self: Tensor;
  /** self restrided to the result shape (stride 0 across the index shape) */
  src: Tensor;
  /** the broadcast index tensors' values, each laid out in the index shape (row-major) */
  indexValues: Float64Array[];
  indexShape: number[];
  indexedSizes: number[];
  indexedStrides: number[];
  dimsBefore: number;
  dimsAfter: number;
  /** the index tensors, broadcast to indexShape and reshaped like reshape_indexer (for output layout) */
  indexers: Tensor[];
  /** what make_info made (views, a mask's nonzero indices): end_index disposes them */
  temporaries: Tensor[];
}

/** checkIndexTensorTypes (IndexingUtils.h) */
function checkIndexTensorTypes(indices: readonly OptTensor[]): void {
  for (const t of indices) {
    if (!t) continue;
    const st = t.dtype.scalarType;
    if (st !== ScalarType.Long && st !== ScalarType.Byte && st !== ScalarType.Bool) {
      throw new IndexError("tensors used as indices must be long, byte or bool tensors");
    }
  }
}

/** expandTensors (IndexingUtils.h): masks become long indices through nonzero (dispatched, as in PyTorch). */
function expandTensors(self: Tensor, indices: readonly OptTensor[]): OptTensor[] {
  const result: OptTensor[] = [];
  for (const index of indices) {
    if (!index) {
      result.push(null);
      continue;
    }
    const st = index.dtype.scalarType;
    if (st !== ScalarType.Byte && st !== ScalarType.Bool) {
      result.push(index);
      continue;
    }
    if (st === ScalarType.Byte) {
      process.emitWarning("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.", "UserWarning");
    }
    // the sizes of the mask must match the sizes of the dims it indexes
    for (let j = 0; j < index.dim(); j++) {
      const srcIdx = result.length + j;
      if (index.size(j) !== self.size(srcIdx)) {
        throw new IndexError(
          `The shape of the mask ${list(index._impl.sizes())} at index ${j} does not match the shape of the indexed tensor ${list(self._impl.sizes())} at index ${srcIdx}`,
        );
      }
    }
    const nonzero = nonzero_default.call(index) as Tensor;
    for (let j = 0; j < index.dim(); j++) result.push(select_int.call(nonzero, 1, j) as Tensor);
  }
  return result;
}

const hasContiguousSubspace = (ix: readonly OptTensor[]): boolean => {
  const first = ix.findIndex((t) => !!t);
  let last = -1;
  ix.forEach((t, i) => t && (last = i));
  for (let i = first; i <= last; i++) if (!ix[i]) return false;
  return true;
};

/** transposeToFront: self.permute(indexed dims first, in order, then the others). */
function transposeToFront(self: Tensor, indices: OptTensor[]): [Tensor, OptTensor[]] {
  const dims: number[] = [];
  const tIdx: OptTensor[] = [];
  indices.forEach((t, i) => t && (dims.push(i), tIdx.push(t)));
  indices.forEach((t, i) => !t && (dims.push(i), tIdx.push(null)));
  return [permute_default.call(self, dims) as Tensor, tIdx];
}

/** make_info: checks, mask expansion, broadcasting and transposition; then the AdvancedIndex walk. */
export function make_info(selfIn: Tensor, orig: readonly OptTensor[]): AdvancedIndex {
  checkIndexTensorTypes(orig);
  let indices = expandTensors(selfIn, orig);
  const defined = indices.filter((t): t is Tensor => !!t);
  let indexShape: number[];
  try {
    indexShape = broadcast_shapes(...defined.map((t) => [...t._impl.sizes()]));
  } catch {
    throw new IndexError(`shape mismatch: indexing tensors could not be broadcast together with shapes ${defined.map((t) => list(t._impl.sizes())).join(", ")}`);
  }
  // expand_outplace: each index tensor whose sizes differ is expanded to the common shape
  const sameShape = (t: Tensor) => t.dim() === indexShape.length && t._impl.sizes().every((v, i) => v === indexShape[i]);
  indices = indices.map((t) => (!t ? null : sameShape(t) ? t : (expand_default.call(t, indexShape, false) as Tensor)));
  while (indices.length < selfIn.dim()) indices.push(null);
  let self = selfIn;
  if (!hasContiguousSubspace(indices)) [self, indices] = transposeToFront(self, indices);
  const info = advancedIndex(self, indices, indexShape);
  const given = new Set<OptTensor>([selfIn, ...orig]);
  info.temporaries = [...new Set([info.self, info.src, ...indices, ...info.indexers])].filter((t): t is Tensor => !!t && !given.has(t));
  return info;
}

/**
 * The end of an indexing op: make_info's temporaries are disposed, as PyTorch's die when the op returns
 * (c10/Dispose.ts), so they keep no share of self's or the indices' blocks, and a mask's nonzero
 * indices are freed at once.
 */
export function end_index(info: AdvancedIndex): void {
  for (const t of info.temporaries) t.dispose();
}

/** An AdvancedIndex whose index values are read when a kernel first asks (meta tensors hold none). */
class AdvancedIndexInfo implements AdvancedIndex {
  temporaries: Tensor[] = [];
  private values: Float64Array[] | null = null;
  constructor(
    readonly self: Tensor, readonly src: Tensor, readonly indexShape: number[], readonly indexedSizes: number[],
    readonly indexedStrides: number[], readonly dimsBefore: number, readonly dimsAfter: number, readonly indexers: Tensor[],
    private readonly defined: Tensor[],
  ) {}
  get indexValues(): Float64Array[] {
    return (this.values ??= this.defined.map(indexValues));
  }
}

function advancedIndex(self: Tensor, indices: readonly OptTensor[], indexShape: number[]): AdvancedIndex {
  let dimsBefore = 0, dimsAfter = 0, dimsIndexed = 0;
  const indexedSizes: number[] = [], indexedStrides: number[] = [];
  const defined: Tensor[] = [];
  const sizes = self._impl.sizes(), strides = self._impl.strides();
  for (let dim = 0; dim < indices.length; dim++) {
    const t = indices[dim];
    if (!t) {
      if (dimsIndexed === 0) dimsBefore++;
      else dimsAfter++;
    } else {
      dimsIndexed++;
      indexedSizes.push(sizes[dim]);
      indexedStrides.push(strides[dim]);
      defined.push(t);
    }
  }
  // an indexed dim of size 0 with a non-empty index: every index is out of bounds
  if (indexedSizes.includes(0) && !indexShape.includes(0)) {
    throw new IndexError("index is out of bounds for dimension with size 0");
  }
  // restride_src: self's dims before, the index shape (stride 0), self's dims after
  const after = dimsBefore + dimsIndexed;
  const srcSizes: number[] = [], srcStrides: number[] = [];
  for (let d = 0; d < dimsBefore; d++) srcSizes.push(sizes[d]), srcStrides.push(strides[d]);
  for (let d = 0; d < indexShape.length; d++) srcSizes.push(indexShape[d]), srcStrides.push(0);
  for (let d = after; d < sizes.length; d++) srcSizes.push(sizes[d]), srcStrides.push(strides[d]);
  const src = as_strided_default.call(self, srcSizes, srcStrides, self._impl.storage_offset()) as Tensor;
  // reshape_indexer: the index shape placed between size-1 dims, for TensorIterator to broadcast
  const indexerShape: number[] = [];
  for (let d = 0; d < dimsBefore; d++) indexerShape.push(1);
  for (let d = 0; d < indexShape.length; d++) indexerShape.push(indexShape[d]);
  for (let d = 0; d < dimsAfter; d++) indexerShape.push(1);
  const indexers = defined.map((t) => reshape_default.call(t, indexerShape.slice()) as Tensor);
  return new AdvancedIndexInfo(self, src, indexShape, indexedSizes, indexedStrides, dimsBefore, dimsAfter, indexers, defined);
}

/**
 * The storage offset (relative to src's offset) that one position of the index shape selects, with
 * the kernel's bounds check (cpu_index_kernel's Indexer: dimension = the indexer's position).
 */
export function indexedOffset(info: AdvancedIndex, k: number): number {
  let off = 0;
  for (let j = 0; j < info.indexValues.length; j++) {
    let v = info.indexValues[j][k];
    const size = info.indexedSizes[j];
    if (!(v >= -size && v < size)) throw new IndexError(`index ${v} is out of bounds for dimension ${j} with size ${size}`);
    if (v < 0) v += size;
    off += v * info.indexedStrides[j];
  }
  return off;
}
