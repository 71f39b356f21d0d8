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
//     k * 64 <= n, else std::nth_element and, when sorted, std::sort of the first k - 1, with its
//     comparators (NaN counts as the largest), so ties and the unsorted order are PyTorch's.
//
// meta = [ndim, self's sizes..., dim, then values, indices, self: storage offset, strides...] in elements;
// values and indices have self's sizes except k along dim for topk. dtypes: uint8, int8, int16, int32,
// int64, float32, float64 (bool, float16 and bfloat16 for sort too, as floats); false for the others.
#include "Sorting.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "Half.h"
#include "Loops.h"
#include "ThreadPool.h"
#include "TypedArg.h"

namespace glasstorch {
namespace {

// ScalarType codes (c10/ScalarType.ts)
enum DType { kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kHalf = 5, kFloat = 6, kDouble = 7, kBool = 11, kBFloat16 = 15 };

struct Lanes {
  int ndim = 0;
  int dim = 0;
  int64_t sizes[kMaxDims];
  int64_t offset[3];
  int64_t strides[3][kMaxDims];  // elements: values, indices, self
  int64_t count = 1;              // lanes
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
};

bool read_lanes(const Typed& m, Lanes& l) {
  const double* q = reinterpret_cast<const double*>(m.data);
  if (m.length < 2) return false;
  l.ndim = static_cast<int>(q[0]);
  if (l.ndim < 1 || l.ndim > kMaxDims || m.length < 2 + l.ndim + 3 * (1 + l.ndim)) return false;
  for (int d = 0; d < l.ndim; ++d) l.sizes[d] = static_cast<int64_t>(q[1 + d]);
  l.dim = static_cast<int>(q[1 + l.ndim]);
  if (l.dim < 0 || l.dim >= l.ndim) return false;
  const double* p = q + 2 + l.ndim;
  for (int k = 0; k < 3; ++k) {
    l.offset[k] = static_cast<int64_t>(*p++);
    for (int d = 0; d < l.ndim; ++d) l.strides[k][d] = static_cast<int64_t>(*p++);
  }
  for (int d = 0; d < l.ndim; ++d)
    if (d != l.dim) l.count *= l.sizes[d];
  return true;
}

// Whether operand k's elements (its size along dim: n) stay inside an array of `length` elements.
bool inside(const Lanes& l, int k, int64_t n, int64_t length) {
  int64_t lo = l.offset[k], hi = l.offset[k];
  for (int d = 0; d < l.ndim; ++d) {
    const int64_t size = d == l.dim ? n : l.sizes[d];
    if (size == 0) return true;
    (l.strides[k][d] >= 0 ? hi : lo) += l.strides[k][d] * (size - 1);
  }
  return lo >= 0 && hi < length;
}

// ---- sort: the keys ----

inline uint32_t float_key(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if (x != x) return 0xffffffffu;  // every NaN: one key, above +inf's
  if (u == 0x80000000u) u = 0;     // -0 == 0
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

inline uint64_t double_key(double x) {
  uint64_t u;
  std::memcpy(&u, &x, 8);
  if (x != x) return ~uint64_t(0);
  if (u == (uint64_t(1) << 63)) u = 0;
  return (u >> 63) ? ~u : (u | (uint64_t(1) << 63));
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
  parallel_for(0, l.count, grain, [&](int64_t b, int64_t e) {
    std::vector<Elem> queue(static_cast<size_t>(n));
    for (int64_t lane = b; lane < e; ++lane) {
      const T* x = self + l.base(2, lane);
      for (int64_t j = 0; j < n; ++j) queue[static_cast<size_t>(j)] = {static_cast<Acc>(x[j * ss]), j};
      // NaN counts as the largest, for numpy compatibility (the comparators of TopKImpl.h)
      const auto big = [](const Elem& a, const Elem& c) { return (a.first != a.first && !(c.first != c.first)) || a.first > c.first; };
      const auto small = [](const Elem& a, const Elem& c) { return (!(a.first != a.first) && c.first != c.first) || a.first < c.first; };
      if (k * 64 <= n) {
        if (largest) std::partial_sort(queue.begin(), queue.begin() + k, queue.end(), big);
        else std::partial_sort(queue.begin(), queue.begin() + k, queue.end(), small);
      } else {
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
  if (!read_lanes(m, l)) return Napi::Boolean::New(env, false);
  const int64_t n = l.sizes[l.dim];
  if (!inside(l, 0, n, v.length) || !inside(l, 1, n, ix.length) || !inside(l, 2, n, x.length)) return Napi::Boolean::New(env, false);
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
  if (!read_lanes(m, l)) return Napi::Boolean::New(env, false);
  const int64_t n = l.sizes[l.dim];
  if (k < 1 || k > n || !inside(l, 0, k, v.length) || !inside(l, 1, k, ix.length) || !inside(l, 2, n, x.length)) return Napi::Boolean::New(env, false);
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

}  // namespace

void InitSorting(Napi::Env env, Napi::Object exports) {
  exports.Set("sort_lanes", Napi::Function::New(env, SortLanes));
  exports.Set("topk_lanes", Napi::Function::New(env, TopkLanes));
}

}  // namespace glasstorch
