// Native reductions (issue #8 item 4): sum/mean with every dtype's accumulation, var/std (+ mean),
// max/min values and indices (amax/amin, max()/min(), max.dim/min.dim, argmax/argmin), prod, all/any
// and count_nonzero.
//   pw_reduce(kind, inDtype, outDtype, meta, in, out, out2, scalars) -> bool
// meta = [ndim, shape..., inOffset, inStrides..., outOffset, outStrides..., out2Offset, out2Strides...,
// reduce flags...]: outStrides give the output's stride for each kept input dim (0 for reduced ones).
//
// Results do not depend on the thread count: the pool splits the outputs (and, for sums with few
// outputs, fixed blocks of kBlock reduced elements whose partial sums are added in block order),
// never the order in which one output's elements are combined. sum: float inputs (float16 and
// bfloat16 too) accumulate in double (64 lanes over contiguous rows, combined pairwise; column sums
// vectorized across the kept dim), rounded once to the output dtype, as the TS kernel's double sum
// (a 16-bit result through float, as its conversion), except that a float32 row
// summed to float32 adds in float runs of 16 elements per lane first (pointwise_kernels.inc:
// sum64_float_runs); integers and bool sum exactly in int64 (wrapping). var/std: two passes in
// double (mean, then the centred squares), as the TS kernel, in blocks and lanes (moments_impl).
// max/min (float16/bfloat16 compared in float): NaN wins, the first of equal values (and of NaNs)
// is the one reported.
#include <napi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>
#include "Half.h"
#include "Loops.h"
#include "ThreadPool.h"
#include "pointwise_kernels.h"

namespace glasstorch {
namespace {

enum Kind : int { kSum = 0, kMean = 1, kVar = 2, kStd = 3, kMax = 4, kMin = 5, kLogSumExp = 6, kProd = 7, kAll = 8, kAny = 9, kCountNonzero = 10, kNorm = 11 };
constexpr int64_t kBlock = 32768;

struct Dims {
  int n = 0;
  int64_t shape[kMaxDims];
  int64_t in_stride[kMaxDims];  // elements
  int64_t out_stride[kMaxDims];
  int64_t out2_stride[kMaxDims];
  int64_t numel = 1;
};

// innermost first; size-1 dims dropped; a dim merged into the inner one when the input (and, for kept
// dims, both outputs) step through them as one
void add_dim(Dims& d, int64_t size, int64_t is, int64_t os, int64_t os2, bool kept) {
  d.numel *= size;
  if (size == 1) return;
  if (d.n > 0) {
    const int i = d.n - 1;
    if (is == d.in_stride[i] * d.shape[i] && (!kept || (os == d.out_stride[i] * d.shape[i] && os2 == d.out2_stride[i] * d.shape[i]))) {
      d.shape[i] *= size;
      return;
    }
  }
  d.shape[d.n] = size;
  d.in_stride[d.n] = is;
  d.out_stride[d.n] = os;
  d.out2_stride[d.n] = os2;
  ++d.n;
}

// Visits the reduced elements [begin, end) of one output in row-major order of the reduced dims,
// a contiguous-or-strided run at a time: run(ptr, n, stride, firstIndex).
template <typename T, typename Run>
void for_runs(const Dims& r, const T* base, int64_t begin, int64_t end, Run run) {
  if (begin >= end) return;
  if (r.n == 0) return run(base, int64_t(1), int64_t(1), int64_t(0));
  int64_t idx[kMaxDims];
  int64_t rem = begin;
  const T* p = base;
  for (int d = 0; d < r.n; ++d) {
    idx[d] = rem % r.shape[d];
    rem /= r.shape[d];
    p += idx[d] * r.in_stride[d];
  }
  const int64_t st = r.in_stride[0];
  for (int64_t i = begin; i < end;) {
    const int64_t n = std::min(r.shape[0] - idx[0], end - i);
    run(p, n, st, i);
    i += n;
    p += n * st;
    idx[0] += n;
    for (int d = 0; d < r.n - 1 && idx[d] == r.shape[d]; ++d) {
      p += r.in_stride[d + 1] - r.shape[d] * r.in_stride[d];
      idx[d] = 0;
      ++idx[d + 1];
    }
  }
}

struct Problem {
  Dims kept, red;
  const char* in;
  char* out;
  char* out2;
};

template <typename T>
const T* in_at(const Problem& p, int64_t o, int64_t* out_off, int64_t* out2_off) {
  const T* ip = reinterpret_cast<const T*>(p.in);
  int64_t oo = 0, oo2 = 0;
  for (int d = 0; d < p.kept.n; ++d) {
    const int64_t c = o % p.kept.shape[d];
    o /= p.kept.shape[d];
    ip += c * p.kept.in_stride[d];
    oo += c * p.kept.out_stride[d];
    oo2 += c * p.kept.out2_stride[d];
  }
  *out_off = oo;
  *out2_off = oo2;
  return ip;
}

// The kept dims' position of one output and its input/output offsets, stepped an output at a time:
// in_at's divisions once per chunk of outputs instead of once per output.
template <typename T>
struct KeptCursor {
  const Dims& kept;
  int64_t idx[kMaxDims];
  const T* ip;
  int64_t oo = 0;
  KeptCursor(const Problem& p, int64_t o) : kept(p.kept), ip(reinterpret_cast<const T*>(p.in)) {
    for (int d = 0; d < kept.n; ++d) {
      idx[d] = o % kept.shape[d];
      o /= kept.shape[d];
      ip += idx[d] * kept.in_stride[d];
      oo += idx[d] * kept.out_stride[d];
    }
  }
  void next() {
    for (int d = 0; d < kept.n; ++d) {
      ip += kept.in_stride[d];
      oo += kept.out_stride[d];
      if (++idx[d] < kept.shape[d]) return;
      ip -= kept.shape[d] * kept.in_stride[d];
      oo -= kept.shape[d] * kept.out_stride[d];
      idx[d] = 0;
    }
  }
};

// ---- sum / mean ----

// float16/bfloat16 sum as the float types do: in double, rounded once at the end (through float, as
// the TS kernel's and c10's conversions)
template <typename T>
constexpr bool is_float_like_v = std::is_floating_point_v<T> || is_reduced_v<T>;

template <typename T, typename Acc>
Acc sum_range(const Problem& p, const T* base, int64_t b, int64_t e, pw::SumRow row) {
  Acc s = 0;
  for_runs(p.red, base, b, e, [&](const T* q, int64_t n, int64_t st, int64_t) {
    if constexpr (std::is_floating_point_v<Acc>) {
      if (st == 1) {
        s += row(q, n);
        return;
      }
      for (int64_t j = 0; j < n; ++j) s += to_double(q[j * st]);
    } else {
      uint64_t u = static_cast<uint64_t>(s);
      for (int64_t j = 0; j < n; ++j) u += static_cast<uint64_t>(static_cast<int64_t>(q[j * st]));
      s = static_cast<Acc>(u);
    }
  });
  return s;
}

template <typename T, typename O>
void sum_impl(const Problem& p, bool mean) {
  using Acc = std::conditional_t<is_float_like_v<O>, double, int64_t>;
  const int64_t nout = p.kept.numel, nred = p.red.numel;
  if (nout == 0) return;
  O* out = reinterpret_cast<O*>(p.out);
  const pw::Table& tbl = pw::table();
  int code;
  if constexpr (std::is_same_v<T, float>) code = kFloat;
  else if constexpr (std::is_same_v<T, double>) code = kDouble;
  else if constexpr (std::is_same_v<T, half_t>) code = kHalf;
  else if constexpr (std::is_same_v<T, bf16_t>) code = kBFloat16;
  else code = kByte;  // unused for integers
  // a float32 result sums as PyTorch's float accumulation does (float runs, then double); a float64
  // result of float32 input, every other float sum and var/std's mean accumulate in double throughout
  const pw::SumRow contig = std::is_same_v<T, float> && std::is_same_v<O, float> ? tbl.sum_f32_runs : tbl.sum[code];
  auto finish = [&](Acc s) -> O {
    if constexpr (is_reduced_v<O>) return O::from_float(static_cast<float>(mean ? s / static_cast<double>(nred) : s));
    else if constexpr (std::is_floating_point_v<O>) return static_cast<O>(mean ? s / static_cast<double>(nred) : s);
    else return static_cast<O>(s);
  };
  // column sums: the kept dim innermost in memory, the reduced ones outside: vectorized across outputs
  const bool columns = is_float_like_v<T> && p.kept.n > 0 && p.kept.in_stride[0] == 1 && p.red.n > 0 && p.red.in_stride[0] != 1 &&
                       p.kept.out_stride[0] == 1;
  if (columns) {
    const pw::SumCols cols = std::is_same_v<T, float> && std::is_same_v<O, float> ? tbl.sum_cols_f32_runs : tbl.sum_cols[code];
    constexpr int64_t kCols = 512;
    const int64_t inner = p.kept.shape[0], groups_per_row = (inner + kCols - 1) / kCols, rows = nout / inner;
    parallel_for(0, rows * groups_per_row, std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(1, nred * kCols)), [&](int64_t b, int64_t e) {
      double acc[kCols];
      for (int64_t g = b; g < e; ++g) {
        const int64_t r = g / groups_per_row, j0 = (g % groups_per_row) * kCols, m = std::min(kCols, inner - j0);
        int64_t oo, oo2;
        const T* ip = in_at<T>(p, r * inner + j0, &oo, &oo2);
        std::fill(acc, acc + m, 0.0);
        for_runs(p.red, ip, 0, nred, [&](const T* q, int64_t n, int64_t st, int64_t) { cols(q, n, st, m, acc); });
        for (int64_t j = 0; j < m; ++j) out[oo + j] = finish(acc[j]);
      }
    });
    return;
  }
  // one contiguous reduced dim (or none) no longer than a block: an output per row, stepped with a
  // cursor; float32 rows of 64 or more up to four at a time (a memory stream each, each row's bits as alone)
  if constexpr (std::is_floating_point_v<T>) {
    if (nred <= kBlock && (p.red.n == 0 || (p.red.n == 1 && p.red.in_stride[0] == 1))) {
      constexpr bool f32_runs = std::is_same_v<T, float> && std::is_same_v<O, float>;
      parallel_for_chunked(0, nout, std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(1, nred)), [&](int64_t b, int64_t e) {
        KeptCursor<T> c(p, b);
        for (int64_t o = b; o < e;) {
          if (f32_runs && nred >= 64 && o + 1 < e) {
            const float* rows[4];
            int64_t oo[4];
            const int count = static_cast<int>(std::min<int64_t>(4, e - o));
            for (int r = 0; r < count; ++r, c.next()) {
              rows[r] = reinterpret_cast<const float*>(c.ip);
              oo[r] = c.oo;
            }
            double s[4];
            tbl.sum_rows_f32_runs(rows, count, nred, s);
            for (int r = 0; r < count; ++r) out[oo[r]] = finish(s[r]);
            o += count;
          } else {
            out[c.oo] = finish(contig(c.ip, nred));
            c.next();
            ++o;
          }
        }
      });
      return;
    }
  }
  const int64_t nblocks = nred == 0 ? 1 : (nred + kBlock - 1) / kBlock;
  std::vector<Acc> partial(nblocks > 1 ? nout * nblocks : 0);
  const int64_t work = std::max<int64_t>(1, std::min(nred, kBlock));
  // float32 blocks of one contiguous reduced dim go up to four at a time (sum_rows_f32_runs: a memory
  // stream each, each block's partial sum the same bits)
  const bool streams = nblocks > 1 && contig == tbl.sum_f32_runs && p.red.n == 1 && p.red.in_stride[0] == 1;
  parallel_for_chunked(0, nout * nblocks, std::max<int64_t>(1, GRAIN_SIZE / work), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / nblocks, blk = t % nblocks;
      int64_t oo, oo2;
      const T* ip = in_at<T>(p, o, &oo, &oo2);
      if constexpr (std::is_same_v<T, float> && std::is_same_v<Acc, double>) {
        // whole blocks of this output in this chunk (the last block, maybe short, goes alone)
        const int count = streams ? static_cast<int>(std::min({int64_t{4}, e - t, nblocks - 1 - blk})) : 0;
        if (count >= 2) {
          const float* rows[4];
          for (int r = 0; r < count; ++r) rows[r] = ip + (blk + r) * kBlock;
          tbl.sum_rows_f32_runs(rows, count, kBlock, &partial[t]);
          t += count - 1;
          continue;
        }
      }
      const Acc s = sum_range<T, Acc>(p, ip, blk * kBlock, std::min(nred, (blk + 1) * kBlock), contig);
      if (nblocks == 1) out[oo] = finish(s);
      else partial[t] = s;
    }
  });
  if (nblocks == 1) return;
  for (int64_t o = 0; o < nout; ++o) {
    Acc s = 0;
    for (int64_t blk = 0; blk < nblocks; ++blk) {
      if constexpr (std::is_floating_point_v<Acc>) s += partial[o * nblocks + blk];
      else s = static_cast<Acc>(static_cast<uint64_t>(s) + static_cast<uint64_t>(partial[o * nblocks + blk]));
    }
    int64_t oo, oo2;
    in_at<T>(p, o, &oo, &oo2);
    out[oo] = finish(s);
  }
}

// ---- var / std (+ mean): two passes in double (the mean, then the centred squares) ----
// As the TS kernel's moments() but not in its order: an output's elements go in fixed blocks of kBlock
// (on any thread; the blocks' partial sums added in block order), a block's contiguous runs through
// lanes (the first pass the unit's 64-lane sum, the second centred_squares' 16 lanes): independent
// addition chains instead of one (var of 2^20 floats, one thread, CPU time: 1.22 -> 0.43 ms, PyTorch
// 1.19), the same bits on any thread count; against the TS kernel within its tests' tolerance (relative
// 4.8e-7 float32, 4e-13 float64: cpu_native_pointwise and cpu_native_var_blocks tests).

// sum of (q[j] - mean)^2 over a contiguous run, element j in lane j % 16 (lanes combined pairwise),
// the last n % 16 elements added after them in order
template <typename T>
double centred_squares(const T* q, int64_t n, double mean) {
  constexpr int L = 16;
  double acc[L] = {};
  int64_t j = 0;
  for (; j + L <= n; j += L)
    for (int l = 0; l < L; ++l) {
      const double d = static_cast<double>(q[j + l]) - mean;
      acc[l] += d * d;
    }
  for (int w = L / 2; w >= 1; w /= 2)
    for (int l = 0; l < w; ++l) acc[l] += acc[l + w];
  double s = acc[0];
  for (; j < n; ++j) {
    const double d = static_cast<double>(q[j]) - mean;
    s += d * d;
  }
  return s;
}

template <typename T>
void moments_impl(const Problem& p, bool is_std, double correction) {
  const int64_t nout = p.kept.numel, nred = p.red.numel;
  if (nout == 0) return;
  T* out = reinterpret_cast<T*>(p.out);
  T* mean_out = reinterpret_cast<T*>(p.out2);
  const pw::SumRow contig = pw::table().sum[std::is_same_v<T, float> ? kFloat : kDouble];
  const int64_t nblocks = nred == 0 ? 1 : (nred + kBlock - 1) / kBlock;
  const int64_t work = std::max<int64_t>(1, std::min(nred, kBlock));
  std::vector<double> partial(static_cast<size_t>(nout * nblocks)), means(static_cast<size_t>(nout));
  // pass(first): every block's partial sum (first: of the elements; else of the centred squares)
  auto pass = [&](bool first) {
    parallel_for(0, nout * nblocks, std::max<int64_t>(1, GRAIN_SIZE / work), [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        const int64_t o = t / nblocks, blk = t % nblocks;
        int64_t oo, oo2;
        const T* ip = in_at<T>(p, o, &oo, &oo2);
        const double mean = first ? 0.0 : means[size_t(o)];
        double s = 0;
        for_runs(p.red, ip, blk * kBlock, std::min(nred, (blk + 1) * kBlock), [&](const T* q, int64_t n, int64_t st, int64_t) {
          if (first) {
            if (st == 1) s += contig(q, n);
            else for (int64_t j = 0; j < n; ++j) s += static_cast<double>(q[j * st]);
          } else if (st == 1) {
            s += centred_squares(q, n, mean);
          } else {
            for (int64_t j = 0; j < n; ++j) {
              const double d = static_cast<double>(q[j * st]) - mean;
              s += d * d;
            }
          }
        });
        partial[size_t(t)] = s;
      }
    });
  };
  auto total = [&](int64_t o) {
    double s = 0;
    for (int64_t blk = 0; blk < nblocks; ++blk) s += partial[size_t(o * nblocks + blk)];
    return s;
  };
  pass(true);
  for (int64_t o = 0; o < nout; ++o) means[size_t(o)] = nred == 0 ? std::numeric_limits<double>::quiet_NaN() : total(o) / static_cast<double>(nred);
  pass(false);
  for (int64_t o = 0; o < nout; ++o) {
    int64_t oo, oo2;
    in_at<T>(p, o, &oo, &oo2);
    const double mean = means[size_t(o)];
    const double m2 = nred == 0 ? std::numeric_limits<double>::quiet_NaN() : total(o);
    const double var = m2 / std::max(0.0, static_cast<double>(nred) - correction);
    out[oo] = static_cast<T>(is_std ? std::sqrt(var) : var);
    if (mean_out) mean_out[oo2] = static_cast<T>(mean);
  }
}

// ---- logsumexp: m = max (NaN if any; |m| = inf replaced by 0), then log(sum(exp(x - m))) + m ----
// (LogSumExp.ts's steps, in its rounding: the sum in double, the log and the add in the element type)

template <typename T>
void logsumexp_impl(const Problem& p) {
  const int64_t nout = p.kept.numel, nred = p.red.numel;
  if (nout == 0) return;
  T* out = reinterpret_cast<T*>(p.out);
  constexpr int code = std::is_same_v<T, float> ? kFloat : kDouble;
  const auto sum = pw::table().lse_sum[code];
  const auto sum4 = pw::table().lse_sum_rows4[code];
  // one contiguous run: the max through the unit's vectorized extreme (a NaN anywhere gives NaN, as the
  // scan; a zero's sign may differ from the scan's, which changes no term: x - (+-0) and the final
  // log(s) + m, log(s) >= 0, round alike), and four rows' sums at once (lse_sum_rows4: each row's bits)
  const pw::ExtremeRow row_max = pw::table().extreme[1][code];
  const bool one_run = p.red.n == 1 && p.red.in_stride[0] == 1 && nred > 0;
  // m = max (NaN if any; |m| = inf replaced by 0)
  auto max_of = [&](const T* ip) {
    double m = nred == 0 ? 0.0 : -std::numeric_limits<double>::infinity();
    if (one_run) {
      m = row_max(ip, nred);
    } else {
      bool nan = false;
      for_runs(p.red, ip, 0, nred, [&](const T* q, int64_t n, int64_t st, int64_t) {
        for (int64_t j = 0; j < n; ++j) {
          const double x = static_cast<double>(q[j * st]);
          nan = nan || x != x;
          m = x > m ? x : m;
        }
      });
      if (nan) m = std::numeric_limits<double>::quiet_NaN();
    }
    if (std::fabs(m) == std::numeric_limits<double>::infinity()) m = 0;
    return m;
  };
  auto finish = [](double s, double m) -> T {
    const T ls = static_cast<T>(std::log(static_cast<double>(static_cast<T>(s))));
    return ls + static_cast<T>(m);
  };
  parallel_for(0, nout, std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(1, 8 * nred)), [&](int64_t b, int64_t e) {
    int64_t o = b;
    if (one_run) {
      for (; o + 4 <= e; o += 4) {
        const void* rows[4];
        int64_t oo[4];
        double m[4], s[4];
        for (int r = 0; r < 4; ++r) {
          int64_t oo2;
          const T* ip = in_at<T>(p, o + r, &oo[r], &oo2);
          rows[r] = ip;
          m[r] = max_of(ip);
        }
        sum4(rows, nred, m, s);
        for (int r = 0; r < 4; ++r) out[oo[r]] = finish(s[r], m[r]);
      }
    }
    for (; o < e; ++o) {
      int64_t oo, oo2;
      const T* ip = in_at<T>(p, o, &oo, &oo2);
      const double m = max_of(ip);
      double s = 0;
      for_runs(p.red, ip, 0, nred, [&](const T* q, int64_t n, int64_t st, int64_t) { s = sum(q, n, st, m, s); });
      out[oo] = finish(s, m);
    }
  });
}

// ---- max / min with the first index ----

template <typename T>
inline bool beats(T a, T b, bool is_max) {
  if constexpr (is_reduced_v<T>) {
    return beats(a.to_float(), b.to_float(), is_max);  // exact
  } else {
    if constexpr (std::is_floating_point_v<T>) {
      if (b != b) return false;
      if (a != a) return true;
    }
    return is_max ? a > b : a < b;
  }
}

template <typename T>
constexpr int code_of() {
  if constexpr (std::is_same_v<T, uint8_t>) return kByte;
  else if constexpr (std::is_same_v<T, int8_t>) return kChar;
  else if constexpr (std::is_same_v<T, int16_t>) return kShort;
  else if constexpr (std::is_same_v<T, int32_t>) return kInt;
  else if constexpr (std::is_same_v<T, int64_t>) return kLong;
  else if constexpr (std::is_same_v<T, float>) return kFloat;
  else if constexpr (std::is_same_v<T, double>) return kDouble;
  else if constexpr (std::is_same_v<T, half_t>) return kHalf;
  else if constexpr (std::is_same_v<T, bf16_t>) return kBFloat16;
  else return kBool;
}

// Column extremes (the kept dim innermost in memory, a reduced one outside: amax(mat, 0)): one reduced
// row of m outputs' elements against their best so far; values alone through the unit's vectorized
// column_extreme (pointwise_column_extremes.inc), with indices here (scalar: the int64 selects did not
// vectorize). A row element takes over when beats() says so: it is NaN or strictly better, and the
// best is not NaN.
// the same with each best's first index (at[j] = i when row i takes over)
template <typename T, bool IsMax>
__attribute__((optimize("no-trapping-math"))) void column_extremes_at(const T* row, int64_t m, T* best, int64_t* at, int64_t i) {
  for (int64_t j = 0; j < m; ++j) {
    const T v = row[j], b = best[j];
    bool take;
    if constexpr (std::is_floating_point_v<T>) take = ((v != v) | (IsMax ? v > b : v < b)) & (b == b);
    else take = IsMax ? v > b : v < b;
    best[j] = take ? v : b;
    at[j] = take ? i : at[j];
  }
}

// kCols outputs of adjacent columns at a time, the reduced rows read in order (row-major over the
// reduced dims, as the scan): contiguous reads instead of one strided walk down each column
// (amax(1024 x 1024, 0) on one thread, CPU time, AVX2: 2 ms -> 0.15-0.17, PyTorch 0.20; the indexed
// form is scalar, max(mat, 0) 1.2 ms, PyTorch 4.5), the same values and first indices as the scan.
template <typename T>
void maxmin_columns(const Problem& p, bool is_max, T* values, int64_t* indices) {
  constexpr int64_t kMaxCols = 1024;
  const int64_t nout = p.kept.numel, nred = p.red.numel;
  // groups of columns as wide as possible (long contiguous reads) but one per thread at least
  const int64_t inner = p.kept.shape[0];
  const int64_t per_thread = (inner + get_num_threads() - 1) / get_num_threads();
  const int64_t kCols = std::min(kMaxCols, std::max<int64_t>(64, (per_thread + 15) / 16 * 16));
  const int64_t groups = (inner + kCols - 1) / kCols, rows = nout / inner;
  const int64_t os = p.kept.out_stride[0], os2 = p.kept.out2_stride[0];
  const auto values_row = pw::table().column_extreme[is_max ? 1 : 0][code_of<T>()];
  parallel_for(0, rows * groups, std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(1, nred * kCols)), [&](int64_t b, int64_t e) {
    T best[kMaxCols];
    int64_t at[kMaxCols];
    for (int64_t g = b; g < e; ++g) {
      const int64_t r = g / groups, j0 = (g % groups) * kCols, m = std::min(kCols, inner - j0);
      int64_t oo, oo2;
      const T* ip = in_at<T>(p, r * inner + j0, &oo, &oo2);
      std::copy(ip, ip + m, best);  // reduced element 0 (for_runs starts at the base)
      std::fill(at, at + m, int64_t(0));
      for_runs(p.red, ip, 1, nred, [&](const T* q, int64_t n, int64_t st, int64_t first) {
        for (int64_t i = 0; i < n; ++i) {
          const T* row = q + i * st;
          if (indices) {
            if (is_max) column_extremes_at<T, true>(row, m, best, at, first + i);
            else column_extremes_at<T, false>(row, m, best, at, first + i);
          } else {
            values_row(row, m, best);
          }
        }
      });
      if (values) for (int64_t j = 0; j < m; ++j) values[oo + j * os] = best[j];
      if (indices) for (int64_t j = 0; j < m; ++j) indices[oo2 + j * os2] = at[j];
    }
  });
}

template <typename T>
void maxmin_impl(const Problem& p, bool is_max) {
  const int64_t nout = p.kept.numel, nred = p.red.numel;
  if (nout == 0 || nred == 0) return;
  T* values = reinterpret_cast<T*>(p.out);
  int64_t* indices = reinterpret_cast<int64_t*>(p.out2);
  if constexpr (std::is_arithmetic_v<T>) {
    if (p.kept.n > 0 && p.kept.in_stride[0] == 1 && p.red.n > 0 && p.red.in_stride[0] != 1) return maxmin_columns<T>(p, is_max, values, indices);
  }
  // one contiguous run: the unit's vectorized extreme of the row, for the dtypes a double holds exactly
  constexpr bool exact_in_double = !std::is_same_v<T, int64_t> && !std::is_same_v<T, bool>;
  const pw::ExtremeRow row = pw::table().extreme[is_max ? 1 : 0][code_of<T>()];
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // integer values alone (min(), max(): bincount's two passes) of contiguous rows: int64 through its own
    // vectorized extreme; and a long single row in chunks over the pool, their extremes combined (integers
    // have no NaN or signed zero: the same value in any order)
    if (!indices && p.red.n == 1 && p.red.in_stride[0] == 1) {
      const auto i64 = pw::table().extreme_i64[is_max ? 1 : 0];
      auto extreme = [&](const T* q, int64_t n) -> T {
        if constexpr (std::is_same_v<T, int64_t>) return i64(q, n);
        else return static_cast<T>(row(q, n));
      };
      const int64_t chunks = nout == 1 ? std::min<int64_t>(4 * get_num_threads(), nred / GRAIN_SIZE) : 1;
      if (chunks > 1) {
        int64_t oo, oo2;
        const T* ip = in_at<T>(p, 0, &oo, &oo2);
        const int64_t len = (nred + chunks - 1) / chunks;
        std::vector<T> part(static_cast<size_t>(chunks));
        parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
          for (int64_t c = b; c < e; ++c) part[c] = extreme(ip + c * len, std::min(len, nred - c * len));
        });
        T best = part[0];
        for (int64_t c = 1; c < chunks; ++c) best = is_max ? std::max(best, part[c]) : std::min(best, part[c]);
        values[oo] = best;
        return;
      }
      if constexpr (std::is_same_v<T, int64_t>) {
        parallel_for(0, nout, std::max<int64_t>(1, GRAIN_SIZE / nred), [&](int64_t b, int64_t e) {
          for (int64_t o = b; o < e; ++o) {
            int64_t oo, oo2;
            const T* ip = in_at<T>(p, o, &oo, &oo2);
            values[oo] = extreme(ip, nred);
          }
        });
        return;
      }
    }
  }
  const auto find = pw::table().find_first[code_of<T>()];
  // with indices too (max.dim, argmax): the extreme, then the first element equal to it (or the first
  // NaN): the scan's answer, ties and zeros included, in two vectorized passes over the row
  const bool vectorized = exact_in_double && p.red.n == 1 && p.red.in_stride[0] == 1;
  if (vectorized && nout == 1 && nred >= 2 * GRAIN_SIZE && get_num_threads() > 1) {
    // one long row (max(x), argmax(x) of a vector): both passes in chunks over the pool (one row on one
    // thread: max of 2^20 floats 75 us on one thread or two, PyTorch 97 / 51). The same answer: the
    // extreme is exact in any order; a row with a NaN answers its first NaN, the first NaN of the first
    // chunk that has one; the index (and a zero's sign) is the first match of the first chunk with one.
    int64_t oo, oo2;
    const T* ip = in_at<T>(p, 0, &oo, &oo2);
    const int64_t chunks = std::min<int64_t>(4 * get_num_threads(), nred / GRAIN_SIZE), len = (nred + chunks - 1) / chunks;
    std::vector<double> part(static_cast<size_t>(chunks));
    std::vector<int64_t> hit(static_cast<size_t>(chunks));
    parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t c = b; c < e; ++c) part[c] = row(ip + c * len, std::min(len, nred - c * len));
    });
    double r = part[0];
    for (int64_t c = 1; c < chunks && r == r; ++c) r = part[c] != part[c] ? part[c] : is_max ? std::max(r, part[c]) : std::min(r, part[c]);
    T best;
    if constexpr (is_reduced_v<T>) best = T::from_float(static_cast<float>(r));  // exact: r is one of the row's values
    else best = static_cast<T>(r);
    if (indices || (is_float_like_v<T> && r == 0)) {  // a zero result takes the first zero's sign
      parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) hit[c] = find(ip + c * len, std::min(len, nred - c * len), r);
      });
      int64_t at = 0;
      for (int64_t c = 0; c < chunks; ++c)
        if (hit[c] >= 0) {
          at = c * len + hit[c];
          break;
        }
      best = ip[at];
      if (indices) indices[oo2] = at;
    }
    if (values) values[oo] = best;
    return;
  }
  parallel_for(0, nout, std::max<int64_t>(1, GRAIN_SIZE / nred), [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      int64_t oo, oo2;
      const T* ip = in_at<T>(p, o, &oo, &oo2);
      if (vectorized) {
        const double r = row(ip, nred);
        T best;
        if constexpr (is_reduced_v<T>) best = T::from_float(static_cast<float>(r));  // exact: r is one of the row's values
        else best = static_cast<T>(r);
        if (indices || (is_float_like_v<T> && r == 0)) {  // a zero result takes the first zero's sign
          const int64_t at = find(ip, nred, r);
          best = ip[at];
          if (indices) indices[oo2] = at;
        }
        if (values) values[oo] = best;
        continue;
      }
      T best = *ip;
      int64_t at = 0;
      for_runs(p.red, ip, 0, nred, [&](const T* q, int64_t n, int64_t st, int64_t first) {
        for (int64_t j = 0; j < n; ++j) {
          const T v = q[j * st];
          if (beats(v, best, is_max)) {
            best = v;
            at = first + j;
          }
        }
      });
      if (values) values[oo] = best;
      if (indices) indices[oo2] = at;
    }
  });
}

// ---- lane reductions: prod and the vector norms ----
// One output's reduced elements (row-major over the reduced dims) go in fixed blocks of kBlock, on
// any thread; within a block, element j into lane j % 64 of 64 accumulators (the unit's table folds a
// contiguous run with its vectors: 64 independent chains, where one chain waited for each step's
// latency), the lanes combined pairwise (lane j with lane j + w, w = 32, 16, ..., 1), then the blocks'
// results combined in block order from the identity. The TS kernels take the same order (reduce/
// ReduceUtils.ts laneReduce), so native and TS give the same bits on any unit and thread count.
constexpr int kLanes = 64;

// the pairwise combination; a block of fewer than 64 elements leaves lanes `used` and up at the
// identity, and combining with the identity changes nothing (x * 1, x + 0 for x >= +0, max(x, 0) for
// x >= 0, min(x, inf)), so those steps are skipped
template <typename Acc, typename Combine>
Acc combine_lanes(Acc* l, int used, Combine combine) {
  for (int w = kLanes / 2; w >= 1; w /= 2) {
    for (int j = 0; j < w && j + w < used; ++j) l[j] = combine(l[j], l[j + w]);
    used = std::min(used, w);
  }
  return l[0];
}

// fold(q, n, stride, lane0, lanes): a run into the lanes; finish(outOffset, total) writes an output
template <typename T, typename Acc, typename Fold, typename Combine, typename Finish>
void lane_reduce(const Problem& p, Acc identity, Fold fold, Combine combine, Finish finish) {
  const int64_t nout = p.kept.numel, nred = p.red.numel;
  if (nout == 0) return;
  const int64_t nblocks = nred == 0 ? 1 : (nred + kBlock - 1) / kBlock;
  std::vector<Acc> partial(nblocks > 1 ? size_t(nout * nblocks) : 0);
  const int64_t work = std::max<int64_t>(1, std::min(nred, kBlock));
  parallel_for_chunked(0, nout * nblocks, std::max<int64_t>(1, GRAIN_SIZE / work), [&](int64_t b, int64_t e) {
    Acc lanes[kLanes];
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / nblocks, blk = t % nblocks;
      int64_t oo, oo2;
      const T* ip = in_at<T>(p, o, &oo, &oo2);
      const int64_t b0 = blk * kBlock, b1 = std::min(nred, b0 + kBlock);
      std::fill(lanes, lanes + kLanes, identity);
      for_runs(p.red, ip, b0, b1, [&](const T* q, int64_t n, int64_t st, int64_t first) { fold(q, n, st, first - b0, lanes); });
      const Acc r = combine_lanes(lanes, static_cast<int>(std::min<int64_t>(b1 - b0, kLanes)), combine);
      if (nblocks == 1) finish(oo, combine(identity, r));
      else partial[size_t(t)] = r;
    }
  });
  if (nblocks == 1) return;
  for (int64_t o = 0; o < nout; ++o) {
    Acc total = identity;
    for (int64_t blk = 0; blk < nblocks; ++blk) total = combine(total, partial[size_t(o * nblocks + blk)]);
    int64_t oo, oo2;
    in_at<T>(p, o, &oo, &oo2);
    finish(oo, total);
  }
}

// prod: a float result multiplies in double lanes and rounds once; an int64 one multiplies in uint64,
// wrapping as BigInt.asIntN(64, a * v) does (exact, so any order gives the TS kernel's bits)
template <typename T, typename O>
void prod_impl(const Problem& p) {
  O* out = reinterpret_cast<O*>(p.out);
  if constexpr (std::is_floating_point_v<O>) {
    const pw::LaneFold f = pw::table().lane_fold[pw::kLaneProd][code_of<T>()][1];
    lane_reduce<T, double>(
        p, 1.0, [&](const T* q, int64_t n, int64_t st, int64_t l0, double* lanes) { f(q, n, st, l0, lanes); },
        [](double a, double b) { return a * b; }, [&](int64_t oo, double v) { out[oo] = static_cast<O>(v); });
  } else {
    lane_reduce<T, uint64_t>(
        p, uint64_t(1),
        [](const T* q, int64_t n, int64_t st, int64_t l0, uint64_t* lanes) {
          for (int64_t j = 0; j < n; ++j) lanes[(l0 + j) & (kLanes - 1)] *= static_cast<uint64_t>(static_cast<int64_t>(q[j * st]));
        },
        [](uint64_t a, uint64_t b) { return a * b; }, [&](int64_t oo, uint64_t v) { out[oo] = static_cast<O>(v); });
  }
}

// vector norms (norm_stub: linalg.vector_norm, norm) for ord 0, 1, 2, +-inf: accumulated in the result
// type O (PyTorch's acc_t = scalar_t; a float32 input into a float64 result widened first), in the lane
// order; ord 2 the square root of the sum of squares. Other ords stay with the TS kernel.
template <typename T, typename O>
bool norm_impl(const Problem& p, double ord) {
  const int op = ord == 2 ? pw::kLaneSquareSum : ord == 1 ? pw::kLaneAbsSum : ord == 0 ? pw::kLaneNonzero
               : ord == std::numeric_limits<double>::infinity() ? pw::kLaneAbsMax
               : ord == -std::numeric_limits<double>::infinity() ? pw::kLaneAbsMin : -1;
  if (op < 0) return false;
  const pw::LaneFold f = pw::table().lane_fold[op][code_of<T>()][std::is_same_v<O, double> ? 1 : 0];
  if (f == nullptr) return false;
  O* out = reinterpret_cast<O*>(p.out);
  auto fold = [&](const T* q, int64_t n, int64_t st, int64_t l0, O* lanes) { f(q, n, st, l0, lanes); };
  auto write = [&](int64_t oo, O v) { out[oo] = op == pw::kLaneSquareSum ? static_cast<O>(std::sqrt(static_cast<double>(v))) : v; };
  if (op == pw::kLaneAbsMax || op == pw::kLaneAbsMin) {
    const bool is_max = op == pw::kLaneAbsMax;
    // the better of two, NaN propagating
    auto pick = [is_max](O a, O b) {
      const O m = (is_max ? b > a : b < a) ? b : a;
      return b != b ? b : m;
    };
    lane_reduce<T, O>(p, is_max ? O(0) : std::numeric_limits<O>::infinity(), fold, pick, write);
  } else {
    lane_reduce<T, O>(p, O(0), fold, [](O a, O b) { return a + b; }, write);
  }
  return true;
}

// float inputs into float32/float64 (an int64 product of floats is the TS kernel's error); integers
// and bool into int64 (exact) or float32/float64 (in double)
template <typename T>
bool prod_dispatch_out(int out_dtype, const Problem& p) {
  if (out_dtype == kFloat) return prod_impl<T, float>(p), true;
  if (out_dtype == kDouble) return prod_impl<T, double>(p), true;
  if constexpr (!is_float_like_v<T>) {
    if (out_dtype == kLong) return prod_impl<T, int64_t>(p), true;
  }
  return false;
}

// ---- all / any: is every (some) element nonzero; NaN counts as nonzero, -0.0 as zero. The result is
// 1 or 0 in a bool or uint8 output. Exact, so an output's elements may go in blocks on the threads,
// each block stopping at its first deciding element ----

// nonzero as integer tests, which vectorize: a float is nonzero when any bit but the sign is set
// (NaN included, -0.0 not)
template <typename T>
inline bool truthy(T v) {
  if constexpr (is_reduced_v<T>) {
    return (v.x & 0x7fffu) != 0;
  } else if constexpr (std::is_same_v<T, float>) {
    uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    return (u & 0x7fffffffu) != 0;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    return (u << 1) != 0;
  } else {
    return v != T(0);
  }
}

// whether some element of the contiguous run q[0, n) decides the output: a zero (IsAll) or a nonzero
template <bool IsAll, typename T>
bool decides(const T* q, int64_t n) {
  int64_t j = 0;
  // 64 elements tested without a branch (vectorized), then one test of the lot
  for (; j + 64 <= n; j += 64) {
    bool hit = false;
    for (int k = 0; k < 64; ++k) hit |= IsAll ? !truthy(q[j + k]) : truthy(q[j + k]);
    if (hit) return true;
  }
  for (; j < n; ++j)
    if (truthy(q[j]) != IsAll) return true;
  return false;
}

template <typename T>
void allany_impl(const Problem& p, bool is_all) {
  const int64_t nout = p.kept.numel, nred = p.red.numel;
  uint8_t* out = reinterpret_cast<uint8_t*>(p.out);
  const int64_t nblocks = nred == 0 ? 1 : (nred + kBlock - 1) / kBlock;
  // decided[o]: some block of output o found the element that decides it (a zero for all, a nonzero for any)
  std::vector<uint8_t> decided(size_t(nout), 0);
  const int64_t work = std::max<int64_t>(1, std::min(nred, kBlock));
  parallel_for_chunked(0, nout * nblocks, std::max<int64_t>(1, GRAIN_SIZE / work), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / nblocks, blk = t % nblocks;
      if (__atomic_load_n(&decided[size_t(o)], __ATOMIC_RELAXED)) continue;  // decided already: only ever goes 0 -> 1
      int64_t oo, oo2;
      const T* ip = in_at<T>(p, o, &oo, &oo2);
      bool found = false;
      for_runs(p.red, ip, blk * kBlock, std::min(nred, (blk + 1) * kBlock), [&](const T* q, int64_t n, int64_t st, int64_t) {
        if (found) return;
        if (st == 1) {
          found = is_all ? decides<true>(q, n) : decides<false>(q, n);
          return;
        }
        for (int64_t j = 0; j < n && !found; ++j) found = truthy(q[j * st]) != is_all;
      });
      if (found) __atomic_store_n(&decided[size_t(o)], uint8_t(1), __ATOMIC_RELAXED);
    }
  });
  for (int64_t o = 0; o < nout; ++o) {
    int64_t oo, oo2;
    in_at<T>(p, o, &oo, &oo2);
    out[oo] = decided[size_t(o)] ? !is_all : is_all;
  }
}

// ---- count_nonzero: how many elements are nonzero (truthy: NaN counts, -0.0 does not), into int64.
// Exact integer counts, so an output's blocks of kBlock elements may go to any thread and their counts
// add in any order. ----

// the nonzero elements of the contiguous run q[0, n): integer tests added without a branch (vectorized)
template <typename T>
int64_t count_run(const T* q, int64_t n) {
  int64_t c = 0;
  for (int64_t j = 0; j < n; ++j) c += truthy(q[j]) ? 1 : 0;
  return c;
}

template <typename T>
void count_nonzero_impl(const Problem& p) {
  const int64_t nout = p.kept.numel, nred = p.red.numel;
  int64_t* out = reinterpret_cast<int64_t*>(p.out);
  const int64_t nblocks = nred == 0 ? 1 : (nred + kBlock - 1) / kBlock;
  std::vector<int64_t> counts(size_t(nout * nblocks), 0);
  const int64_t work = std::max<int64_t>(1, std::min(nred, kBlock));
  parallel_for(0, nout * nblocks, std::max<int64_t>(1, GRAIN_SIZE / work), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / nblocks, blk = t % nblocks;
      int64_t oo, oo2;
      const T* ip = in_at<T>(p, o, &oo, &oo2);
      int64_t c = 0;
      for_runs(p.red, ip, blk * kBlock, std::min(nred, (blk + 1) * kBlock), [&](const T* q, int64_t n, int64_t st, int64_t) {
        if (st == 1) c += count_run(q, n);
        else for (int64_t j = 0; j < n; ++j) c += truthy(q[j * st]) ? 1 : 0;
      });
      counts[size_t(t)] = c;
    }
  });
  for (int64_t o = 0; o < nout; ++o) {
    int64_t c = 0;
    for (int64_t blk = 0; blk < nblocks; ++blk) c += counts[size_t(o * nblocks + blk)];
    int64_t oo, oo2;
    in_at<T>(p, o, &oo, &oo2);
    out[oo] = c;
  }
}

// ---- N-API ----

bool typed(napi_env env, napi_value v, char** data) {
  napi_typedarray_type type;
  size_t length, byte_offset;
  void* raw = nullptr;
  napi_value ab;
  if (napi_get_typedarray_info(env, v, &type, &length, &raw, &ab, &byte_offset) != napi_ok) return false;
  *data = static_cast<char*>(raw);
  return true;
}

int itemsize(int dtype) {
  switch (dtype) {
    case kDouble: case kLong: return 8;
    case kFloat: case kInt: return 4;
    case kShort: case kHalf: case kBFloat16: return 2;
    default: return 1;
  }
}

template <typename T>
bool sum_dispatch_out(int out_dtype, const Problem& p, bool mean) {
  if constexpr (is_reduced_v<T>) {
    if (out_dtype == (std::is_same_v<T, half_t> ? kHalf : kBFloat16)) return sum_impl<T, T>(p, mean), true;
    if (out_dtype == kFloat) return sum_impl<T, float>(p, mean), true;
    if (out_dtype == kDouble) return sum_impl<T, double>(p, mean), true;
    return false;
  } else if constexpr (std::is_floating_point_v<T>) {
    if (out_dtype == kFloat) return sum_impl<T, float>(p, mean), true;
    if (out_dtype == kDouble) return sum_impl<T, double>(p, mean), true;
    return false;
  } else {
    if (out_dtype == kLong && !mean) return sum_impl<T, int64_t>(p, false), true;
    return false;
  }
}

template <typename F>
bool by_dtype(int dtype, F f) {
  switch (dtype) {
    case kByte: return f(uint8_t{});
    case kChar: return f(int8_t{});
    case kShort: return f(int16_t{});
    case kInt: return f(int32_t{});
    case kLong: return f(int64_t{});
    case kFloat: return f(float{});
    case kDouble: return f(double{});
    case kBool: return f(bool{});
    case kHalf: return f(half_t{});
    case kBFloat16: return f(bf16_t{});
    default: return false;
  }
}

// pw_reduce(kind, inDtype, outDtype, meta, in, out, out2, scalars)
Napi::Value PwReduce(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int kind = info[0].As<Napi::Number>().Int32Value();
  const int in_dtype = info[1].As<Napi::Number>().Int32Value();
  const int out_dtype = info[2].As<Napi::Number>().Int32Value();
  char* raw;
  char *in = nullptr, *out = nullptr, *out2 = nullptr, *sraw = nullptr;
  if (!typed(env, info[3], &raw) || !typed(env, info[4], &in) || !typed(env, info[7], &sraw)) {
    Napi::TypeError::New(env, "glasstorch native reduce: bad arguments").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  if (!info[5].IsNull() && !typed(env, info[5], &out)) return env.Undefined();
  if (!info[6].IsNull() && !typed(env, info[6], &out2)) return env.Undefined();
  const double* m = reinterpret_cast<const double*>(raw);
  const double* sc = reinterpret_cast<const double*>(sraw);
  const int ndim = static_cast<int>(m[0]);
  if (ndim < 0 || ndim > kMaxDims) return Napi::Boolean::New(env, false);
  const double* shape = m + 1;
  const double* ins = shape + ndim;       // offset, strides
  const double* outs = ins + 1 + ndim;
  const double* out2s = outs + 1 + ndim;
  const double* flags = out2s + 1 + ndim;
  const int out2_dtype = (kind == kMax || kind == kMin) ? kLong : out_dtype;
  Problem p;
  p.in = in + static_cast<int64_t>(ins[0]) * itemsize(in_dtype);
  p.out = out ? out + static_cast<int64_t>(outs[0]) * itemsize(out_dtype) : nullptr;
  p.out2 = out2 ? out2 + static_cast<int64_t>(out2s[0]) * itemsize(out2_dtype) : nullptr;
  for (int d = ndim - 1; d >= 0; --d) {
    const int64_t size = static_cast<int64_t>(shape[d]);
    const int64_t is = static_cast<int64_t>(ins[1 + d]);
    if (flags[d] != 0) add_dim(p.red, size, is, 0, 0, false);
    else add_dim(p.kept, size, is, static_cast<int64_t>(outs[1 + d]), static_cast<int64_t>(out2s[1 + d]), true);
  }
  bool ok = false;
  switch (kind) {
    case kSum: case kMean:
      ok = by_dtype(in_dtype, [&](auto t) { return sum_dispatch_out<decltype(t)>(out_dtype, p, kind == kMean); });
      break;
    case kVar: case kStd:
      if (in_dtype == out_dtype && in_dtype == kFloat) ok = (moments_impl<float>(p, kind == kStd, sc[0]), true);
      else if (in_dtype == out_dtype && in_dtype == kDouble) ok = (moments_impl<double>(p, kind == kStd, sc[0]), true);
      break;
    case kMax: case kMin:
      if (in_dtype == out_dtype || !out) ok = by_dtype(in_dtype, [&](auto t) { return maxmin_impl<decltype(t)>(p, kind == kMax), true; });
      break;
    case kProd:
      if (out) ok = by_dtype(in_dtype, [&](auto t) { return prod_dispatch_out<decltype(t)>(out_dtype, p); });
      break;
    case kAll: case kAny:
      if (out && (out_dtype == kBool || out_dtype == kByte)) ok = by_dtype(in_dtype, [&](auto t) { return allany_impl<decltype(t)>(p, kind == kAll), true; });
      break;
    case kCountNonzero:
      if (out && out_dtype == kLong) ok = by_dtype(in_dtype, [&](auto t) { return count_nonzero_impl<decltype(t)>(p), true; });
      break;
    case kNorm:
      if (out && in_dtype == kFloat && out_dtype == kFloat) ok = norm_impl<float, float>(p, sc[0]);
      else if (out && in_dtype == kFloat && out_dtype == kDouble) ok = norm_impl<float, double>(p, sc[0]);
      else if (out && in_dtype == kDouble && out_dtype == kDouble) ok = norm_impl<double, double>(p, sc[0]);
      break;
    case kLogSumExp:
      if (in_dtype == out_dtype && in_dtype == kFloat && out) ok = (logsumexp_impl<float>(p), true);
      else if (in_dtype == out_dtype && in_dtype == kDouble && out) ok = (logsumexp_impl<double>(p), true);
      break;
  }
  return Napi::Boolean::New(env, ok);
}

}  // namespace

void InitReductions(Napi::Env env, Napi::Object exports) { exports.Set("pw_reduce", Napi::Function::New(env, PwReduce)); }

}  // namespace glasstorch
