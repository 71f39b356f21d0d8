// nuclear_norm (aten/src/ATen/native/LinearAlgebra.cpp, PyTorch 1.13; CompositeImplicitAutograd, deprecated
// since 1.12 and what torch.norm(p='nuc') calls): the sum of the singular values over two dims — its own
// decomposition (permute, linalg_svdvals, sum, and with keepdim unsqueeze_ + the inverse permute), with no
// dtype check of its own (linalg.svd's applies). The out= forms compute it, then resize_output + copy_ (no
// dtype check: copy_ casts).

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { linalg_svdvals_default } from "../../../generated/linalg_svdvals.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { permute_default } from "../../../generated/permute.js";
import { unsqueeze__default } from "../../../generated/unsqueeze.js";
import { copy__default } from "../../../generated/copy.js";
import { resize_output } from "../Resize.js";
import { create_dim_backshift_permutation, create_reverse_permutation, maybe_wrap_dims } from "./Permutations.js";

function check2d(self: Tensor): void {
  const n = self.dim();
  if (n !== 2) throw new RuntimeError(`Expected a tensor with 2 dimensions, but got a tensor with ${n} dimension${n === 1 ? "" : "s"} instead.`);
}

export function nuclear_norm_dim(self: Tensor, dim: readonly number[], keepdim: boolean): Tensor {
  if (dim.length !== 2) throw new RuntimeError("nuclear norm requires a 'dim' argument of size 2");
  const d = maybe_wrap_dims(dim, self.dim());
  const permutation = create_dim_backshift_permutation(d[0], d[1], self.dim());
  const p = permute_default.call(self, permutation) as Tensor;
  let result = sum_dim_IntList.call(linalg_svdvals_default.call(p, null), [-1], keepdim, null) as Tensor;
  if (keepdim) {
    unsqueeze__default.call(result, -1);
    result = permute_default.call(result, create_reverse_permutation(permutation)) as Tensor;
  }
  return result;
}

export function nuclear_norm_dim_out(self: Tensor, dim: readonly number[], keepdim: boolean, out: Tensor): Tensor {
  const result = nuclear_norm_dim(self, dim, keepdim);
  resize_output(out, result._impl.sizes());
  copy__default.call(out, result, false);
  return out;
}

export function nuclear_norm(self: Tensor, keepdim: boolean): Tensor {
  check2d(self);
  return nuclear_norm_dim(self, [0, 1], keepdim);
}

export function nuclear_norm_out(self: Tensor, keepdim: boolean, out: Tensor): Tensor {
  check2d(self);
  return nuclear_norm_dim_out(self, [0, 1], keepdim, out);
}
