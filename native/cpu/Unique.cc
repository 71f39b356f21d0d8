// torch.unique without dim (aten/src/ATen/native/Unique.cpp unique_cpu_template, PyTorch 1.13) with
// the same standard containers, so the unsorted order is PyTorch's (sorted=True without NaN: the same
// result from per-chunk hash tables on the pool, below): the distinct values are those of a
// std::unordered_set built from the elements in order (iterated as libstdc++ leaves it), std::sorted
// when sorted=True; the inverse reads a std::unordered_map from value to position (a NaN, never found,
// is inserted and reads 0), and the counts a second map filled element by element (a NaN counts in an
// entry of its own, so each NaN output counts 0).
//
//   unique_values(dtype, self, offset, n, sorted, values, inverse|null, counts|null) -> k, or -1
// self's n elements from offset (contiguous); values and counts have room for n, inverse holds n; the
// first k entries of values (and counts) are the result. -1: a dtype this does not take.
#include "Unique.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ThreadPool.h"
#include "TypedArg.h"

namespace glasstorch {
namespace {

// ScalarType codes (c10/ScalarType.ts)
enum DType { kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kFloat = 6, kDouble = 7 };

// ---- sorted=True without NaN: the same result from the pool ----
// The sorted distinct values do not depend on the set's iteration order, only on which of -0/0 it kept
// (the first seen: equal values are not inserted twice). So each chunk of the input fills its own
// open-addressing table (power-of-two size, Fibonacci hashing: no division, unlike libstdc++'s buckets),
// the tables merge in chunk order (the first occurrence stays), and the inverse is each element's
// position in the sorted values (std::lower_bound: -0 finds 0, as the map's == does), counted per chunk.

template <typename T>
inline uint64_t hash_bits(T v) {
  uint64_t u = 0;
  if constexpr (std::is_floating_point_v<T>) {
    if (v == 0) return 0;  // -0 and 0: one entry
    std::memcpy(&u, &v, sizeof(T));
  } else {
    u = static_cast<uint64_t>(v);
  }
  return u * 0x9E3779B97F4A7C15ull;
}

template <typename T>
struct FlatSet {
  std::vector<T> slots;
  std::vector<uint8_t> used;
  std::vector<T> order;  // the values in insertion order
  int shift = 64 - 10;
  FlatSet() : slots(1024), used(1024, 0) {}
  void insert(T v) {
    const size_t mask = slots.size() - 1;
    for (size_t i = static_cast<size_t>(hash_bits(v) >> shift);; i = (i + 1) & mask) {
      if (!used[i]) {
        used[i] = 1;
        slots[i] = v;
        order.push_back(v);
        if (order.size() * 2 > slots.size()) grow();
        return;
      }
      if (slots[i] == v) return;
    }
  }
  void grow() {
    slots.assign(slots.size() * 2, T{});
    used.assign(slots.size(), 0);
    --shift;
    const size_t mask = slots.size() - 1;
    for (const T v : order) {
      size_t i = static_cast<size_t>(hash_bits(v) >> shift);
      while (used[i]) i = (i + 1) & mask;
      used[i] = 1;
      slots[i] = v;
    }
  }
};

// -1 when a NaN is met (the set's order then decides the sorted result: the caller takes the std path)
template <typename T>
int64_t unique_sorted_pool(const T* x, int64_t n, T* values, int64_t* inverse, int64_t* counts) {
  const int64_t chunk = std::max<int64_t>(GRAIN_SIZE * 8, (n + 15) / 16);
  const int64_t chunks = (n + chunk - 1) / chunk;
  std::vector<FlatSet<T>> sets(static_cast<size_t>(chunks));
  std::atomic<bool> nan{false};
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c)
      for (int64_t i = c * chunk, e = std::min(n, i + chunk); i < e; ++i) {
        if (x[i] != x[i]) {
          nan = true;
          return;
        }
        sets[static_cast<size_t>(c)].insert(x[i]);
      }
  });
  if (nan) return -1;
  FlatSet<T> all;
  for (const auto& set : sets)
    for (const T v : set.order) all.insert(v);
  std::vector<T> out(std::move(all.order));
  std::sort(out.begin(), out.end());
  const int64_t k = static_cast<int64_t>(out.size());
  std::copy(out.begin(), out.end(), values);
  if (inverse == nullptr && counts == nullptr) return k;
  std::vector<int64_t> tallies(counts != nullptr ? static_cast<size_t>(chunks * k) : 0, 0);
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c)
      for (int64_t i = c * chunk, e = std::min(n, i + chunk); i < e; ++i) {
        const int64_t at = std::lower_bound(out.begin(), out.end(), x[i]) - out.begin();
        if (inverse != nullptr) inverse[i] = at;
        if (counts != nullptr) ++tallies[static_cast<size_t>(c * k + at)];
      }
  });
  if (counts != nullptr)
    for (int64_t j = 0; j < k; ++j) {
      int64_t total = 0;
      for (int64_t c = 0; c < chunks; ++c) total += tallies[static_cast<size_t>(c * k + j)];
      counts[j] = total;
    }
  return k;
}

// ---- PyTorch's containers ----

template <typename T>
int64_t unique_typed(const T* x, int64_t n, bool sorted, T* values, int64_t* inverse, int64_t* counts) {
  if (sorted) {
    const int64_t k = unique_sorted_pool(x, n, values, inverse, counts);  // declines (-1) on NaN
    if (k >= 0) return k;
  }
  const std::unordered_set<T> set(x, x + n);
  std::vector<T> out(set.begin(), set.end());
  if (sorted) std::sort(out.begin(), out.end());
  const int64_t k = static_cast<int64_t>(out.size());
  std::copy(out.begin(), out.end(), values);
  if (inverse != nullptr) {
    std::unordered_map<T, int64_t> where;
    where.reserve(out.size());
    for (int64_t i = 0; i < k; ++i) where[out[i]] = i;
    for (int64_t i = 0; i < n; ++i) inverse[i] = where[x[i]];
  }
  if (counts != nullptr) {
    std::unordered_map<T, int64_t> tally;
    tally.reserve(out.size());
    for (int64_t i = 0; i < k; ++i) tally[out[i]] = 0;
    for (int64_t i = 0; i < n; ++i) tally[x[i]] += 1;
    for (int64_t i = 0; i < k; ++i) counts[i] = tally[out[i]];
  }
  return k;
}

template <typename T>
int64_t run(const Typed& self, int64_t offset, int64_t n, bool sorted, const Typed& values, int64_t* inverse, int64_t* counts) {
  return unique_typed<T>(reinterpret_cast<const T*>(self.data) + offset, n, sorted, reinterpret_cast<T*>(values.data), inverse, counts);
}

Napi::Value UniqueValues(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const Napi::Number none = Napi::Number::New(env, -1);
  if (info.Length() < 8) return none;
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  Typed self, values, inv, cnt;
  const int64_t offset = static_cast<int64_t>(info[2].As<Napi::Number>().DoubleValue());
  const int64_t n = static_cast<int64_t>(info[3].As<Napi::Number>().DoubleValue());
  const bool sorted = info[4].As<Napi::Boolean>().Value();
  if (!typed(env, info[1], &self) || !typed(env, info[5], &values) || values.itemsize != self.itemsize) return none;
  if (offset < 0 || n < 0 || offset + n > self.length || values.length < n) return none;
  int64_t* inverse = nullptr;
  int64_t* counts = nullptr;
  if (!info[6].IsNull()) {
    if (!typed(env, info[6], &inv) || inv.type != napi_bigint64_array || inv.length < n) return none;
    inverse = reinterpret_cast<int64_t*>(inv.data);
  }
  if (!info[7].IsNull()) {
    if (!typed(env, info[7], &cnt) || cnt.type != napi_bigint64_array || cnt.length < n) return none;
    counts = reinterpret_cast<int64_t*>(cnt.data);
  }
  int64_t k;
  switch (dtype) {
    case kByte: k = run<uint8_t>(self, offset, n, sorted, values, inverse, counts); break;
    case kChar: k = run<int8_t>(self, offset, n, sorted, values, inverse, counts); break;
    case kShort: k = run<int16_t>(self, offset, n, sorted, values, inverse, counts); break;
    case kInt: k = run<int32_t>(self, offset, n, sorted, values, inverse, counts); break;
    case kLong: k = run<int64_t>(self, offset, n, sorted, values, inverse, counts); break;
    case kFloat: k = run<float>(self, offset, n, sorted, values, inverse, counts); break;
    case kDouble: k = run<double>(self, offset, n, sorted, values, inverse, counts); break;
    default: return none;
  }
  return Napi::Number::New(env, static_cast<double>(k));
}

}  // namespace

void InitUnique(Napi::Env env, Napi::Object exports) { exports.Set("unique_values", Napi::Function::New(env, UniqueValues)); }

}  // namespace glasstorch
