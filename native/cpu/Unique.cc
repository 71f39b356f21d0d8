// torch.unique without dim (aten/src/ATen/native/Unique.cpp unique_cpu_template, PyTorch 1.13) with
// the same standard containers, so the unsorted order is PyTorch's: the distinct values are those of a
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
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "TypedArg.h"

namespace glasstorch {
namespace {

// ScalarType codes (c10/ScalarType.ts)
enum DType { kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kFloat = 6, kDouble = 7 };

template <typename T>
int64_t unique_typed(const T* x, int64_t n, bool sorted, T* values, int64_t* inverse, int64_t* counts) {
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
