// The 1-D lanes of a tensor along one dim (the loop shape of PyTorch's sort, topk, median, mode and
// cpu_cum_base_kernel), shared by Sorting.cc and Scan.cc: each operand has self's sizes (but along dim,
// where a reduction's output has 1 and topk's k) and its own offset and strides, in elements.
//
// meta = [ndim, self's sizes..., dim, then per operand: storage offset, strides...]
#pragma once
#include <cstdint>

#include "Loops.h"
#include "TypedArg.h"

namespace glasstorch {

struct Lanes {
  static constexpr int kMaxOperands = 3;
  int ndim = 0;
  int dim = 0;
  int64_t sizes[kMaxDims];
  int64_t offset[kMaxOperands];
  int64_t strides[kMaxOperands][kMaxDims];
  int64_t count = 1;  // lanes
  // the first element of lane `lane` of operand k (row-major over the dims other than dim)
  int64_t base(int k, int64_t lane) const {
    int64_t o = offset[k];
    for (int d = ndim - 1; d >= 0; --d) {
      if (d == dim) continue;
      o += (lane % sizes[d]) * strides[k][d];
      lane /= sizes[d];
    }
    return o;
  }
  int64_t n() const { return sizes[dim]; }
};

// false when the meta is malformed (nops operands expected)
inline bool read_lanes(const Typed& m, int nops, Lanes& l) {
  const double* q = reinterpret_cast<const double*>(m.data);
  if (m.type != napi_float64_array || m.length < 2 || nops < 1 || nops > Lanes::kMaxOperands) return false;
  l.ndim = static_cast<int>(q[0]);
  if (l.ndim < 1 || l.ndim > kMaxDims || m.length < 2 + l.ndim + nops * (1 + l.ndim)) return false;
  for (int d = 0; d < l.ndim; ++d) l.sizes[d] = static_cast<int64_t>(q[1 + d]);
  l.dim = static_cast<int>(q[1 + l.ndim]);
  if (l.dim < 0 || l.dim >= l.ndim) return false;
  const double* p = q + 2 + l.ndim;
  for (int k = 0; k < nops; ++k) {
    l.offset[k] = static_cast<int64_t>(*p++);
    for (int d = 0; d < l.ndim; ++d) l.strides[k][d] = static_cast<int64_t>(*p++);
  }
  l.count = 1;
  for (int d = 0; d < l.ndim; ++d)
    if (d != l.dim) l.count *= l.sizes[d];
  return true;
}

// Whether operand k's elements (its size along dim: n) stay inside an array of `length` elements.
inline bool lanes_inside(const Lanes& l, int k, int64_t n, int64_t length) {
  int64_t lo = l.offset[k], hi = l.offset[k];
  for (int d = 0; d < l.ndim; ++d) {
    const int64_t size = d == l.dim ? n : l.sizes[d];
    if (size == 0) return true;
    (l.strides[k][d] >= 0 ? hi : lo) += l.strides[k][d] * (size - 1);
  }
  return lo >= 0 && hi < length;
}

}  // namespace glasstorch
