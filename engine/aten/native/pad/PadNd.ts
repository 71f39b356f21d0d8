// Padding by composition (aten/src/ATen/native/PadNd.cpp): constant_pad_nd (negative pads crop with
// narrow), _pad_circular (slices copied around), and the two entry points torch.nn.functional.pad
// reaches: pad (the mode as a string) -> _pad_enum (the mode as an enum), which picks constant_pad_nd,
// reflection_padNd, replication_padNd or _pad_circular by the pad length and input rank.
// pad calls at::native::_pad_enum directly (a C++ call, not a dispatch), as PyTorch 1.13 does.

import { RuntimeError, NotImplementedError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { borrow } from "../../../c10/Dispose.js";
import { narrow_default } from "../../../generated/narrow.js";
import { clone_default } from "../../../generated/clone.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { copy__default } from "../../../generated/copy.js";
import { slice_Tensor } from "../../../generated/slice.js";
import { _pad_circular_default } from "../../../generated/_pad_circular.js";
import { reflection_pad1d_default } from "../../../generated/reflection_pad1d.js";
import { reflection_pad2d_default } from "../../../generated/reflection_pad2d.js";
import { reflection_pad3d_default } from "../../../generated/reflection_pad3d.js";
import { replication_pad1d_default } from "../../../generated/replication_pad1d.js";
import { replication_pad2d_default } from "../../../generated/replication_pad2d.js";
import { replication_pad3d_default } from "../../../generated/replication_pad3d.js";
import { constant_pad_nd_default } from "../../../generated/constant_pad_nd.js";

const narrow = (t: Tensor, dim: number, start: number, length: number): Tensor => narrow_default.call(t, dim, start, length) as Tensor;

/** constant_pad_nd (CompositeExplicitAutograd): pads from the last dim backwards, [left, right] per dim. */
export function constant_pad_nd(self: Tensor, pad: readonly number[], value: number | boolean): Tensor {
  if (pad.length % 2 !== 0) throw new RuntimeError(`Length of pad must be even but instead it equals ${pad.length}`);
  const sizes = self._impl.sizes();
  const lInp = sizes.length;
  const lPad = pad.length / 2;
  const lDiff = lInp - lPad;
  if (lInp < lPad) {
    throw new RuntimeError(`Length of pad should be no more than twice the number of dimensions of the input. Pad length is ${pad.length}while the input has ${lInp}dimensions.`);
  }
  // negative pads crop the input first; the narrowed views are temporaries that give up their shares
  // once used (c10/Dispose.ts), so the output alone owns its block, as PyTorch's views die with the op
  const views: Tensor[] = [];
  const narrowed = (t: Tensor, dim: number, start: number, length: number): Tensor => {
    views.push(narrow(t, dim, start, length));
    return views[views.length - 1];
  };
  const done = (result: Tensor): Tensor => {
    for (const v of views) borrow(v._impl);
    return result;
  };
  let allNonPositive = true;
  let cInput = self;
  for (let i = lDiff; i < lInp; i++) {
    const p = 2 * (lInp - i - 1);
    if (pad[p] < 0) cInput = narrowed(cInput, i, -pad[p], cInput.shape[i] + pad[p]);
    else if (pad[p] !== 0) allNonPositive = false;
    if (pad[p + 1] < 0) cInput = narrowed(cInput, i, 0, cInput.shape[i] + pad[p + 1]);
    else if (pad[p + 1] !== 0) allNonPositive = false;
  }
  if (allNonPositive) return done(clone_default.call(cInput, null) as Tensor);
  const newShape = sizes.slice(0, lDiff);
  for (let i = 0; i < lPad; i++) {
    const p = pad.length - (i + 1) * 2;
    const newDim = sizes[lDiff + i] + pad[p] + pad[p + 1];
    if (!(newDim > 0)) {
      throw new RuntimeError(`The input size ${sizes[lDiff + i]}, plus negative padding ${pad[p]} and ${pad[p + 1]} resulted in a negative output size, which is invalid. Check dimension ${lDiff + i} of your input.`);
    }
    newShape.push(newDim);
  }
  const output = empty_memory_format.call(newShape, self.dtype, null, self.device, null, null) as Tensor;
  fill__Scalar.call(output, value);
  let cOutput = output;
  for (let i = lDiff; i < lInp; i++) {
    const p = 2 * (lInp - i - 1);
    if (pad[p] > 0) cOutput = narrowed(cOutput, i, pad[p], cOutput.shape[i] - pad[p]);
    if (pad[p + 1] > 0) cOutput = narrowed(cOutput, i, 0, cOutput.shape[i] - pad[p + 1]);
  }
  copy__default.call(cOutput, cInput, false);
  return done(output);
}

/** _pad_circular (CompositeImplicitAutograd): the input copied into the middle, then each side filled from the other end. */
export function _pad_circular(self: Tensor, padding: readonly number[]): Tensor {
  const inShape = self._impl.sizes();
  const ndim = inShape.length - 2;
  if (padding.length + 4 !== inShape.length * 2) throw new RuntimeError(`Invalid padding size, expected ${ndim * 2} but got ${padding.length}`);
  const outShape = [inShape[0], inShape[1]];
  for (let i = 0; i < ndim; i++) {
    const padL = padding[2 * (ndim - i - 1)], padR = padding[2 * (ndim - i - 1) + 1];
    const size = inShape[2 + i];
    outShape[2 + i] = size + padL + padR;
    if (!(padL <= size && padR <= size)) throw new RuntimeError("Padding value causes wrapping around more than once.");
    if (!(outShape[2 + i] >= 0)) throw new RuntimeError("Negative padding value is resulting in an empty dimension");
  }
  // the slices are temporaries that give up their shares at the end (c10/Dispose.ts): out alone owns its block
  const views: Tensor[] = [];
  const slice = (t: Tensor, dim: number, start: number, end: number): Tensor => {
    views.push(slice_Tensor.call(t, dim, start, end, 1) as Tensor);
    return views[views.length - 1];
  };
  const out = empty_memory_format.call(outShape, self.dtype, null, self.device, null, null) as Tensor; // self.new_empty
  let outSlice = out, inSlice = self;
  for (let i = 0; i < ndim; i++) {
    const dim = ndim - i + 1;
    const padL = padding[2 * i], padR = padding[2 * i + 1];
    outSlice = slice(outSlice, dim, Math.max(padL, 0), outShape[dim] - Math.max(padR, 0));
    inSlice = slice(inSlice, dim, Math.max(-padL, 0), inShape[dim] - Math.max(-padR, 0));
  }
  copy__default.call(outSlice, inSlice, false);
  for (let i = 0; i < ndim; i++) {
    const dim = ndim - i + 1;
    const padL = padding[2 * i], padR = padding[2 * i + 1];
    if (padL > 0) {
      copy__default.call(slice(out, dim, 0, padL), slice(out, dim, outShape[dim] - padL - Math.max(padR, 0), outShape[dim] - Math.max(padR, 0)), false);
    }
    if (padR > 0) {
      copy__default.call(slice(out, dim, outShape[dim] - padR, outShape[dim]), slice(out, dim, Math.max(padL, 0), Math.max(padL, 0) + padR), false);
    }
  }
  for (const v of views) borrow(v._impl);
  return out;
}

/** at::padding_mode, in PyTorch's order. */
const MODES = ["reflect", "replicate", "circular", "constant"] as const;

/** _pad_enum (CompositeImplicitAutograd): the mode as an int (at::padding_mode). */
export function _pad_enum(self: Tensor, pad: readonly number[], modeInt: number, value: number | null): Tensor {
  const inputDim = self.dim();
  if (pad.length % 2 !== 0) throw new RuntimeError("Padding length must be divisible by 2");
  if (pad.length > inputDim * 2) throw new RuntimeError("Padding length too large");
  const mode = MODES[modeInt];
  if (mode === "constant") return constant_pad_nd_default.call(self, pad, value ?? 0) as Tensor;
  if (!(value === null || value === 0)) throw new RuntimeError(`Padding mode "${mode}" doesn't take in value argument`);
  const ops = {
    2: [reflection_pad1d_default, replication_pad1d_default],
    4: [reflection_pad2d_default, replication_pad2d_default],
    6: [reflection_pad3d_default, replication_pad3d_default],
  } as Record<number, [typeof reflection_pad1d_default, typeof reflection_pad1d_default]>;
  const n = pad.length / 2;
  if (ops[pad.length] && (inputDim === n + 1 || inputDim === n + 2)) {
    if (mode === "reflect") return ops[pad.length][0].call(self, pad) as Tensor;
    if (mode === "replicate") return ops[pad.length][1].call(self, pad) as Tensor;
    if (mode === "circular") return _pad_circular_default.call(self, pad) as Tensor;
  }
  throw new NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
}

/** pad (CompositeImplicitAutograd): the mode string to at::padding_mode, then at::native::_pad_enum. */
export function pad(self: Tensor, padding: readonly number[], mode: string, value: number | null): Tensor {
  const m = MODES.indexOf(mode as (typeof MODES)[number]);
  if (m < 0) throw new NotImplementedError(`Unrecognised padding mode ${mode}`);
  return _pad_enum(self, padding, m, value);
}
