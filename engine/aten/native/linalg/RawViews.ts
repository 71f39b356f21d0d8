// Views built directly on a tensor's storage (no dispatcher call), for kernel-internal steps where
// PyTorch's LAPACK kernels work on raw pointers: A^T for a column-major read, a vector as an n x 1
// matrix, a broadcast batch. Each is a kernel's temporary that owns no share of the storage (restride).

import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { inferExpandGeometry } from "../shape/Expand.js";
import { restride } from "../index/common.js";

/** t.mT: the last two dims swapped. */
export function rawTranspose(t: Tensor): Tensor {
  const s = [...t._impl.sizes()], st = [...t._impl.strides()], d = s.length;
  [s[d - 2], s[d - 1]] = [s[d - 1], s[d - 2]];
  [st[d - 2], st[d - 1]] = [st[d - 1], st[d - 2]];
  return restride(t, s, st);
}

export function rawUnsqueeze(t: Tensor, dim: number): Tensor {
  const d = maybe_wrap_dim(dim, t.dim() + 1);
  const s = [...t._impl.sizes()], st = [...t._impl.strides()];
  const stride = d >= s.length ? 1 : s[d] * st[d];
  s.splice(d, 0, 1);
  st.splice(d, 0, stride);
  return restride(t, s, st);
}

export function rawExpand(t: Tensor, sizes: readonly number[]): Tensor {
  const g = inferExpandGeometry(t._impl.sizes(), t._impl.strides(), sizes);
  return restride(t, g.sizes, g.strides);
}
