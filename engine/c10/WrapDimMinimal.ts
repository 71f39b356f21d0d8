// maybe_wrap_dim (c10/core/WrapDimMinimal.h): negative dims count from the end; out-of-range dims raise IndexError.

import { IndexError } from "./Errors.js";

export function maybe_wrap_dim(dim: number, dimPostExpr: number, wrapScalar = true): number {
  if (dimPostExpr <= 0) {
    if (!wrapScalar) throw new IndexError(`Dimension specified as ${dim} but tensor has no dimensions`);
    dimPostExpr = 1; // a scalar is treated as 1-D here: dims -1 and 0 are both valid
  }
  const min = -dimPostExpr;
  const max = dimPostExpr - 1;
  if (dim < min || dim > max) {
    throw new IndexError(`Dimension out of range (expected to be in range of [${min}, ${max}], but got ${dim})`);
  }
  return dim < 0 ? dim + dimPostExpr : dim;
}
