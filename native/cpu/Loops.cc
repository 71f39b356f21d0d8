#include "Loops.h"

#include <algorithm>
#include "ThreadPool.h"

namespace glasstorch {
namespace {

// Coalesced dims, innermost first (like TensorIterator's reordered shape).
struct Plan {
  int ndim = 0;
  int64_t shape[kMaxDims];
  int64_t strides[3][kMaxDims];
  char* base[3];
  int64_t numel = 1;
};

// TensorIterator::coalesce_dimensions: size-1 dims dropped; dim d merged into the next inner one when
// every operand steps through both as through one.
Plan make_plan(int ndim, const int64_t* shape, Operand* ops, int nops, int itemsize) {
  Plan p;
  for (int k = 0; k < nops; ++k) p.base[k] = ops[k].data + ops[k].offset * itemsize;
  for (int d = ndim - 1; d >= 0; --d) {  // innermost first
    const int64_t s = shape[d];
    p.numel *= s;
    if (s == 1) continue;
    if (p.ndim > 0) {
      const int i = p.ndim - 1;
      bool merge = true;
      for (int k = 0; k < nops; ++k) merge = merge && ops[k].strides[d] == p.strides[k][i] * p.shape[i];
      if (merge) {
        p.shape[i] *= s;
        continue;
      }
    }
    p.shape[p.ndim] = s;
    for (int k = 0; k < nops; ++k) p.strides[k][p.ndim] = ops[k].strides[d];
    ++p.ndim;
  }
  if (p.ndim == 0) {  // a single element
    p.ndim = 1;
    p.shape[0] = p.numel;
    for (int k = 0; k < nops; ++k) p.strides[k][0] = 0;
  }
  return p;
}

// Walks the linear range [begin, end) of the coalesced shape row by row: row(ptrs, n).
template <typename Row>
void for_rows(const Plan& p, int nops, int itemsize, int64_t begin, int64_t end, Row row) {
  int64_t idx[kMaxDims];
  int64_t rem = begin;
  char* ptr[3];
  for (int k = 0; k < nops; ++k) ptr[k] = p.base[k];
  for (int d = 0; d < p.ndim; ++d) {
    idx[d] = rem % p.shape[d];
    rem /= p.shape[d];
    for (int k = 0; k < nops; ++k) ptr[k] += idx[d] * p.strides[k][d] * itemsize;
  }
  int64_t i = begin;
  while (i < end) {
    const int64_t n = std::min(p.shape[0] - idx[0], end - i);
    row(ptr, n);
    i += n;
    // advance: the row moved idx[0] by n; carry into the outer dims
    for (int k = 0; k < nops; ++k) ptr[k] += n * p.strides[k][0] * itemsize;
    idx[0] += n;
    for (int d = 0; d < p.ndim - 1 && idx[d] == p.shape[d]; ++d) {
      for (int k = 0; k < nops; ++k) ptr[k] += p.strides[k][d + 1] * itemsize - p.shape[d] * p.strides[k][d] * itemsize;
      idx[d] = 0;
      ++idx[d + 1];
    }
  }
}

}  // namespace

void pointwise_binary(BinaryLoop loop, int ndim, const int64_t* shape, Operand ops[3], int itemsize, double alpha) {
  const Plan p = make_plan(ndim, shape, ops, 3, itemsize);
  if (p.numel == 0) return;
  parallel_for(0, p.numel, GRAIN_SIZE, [&](int64_t b, int64_t e) {
    for_rows(p, 3, itemsize, b, e, [&](char** ptr, int64_t n) {
      loop(ptr[0], ptr[1], ptr[2], n, p.strides[0][0], p.strides[1][0], p.strides[2][0], alpha);
    });
  });
}

void pointwise_unary(UnaryLoop loop, int ndim, const int64_t* shape, Operand ops[2], int itemsize) {
  const Plan p = make_plan(ndim, shape, ops, 2, itemsize);
  if (p.numel == 0) return;
  parallel_for(0, p.numel, GRAIN_SIZE, [&](int64_t b, int64_t e) {
    for_rows(p, 2, itemsize, b, e, [&](char** ptr, int64_t n) { loop(ptr[0], ptr[1], n, p.strides[0][0], p.strides[1][0]); });
  });
}

}  // namespace glasstorch
