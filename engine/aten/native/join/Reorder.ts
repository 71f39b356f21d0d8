// flip and roll (aten/src/ATen/native/TensorTransformations.cpp).
// flip writes a new tensor laid out like self (empty_like, preserve_format) with the chosen dims
// reversed; roll along one dim is cat(narrow(start..), narrow(..start)), several dims roll one at a
// time, and no dim rolls the flattened tensor.

import { borrow, end_composite } from "../../../c10/Dispose.js";
import { forEachIndex } from "../../../c10/ElementAccess.js";
export { forEachIndex };
import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { empty_strided_default } from "../../../generated/empty_strided.js";
import { clone_default } from "../../../generated/clone.js";
import { contiguous_default } from "../../../generated/contiguous.js";
import { narrow_default } from "../../../generated/narrow.js";
import { view_default } from "../../../generated/view.js";
import { roll_default } from "../../../generated/roll.js";
import { cat_default } from "../../../generated/cat.js";
import { hasData } from "./common.js";
import { DispatchStub } from "../DispatchStub.js";


const offsetOf = (t: Tensor, idx: readonly number[]): number => {
  const st = t._impl.strides();
  let o = t._impl.storage_offset();
  for (let d = 0; d < idx.length; d++) o += idx[d] * st[d];
  return o;
};

function flipDims(self: Tensor, dims: readonly number[], meta: boolean): boolean[] {
  const nd = self.dim();
  const flipped = new Array<boolean>(Math.max(nd, 1)).fill(false);
  for (const d of dims) {
    const w = maybe_wrap_dim(d, nd);
    if (flipped[w]) throw new RuntimeError(meta ? "duplicate value in the list of dims" : `dim ${w} appears multiple times in the list of dims`);
    flipped[w] = true;
  }
  return flipped;
}

/**
 * flip_stub (cpu/IndexKernel.cpp flip_kernel): out[i] = self[i with the flipped dims' indices reversed],
 * out shaped as self. A native kernel may take it (a copy from self read backwards along those dims).
 */
export const flip_stub = new DispatchStub<(out: Tensor, self: Tensor, flipped: readonly boolean[]) => void>("flip_stub", "aten/src/ATen/native/cpu/IndexKernel.cpp");
flip_stub.register("ts", (out, self, flipped) => {
  const src = typedView(self._impl.storage, self.dtype) as unknown as unknown[];
  const dst = typedView(out._impl.storage, out.dtype) as unknown as unknown[];
  const sizes = self._impl.sizes();
  const from = new Array<number>(sizes.length);
  forEachIndex(sizes, (idx) => {
    for (let d = 0; d < idx.length; d++) from[d] = flipped[d] ? sizes[d] - 1 - idx[d] : idx[d];
    dst[offsetOf(out, idx)] = src[offsetOf(self, from)];
  });
});

export function flip(self: Tensor, dims: readonly number[]): Tensor {
  const flipped = flipDims(self, dims, self.is_meta);
  const out = empty_like_default.call(self, null, null, null, null, null) as Tensor;
  if (!hasData(out) || out.numel() === 0) return out;
  flip_stub.call(self.device.type, out, self, flipped);
  return out;
}

/** The Python meta kernel keeps self's strides as they are (even an expanded dim's 0). */
export function flip_meta(self: Tensor, dims: readonly number[]): Tensor {
  flipDims(self, dims, true);
  return empty_strided_default.call([...self._impl.sizes()], [...self._impl.strides()], self.dtype, null, self.device, null) as Tensor;
}

/** roll_common: no dim rolls the flattened tensor; several dims roll one after another. */
function roll_common(self: Tensor, shifts: readonly number[], dims: readonly number[]): Tensor {
  if (shifts.length === 0) throw new RuntimeError("`shifts` required");
  if (dims.length === 0 && shifts.length === 1) {
    // Tensor::contiguous() dispatches only when a copy is needed
    const c = self.is_contiguous() ? self : (contiguous_default.call(self, null) as Tensor);
    const flattened = view_default.call(c, [self.numel()]) as Tensor;
    const rolled = roll_default.call(flattened, [shifts[0]], [0]) as Tensor;
    const result = view_default.call(rolled, [...self._impl.sizes()]) as Tensor;
    // the temporaries die here, as PyTorch's: result alone owns its block (c10/Dispose.ts)
    borrow(flattened._impl);
    if (c !== self) c.dispose();
    end_composite([rolled], [result]);
    return result;
  }
  if (shifts.length !== dims.length) {
    throw new RuntimeError(`shifts and dimensions must align. shifts: ${shifts.length}, dims:${self.is_meta ? " " : ""}${dims.length}`);
  }
  const firstDimRolled = roll_default.call(self, [shifts[0]], [dims[0]]) as Tensor;
  const result = roll_default.call(firstDimRolled, shifts.slice(1), dims.slice(1)) as Tensor;
  if (firstDimRolled !== result) firstDimRolled.dispose();
  return result;
}

export function roll_cpu(self: Tensor, shiftsArg: number | readonly number[], dimsArg: number | readonly number[]): Tensor {
  const shifts = typeof shiftsArg === "number" ? [shiftsArg] : shiftsArg;
  const dims = typeof dimsArg === "number" ? [dimsArg] : dimsArg;
  if (dims.length !== 1 || shifts.length !== 1) return roll_common(self, shifts, dims);
  // avoid a division by zero below
  if (self.numel() === 0) return clone_default.call(self, "preserve_format") as Tensor;
  const dim = dims[0];
  const size = self.size(dim);
  let start = (size - shifts[0]) % size; // C++ %: the sign of the dividend
  if (start < 0) start += size;
  const t0 = narrow_default.call(self, dim, start, size - start) as Tensor;
  const t1 = narrow_default.call(self, dim, 0, start) as Tensor;
  const result = cat_default.call([t0, t1], dim) as Tensor;
  borrow(t0._impl);
  borrow(t1._impl);
  return result;
}

export function roll_meta(self: Tensor, shifts: number | readonly number[], dims: number | readonly number[]): Tensor {
  return roll_cpu(self, shifts, dims);
}
