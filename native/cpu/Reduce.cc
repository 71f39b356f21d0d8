#include "Reduce.h"

#include <algorithm>
#include <vector>
#include "ThreadPool.h"
#include "cpu_features.h"
#include "Loops.h"

namespace glasstorch {
namespace {

// A fixed block of reduced elements: every output is the in-order sum of its blocks' partial sums,
// so the result does not depend on how many threads ran the blocks.
constexpr int64_t kBlock = 32768;

struct Dims {
  int n = 0;
  int64_t shape[kMaxDims];
  int64_t in_stride[kMaxDims];
  int64_t out_stride[kMaxDims];
  int64_t numel = 1;
};

// innermost first; size-1 dims dropped; neighbours merged when the input steps through them as one
// (kept dims must also merge in the output)
void add_dim(Dims& d, int64_t size, int64_t is, int64_t os, bool kept) {
  d.numel *= size;
  if (size == 1) return;
  if (d.n > 0) {
    const int i = d.n - 1;
    if (is == d.in_stride[i] * d.shape[i] && (!kept || os == d.out_stride[i] * d.shape[i])) {
      d.shape[i] *= size;
      return;
    }
  }
  d.shape[d.n] = size;
  d.in_stride[d.n] = is;
  d.out_stride[d.n] = os;
  ++d.n;
}

template <typename T>
double sum_range(const Dims& r, const T* base, int64_t begin, int64_t end, SumContig contig) {
  if (begin >= end) return 0.0;
  if (r.n == 0) return begin < end ? static_cast<double>(base[0]) : 0.0;
  int64_t idx[kMaxDims];
  int64_t rem = begin;
  const T* p = base;
  for (int d = 0; d < r.n; ++d) {
    idx[d] = rem % r.shape[d];
    rem /= r.shape[d];
    p += idx[d] * r.in_stride[d];
  }
  double s = 0;
  const int64_t st = r.in_stride[0];
  for (int64_t i = begin; i < end;) {
    const int64_t n = std::min(r.shape[0] - idx[0], end - i);
    if (st == 1) {
      s += contig(p, n);
    } else {
      for (int64_t j = 0; j < n; ++j) s += static_cast<double>(p[j * st]);
    }
    i += n;
    p += n * st;
    idx[0] += n;
    for (int d = 0; d < r.n - 1 && idx[d] == r.shape[d]; ++d) {
      p += r.in_stride[d + 1] - r.shape[d] * r.in_stride[d];
      idx[d] = 0;
      ++idx[d + 1];
    }
  }
  return s;
}

template <typename T>
void sum_impl(int ndim, const int64_t* shape, const T* in, const int64_t* in_strides, const bool* reduce, T* out, const int64_t* out_strides) {
  Dims kept, red;
  for (int d = ndim - 1; d >= 0; --d) {
    if (reduce[d]) add_dim(red, shape[d], in_strides[d], 0, false);
    else add_dim(kept, shape[d], in_strides[d], out_strides[d], true);
  }
  const int64_t nout = kept.numel, nred = red.numel;
  if (nout == 0) return;
  const int64_t nblocks = nred == 0 ? 1 : (nred + kBlock - 1) / kBlock;
  const SumContig contig = sizeof(T) == 4 ? kernels().sum_f32 : kernels().sum_f64;
  std::vector<double> partial(nblocks > 1 ? nout * nblocks : 0);
  // where output element o starts, in the input and in the output
  auto locate = [&](int64_t o, const T*& ip, T*& op) {
    ip = in;
    op = out;
    for (int d = 0; d < kept.n; ++d) {
      const int64_t c = o % kept.shape[d];
      o /= kept.shape[d];
      ip += c * kept.in_stride[d];
      op += c * kept.out_stride[d];
    }
  };
  const int64_t work = std::max<int64_t>(1, std::min(nred, kBlock));
  parallel_for(0, nout * nblocks, std::max<int64_t>(1, GRAIN_SIZE / work), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / nblocks, blk = t % nblocks;
      const T* ip;
      T* op;
      locate(o, ip, op);
      const double s = sum_range(red, ip, blk * kBlock, std::min(nred, (blk + 1) * kBlock), contig);
      if (nblocks == 1) *op = static_cast<T>(s);
      else partial[t] = s;
    }
  });
  if (nblocks == 1) return;
  for (int64_t o = 0; o < nout; ++o) {
    double s = 0;
    for (int64_t blk = 0; blk < nblocks; ++blk) s += partial[o * nblocks + blk];
    const T* ip;
    T* op;
    locate(o, ip, op);
    *op = static_cast<T>(s);
  }
}

}  // namespace

void sum_dims(int dtype, int ndim, const int64_t* shape, const char* in, int64_t in_offset, const int64_t* in_strides,
              const bool* reduce, char* out, int64_t out_offset, const int64_t* out_strides) {
  if (dtype == kFloat) {
    sum_impl(ndim, shape, reinterpret_cast<const float*>(in) + in_offset, in_strides, reduce, reinterpret_cast<float*>(out) + out_offset, out_strides);
  } else {
    sum_impl(ndim, shape, reinterpret_cast<const double*>(in) + in_offset, in_strides, reduce, reinterpret_cast<double*>(out) + out_offset, out_strides);
  }
}

}  // namespace glasstorch
