// create_dim_backshift_permutation / create_reverse_permutation (LinearAlgebraUtils.h): the matrix norms
// that need singular values move the two matrix dims to the end (permute), and with keepdim move the
// restored dims back with the inverse permutation.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";

/** maybe_wrap_dims (WrapDimUtils.h): each dim wrapped against ndim. */
export const maybe_wrap_dims = (dims: readonly number[], ndim: number): number[] => dims.map((d) => maybe_wrap_dim(d, ndim));

/** Every dim except dim0 and dim1 in order, then dim0, dim1. */
export function create_dim_backshift_permutation(dim0: number, dim1: number, ndim: number): number[] {
  if (!(dim0 !== dim1 && dim0 < ndim && dim0 >= 0 && dim1 < ndim && dim1 >= 0)) throw new RuntimeError("duplicate or invalid dimensions");
  const permutation: number[] = [];
  for (let d = 0; d < ndim; d++) if (d !== dim0 && d !== dim1) permutation.push(d);
  permutation.push(dim0, dim1);
  return permutation;
}

/** The inverse permutation: reverse[permutation[i]] = i. */
export function create_reverse_permutation(permutation: readonly number[]): number[] {
  const reverse = new Array<number>(permutation.length);
  permutation.forEach((p, i) => { reverse[p] = i; });
  return reverse;
}
