// The default floating dtype (c10/core/DefaultDtype.cpp): what `torch.tensor([1.5])` and `torch.zeros(2)` produce.

import { dtype, float32, float64 } from "./ScalarType.js";
import { TypeError_ } from "./Errors.js";

let defaultDtype: dtype = float32;

export function get_default_dtype(): dtype {
  return defaultDtype;
}

export function set_default_dtype(d: dtype): void {
  // PyTorch (torch/__init__.py) only accepts floating point dtypes here.
  if (!(d instanceof dtype) || !d.is_floating_point) {
    throw new TypeError_(`only floating-point types are supported as the default type`);
  }
  defaultDtype = d;
}

/** The default complex dtype follows the default float (complex128 iff float64). */
export function defaultIsDouble(): boolean {
  return defaultDtype === float64;
}
