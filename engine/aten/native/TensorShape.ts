// view (aten/src/ATen/native/TensorShape.cpp, aten/src/ATen/TensorUtils.cpp computeStride):
// a new window onto the same storage, possible only when the new shape can be expressed with strides.

import { RuntimeError } from "../../c10/Errors.js";
import { TensorImpl } from "../../c10/TensorImpl.js";
import { Tensor } from "../core/Tensor.js";

/** infer_size_dv: fill in the one -1 so the sizes multiply to numel. */
export function infer_size(shape: readonly number[], numel: number): number[] {
  let newSize = 1;
  let inferDim = -1;
  shape.forEach((s, d) => {
    if (s === -1) {
      if (inferDim >= 0) throw new RuntimeError("only one dimension can be inferred");
      inferDim = d;
    } else if (s >= 0) newSize *= s;
    else throw new RuntimeError(`invalid shape dimension ${s}`);
  });
  const res = [...shape];
  if (numel === newSize || (inferDim >= 0 && newSize > 0 && numel % newSize === 0)) {
    if (inferDim >= 0) {
      // a zero-size shape with -1 is ambiguous: PyTorch refuses it
      if (newSize === 0) throw new RuntimeError(`cannot reshape tensor of 0 elements into shape [${shape.join(", ")}] because the unspecified dimension size -1 can be any value and is ambiguous`);
      res[inferDim] = numel / newSize;
    }
    return res;
  }
  throw new RuntimeError(`shape '[${shape.join(", ")}]' is invalid for input of size ${numel}`);
}

/**
 * computeStride: walk the old dims from the last, in chunks of dims that are contiguous with each
 * other; each chunk must be covered exactly by a run of new dims. Returns null when impossible.
 */
export function computeStride(oldshape: readonly number[], oldstride: readonly number[], newshape: readonly number[]): number[] | null {
  if (oldshape.length === 0) return new Array<number>(newshape.length).fill(1);
  const numel = oldshape.reduce((a, b) => a * b, 1);
  if (numel === 0 && oldshape.length === newshape.length && oldshape.every((s, i) => s === newshape[i])) return [...oldstride];
  const newstride = new Array<number>(newshape.length).fill(0);
  if (numel === 0) {
    for (let d = newshape.length - 1; d >= 0; d--) {
      newstride[d] = d === newshape.length - 1 ? 1 : Math.max(newshape[d + 1], 1) * newstride[d + 1];
    }
    return newstride;
  }
  let viewD = newshape.length - 1;
  let chunkBaseStride = oldstride[oldstride.length - 1];
  let tensorNumel = 1;
  let viewNumel = 1;
  for (let tensorD = oldshape.length - 1; tensorD >= 0; tensorD--) {
    tensorNumel *= oldshape[tensorD];
    // a chunk ends where the next-outer dim is not laid out right after this one
    if (tensorD === 0 || (oldshape[tensorD - 1] !== 1 && oldstride[tensorD - 1] !== tensorNumel * chunkBaseStride)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newshape[viewD] === 1)) {
        newstride[viewD] = viewNumel * chunkBaseStride;
        viewNumel *= newshape[viewD];
        viewD--;
      }
      if (viewNumel !== tensorNumel) return null;
      if (tensorD > 0) {
        chunkBaseStride = oldstride[tensorD - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  return viewD === -1 ? newstride : null;
}

export function view(self: Tensor, size: readonly number[]): Tensor {
  const impl = self._impl;
  const shape = infer_size(size, impl.numel());
  const stride = computeStride(impl.sizes(), impl.strides(), shape);
  if (stride === null) {
    throw new RuntimeError(
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    );
  }
  // same storage, same version counter: a view sees every write to its base
  const out = new TensorImpl(impl.storage, impl.dtype, shape, stride, impl.storage_offset(), impl.version_counter, impl.key_set);
  return new Tensor(out);
}
