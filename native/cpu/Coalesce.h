// The plan walk of the native pointwise drivers (Pointwise.cc, Ops2.cc): TensorIterator's
// coalesce_dimensions and its row-by-row loop, one definition for every driver whose plan has ndim, nops,
// shape, strides (bytes, innermost first), base pointers and numel.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "Loops.h"

namespace glasstorch {

// A driver's plan of N operands: the coalesced dims (innermost first) and each operand's byte strides
// and base pointer (the drivers whose plan needs nothing more use it as it is).
template <int N>
struct StridedPlan {
  int ndim = 0;
  int nops = 0;
  int64_t shape[kMaxDims];
  int64_t strides[N][kMaxDims];  // bytes, innermost dim first
  char* base[N];
  int64_t numel = 1;
};

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

// row(ptrs, inner byte strides, n) over [begin, end) of the plan's linear index, row by row.
template <class Plan, typename Row>
void run_range(const Plan& p, const Row& row, int64_t begin, int64_t end) {
  constexpr int kOps = static_cast<int>(std::extent<decltype(p.base)>::value);
  int64_t idx[kMaxDims];
  char* ptr[kOps];
  int64_t rem = begin;
  for (int k = 0; k < p.nops; ++k) ptr[k] = p.base[k];
  for (int d = 0; d < p.ndim; ++d) {
    idx[d] = rem % p.shape[d];
    rem /= p.shape[d];
    for (int k = 0; k < p.nops; ++k) ptr[k] += idx[d] * p.strides[k][d];
  }
  int64_t inner[kOps];
  for (int k = 0; k < p.nops; ++k) inner[k] = p.strides[k][0];
  for (int64_t i = begin; i < end;) {
    const int64_t n = std::min(p.shape[0] - idx[0], end - i);
    row(ptr, inner, n);
    i += n;
    for (int k = 0; k < p.nops; ++k) ptr[k] += n * p.strides[k][0];
    idx[0] += n;
    for (int d = 0; d < p.ndim - 1 && idx[d] == p.shape[d]; ++d) {
      for (int k = 0; k < p.nops; ++k) ptr[k] += p.strides[k][d + 1] - p.shape[d] * p.strides[k][d];
      idx[d] = 0;
      ++idx[d + 1];
    }
  }
}

}  // namespace glasstorch
