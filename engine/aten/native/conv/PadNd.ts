// constant_pad_nd (aten/src/ATen/native/PadNd.cpp): negative pads narrow the input, positive ones
// grow a new tensor filled with `value`, into whose middle the (narrowed) input is copied.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Scalar, Tensor } from "../../core/Tensor.js";
import { narrow_default } from "../../../generated/narrow.js";
import { clone_default } from "../../../generated/clone.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { fill__Scalar } from "../../../generated/fill.js";
import { copy__default } from "../../../generated/copy.js";

export function constant_pad_nd(self: Tensor, pad: number[], value: Scalar): Tensor {
  if (pad.length % 2 !== 0) throw new RuntimeError(`Length of pad must be even but instead it equals ${pad.length}`);
  const sizes = self.shape;
  const lInp = self.dim();
  const lPad = pad.length / 2;
  const lDiff = lInp - lPad;
  if (!(lInp >= lPad)) {
    // (sic: PyTorch 1.13's message has no spaces around the numbers)
    throw new RuntimeError(`Length of pad should be no more than twice the number of dimensions of the input. Pad length is ${pad.length}while the input has ${lInp}dimensions.`);
  }
  let allNonPositive = true;
  let c = self;
  for (let i = lDiff; i < lInp; i++) {
    const idx = 2 * (lInp - i - 1);
    if (pad[idx] < 0) c = narrow_default.call(c, i, -pad[idx], c.shape[i] + pad[idx]) as Tensor;
    else if (pad[idx] !== 0) allNonPositive = false;
    if (pad[idx + 1] < 0) c = narrow_default.call(c, i, 0, c.shape[i] + pad[idx + 1]) as Tensor;
    else if (pad[idx + 1] !== 0) allNonPositive = false;
  }
  if (allNonPositive) return clone_default.call(c, null) as Tensor;
  const newShape = sizes.slice(0, lDiff);
  for (let i = 0; i < lPad; i++) {
    const idx = pad.length - (i + 1) * 2;
    const d = sizes[lDiff + i] + pad[idx] + pad[idx + 1];
    if (!(d > 0)) {
      throw new RuntimeError(`The input size ${sizes[lDiff + i]}, plus negative padding ${pad[idx]} and ${pad[idx + 1]} resulted in a negative output size, which is invalid. Check dimension ${lDiff + i} of your input.`);
    }
    newShape.push(d);
  }
  const output = empty_memory_format.call(newShape, self.dtype, null, self.device, null, null) as Tensor;
  fill__Scalar.call(output, value);
  let co = output;
  for (let i = lDiff; i < lInp; i++) {
    const idx = 2 * (lInp - i - 1);
    if (pad[idx] > 0) co = narrow_default.call(co, i, pad[idx], co.shape[i] - pad[idx]) as Tensor;
    if (pad[idx + 1] > 0) co = narrow_default.call(co, i, 0, co.shape[i] - pad[idx + 1]) as Tensor;
  }
  copy__default.call(co, c, false);
  return output;
}
