// TensorIterator::coalesce_dimensions for the native pointwise drivers (Pointwise.cc, Ops2.cc): one
// definition for every driver whose plan has ndim, nops, shape, strides (bytes, innermost first), numel.
#pragma once

#include <cstdint>

#include "Loops.h"

namespace glasstorch {

// Walks the given order (innermost = last dim): size-1 dims dropped, a dim merged into the next inner
// one when every operand steps through both as one. An all-size-1 shape becomes one dim of numel.
template <class Plan>
void coalesce(Plan& p, int ndim, const int64_t* shape, const int64_t (*strides)[kMaxDims]) {
  for (int d = ndim - 1; d >= 0; --d) {
    const int64_t s = shape[d];
    p.numel *= s;
    if (s == 1) continue;
    if (p.ndim > 0) {
      const int i = p.ndim - 1;
      bool merge = true;
      for (int k = 0; k < p.nops; ++k) merge = merge && strides[k][d] == p.strides[k][i] * p.shape[i];
      if (merge) {
        p.shape[i] *= s;
        continue;
      }
    }
    p.shape[p.ndim] = s;
    for (int k = 0; k < p.nops; ++k) p.strides[k][p.ndim] = strides[k][d];
    ++p.ndim;
  }
  if (p.ndim == 0) {
    p.ndim = 1;
    p.shape[0] = p.numel;
    for (int k = 0; k < p.nops; ++k) p.strides[k][0] = 0;
  }
}

}  // namespace glasstorch
