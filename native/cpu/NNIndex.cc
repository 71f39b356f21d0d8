// The index kernels: index_select (embedding's rows), gather, scatter / scatter_add (scatter_reduce's
// sum and mean), embedding_dense_backward, and nll_loss forward / backward (a gather of the targets). Copies move raw elements of any dtype (1 to 16 bytes);
// the adds take float32, float64, int32 and int64. Work is split so that no two threads touch one
// element and each element sees its updates in the TypeScript kernel's order (the same results, for
// any thread count). Index values are checked before anything is written (gather: as it copies, into
// its result only): a kernel returns false on an out-of-range index, and the TypeScript kernel raises
// PyTorch's error.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "NN.h"
#include "ThreadPool.h"
#include "TypedArg.h"
#include "kernels.h"
#include "nn_kernels.h"

namespace glasstorch {
namespace {

constexpr int kMaxIndexDims = 25;

// index_select's index values in [0, dim), checked over the pool; a contiguous index first by the OR of
// its values (one vector op per value on the baseline unit, which has no 64-bit compare): every value
// is at most the OR, so an OR below dim settles it (dim a power of two, no negative value); otherwise
// each value is compared. (Run by the calling thread alone, the compares were a tenth of an embedding
// of 65536 rows of 64 floats, with the other thread waiting.)
template <typename I>
bool index_in_range(const I* index, int64_t n, int64_t stride, int64_t dim) {
  std::atomic<bool> bad{false};
  using U = std::make_unsigned_t<I>;
  parallel_for(0, n, GRAIN_SIZE, [&](int64_t b, int64_t e) {
    if (stride == 1) {
      U any = 0;
      for (int64_t i = b; i < e; ++i) any |= static_cast<U>(index[i]);
      if (static_cast<uint64_t>(any) < static_cast<uint64_t>(dim)) return;
    }
    bool ok = true;
    for (int64_t i = b; i < e; ++i) ok &= index[i * stride] >= 0 && index[i * stride] < dim;
    if (!ok) bad = true;
  });
  return !bad;
}

// rows [b, e) of dst (outer, n, row bytes): row t = (o, i) is src's row (o, index[i]). Every operand is
// a parameter (a register), not a capture the copies' calls made the loop reload (embedding of 65536
// rows of 64 floats, 2 threads: 0.30-0.37 -> 0.27-0.29 ms; a fixed-size inline copy of 256 bytes, SSE
// moves on this baseline unit, 0.31-0.35).
template <typename I>
void copy_rows(char* d, const char* s, int64_t row, int64_t dim, const I* ix, int64_t stride, int64_t n, int64_t b, int64_t e) {
  int64_t i = b % n;
  const char* src = s + (b / n) * dim * row;  // (o, i) stepped along with t rather than divided out of it
  for (int64_t t = b; t < e; ++t) {
    std::memcpy(d + t * row, src + static_cast<int64_t>(ix[i * stride]) * row, static_cast<size_t>(row));
    if (++i == n) i = 0, src += dim * row;
  }
}

// index_select(itemsize, dst, dstOffset, src, srcOffset, outer, srcDimSize, inner, index: BigInt64Array | Int32Array,
//              indexOffset, indexStride, n)
// contiguous src (outer, srcDimSize, inner) -> dst (outer, n, inner); offsets in elements. The index is read
// where it lies (int64 or int32, any stride): false, before anything is written, for one outside [0, srcDimSize).
Napi::Value IndexSelect(const Napi::CallbackInfo& info) {
  const int64_t item = info[0].As<Napi::Number>().Int64Value();
  const int64_t dst_off = info[2].As<Napi::Number>().Int64Value(), src_off = info[4].As<Napi::Number>().Int64Value();
  const int64_t outer = info[5].As<Napi::Number>().Int64Value(), dim = info[6].As<Napi::Number>().Int64Value(), inner = info[7].As<Napi::Number>().Int64Value();
  const int64_t ix_off = info[9].As<Napi::Number>().Int64Value(), ix_stride = info[10].As<Napi::Number>().Int64Value(), n = info[11].As<Napi::Number>().Int64Value();
  Buf dst, src;
  if (!get_buf(info.Env(), info[1], dst) || !get_buf(info.Env(), info[3], src)) return fail(info, "index_select: typed arrays expected");
  napi_typedarray_type ix_type;
  size_t ix_len, ix_byte_off;
  void* ix_data = nullptr;
  napi_value ab;
  if (napi_get_typedarray_info(info.Env(), info[8], &ix_type, &ix_len, &ix_data, &ab, &ix_byte_off) != napi_ok ||
      (ix_type != napi_bigint64_array && ix_type != napi_int32_array)) {
    return fail(info, "index_select: an int64 or int32 index expected");
  }
  const bool long_index = ix_type == napi_bigint64_array;
  const int64_t ix_last = ix_off + (n > 0 ? (n - 1) * ix_stride : 0);
  if (item <= 0 || dst_off < 0 || src_off < 0 || n < 0 || ix_off < 0 || ix_last < 0 || (n > 0 && static_cast<uint64_t>(ix_last) >= ix_len) ||
      static_cast<uint64_t>((dst_off + outer * n * inner) * item) > dst.bytes || static_cast<uint64_t>((src_off + outer * dim * inner) * item) > src.bytes) {
    return fail(info, "index_select: arrays too short for the sizes");
  }
  const int64_t* ix64 = static_cast<const int64_t*>(ix_data) + ix_off;
  const int32_t* ix32 = static_cast<const int32_t*>(ix_data) + ix_off;
  if (!(long_index ? index_in_range(ix64, n, ix_stride, dim) : index_in_range(ix32, n, ix_stride, dim))) return Napi::Boolean::New(info.Env(), false);
  const int64_t row = inner * item;
  char* d = dst.data + dst_off * item;
  const char* s = src.data + src_off * item;
  parallel_for(0, outer * n, at_least_1(GRAIN_SIZE / at_least_1(inner)), [&](int64_t b, int64_t e) {
    if (long_index) copy_rows(d, s, row, dim, ix64, ix_stride, n, b, e);
    else copy_rows(d, s, row, dim, ix32, ix_stride, n, b, e);
  });
  return Napi::Boolean::New(info.Env(), true);
}

// gather_scatter(mode, dtype, itemsize, meta, dim, index: BigInt64Array, self, other)
//   mode 0 gather:      other[p] = self[p with p[dim] = index[p]]     (other is the result)
//   mode 1 scatter:     self[p with p[dim] = index[p]] = other[p]      (other: src, or one value with strides 0)
//   mode 2 scatter_add: self[...] += other[p]
// meta = [ndim, index sizes..., then index, self, other: offset, strides... (elements)], then self's size along dim.
// Two self elements are hit from one index line (the positions that differ only along dim) or from
// none, so threads take whole lines and walk each line in index order: the TypeScript kernel's order
// for every element. When dim is not the last dim, the lines next to each other in the last dim are
// walked together (i along dim outside, the last dim inside) so the reads and writes stay sequential.
struct Geometry {
  int nd = 0, dim = 0;
  int64_t shape[kMaxIndexDims], st[3][kMaxIndexDims], off[3];
  int64_t len = 0, outer = 0, bound = 0;
  bool plane = false;  // dim is not the last dim: lines are walked W = shape[nd - 1] at a time
  // the three operands' offsets where the t-th line (row-major over the dims but dim) starts
  void line_offsets(int64_t t, int64_t o[3]) const {
    o[0] = off[0], o[1] = off[1], o[2] = off[2];
    for (int d = nd - 1; d >= 0; --d) {
      if (d == dim) continue;
      const int64_t c = t % shape[d];
      t /= shape[d];
      for (int k = 0; k < 3; ++k) o[k] += c * st[k][d];
    }
  }
};

// Walks lines [b, e): f(v, self offset, other offset) for each index element v, in each line's order.
template <typename F>
void walk_lines(const Geometry& g, const int64_t* index, int64_t b, int64_t e, F&& f) {
  const int64_t si = g.st[0][g.dim], sx = g.st[2][g.dim];
  if (!g.plane) {
    for (int64_t t = b; t < e; ++t) {
      int64_t o[3];
      g.line_offsets(t, o);
      const int64_t* ip = index + o[0];
      if (si == 1 && sx == 1) {  // (the usual layout, a contiguous index and other along dim: no stride products)
        for (int64_t i = 0; i < g.len; ++i) f(ip[i], o[1], o[2] + i);
      } else {
        for (int64_t i = 0; i < g.len; ++i) f(ip[i * si], o[1], o[2] + i * sx);
      }
    }
    return;
  }
  const int last = g.nd - 1;
  const int64_t W = g.shape[last], ti = g.st[0][last], ts = g.st[1][last], tx = g.st[2][last];
  for (int64_t t = b; t < e;) {
    const int64_t j0 = t % W, j1 = std::min(W, j0 + (e - t));
    int64_t o[3];
    g.line_offsets(t - j0, o);
    for (int64_t i = 0; i < g.len; ++i) {
      const int64_t* ip = index + o[0] + i * si;
      const int64_t xo = o[2] + i * sx;
      for (int64_t j = j0; j < j1; ++j) f(ip[j * ti], o[1] + j * ts, xo + j * tx);
    }
    t += j1 - j0;
  }
}

// the selected unit's gather along one contiguous line (nn_kernels.inc), by element size
inline bool gather_line(const int64_t* idx, int64_t n, const uint32_t* src, int64_t bound, uint32_t* dst) {
  return selected_nn_kernels().gather_line32(idx, n, src, bound, dst);
}
inline bool gather_line(const int64_t* idx, int64_t n, const uint64_t* src, int64_t bound, uint64_t* dst) {
  return selected_nn_kernels().gather_line64(idx, n, src, bound, dst);
}

template <int N>
struct Bytes { char b[N]; };  // an element moved as its bytes (16: complex128)

// mode 0 (gather) checks as it copies and returns false at a bad index: only its result is written,
// which is left partly written, as PyTorch's loop (its TORCH_CHECK runs inside the parallel loop) leaves it.
template <typename T, int MODE>
bool run_gather_scatter(const Geometry& g, const int64_t* index, char* self, char* other) {
  T* S = reinterpret_cast<T*>(self);
  T* X = reinterpret_cast<T*>(other);
  const int64_t ss = g.st[1][g.dim], bound = g.bound;
  std::atomic<bool> bad{false};
  parallel_for(0, g.outer, at_least_1(GRAIN_SIZE / at_least_1(g.len)), [&](int64_t b, int64_t e) {
    if constexpr (MODE == 0 && (std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>)) {
      // lines along a dim contiguous in all three (gather's last dim, as a rule): the unit's vector gather
      if (!g.plane && g.st[0][g.dim] == 1 && g.st[2][g.dim] == 1 && ss == 1 && bound > 0) {
        bool ok = true;
        for (int64_t t = b; t < e; ++t) {
          int64_t o[3];
          g.line_offsets(t, o);
          ok &= gather_line(index + o[0], g.len, S + o[1], bound, X + o[2]);
        }
        if (!ok) bad = true;
        return;
      }
    }
    if constexpr (MODE == 0) {
      bool ok = true;
      walk_lines(g, index, b, e, [&](int64_t v, int64_t so, int64_t xo) {
        // each element checked alone (a bad one reads element 0 instead): a chain through `ok` made
        // every read wait for the comparison before it
        const bool in = static_cast<uint64_t>(v) < static_cast<uint64_t>(bound);
        ok &= in;
        X[xo] = S[so + (in ? v : 0) * ss];
      });
      if (!ok) bad = true;
    } else if constexpr (MODE == 1) {
      walk_lines(g, index, b, e, [&](int64_t v, int64_t so, int64_t xo) { S[so + v * ss] = X[xo]; });
    } else {
      walk_lines(g, index, b, e, [&](int64_t v, int64_t so, int64_t xo) {
        T& d = S[so + v * ss];
        d = static_cast<T>(d + X[xo]);
      });
    }
  });
  return !bad;
}

// every index in [0, bound), checked over the pool before a scatter writes anything. First the OR of
// the indices (one vector op per element, where 64-bit comparisons do not vectorize on the baseline
// unit): every index is at most their OR, so an OR below bound (bound a power of two and no negative
// index, as in most calls) settles it; otherwise each index is compared.
bool indices_in_range(const Geometry& g, const int64_t* index) {
  std::atomic<bool> bad{false};
  const uint64_t bound = static_cast<uint64_t>(g.bound);
  parallel_for(0, g.outer, at_least_1(GRAIN_SIZE / at_least_1(g.len)), [&](int64_t b, int64_t e) {
    uint64_t any = 0;
    if (!g.plane && g.st[0][g.dim] == 1) {
      // lines contiguous in the index (the usual case): a plain loop over each, which GCC vectorizes
      // (through walk_lines' callback it ran one value at a time: 15% of a 1024 x 1024 scatter_add)
      for (int64_t t = b; t < e; ++t) {
        int64_t o[3];
        g.line_offsets(t, o);
        const int64_t* ip = index + o[0];
        for (int64_t i = 0; i < g.len; ++i) any |= static_cast<uint64_t>(ip[i]);
      }
    } else {
      walk_lines(g, index, b, e, [&](int64_t v, int64_t, int64_t) { any |= static_cast<uint64_t>(v); });
    }
    if (any < bound) return;
    bool ok = true;
    walk_lines(g, index, b, e, [&](int64_t v, int64_t, int64_t) { ok &= static_cast<uint64_t>(v) < bound; });
    if (!ok) bad = true;
  });
  return !bad;
}

template <int MODE>
bool copy_by_size(const Geometry& g, int64_t item, const int64_t* index, char* self, char* other) {
  switch (item) {
    case 1: return run_gather_scatter<uint8_t, MODE>(g, index, self, other);
    case 2: return run_gather_scatter<uint16_t, MODE>(g, index, self, other);
    case 4: return run_gather_scatter<uint32_t, MODE>(g, index, self, other);
    case 8: return run_gather_scatter<uint64_t, MODE>(g, index, self, other);
    case 16: return run_gather_scatter<Bytes<16>, MODE>(g, index, self, other);
  }
  return false;
}

Napi::Value GatherScatter(const Napi::CallbackInfo& info) {
  const int mode = info[0].As<Napi::Number>().Int32Value();
  const int dtype = info[1].As<Napi::Number>().Int32Value();
  const int64_t item = info[2].As<Napi::Number>().Int64Value();
  const int64_t dim = info[4].As<Napi::Number>().Int64Value();
  if (mode < 0 || mode > 2 || (mode == 2 && dtype != kFloat && dtype != kDouble && dtype != kInt && dtype != kLong) ||
      (mode != 2 && item != 1 && item != 2 && item != 4 && item != 8 && item != 16)) {
    return Napi::Boolean::New(info.Env(), false);
  }
  Buf meta_b, ix, self, other;
  if (!get_buf(info.Env(), info[3], meta_b) || !get_buf(info.Env(), info[5], ix) || !get_buf(info.Env(), info[6], self) || !get_buf(info.Env(), info[7], other)) {
    return fail(info, "gather/scatter: typed arrays expected");
  }
  const double* m = reinterpret_cast<const double*>(meta_b.data);
  Geometry g;
  g.nd = static_cast<int>(m[0]);
  const int nd = g.nd;
  if (nd < 1 || nd > kMaxIndexDims || dim < 0 || dim >= nd || meta_b.bytes / 8 < static_cast<size_t>(2 + nd + 3 * (1 + nd))) return fail(info, "gather/scatter: bad meta");
  g.dim = static_cast<int>(dim);
  for (int d = 0; d < nd; ++d) g.shape[d] = static_cast<int64_t>(m[1 + d]);
  const double* q = m + 1 + nd;
  for (int k = 0; k < 3; ++k) {
    g.off[k] = static_cast<int64_t>(*q++);
    for (int d = 0; d < nd; ++d) g.st[k][d] = static_cast<int64_t>(*q++);
  }
  g.bound = static_cast<int64_t>(*q);
  // the extent each operand's walk reaches must lie inside its array
  const Buf* bufs[3] = {&ix, &self, &other};
  const int64_t items[3] = {8, item, item};
  for (int k = 0; k < 3; ++k) {
    int64_t lo = g.off[k], hi = g.off[k];
    for (int d = 0; d < nd; ++d) {
      if (g.shape[d] == 0) { lo = hi = g.off[k]; break; }
      const int64_t span = (k == 1 && d == dim ? g.bound - 1 : g.shape[d] - 1) * g.st[k][d];
      if (span < 0) lo += span; else hi += span;
    }
    if (lo < 0 || static_cast<uint64_t>((hi + 1) * items[k]) > bufs[k]->bytes) return fail(info, "gather/scatter: arrays too short for the sizes");
  }
  g.outer = 1;
  for (int d = 0; d < nd; ++d) if (d != dim) g.outer *= g.shape[d];
  g.len = g.shape[dim];
  g.plane = dim != nd - 1 && g.shape[nd - 1] > 1;
  if (g.outer == 0 || g.len == 0) return Napi::Boolean::New(info.Env(), true);
  const int64_t* index = reinterpret_cast<const int64_t*>(ix.data);
  bool ok;
  if (mode == 0) {
    ok = copy_by_size<0>(g, item, index, self.data, other.data);
  } else if (!indices_in_range(g, index)) {
    ok = false;
  } else if (mode == 1) {
    ok = copy_by_size<1>(g, item, index, self.data, other.data);
  } else if (dtype == kFloat) {  // the integer adds wrap, as the TypeScript kernel's BigInt.asIntN / int32 arithmetic
    ok = run_gather_scatter<float, 2>(g, index, self.data, other.data);
  } else if (dtype == kDouble) {
    ok = run_gather_scatter<double, 2>(g, index, self.data, other.data);
  } else if (dtype == kInt) {
    ok = run_gather_scatter<uint32_t, 2>(g, index, self.data, other.data);
  } else {
    ok = run_gather_scatter<uint64_t, 2>(g, index, self.data, other.data);
  }
  return Napi::Boolean::New(info.Env(), ok);
}

// embedding_dense_backward(dtype, gradWeight, gwOffset, grad, gradOffset, index: Float64Array, numWeights, D, paddingIdx, scale)
// gradWeight (zeros, contiguous (numWeights, D)) += grad row i (scaled by 1 / count) into row index[i], in index
// order; rows are split between threads (each scans every index and takes its own rows).
template <typename T>
void embedding_backward(T* gw, const T* g, const double* idx, int64_t n, int64_t num_weights, int64_t D, int64_t padding_idx, bool scale) {
  std::vector<int64_t> counts;
  if (scale) {
    counts.assign(num_weights, 0);
    for (int64_t i = 0; i < n; ++i) ++counts[static_cast<int64_t>(idx[i])];
  }
  parallel_for(0, num_weights, at_least_1(GRAIN_SIZE / at_least_1(D * (n / at_least_1(num_weights) + 1))), [&](int64_t k0, int64_t k1) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = static_cast<int64_t>(idx[i]);
      if (k < k0 || k >= k1 || k == padding_idx) continue;
      T* row = gw + k * D;
      const T* src = g + i * D;
      if (scale && counts[k] != 1) {
        const T alpha = static_cast<T>(1.0 / static_cast<double>(counts[k]));
        for (int64_t j = 0; j < D; ++j) row[j] = row[j] + static_cast<T>(alpha * src[j]);
      } else {
        for (int64_t j = 0; j < D; ++j) row[j] = row[j] + src[j];
      }
    }
  });
}

Napi::Value EmbeddingDenseBackward(const Napi::CallbackInfo& info) {
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const int64_t gw_off = info[2].As<Napi::Number>().Int64Value(), g_off = info[4].As<Napi::Number>().Int64Value();
  const int64_t num_weights = info[6].As<Napi::Number>().Int64Value(), D = info[7].As<Napi::Number>().Int64Value();
  const int64_t padding_idx = info[8].As<Napi::Number>().Int64Value();
  const bool scale = info[9].ToBoolean().Value();
  if (dtype != kFloat && dtype != kDouble) return Napi::Boolean::New(info.Env(), false);
  Buf gw, g, ix;
  if (!get_buf(info.Env(), info[1], gw) || !get_buf(info.Env(), info[3], g) || !get_buf(info.Env(), info[5], ix)) return fail(info, "embedding_dense_backward: typed arrays expected");
  const int64_t item = dtype == kFloat ? 4 : 8;
  const int64_t n = static_cast<int64_t>(ix.bytes / 8);
  const double* idx = reinterpret_cast<const double*>(ix.data);
  if (gw_off < 0 || g_off < 0 || static_cast<uint64_t>((gw_off + num_weights * D) * item) > gw.bytes || static_cast<uint64_t>((g_off + n * D) * item) > g.bytes) {
    return fail(info, "embedding_dense_backward: arrays too short for the sizes");
  }
  for (int64_t i = 0; i < n; ++i)
    if (!(idx[i] >= 0 && idx[i] < num_weights)) return Napi::Boolean::New(info.Env(), false);
  if (dtype == kFloat) {
    embedding_backward(reinterpret_cast<float*>(gw.data) + gw_off, reinterpret_cast<const float*>(g.data) + g_off, idx, n, num_weights, D, padding_idx, scale);
  } else {
    embedding_backward(reinterpret_cast<double*>(gw.data) + gw_off, reinterpret_cast<const double*>(g.data) + g_off, idx, n, num_weights, D, padding_idx, scale);
  }
  return Napi::Boolean::New(info.Env(), true);
}


// ---- nll_loss (LossNLL.cpp nll_loss_out_frame / nll_loss_backward_out_frame) ----

// utils::CeilLog2: 1 for x <= 2
int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  int64_t bits = 0;
  for (uint64_t v = static_cast<uint64_t>(x - 1); v != 0; v >>= 1) ++bits;
  return bits;
}

// The cascaded sums of the TypeScript kernel (NLLKernel.ts cascadeSum), in T.
template <typename T>
void nll_forward(const T* x, const int64_t* tg, const T* w, int64_t N, int64_t C, int64_t ignore, int64_t reduction, bool per_sample, T* out, T* tw) {
  if (per_sample) {
    parallel_for(0, N, GRAIN_SIZE, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const int64_t cur = tg[i];
        out[i] = cur == ignore ? T(0) : static_cast<T>(-x[i * C + cur] * (w ? w[cur] : T(1)));
      }
    });
    return;
  }
  constexpr int kLevels = 8;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(N) / kLevels);
  const int64_t level_mask = (int64_t(1) << level_power) - 1;
  T weight_sums[kLevels] = {}, loss_sums[kLevels] = {};
  int64_t ignored = 0;
  for (int64_t b = 0; b < N; ++b) {
    const int64_t cur = tg[b];
    if (cur == ignore) {
      ++ignored;
      continue;
    }
    const T data = x[b * C + cur];
    if (w) {
      loss_sums[0] = loss_sums[0] - static_cast<T>(data * w[cur]);
      weight_sums[0] = weight_sums[0] + w[cur];
    } else {
      loss_sums[0] = loss_sums[0] - data;
    }
    for (int j = 0; j + 1 < kLevels; ++j) {
      if (((b >> (j * level_power)) & level_mask) != 0) break;
      weight_sums[j + 1] = weight_sums[j + 1] + weight_sums[j];
      loss_sums[j + 1] = loss_sums[j + 1] + loss_sums[j];
      weight_sums[j] = 0;
      loss_sums[j] = 0;
    }
  }
  T total_weight = 0, output = 0;
  if (w) for (int j = 0; j < kLevels; ++j) total_weight = total_weight + weight_sums[j];
  else total_weight = static_cast<T>(N - ignored);
  for (int j = 0; j < kLevels; ++j) output = output + loss_sums[j];
  if (reduction == 1) output = output / total_weight;  // Reduction::Mean
  *out = output;
  *tw = total_weight;
}

// nll_loss_forward(dtype, self, selfOffset, target: BigInt64Array, targetOffset, weight|null, weightOffset, N, C,
//                  ignore_index, reduction, perSample, out, outOffset, totalWeight, twOffset)
// false (nothing written) if a target other than ignore_index is outside [0, C)
Napi::Value NllLossForward(const Napi::CallbackInfo& info) {
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  if (dtype != kFloat && dtype != kDouble) return Napi::Boolean::New(info.Env(), false);
  const int64_t x_off = info[2].As<Napi::Number>().Int64Value(), t_off = info[4].As<Napi::Number>().Int64Value();
  const bool has_w = !(info[5].IsNull() || info[5].IsUndefined());
  const int64_t w_off = info[6].As<Napi::Number>().Int64Value(), N = info[7].As<Napi::Number>().Int64Value(), C = info[8].As<Napi::Number>().Int64Value();
  const int64_t ignore = info[9].As<Napi::Number>().Int64Value(), reduction = info[10].As<Napi::Number>().Int64Value();
  const bool per_sample = info[11].ToBoolean().Value();
  const int64_t out_off = info[13].As<Napi::Number>().Int64Value(), tw_off = info[15].As<Napi::Number>().Int64Value();
  Buf x, t, w, out, tw;
  if (!get_buf(info.Env(), info[1], x) || !get_buf(info.Env(), info[3], t) || (has_w && !get_buf(info.Env(), info[5], w)) ||
      !get_buf(info.Env(), info[12], out) || !get_buf(info.Env(), info[14], tw)) {
    return fail(info, "nll_loss: typed arrays expected");
  }
  const int64_t item = dtype == kFloat ? 4 : 8;
  if (x_off < 0 || t_off < 0 || w_off < 0 || out_off < 0 || tw_off < 0 || static_cast<uint64_t>((x_off + N * C) * item) > x.bytes || static_cast<uint64_t>((t_off + N) * 8) > t.bytes ||
      (has_w && static_cast<uint64_t>((w_off + C) * item) > w.bytes) || static_cast<uint64_t>((out_off + (per_sample ? N : 1)) * item) > out.bytes ||
      static_cast<uint64_t>((tw_off + 1) * item) > tw.bytes) {
    return fail(info, "nll_loss: arrays too short for the sizes");
  }
  const int64_t* tg = reinterpret_cast<const int64_t*>(t.data) + t_off;
  for (int64_t i = 0; i < N; ++i)
    if (tg[i] != ignore && (tg[i] < 0 || tg[i] >= C)) return Napi::Boolean::New(info.Env(), false);
  if (dtype == kFloat) {
    nll_forward(reinterpret_cast<const float*>(x.data) + x_off, tg, has_w ? reinterpret_cast<const float*>(w.data) + w_off : nullptr, N, C, ignore, reduction, per_sample,
                reinterpret_cast<float*>(out.data) + out_off, reinterpret_cast<float*>(tw.data) + tw_off);
  } else {
    nll_forward(reinterpret_cast<const double*>(x.data) + x_off, tg, has_w ? reinterpret_cast<const double*>(w.data) + w_off : nullptr, N, C, ignore, reduction, per_sample,
                reinterpret_cast<double*>(out.data) + out_off, reinterpret_cast<double*>(tw.data) + tw_off);
  }
  return Napi::Boolean::New(info.Env(), true);
}

template <typename T>
void nll_backward(T* gi, const int64_t* tg, const T* w, int64_t N, int64_t C, int64_t ignore, int64_t reduction, bool per_sample, const T* go, T g, T tw) {
  const T grad = -(reduction == 1 ? static_cast<T>(g / tw) : g);
  parallel_for(0, N, at_least_1(GRAIN_SIZE / at_least_1(C)), [&](int64_t b, int64_t e) {
    std::fill(gi + b * C, gi + e * C, T(0));
    for (int64_t i = b; i < e; ++i) {
      const int64_t cur = tg[i];
      if (cur == ignore) continue;
      if (per_sample) gi[i * C + cur] = static_cast<T>(-(w ? w[cur] : T(1)) * go[i]);
      else gi[i * C + cur] = w ? static_cast<T>(w[cur] * grad) : grad;
    }
  });
}

// nll_loss_backward(dtype, gradInput, giOffset, target, targetOffset, weight|null, weightOffset, N, C, ignore_index,
//                   reduction, perSample, gradOutput (perSample: N values; else null), goOffset, grad_output value, total_weight value)
Napi::Value NllLossBackward(const Napi::CallbackInfo& info) {
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  if (dtype != kFloat && dtype != kDouble) return Napi::Boolean::New(info.Env(), false);
  const int64_t gi_off = info[2].As<Napi::Number>().Int64Value(), t_off = info[4].As<Napi::Number>().Int64Value();
  const bool has_w = !(info[5].IsNull() || info[5].IsUndefined());
  const int64_t w_off = info[6].As<Napi::Number>().Int64Value(), N = info[7].As<Napi::Number>().Int64Value(), C = info[8].As<Napi::Number>().Int64Value();
  const int64_t ignore = info[9].As<Napi::Number>().Int64Value(), reduction = info[10].As<Napi::Number>().Int64Value();
  const bool per_sample = info[11].ToBoolean().Value();
  const int64_t go_off = info[13].As<Napi::Number>().Int64Value();
  const double g = info[14].As<Napi::Number>().DoubleValue(), tw = info[15].As<Napi::Number>().DoubleValue();
  Buf gi, t, w, go;
  if (!get_buf(info.Env(), info[1], gi) || !get_buf(info.Env(), info[3], t) || (has_w && !get_buf(info.Env(), info[5], w)) || (per_sample && !get_buf(info.Env(), info[12], go))) {
    return fail(info, "nll_loss_backward: typed arrays expected");
  }
  const int64_t item = dtype == kFloat ? 4 : 8;
  if (gi_off < 0 || t_off < 0 || w_off < 0 || go_off < 0 || static_cast<uint64_t>((gi_off + N * C) * item) > gi.bytes || static_cast<uint64_t>((t_off + N) * 8) > t.bytes ||
      (has_w && static_cast<uint64_t>((w_off + C) * item) > w.bytes) || (per_sample && static_cast<uint64_t>((go_off + N) * item) > go.bytes)) {
    return fail(info, "nll_loss_backward: arrays too short for the sizes");
  }
  const int64_t* tg = reinterpret_cast<const int64_t*>(t.data) + t_off;
  for (int64_t i = 0; i < N; ++i)
    if (tg[i] != ignore && (tg[i] < 0 || tg[i] >= C)) return Napi::Boolean::New(info.Env(), false);
  if (dtype == kFloat) {
    nll_backward(reinterpret_cast<float*>(gi.data) + gi_off, tg, has_w ? reinterpret_cast<const float*>(w.data) + w_off : nullptr, N, C, ignore, reduction, per_sample,
                 per_sample ? reinterpret_cast<const float*>(go.data) + go_off : nullptr, static_cast<float>(g), static_cast<float>(tw));
  } else {
    nll_backward(reinterpret_cast<double*>(gi.data) + gi_off, tg, has_w ? reinterpret_cast<const double*>(w.data) + w_off : nullptr, N, C, ignore, reduction, per_sample,
                 per_sample ? reinterpret_cast<const double*>(go.data) + go_off : nullptr, g, tw);
  }
  return Napi::Boolean::New(info.Env(), true);
}
}  // namespace

void InitNNIndex(Napi::Env env, Napi::Object exports) {
  exports.Set("nn_index_select", Napi::Function::New(env, IndexSelect));
  exports.Set("nn_gather_scatter", Napi::Function::New(env, GatherScatter));
  exports.Set("nn_embedding_dense_backward", Napi::Function::New(env, EmbeddingDenseBackward));
  exports.Set("nn_nll_loss_forward", Napi::Function::New(env, NllLossForward));
  exports.Set("nn_nll_loss_backward", Napi::Function::New(env, NllLossBackward));
}

}  // namespace glasstorch
