// sort and topk along one dim (aten/src/ATen/native/cpu/SortingKernel.cpp, TopKImpl.h), each lane of
// self on its own, lanes split over the intra-op pool:
//
//   sort_lanes(dtype, descending, meta, values, indices, self) -> bool
//     PyTorch 1.13's CPU sort is stable whether or not stable=True is asked for, NaN the largest value
//     and -0 equal to 0. Any stable sort gives that one order, so this one is an LSD radix sort on keys
//     whose unsigned order is that order (floats: the sign-magnitude bits flipped, -0 made 0, every NaN
//     one key above +inf; integers: the sign bit flipped; descending: the keys inverted, which keeps
//     ties in input order as the descending comparator's stable sort does). 8-bit digits, a pass
//     skipped where every key has the same digit; lanes of up to 64 elements take std::stable_sort.
//   topk_lanes(dtype, k, largest, sorted, meta, values, indices, self) -> bool
//     TopKImpl.h's loop itself: (value, index) pairs through libstdc++'s std::partial_sort when
//     k * 64 <= n (its heap steps on the stream of elements: no n-pair queue), else std::nth_element
//     and, when sorted, std::sort of the first k - 1, with its comparators (NaN counts as the largest),
//     so ties and the unsorted order are PyTorch's.
//   median_lanes(dtype, ignoreNan, meta, values, indices, self) -> bool
//   median_all(dtype, ignoreNan, self, offset, n, result, resultOffset) -> bool
//     The TS kernel's medianIndex: the k-th under (value, index), NaN largest, -0 equal to 0 (so which
//     tied index, and which of -0/0, is definite); median returns the first NaN. Per lane: std::nth_element
//     on the sort keys, then the tied key's k-th by position; all of a contiguous self: a radix select.
//   mode_lanes(dtype, meta, values, indices, self) -> bool
//     TensorCompareKernel.cpp's mode: std::sort of (value, index) pairs by value, the longest run.
//   kthvalue_lanes(dtype, k, meta, values, indices, self) -> bool
//     Sorting.cpp's kthvalue: each lane's (value, index) copies partially ordered by SortingUtils.h's
//     quick_select_template (median-of-three Hoare partitions, NaN largest), the k-th slot read, so a
//     tied k-th value's index is PyTorch's (Kthvalue.ts quickSelect, move for move).
//
// meta (Lanes.h) = [ndim, self's sizes..., dim, then values, indices, self: offset, strides...] in elements;
// values and indices have self's sizes except k along dim for topk (1 for median and mode). dtypes: uint8,
// int8, int16, int32, int64, float32, float64 (bool, float16 and bfloat16 for sort and mode too, as floats;
// bfloat16 for median); false for the others.
#include "Sorting.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "Half.h"
#include "Lanes.h"
#include "ThreadPool.h"
#include "TypedArg.h"

namespace glasstorch {
namespace {

// ScalarType codes (c10/ScalarType.ts)
enum DType { kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kHalf = 5, kFloat = 6, kDouble = 7, kBool = 11, kBFloat16 = 15 };

// ---- sort: the keys ----

// Written without branches (selects GCC turns into cmov): the sign of random data mispredicts a branch
// every other element, which doubled median's selection time.
inline uint32_t float_key(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u = u == 0x80000000u ? 0u : u;                                                     // -0 == 0
  const uint32_t key = u ^ (static_cast<uint32_t>(static_cast<int32_t>(u) >> 31) | 0x80000000u);  // negative: ~u
  return x != x ? 0xffffffffu : key;                                                 // every NaN: one key, above +inf's
}

inline uint64_t double_key(double x) {
  uint64_t u;
  std::memcpy(&u, &x, 8);
  constexpr uint64_t kSign = uint64_t(1) << 63;
  u = u == kSign ? 0 : u;
  const uint64_t key = u ^ (static_cast<uint64_t>(static_cast<int64_t>(u) >> 63) | kSign);
  return x != x ? ~uint64_t(0) : key;
}

template <typename T>
inline auto sort_key(T x) {
  if constexpr (std::is_same_v<T, float>) return float_key(x);
  else if constexpr (std::is_same_v<T, double>) return double_key(x);
  else if constexpr (std::is_same_v<T, half_t>) return float_key(x.to_float());
  else if constexpr (std::is_same_v<T, bf16_t>) return float_key(x.to_float());
  else if constexpr (std::is_same_v<T, int64_t>) return static_cast<uint64_t>(x) ^ (uint64_t(1) << 63);
  else if constexpr (std::is_signed_v<T>) return static_cast<uint32_t>(static_cast<int32_t>(x)) ^ 0x80000000u;
  else return static_cast<uint32_t>(x);  // uint8, bool
}

// LSD radix sort of (key, index) by key, stable; the result back in keys/idx
template <typename K>
void radix_sort(K* keys, int64_t* idx, K* keys2, int64_t* idx2, int64_t n) {
  constexpr int kDigits = sizeof(K);
  std::vector<int64_t> counts(static_cast<size_t>(kDigits) * 256, 0);
  for (int64_t i = 0; i < n; ++i) {
    const K key = keys[i];
    for (int d = 0; d < kDigits; ++d) ++counts[d * 256 + ((key >> (8 * d)) & 0xff)];
  }
  K* from_k = keys;
  int64_t* from_i = idx;
  K* to_k = keys2;
  int64_t* to_i = idx2;
  for (int d = 0; d < kDigits; ++d) {
    int64_t* c = counts.data() + d * 256;
    if (c[(from_k[0] >> (8 * d)) & 0xff] == n) continue;  // every key has this digit: the order stands
    int64_t sum = 0;
    for (int b = 0; b < 256; ++b) {
      const int64_t t = c[b];
      c[b] = sum;
      sum += t;
    }
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = c[(from_k[i] >> (8 * d)) & 0xff]++;
      to_k[at] = from_k[i];
      to_i[at] = from_i[i];
    }
    std::swap(from_k, to_k);
    std::swap(from_i, to_i);
  }
  if (from_k != keys) {
    std::memcpy(keys, from_k, static_cast<size_t>(n) * sizeof(K));
    std::memcpy(idx, from_i, static_cast<size_t>(n) * sizeof(int64_t));
  }
}

template <typename T>
void sort_lanes_typed(const Lanes& l, bool descending, T* values, int64_t* indices, const T* self) {
  using K = decltype(sort_key(T{}));
  const int64_t n = l.sizes[l.dim];
  const int64_t vs = l.strides[0][l.dim], is = l.strides[1][l.dim], ss = l.strides[2][l.dim];
  const int64_t grain = std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(n, 1));
  parallel_for(0, l.count, grain, [&](int64_t b, int64_t e) {
    std::vector<K> keys(static_cast<size_t>(n)), keys2(static_cast<size_t>(n));
    std::vector<int64_t> idx(static_cast<size_t>(n)), idx2(static_cast<size_t>(n));
    std::vector<T> lane_values(static_cast<size_t>(n));  // (values may be self itself: sort's out=)
    for (int64_t lane = b; lane < e; ++lane) {
      const T* x = self + l.base(2, lane);
      for (int64_t i = 0; i < n; ++i) lane_values[static_cast<size_t>(i)] = x[i * ss];
      for (int64_t i = 0; i < n; ++i) {
        const K key = sort_key(lane_values[static_cast<size_t>(i)]);
        keys[static_cast<size_t>(i)] = descending ? static_cast<K>(~key) : key;
        idx[static_cast<size_t>(i)] = i;
      }
      if (n <= 64) {
        std::vector<std::pair<K, int64_t>> pairs(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) pairs[static_cast<size_t>(i)] = {keys[static_cast<size_t>(i)], i};
        std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& c) { return a.first < c.first; });
        for (int64_t i = 0; i < n; ++i) idx[static_cast<size_t>(i)] = pairs[static_cast<size_t>(i)].second;
      } else {
        radix_sort(keys.data(), idx.data(), keys2.data(), idx2.data(), n);
      }
      T* v = values + l.base(0, lane);
      int64_t* ix = indices + l.base(1, lane);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t from = idx[static_cast<size_t>(i)];
        v[i * vs] = lane_values[static_cast<size_t>(from)];
        ix[i * is] = from;
      }
    }
  });
}

// ---- topk: TopKImpl.h's loop ----

template <typename T>
void topk_lanes_typed(const Lanes& l, int64_t k, bool largest, bool sorted, T* values, int64_t* indices, const T* self) {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;  // at::acc_type<T, false>
  using Elem = std::pair<Acc, int64_t>;
  const int64_t n = l.sizes[l.dim];
  const int64_t vs = l.strides[0][l.dim], is = l.strides[1][l.dim], ss = l.strides[2][l.dim];
  const int64_t grain = std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(n, 1));
  // NaN counts as the largest, for numpy compatibility (the comparators of TopKImpl.h)
  const auto big = [](const Elem& a, const Elem& c) { return (a.first != a.first && !(c.first != c.first)) || a.first > c.first; };
  const auto small = [](const Elem& a, const Elem& c) { return (!(a.first != a.first) && c.first != c.first) || a.first < c.first; };
  // libstdc++'s std::partial_sort is __heap_select (make_heap of the first k; each later element that
  // compares before the top replaces it through __pop_heap) then sort_heap of the k. std::pop_heap on the
  // k heap entries with the element placed at [k] is that same __pop_heap step, so the lane streams past
  // the heap with PyTorch's exact result (ties included) and without filling an n-pair queue.
  const auto streamed_partial_sort = [&](const T* x, int64_t stride, std::vector<Elem>& heap, const auto& comp) {
    heap.resize(static_cast<size_t>(k + 1));
    for (int64_t j = 0; j < k; ++j) heap[static_cast<size_t>(j)] = {static_cast<Acc>(x[j * stride]), j};
    std::make_heap(heap.begin(), heap.begin() + k, comp);
    for (int64_t j = k; j < n; ++j) {
      const Elem el{static_cast<Acc>(x[j * stride]), j};
      if (comp(el, heap[0])) {
        heap[static_cast<size_t>(k)] = el;
        std::pop_heap(heap.begin(), heap.begin() + k + 1, comp);
      }
    }
    std::sort_heap(heap.begin(), heap.begin() + k, comp);
  };
  parallel_for(0, l.count, grain, [&](int64_t b, int64_t e) {
    std::vector<Elem> queue(static_cast<size_t>(k * 64 <= n ? k + 1 : n));
    for (int64_t lane = b; lane < e; ++lane) {
      const T* x = self + l.base(2, lane);
      if (k * 64 <= n) {
        if (largest) streamed_partial_sort(x, ss, queue, big);
        else streamed_partial_sort(x, ss, queue, small);
      } else {
        for (int64_t j = 0; j < n; ++j) queue[static_cast<size_t>(j)] = {static_cast<Acc>(x[j * ss]), j};
        if (largest) {
          std::nth_element(queue.begin(), queue.begin() + k - 1, queue.end(), big);
          if (sorted) std::sort(queue.begin(), queue.begin() + k - 1, big);
        } else {
          std::nth_element(queue.begin(), queue.begin() + k - 1, queue.end(), small);
          if (sorted) std::sort(queue.begin(), queue.begin() + k - 1, small);
        }
      }
      T* v = values + l.base(0, lane);
      int64_t* ix = indices + l.base(1, lane);
      for (int64_t j = 0; j < k; ++j) {
        v[j * vs] = static_cast<T>(queue[static_cast<size_t>(j)].first);
        ix[j * is] = queue[static_cast<size_t>(j)].second;
      }
    }
  });
}

// ---- median / nanmedian: a selection, not a sort ----

template <typename T>
inline bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>) return x.to_float() != x.to_float();
  else return false;
}

// The position (in keys' order) of the k-th smallest element under (key, position): std::nth_element finds
// the k-th key; the elements sharing it (equal values: the same bits but for -0/0 and NaN payloads) keep
// their index order, so the k-th overall is the (k - #smaller)-th of them by position. `scratch` has n keys.
template <typename K>
int64_t kth_position(const K* keys, K* scratch, int64_t n, int64_t k) {
  std::memcpy(scratch, keys, static_cast<size_t>(n) * sizeof(K));
  std::nth_element(scratch, scratch + k, scratch + n);
  const K kth = scratch[k];
  int64_t equal_before = 0;  // of scratch[0, k), all <= kth: those equal to it come before it in the order
  for (int64_t i = 0; i < k; ++i) equal_before += scratch[i] == kth;
  for (int64_t i = 0; i < n; ++i)
    if (keys[i] == kth && equal_before-- == 0) return i;
  return k;  // unreachable: kth is one of keys
}

// The TS kernel's medianIndex on one lane whose keys are written (and NaNs counted): median returns the
// first NaN, nanmedian the k-th with k = (n - nans - 1) / 2 (NaNs are the largest keys, so counting them
// in changes nothing; all NaN: k = 0, the first NaN).
template <typename T, typename K>
int64_t median_position(const T* x, int64_t stride, int64_t n, bool ignore_nan, K* keys, K* scratch) {
  int64_t nans = 0, first_nan = -1;
  for (int64_t i = 0; i < n; ++i) {
    const T v = x[i * stride];
    keys[i] = sort_key(v);
    if (is_nan(v)) {
      if (first_nan < 0) first_nan = i;
      ++nans;
    }
  }
  if (!ignore_nan && nans > 0) return first_nan;
  return kth_position(keys, scratch, n, (n - nans - 1) / 2);
}

template <typename T>
void median_lanes_typed(const Lanes& l, bool ignore_nan, T* values, int64_t* indices, const T* self) {
  using K = decltype(sort_key(T{}));
  const int64_t n = l.n(), ss = l.strides[2][l.dim];
  const int64_t grain = std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(n, 1));
  parallel_for(0, l.count, grain, [&](int64_t b, int64_t e) {
    std::vector<K> keys(static_cast<size_t>(n)), scratch(static_cast<size_t>(n));
    for (int64_t lane = b; lane < e; ++lane) {
      const T* x = self + l.base(2, lane);
      const int64_t at = median_position(x, ss, n, ignore_nan, keys.data(), scratch.data());
      values[l.base(0, lane)] = x[at * ss];
      indices[l.base(1, lane)] = at;
    }
  });
}

// The median's position among n contiguous elements: rank k = (n - nans - 1) / 2 under (key, position)
// for nanmedian, (n - 1) / 2 for median without NaN, -1 for median with one (the first NaN is its
// result; the caller finds it). Without an n-key copy: a radix select. One pass on the pool counts the keys' top 16 bits (each chunk
// its own histogram), the bucket holding rank k is found in the sums, a second pass gathers that
// bucket's (key, position) pairs (for randn input a handful), and std::nth_element on the pairs finishes.
// The NaNs are counted from the histogram: the top bucket holds every NaN's key and nothing else.
template <typename T>
int64_t median_select(const T* x, int64_t n, bool ignore_nan) {
  using K = decltype(sort_key(T{}));
  constexpr int kShift = static_cast<int>(sizeof(K)) * 8 - 16;  // (keys are 32 or 64 bits)
  constexpr int64_t kBuckets = int64_t(1) << 16;
  const int64_t chunk = std::max<int64_t>(GRAIN_SIZE * 4, (n + 63) / 64);  // at most 64 histograms
  const int64_t chunks = (n + chunk - 1) / chunk;
  std::vector<uint32_t> hist(static_cast<size_t>(chunks * kBuckets), 0);
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      uint32_t* h = hist.data() + c * kBuckets;
      for (int64_t i = c * chunk, e = std::min(n, i + chunk); i < e; ++i) ++h[sort_key(x[i]) >> kShift];
    }
  });
  const auto total = [&](int64_t bucket) {
    int64_t count = 0;
    for (int64_t c = 0; c < chunks; ++c) count += hist[static_cast<size_t>(c * kBuckets + bucket)];
    return count;
  };
  const int64_t nans = std::is_floating_point_v<T> || std::is_same_v<T, bf16_t> ? total(kBuckets - 1) : 0;
  if (nans > 0 && !ignore_nan) return -1;
  const int64_t k = (n - nans - 1) / 2;
  int64_t below = 0, bucket = 0;
  for (;; ++bucket) {
    const int64_t count = total(bucket);
    if (below + count > k) break;
    below += count;
  }
  std::vector<std::vector<std::pair<K, int64_t>>> found(static_cast<size_t>(chunks));
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c)
      for (int64_t i = c * chunk, e = std::min(n, i + chunk); i < e; ++i) {
        const K key = sort_key(x[i]);
        if (static_cast<int64_t>(key >> kShift) == bucket) found[static_cast<size_t>(c)].push_back({key, i});
      }
  });
  std::vector<std::pair<K, int64_t>> in_bucket;
  for (auto& f : found) in_bucket.insert(in_bucket.end(), f.begin(), f.end());
  // (key, position) pairs are all distinct: their order is the TS kernel's (value, index) order
  std::nth_element(in_bucket.begin(), in_bucket.begin() + (k - below), in_bucket.end());
  return in_bucket[static_cast<size_t>(k - below)].second;
}

// median of all n contiguous elements (the TS kernel's medianIndex over the flattened self)
template <typename T>
void median_all_typed(bool ignore_nan, const T* x, int64_t n, T* result) {
  using K = decltype(sort_key(T{}));
  if (n <= 4 * GRAIN_SIZE) {  // a small self: one lane
    std::vector<K> keys(static_cast<size_t>(n)), scratch(static_cast<size_t>(n));
    *result = x[median_position(x, 1, n, ignore_nan, keys.data(), scratch.data())];
    return;
  }
  int64_t at = median_select(x, n, ignore_nan);
  if (at < 0) {  // median with a NaN: the first NaN
    at = 0;
    while (!is_nan(x[at])) ++at;
  }
  *result = x[at];
}

// ---- mode: TensorCompareKernel.cpp's mode_kernel ----

// Each lane's (value, index) pairs through libstdc++'s std::sort by value alone (so which index of a tied
// run lands last is that sort's, as in PyTorch and the TS kernel's StdAlgorithms.ts), then the longest run
// of equal values, the first (smallest) on a tie in length, with the index of the run's last element.
// float16/bfloat16 compare as float (the same order).

// The longest run's last element in a sorted lane (equal: the run continues), as the TS kernel scans it.
template <typename E, typename Equal>
const E& longest_run_end(const std::vector<E>& el, const Equal& equal) {
  const int64_t n = static_cast<int64_t>(el.size());
  int64_t best = 0, run = 0, max_run = 0;
  for (int64_t i = 0; i < n; ++i) {
    ++run;
    if (i == n - 1 || !equal(el[static_cast<size_t>(i)], el[static_cast<size_t>(i + 1)])) {
      if (run > max_run) {
        best = i;
        max_run = run;
      }
      run = 0;
    }
  }
  return el[static_cast<size_t>(best)];
}

// A lane whose keys are all distinct: every run has length 1, so the first run (the smallest value)
// wins and its index is the smallest key's position, whatever order std::sort leaves ties in (there are
// none). An open-addressing table of the keys (slots stamped with the lane's number, never cleared) finds
// the first repeat; -1 then, and the lane is sorted. Continuous float data take this path.
template <typename K>
struct DistinctKeys {
  std::vector<K> slots;
  std::vector<int64_t> stamp;
  int shift = 0;
  // the position of the smallest key, or -1 when two keys are equal
  template <typename T>
  int64_t smallest_if_distinct(const T* x, int64_t stride, int64_t n, int64_t lane) {
    if (static_cast<int64_t>(slots.size()) < 2 * n) {
      size_t size = 16;
      shift = 64 - 4;
      while (static_cast<int64_t>(size) < 2 * n) size *= 2, --shift;
      slots.assign(size, K{});
      stamp.assign(size, -1);
    }
    const size_t mask = slots.size() - 1;
    K best = 0;
    int64_t best_at = 0;
    for (int64_t i = 0; i < n; ++i) {
      const K key = sort_key(x[i * stride]);
      for (size_t h = static_cast<size_t>((uint64_t(key) * 0x9E3779B97F4A7C15ull) >> shift);; h = (h + 1) & mask) {
        if (stamp[h] != lane) {
          stamp[h] = lane;
          slots[h] = key;
          break;
        }
        if (slots[h] == key) return -1;
      }
      if (i == 0 || key < best) best = key, best_at = i;
    }
    return best_at;
  }
};

template <typename T>
void mode_lanes_typed(const Lanes& l, T* values, int64_t* indices, const T* self) {
  using V = std::conditional_t<std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>, float, T>;
  // A lane without NaN whose keys have 32 bits sorts 8-byte words (key << 32 | position) by their key
  // half instead: every comparison has the outcome the values' `<` has (keys order as values, -0 == 0),
  // so std::sort makes the same moves, on half the bytes. NaN (`<` is no order then) takes the pairs.
  constexpr bool kCompact = sizeof(decltype(sort_key(T{}))) == 4;
  const int64_t n = l.n(), ss = l.strides[2][l.dim];
  const int64_t grain = std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(n, 1));
  parallel_for(0, l.count, grain, [&](int64_t b, int64_t e) {
    std::vector<std::pair<V, int64_t>> el;
    std::vector<uint64_t> words;
    DistinctKeys<decltype(sort_key(T{}))> distinct;
    for (int64_t lane = b; lane < e; ++lane) {
      const T* x = self + l.base(2, lane);
      bool nan = false;
      for (int64_t i = 0; i < n; ++i) nan |= is_nan(x[i * ss]);
      int64_t mode_at = nan ? -1 : distinct.smallest_if_distinct(x, ss, n, lane);
      if (mode_at >= 0) {
        // all distinct: no sort needed
      } else if (kCompact && !nan && n <= INT32_MAX) {
        words.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) words[static_cast<size_t>(i)] = uint64_t(sort_key(x[i * ss])) << 32 | static_cast<uint64_t>(i);
        std::sort(words.begin(), words.end(), [](uint64_t a, uint64_t c) { return (a >> 32) < (c >> 32); });
        mode_at = static_cast<int64_t>(longest_run_end(words, [](uint64_t a, uint64_t c) { return (a >> 32) == (c >> 32); }) & 0xffffffffu);
      } else {
        el.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (std::is_same_v<V, T>) el[static_cast<size_t>(i)] = {x[i * ss], i};
          else el[static_cast<size_t>(i)] = {x[i * ss].to_float(), i};
        }
        std::sort(el.begin(), el.end(), [](const auto& a, const auto& c) { return a.first < c.first; });
        mode_at = longest_run_end(el, [](const auto& a, const auto& c) { return !(a.first != c.first); }).second;
      }
      values[l.base(0, lane)] = x[mode_at * ss];  // the run's last pair holds this element's value
      indices[l.base(1, lane)] = mode_at;
    }
  });
}

// Calls f(T{}) with the element type of `dtype` (bool as its byte; float16 and bfloat16 only when
// `halves`); false for the others.
template <typename F>
bool with_element_type(int dtype, bool halves, const F& f) {
  switch (dtype) {
    case kByte: case kBool: f(uint8_t{}); return true;
    case kChar: f(int8_t{}); return true;
    case kShort: f(int16_t{}); return true;
    case kInt: f(int32_t{}); return true;
    case kLong: f(int64_t{}); return true;
    case kFloat: f(float{}); return true;
    case kDouble: f(double{}); return true;
    case kHalf: if (!halves) return false; f(half_t{}); return true;
    case kBFloat16: if (!halves) return false; f(bf16_t{}); return true;
    default: return false;
  }
}

bool arrays(const Napi::CallbackInfo& info, int first, Typed& meta, Typed& values, Typed& indices, Typed& self) {
  Napi::Env env = info.Env();
  return typed(env, info[first], &meta) && meta.type == napi_float64_array && typed(env, info[first + 1], &values) && typed(env, info[first + 2], &indices) &&
         indices.type == napi_bigint64_array && typed(env, info[first + 3], &self) && values.itemsize == self.itemsize;
}

// sort_lanes(dtype, descending, meta, values, indices, self)
Napi::Value SortLanes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Typed m, v, ix, x;
  if (info.Length() < 6 || !arrays(info, 2, m, v, ix, x)) return Napi::Boolean::New(env, false);
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const bool descending = info[1].As<Napi::Boolean>().Value();
  Lanes l;
  if (!read_lanes(m, 3, l)) return Napi::Boolean::New(env, false);
  const int64_t n = l.sizes[l.dim];
  if (!lanes_inside(l, 0, n, v.length) || !lanes_inside(l, 1, n, ix.length) || !lanes_inside(l, 2, n, x.length)) return Napi::Boolean::New(env, false);
  int64_t* indices = reinterpret_cast<int64_t*>(ix.data);
  switch (dtype) {
    case kByte: case kBool: sort_lanes_typed<uint8_t>(l, descending, reinterpret_cast<uint8_t*>(v.data), indices, reinterpret_cast<const uint8_t*>(x.data)); break;
    case kChar: sort_lanes_typed<int8_t>(l, descending, reinterpret_cast<int8_t*>(v.data), indices, reinterpret_cast<const int8_t*>(x.data)); break;
    case kShort: sort_lanes_typed<int16_t>(l, descending, reinterpret_cast<int16_t*>(v.data), indices, reinterpret_cast<const int16_t*>(x.data)); break;
    case kInt: sort_lanes_typed<int32_t>(l, descending, reinterpret_cast<int32_t*>(v.data), indices, reinterpret_cast<const int32_t*>(x.data)); break;
    case kLong: sort_lanes_typed<int64_t>(l, descending, reinterpret_cast<int64_t*>(v.data), indices, reinterpret_cast<const int64_t*>(x.data)); break;
    case kFloat: sort_lanes_typed<float>(l, descending, reinterpret_cast<float*>(v.data), indices, reinterpret_cast<const float*>(x.data)); break;
    case kDouble: sort_lanes_typed<double>(l, descending, reinterpret_cast<double*>(v.data), indices, reinterpret_cast<const double*>(x.data)); break;
    case kHalf: sort_lanes_typed<half_t>(l, descending, reinterpret_cast<half_t*>(v.data), indices, reinterpret_cast<const half_t*>(x.data)); break;
    case kBFloat16: sort_lanes_typed<bf16_t>(l, descending, reinterpret_cast<bf16_t*>(v.data), indices, reinterpret_cast<const bf16_t*>(x.data)); break;
    default: return Napi::Boolean::New(env, false);
  }
  return Napi::Boolean::New(env, true);
}

// topk_lanes(dtype, k, largest, sorted, meta, values, indices, self)
Napi::Value TopkLanes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Typed m, v, ix, x;
  if (info.Length() < 8 || !arrays(info, 4, m, v, ix, x)) return Napi::Boolean::New(env, false);
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const int64_t k = static_cast<int64_t>(info[1].As<Napi::Number>().DoubleValue());
  const bool largest = info[2].As<Napi::Boolean>().Value();
  const bool sorted = info[3].As<Napi::Boolean>().Value();
  Lanes l;
  if (!read_lanes(m, 3, l)) return Napi::Boolean::New(env, false);
  const int64_t n = l.sizes[l.dim];
  if (k < 1 || k > n || !lanes_inside(l, 0, k, v.length) || !lanes_inside(l, 1, k, ix.length) || !lanes_inside(l, 2, n, x.length)) return Napi::Boolean::New(env, false);
  int64_t* indices = reinterpret_cast<int64_t*>(ix.data);
  switch (dtype) {
    case kByte: topk_lanes_typed<uint8_t>(l, k, largest, sorted, reinterpret_cast<uint8_t*>(v.data), indices, reinterpret_cast<const uint8_t*>(x.data)); break;
    case kChar: topk_lanes_typed<int8_t>(l, k, largest, sorted, reinterpret_cast<int8_t*>(v.data), indices, reinterpret_cast<const int8_t*>(x.data)); break;
    case kShort: topk_lanes_typed<int16_t>(l, k, largest, sorted, reinterpret_cast<int16_t*>(v.data), indices, reinterpret_cast<const int16_t*>(x.data)); break;
    case kInt: topk_lanes_typed<int32_t>(l, k, largest, sorted, reinterpret_cast<int32_t*>(v.data), indices, reinterpret_cast<const int32_t*>(x.data)); break;
    case kLong: topk_lanes_typed<int64_t>(l, k, largest, sorted, reinterpret_cast<int64_t*>(v.data), indices, reinterpret_cast<const int64_t*>(x.data)); break;
    case kFloat: topk_lanes_typed<float>(l, k, largest, sorted, reinterpret_cast<float*>(v.data), indices, reinterpret_cast<const float*>(x.data)); break;
    case kDouble: topk_lanes_typed<double>(l, k, largest, sorted, reinterpret_cast<double*>(v.data), indices, reinterpret_cast<const double*>(x.data)); break;
    default: return Napi::Boolean::New(env, false);
  }
  return Napi::Boolean::New(env, true);
}

// ---- kthvalue: quick_select_template ----

// x > y with NaN above everything (half and bfloat16 compared as floats)
template <typename T>
inline bool gt_or_nan(T x, T y) {
  if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>) {
    return gt_or_nan(x.to_float(), y.to_float());
  } else {
    return (x != x && !(y != y)) || x > y;
  }
}

template <typename T>
void quick_select(T* arr, int64_t* idx, int64_t n, int64_t k) {
  auto swap = [&](int64_t i, int64_t j) {
    std::swap(arr[i], arr[j]);
    std::swap(idx[i], idx[j]);
  };
  int64_t L = 0, R = n - 1;
  for (;;) {
    if (R <= L) return;
    if (R == L + 1) {
      if (gt_or_nan(arr[L], arr[R])) swap(L, R);
      return;
    }
    const int64_t P = L + (R - L) / 2;  // median of three: arr[L] <= arr[L + 1] <= arr[R], arr[L] the pivot
    swap(P, L + 1);
    if (gt_or_nan(arr[L + 1], arr[R])) swap(L + 1, R);
    if (gt_or_nan(arr[L], arr[R])) swap(L, R);
    if (gt_or_nan(arr[L + 1], arr[L])) swap(L + 1, L);
    int64_t i = L + 1, j = R;
    const T piv = arr[L];
    for (;;) {
      do ++i; while (gt_or_nan(piv, arr[i]));
      do --j; while (gt_or_nan(arr[j], piv));
      if (j < i) break;
      swap(i, j);
    }
    swap(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
}

template <typename T>
void kthvalue_lanes_typed(const Lanes& l, int64_t k, T* values, int64_t* indices, const T* self) {
  const int64_t n = l.n(), ss = l.strides[2][l.dim];
  const int64_t grain = std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(n, 1));
  parallel_for(0, l.count, grain, [&](int64_t b, int64_t e) {
    std::vector<T> arr(static_cast<size_t>(n));
    std::vector<int64_t> idx(static_cast<size_t>(n));
    for (int64_t lane = b; lane < e; ++lane) {
      const T* x = self + l.base(2, lane);
      for (int64_t i = 0; i < n; ++i) {
        arr[i] = x[i * ss];
        idx[i] = i;
      }
      quick_select(arr.data(), idx.data(), n, k - 1);
      values[l.base(0, lane)] = arr[k - 1];
      indices[l.base(1, lane)] = idx[k - 1];
    }
  });
}

// kthvalue_lanes(dtype, k, meta, values, indices, self): values and indices have 1 element along dim
Napi::Value KthvalueLanes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Typed m, v, ix, x;
  if (info.Length() < 6 || !arrays(info, 2, m, v, ix, x)) return Napi::Boolean::New(env, false);
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const int64_t k = static_cast<int64_t>(info[1].As<Napi::Number>().DoubleValue());
  Lanes l;
  if (!read_lanes(m, 3, l) || k < 1 || k > l.n()) return Napi::Boolean::New(env, false);
  if (!lanes_inside(l, 0, 1, v.length) || !lanes_inside(l, 1, 1, ix.length) || !lanes_inside(l, 2, l.n(), x.length)) return Napi::Boolean::New(env, false);
  if (dtype == kBool || dtype == kHalf) return Napi::Boolean::New(env, false);  // refused by the op
  int64_t* indices = reinterpret_cast<int64_t*>(ix.data);
  const bool ok = with_element_type(dtype, true, [&](auto t) {
    using T = decltype(t);
    kthvalue_lanes_typed<T>(l, k, reinterpret_cast<T*>(v.data), indices, reinterpret_cast<const T*>(x.data));
  });
  return Napi::Boolean::New(env, ok);
}

// median_lanes(dtype, ignoreNan, meta, values, indices, self): values and indices have 1 element along dim
Napi::Value MedianLanes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Typed m, v, ix, x;
  if (info.Length() < 6 || !arrays(info, 2, m, v, ix, x)) return Napi::Boolean::New(env, false);
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const bool ignore_nan = info[1].As<Napi::Boolean>().Value();
  Lanes l;
  if (!read_lanes(m, 3, l) || l.n() < 1) return Napi::Boolean::New(env, false);
  if (!lanes_inside(l, 0, 1, v.length) || !lanes_inside(l, 1, 1, ix.length) || !lanes_inside(l, 2, l.n(), x.length)) return Napi::Boolean::New(env, false);
  int64_t* indices = reinterpret_cast<int64_t*>(ix.data);
  const bool ok = with_element_type(dtype, true, [&](auto t) {
    using T = decltype(t);
    median_lanes_typed<T>(l, ignore_nan, reinterpret_cast<T*>(v.data), indices, reinterpret_cast<const T*>(x.data));
  });
  return Napi::Boolean::New(env, ok);
}

// median_all(dtype, ignoreNan, self, offset, n, result, resultOffset): the median of n contiguous elements
Napi::Value MedianAll(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Typed x, r;
  if (info.Length() < 7 || !typed(env, info[2], &x) || !typed(env, info[5], &r) || x.itemsize != r.itemsize) return Napi::Boolean::New(env, false);
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const bool ignore_nan = info[1].As<Napi::Boolean>().Value();
  const int64_t offset = static_cast<int64_t>(info[3].As<Napi::Number>().DoubleValue());
  const int64_t n = static_cast<int64_t>(info[4].As<Napi::Number>().DoubleValue());
  const int64_t at = static_cast<int64_t>(info[6].As<Napi::Number>().DoubleValue());
  if (n < 1 || offset < 0 || offset + n > x.length || at < 0 || at >= r.length) return Napi::Boolean::New(env, false);
  const bool ok = with_element_type(dtype, true, [&](auto t) {
    using T = decltype(t);
    median_all_typed<T>(ignore_nan, reinterpret_cast<const T*>(x.data) + offset, n, reinterpret_cast<T*>(r.data) + at);
  });
  return Napi::Boolean::New(env, ok);
}

// mode_lanes(dtype, meta, values, indices, self): values and indices have 1 element along dim
Napi::Value ModeLanes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Typed m, v, ix, x;
  if (info.Length() < 5 || !arrays(info, 1, m, v, ix, x)) return Napi::Boolean::New(env, false);
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  Lanes l;
  if (!read_lanes(m, 3, l) || l.n() < 1) return Napi::Boolean::New(env, false);
  if (!lanes_inside(l, 0, 1, v.length) || !lanes_inside(l, 1, 1, ix.length) || !lanes_inside(l, 2, l.n(), x.length)) return Napi::Boolean::New(env, false);
  int64_t* indices = reinterpret_cast<int64_t*>(ix.data);
  const bool ok = with_element_type(dtype, true, [&](auto t) {
    using T = decltype(t);
    mode_lanes_typed<T>(l, reinterpret_cast<T*>(v.data), indices, reinterpret_cast<const T*>(x.data));
  });
  return Napi::Boolean::New(env, ok);
}

}  // namespace

void InitSorting(Napi::Env env, Napi::Object exports) {
  exports.Set("sort_lanes", Napi::Function::New(env, SortLanes));
  exports.Set("topk_lanes", Napi::Function::New(env, TopkLanes));
  exports.Set("median_lanes", Napi::Function::New(env, MedianLanes));
  exports.Set("median_all", Napi::Function::New(env, MedianAll));
  exports.Set("mode_lanes", Napi::Function::New(env, ModeLanes));
  exports.Set("kthvalue_lanes", Napi::Function::New(env, KthvalueLanes));
}

}  // namespace glasstorch
