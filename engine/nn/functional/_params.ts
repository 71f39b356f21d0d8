// _list_with_default (torch/nn/functional.py); the argument binder lives in ../_bind.ts.

import { ValueError } from "../../c10/Errors.js";

/** _list_with_default (functional.py): None entries of an output size take the input's size there. */
export function _list_with_default(outSize: number | readonly (number | null)[], defaults: readonly number[]): number | number[] {
  if (typeof outSize === "number") return outSize;
  if (defaults.length <= outSize.length) throw new ValueError(`Input dimension should be at least ${outSize.length + 1}`);
  const tail = defaults.slice(defaults.length - outSize.length);
  return outSize.map((v, i) => (v === null ? tail[i] : v));
}
