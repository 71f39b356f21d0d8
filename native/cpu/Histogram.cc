// Counting kernels (SummaryOps.cpp bincount, cpu/HistogramKernel.cpp histc's linear binning), reading
// their input where it lies (engine side: cpu_native/NativeHistogram.ts):
//   hist_bincount: counts (int64) over the pool, each thread into its own bins, summed after (integer
//     sums: any split gives the same counts); float32 / float64 weights summed on one thread in input
//     order, the TypeScript kernel's order (a float sum's bits depend on it)
//   hist_histc: float32 / float64, the TypeScript kernel's bin arithmetic in the element type; counts
//     over the pool as above, then rounded as the TS kernel's float counts round (a float32 count stops
//     at 2^24: adding 1 there rounds back to 2^24)
#include "Histogram.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ThreadPool.h"
#include "TypedArg.h"
#include "kernels.h"

namespace glasstorch {
namespace {

// The elements [off, off + (n - 1) * stride] lie in the view.
bool inside(const View& v, int64_t off, int64_t stride, int64_t n) {
  if (n == 0) return true;
  const int64_t last = off + (n - 1) * stride;
  return off >= 0 && last >= 0 && static_cast<uint64_t>(std::max(off, last)) < v.length;
}

// Counts of the bins of elements [0, n) into counts. `bins(b, e, k)` writes the bins of elements
// [b, e) (at most kBlock of them) to k, -1 for one not counted: a block's bins are worked out in one
// pass (histc's arithmetic then runs in vector lanes) and counted in a second. Each chunk (one per
// thread) counts into kCopies private histograms, the j-th bin of a block into copy j % kCopies,
// summed after: a run of equal bins (randn's middle bins) otherwise makes each count wait for the one
// before it to reach memory.
constexpr int64_t kCopies = 4;
constexpr int64_t kBlock = 256;

template <typename Bins>
void count_bins(int64_t n, int64_t nbins, std::vector<int64_t>& counts, Bins bins) {
  counts.assign(nbins, 0);
  // private histograms only pay when the input is larger than the bins: below that, one histogram
  // (bincount's bins can outnumber its input many times over)
  const bool spread = n >= 4 * kCopies * nbins;
  const int64_t chunks = spread ? std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), n / GRAIN_SIZE)) : 1;
  const int64_t copies = spread ? kCopies : 1;
  std::vector<int64_t> local(chunks * copies * nbins, 0);
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    const Bins f = bins;  // a copy of its own: the counts' stores could alias the captured one's fields, reloaded per element
    int64_t k[kBlock];
    for (int64_t c = cb; c < ce; ++c) {
      // the four copies, or four names for the one histogram
      const int64_t step = copies == 1 ? 0 : nbins;
      int64_t* h0 = local.data() + c * copies * nbins;
      int64_t* h1 = h0 + step;
      int64_t* h2 = h0 + 2 * step;
      int64_t* h3 = h0 + 3 * step;
      const int64_t b1 = n * (c + 1) / chunks;
      for (int64_t b = n * c / chunks; b < b1; b += kBlock) {
        const int64_t m = std::min(kBlock, b1 - b);
        f(b, b + m, k);
        int64_t j = 0;
        for (; j + kCopies <= m; j += kCopies) {
          if (k[j] >= 0) ++h0[k[j]];
          if (k[j + 1] >= 0) ++h1[k[j + 1]];
          if (k[j + 2] >= 0) ++h2[k[j + 2]];
          if (k[j + 3] >= 0) ++h3[k[j + 3]];
        }
        for (; j < m; ++j) if (k[j] >= 0) ++h0[k[j]];
      }
    }
  });
  for (int64_t h = 0; h < chunks * copies; ++h)
    for (int64_t b = 0; b < nbins; ++b) counts[b] += local[h * nbins + b];
}

template <typename I>
bool bincount_typed(const I* x, int64_t xs, int64_t n, int64_t nbins, const View* w, int64_t w_off, int64_t ws, View& out, int64_t out_off) {
  if (w == nullptr) {
    // the range check rides along with the count (a pass of its own over the input was a third of the
    // time): a value outside [0, nbins) is counted in an extra bin, which fails the call before out is written
    std::vector<int64_t> counts;
    count_bins(n, nbins + 1, counts, [x, xs, nbins](int64_t b, int64_t e, int64_t* k) {
      for (int64_t i = b; i < e; ++i) {
        const int64_t v = static_cast<int64_t>(x[i * xs]);
        k[i - b] = static_cast<uint64_t>(v) < static_cast<uint64_t>(nbins) ? v : nbins;
      }
    });
    if (counts[nbins] != 0) return false;
    std::memcpy(static_cast<int64_t*>(out.data) + out_off, counts.data(), nbins * sizeof(int64_t));
    return true;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = static_cast<int64_t>(x[i * xs]);
    if (v < 0 || v >= nbins) return false;
  }
  auto sum = [&](auto* acc, const auto* wt) {
    using T = std::remove_pointer_t<decltype(acc)>;
    std::fill(acc, acc + nbins, T(0));
    for (int64_t i = 0; i < n; ++i) {
      T& a = acc[static_cast<int64_t>(x[i * xs])];
      a = static_cast<T>(a + wt[i * ws]);
    }
  };
  if (w->type == napi_float32_array) sum(static_cast<float*>(out.data) + out_off, static_cast<const float*>(w->data) + w_off);
  else sum(static_cast<double*>(out.data) + out_off, static_cast<const double*>(w->data) + w_off);
  return true;
}

// hist_bincount(self, selfOffset, selfStride, n, weights | null, wOffset, wStride, out, outOffset, nbins):
// self an integer typed array (uint8/int8/int16/int32/int64), weights float32 / float64 (out's type),
// out int64 without weights. false (nothing written) for a value outside [0, nbins).
Napi::Value Bincount(const Napi::CallbackInfo& info) {
  View x, w, out;
  const bool has_w = !(info[4].IsNull() || info[4].IsUndefined());
  if (!get_view(info.Env(), info[0], x) || (has_w && !get_view(info.Env(), info[4], w)) || !get_view(info.Env(), info[7], out)) return fail(info, "bincount: typed arrays expected");
  const int64_t x_off = info[1].As<Napi::Number>().Int64Value(), xs = info[2].As<Napi::Number>().Int64Value(), n = info[3].As<Napi::Number>().Int64Value();
  const int64_t w_off = info[5].As<Napi::Number>().Int64Value(), ws = info[6].As<Napi::Number>().Int64Value();
  const int64_t out_off = info[8].As<Napi::Number>().Int64Value(), nbins = info[9].As<Napi::Number>().Int64Value();
  if (has_w ? (w.type != out.type || (w.type != napi_float32_array && w.type != napi_float64_array)) : out.type != napi_bigint64_array) {
    return fail(info, "bincount: weights and out of float32 / float64, or int64 out");
  }
  if (n < 0 || nbins < 0 || !inside(x, x_off, xs, n) || (has_w && !inside(w, w_off, ws, n)) || !inside(out, out_off, 1, nbins)) return fail(info, "bincount: arrays too short for the sizes");
  const View* wp = has_w ? &w : nullptr;
  bool ok;
  switch (x.type) {
    case napi_uint8_array: ok = bincount_typed(static_cast<const uint8_t*>(x.data) + x_off, xs, n, nbins, wp, w_off, ws, out, out_off); break;
    case napi_int8_array: ok = bincount_typed(static_cast<const int8_t*>(x.data) + x_off, xs, n, nbins, wp, w_off, ws, out, out_off); break;
    case napi_int16_array: ok = bincount_typed(static_cast<const int16_t*>(x.data) + x_off, xs, n, nbins, wp, w_off, ws, out, out_off); break;
    case napi_int32_array: ok = bincount_typed(static_cast<const int32_t*>(x.data) + x_off, xs, n, nbins, wp, w_off, ws, out, out_off); break;
    case napi_bigint64_array: ok = bincount_typed(static_cast<const int64_t*>(x.data) + x_off, xs, n, nbins, wp, w_off, ws, out, out_off); break;
    default: return fail(info, "bincount: an integer input expected");
  }
  return Napi::Boolean::New(info.Env(), ok);
}

// The TypeScript kernel's bins (Counting.ts histogramdd_linear_stub) of x[0, m), in T, into k: -1
// outside the range. `edges` has 2 more +inf after its n_edges. First the quotients of the whole
// block, a loop of vector lanes (the division is most of an element's time); then per element the
// upper_bound over the (at most 3) edges[lo, hi) the quotient leaves, which for non-decreasing edges
// is lo + how many of them are <= elt: counted without branches (a data-dependent search mispredicts
// on every other element). The caller checks the order.
template <typename T>
void linear_bins(const T* x, int64_t m, const T* edges, int64_t n_edges, int64_t* k) {
  const T left = edges[0], right = edges[n_edges - 1], top = static_cast<T>(n_edges - 1);
  T q[kBlock];
  for (int64_t i = 0; i < m; ++i) {
    // LINEAR_INTERPOLATION_WITH_LOCAL_SEARCH's quotient, then held in [0, top]: an element in the range
    // keeps its own (it lies there already, or truncates to top either way), and one outside it or
    // NaN, whose bin does not come from it, converts to an integer without overflow
    T v = static_cast<T>(static_cast<T>(static_cast<T>(x[i] - left) * top) / static_cast<T>(right - left));
    v = v > T(0) ? v : T(0);
    q[i] = v < top ? v : top;
  }
  for (int64_t i = 0; i < m; ++i) {
    const T elt = x[i];
    int64_t pos = 0;  // NaN passes the range check, into the first bin
    if (elt == elt) {
      const int64_t p = static_cast<int64_t>(q[i]);  // truncation, as Math.trunc
      const int64_t lo = std::max<int64_t>(0, p - 1), hi = std::min<int64_t>(p + 2, n_edges);
      int64_t at_or_below = 0;
      for (int64_t j = 0; j < 3; ++j) at_or_below += (lo + j < hi) & (edges[lo + j] <= elt);
      pos = lo + at_or_below - 1;
    }
    if (pos == n_edges - 1) pos -= 1;  // the last bin includes its right edge
    k[i] = elt < left || elt > right ? -1 : pos;
  }
}

template <typename T>
bool histc_typed(const T* x, int64_t n, const double* edges_d, int64_t n_edges, T* hist, int64_t max_count) {
  std::vector<T> edges(n_edges + 2, std::numeric_limits<T>::infinity());
  for (int64_t i = 0; i < n_edges; ++i) edges[i] = static_cast<T>(edges_d[i]);
  // the counted search equals the TS kernel's binary search on ordered edges only
  for (int64_t i = 1; i < n_edges; ++i) if (!(edges[i - 1] <= edges[i])) return false;
  std::vector<int64_t> counts;
  const T* ed = edges.data();
  count_bins(n, n_edges - 1, counts, [x, ed, n_edges](int64_t b, int64_t e, int64_t* k) { linear_bins(x + b, e - b, ed, n_edges, k); });
  for (int64_t b = 0; b + 1 < n_edges; ++b) hist[b] = static_cast<T>(std::min(counts[b], max_count));
  return true;
}

// hist_histc(self, selfOffset, n, edges: Float64Array (the dtype's values), hist, histOffset): self
// contiguous float32 / float64, hist of its type with edges.length - 1 bins; false (nothing written)
// for edges out of order.
Napi::Value Histc(const Napi::CallbackInfo& info) {
  View x, e, h;
  if (!get_view(info.Env(), info[0], x) || !get_view(info.Env(), info[3], e) || !get_view(info.Env(), info[4], h)) return fail(info, "histc: typed arrays expected");
  const int64_t x_off = info[1].As<Napi::Number>().Int64Value(), n = info[2].As<Napi::Number>().Int64Value(), h_off = info[5].As<Napi::Number>().Int64Value();
  const int64_t n_edges = static_cast<int64_t>(e.length);
  if (e.type != napi_float64_array || n_edges < 2 || x.type != h.type || (x.type != napi_float32_array && x.type != napi_float64_array)) {
    return fail(info, "histc: float32 / float64 input and hist, Float64Array edges expected");
  }
  if (n < 0 || !inside(x, x_off, 1, n) || !inside(h, h_off, 1, n_edges - 1)) return fail(info, "histc: arrays too short for the sizes");
  const double* edges = static_cast<const double*>(e.data);
  const bool ok = x.type == napi_float32_array
                      ? histc_typed(static_cast<const float*>(x.data) + x_off, n, edges, n_edges, static_cast<float*>(h.data) + h_off, int64_t(1) << 24)
                      : histc_typed(static_cast<const double*>(x.data) + x_off, n, edges, n_edges, static_cast<double*>(h.data) + h_off, int64_t(1) << 53);
  return Napi::Boolean::New(info.Env(), ok);
}

}  // namespace

void InitHistogram(Napi::Env env, Napi::Object exports) {
  exports.Set("hist_bincount", Napi::Function::New(env, Bincount));
  exports.Set("hist_histc", Napi::Function::New(env, Histc));
}

}  // namespace glasstorch
