// Scans along one dim that carry more than a sum (aten/src/ATen/native/ReduceOps.cpp,
// cpu/ReduceOpsKernel.cpp), each lane of self in order as cpu_cum_base_kernel walks it, lanes split over
// the intra-op pool (cumsum and cumprod are Ops2.cc's):
//
//   cum_extreme_lanes(dtype, isMax, meta[values, indices, self], values, indices, self) -> bool
//     cummax_cummin_helper: the running extreme and its index; `>=` (cummax) or `<=` (cummin) lets a
//     later equal element take over, and every NaN takes over (NaN then stays, with the latest NaN's
//     index). uint8, int8, int16, int32, int64, bool, bfloat16 (compared as float), float32, float64.
//   logcumsumexp_lanes(dtype, meta[result, self], result, self) -> bool
//     The TS kernel's step: acc = log_add_exp(x, acc) in double, rounded to the dtype after each element,
//     with JavaScript's Math.min/max (NaN wins, -0 below +0). float32 and float64.
//     Bound: exp and log1p are glibc's here and V8's (fdlibm) in the TS kernel, both within 1 ulp of the
//     true double, so a step may differ in the last bit of the double; float32 results round that away
//     but where the double lies within an ulp of a float's rounding boundary (1 float32 ulp then), and
//     float64 results differ by a few ulps at most (a step's error is not amplified: d/dacc <= 1).
//     cpu_native_scan.test.ts checks both bounds.
//
// meta: Lanes.h's; every operand has self's sizes.
#include "Scan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "Half.h"
#include "Lanes.h"
#include "ThreadPool.h"
#include "TypedArg.h"

namespace glasstorch {
namespace {

// ScalarType codes (c10/ScalarType.ts)
enum DType { kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kFloat = 6, kDouble = 7, kBool = 11, kBFloat16 = 15 };

// lanes of n elements: about GRAIN_SIZE elements per task, as the other lane kernels
inline int64_t lane_grain(int64_t n) { return std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(n, 1)); }

// ---- cummax / cummin ----

template <typename T>
inline auto compared(T x) {
  if constexpr (std::is_same_v<T, bf16_t>) return x.to_float();
  else return x;
}

// One lane; the strides are arguments (not the caller's captured references, which the stores might
// alias and GCC then reloads every element).
template <typename T, bool kMax>
__attribute__((always_inline)) inline void cum_extreme_lane(const T* x, int64_t ss, T* v, int64_t vs, int64_t* ix, int64_t is, int64_t n) {
  T out = x[0];
  auto best = compared(out);
  int64_t idx = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T xi = x[i * ss];  // read before the write: values may be self itself (out=)
    const auto c = compared(xi);
    if (c != c || (best == best && (kMax ? c >= best : c <= best))) {
      out = xi;
      best = c;
      idx = i;
    }
    v[i * vs] = out;
    ix[i * is] = idx;
  }
}

template <typename T, bool kMax>
void cum_extreme_typed(const Lanes& l, T* values, int64_t* indices, const T* self) {
  const int64_t n = l.n();
  const int64_t vs = l.strides[0][l.dim], is = l.strides[1][l.dim], ss = l.strides[2][l.dim];
  parallel_for(0, l.count, lane_grain(n), [&](int64_t b, int64_t e) {
    for (int64_t lane = b; lane < e; ++lane) {
      T* v = values + l.base(0, lane);
      int64_t* ix = indices + l.base(1, lane);
      const T* x = self + l.base(2, lane);
      if (vs == 1 && is == 1 && ss == 1) cum_extreme_lane<T, kMax>(x, 1, v, 1, ix, 1, n);  // contiguous lanes: unit strides known
      else cum_extreme_lane<T, kMax>(x, ss, v, vs, ix, is, n);
    }
  });
}

template <bool kMax>
bool cum_extreme_dispatch(int dtype, const Lanes& l, char* values, int64_t* indices, const char* self) {
  switch (dtype) {
    case kByte: case kBool: cum_extreme_typed<uint8_t, kMax>(l, reinterpret_cast<uint8_t*>(values), indices, reinterpret_cast<const uint8_t*>(self)); return true;
    case kChar: cum_extreme_typed<int8_t, kMax>(l, reinterpret_cast<int8_t*>(values), indices, reinterpret_cast<const int8_t*>(self)); return true;
    case kShort: cum_extreme_typed<int16_t, kMax>(l, reinterpret_cast<int16_t*>(values), indices, reinterpret_cast<const int16_t*>(self)); return true;
    case kInt: cum_extreme_typed<int32_t, kMax>(l, reinterpret_cast<int32_t*>(values), indices, reinterpret_cast<const int32_t*>(self)); return true;
    case kLong: cum_extreme_typed<int64_t, kMax>(l, reinterpret_cast<int64_t*>(values), indices, reinterpret_cast<const int64_t*>(self)); return true;
    case kFloat: cum_extreme_typed<float, kMax>(l, reinterpret_cast<float*>(values), indices, reinterpret_cast<const float*>(self)); return true;
    case kDouble: cum_extreme_typed<double, kMax>(l, reinterpret_cast<double*>(values), indices, reinterpret_cast<const double*>(self)); return true;
    case kBFloat16: cum_extreme_typed<bf16_t, kMax>(l, reinterpret_cast<bf16_t*>(values), indices, reinterpret_cast<const bf16_t*>(self)); return true;
    default: return false;
  }
}

// cum_extreme_lanes(dtype, isMax, meta, values, indices, self)
Napi::Value CumExtremeLanes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Typed m, v, ix, x;
  if (info.Length() < 6 || !typed(env, info[2], &m) || !typed(env, info[3], &v) || !typed(env, info[4], &ix) || !typed(env, info[5], &x) ||
      ix.type != napi_bigint64_array || v.itemsize != x.itemsize)
    return Napi::Boolean::New(env, false);
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const bool is_max = info[1].As<Napi::Boolean>().Value();
  Lanes l;
  if (!read_lanes(m, 3, l) || l.n() < 1) return Napi::Boolean::New(env, false);
  const int64_t n = l.n();
  if (!lanes_inside(l, 0, n, v.length) || !lanes_inside(l, 1, n, ix.length) || !lanes_inside(l, 2, n, x.length)) return Napi::Boolean::New(env, false);
  int64_t* indices = reinterpret_cast<int64_t*>(ix.data);
  const bool ok = is_max ? cum_extreme_dispatch<true>(dtype, l, v.data, indices, x.data) : cum_extreme_dispatch<false>(dtype, l, v.data, indices, x.data);
  return Napi::Boolean::New(env, ok);
}

// ---- logcumsumexp ----

// JavaScript's Math.min / Math.max: NaN if either is, and -0 below +0
inline double js_min(double a, double b) {
  if (a != a || b != b) return NAN;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
inline double js_max(double a, double b) {
  if (a != a || b != b) return NAN;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// PyTorch's log_add_exp as the TS kernel writes it: NaN propagates, equal infinities return x
inline double log_add_exp(double x, double y) {
  const double lo = y != y ? y : js_min(x, y);
  const double hi = y != y ? y : js_max(x, y);
  if (lo != hi || std::isfinite(lo)) return std::log1p(std::exp(lo - hi)) + hi;
  return x;
}

// Each step waits on the last one's exp and log1p, so one lane is latency-bound: kGroup lanes advance
// together, their independent chains overlapping in the core (each lane's arithmetic is unchanged).
// Measured here (1024 x 1024, one thread, CPU time): 1 lane 36 ms, 4 lanes 16.7, 8 lanes 19.9.
template <typename T>
void logcumsumexp_typed(const Lanes& l, T* result, const T* self) {
  constexpr int64_t kGroup = 4;
  const int64_t n = l.n();
  const int64_t rs = l.strides[0][l.dim], ss = l.strides[1][l.dim];
  const int64_t groups = (l.count + kGroup - 1) / kGroup;
  parallel_for(0, groups, std::max<int64_t>(1, lane_grain(n) / kGroup), [&, n, rs, ss](int64_t b, int64_t e) {  // (copies: the stores cannot alias them)
    for (int64_t g = b; g < e; ++g) {
      const int64_t first = g * kGroup, m = std::min(kGroup, l.count - first);
      const T* x[kGroup];
      T* r[kGroup];
      double acc[kGroup];
      for (int64_t j = 0; j < kGroup; ++j) {
        const int64_t lane = first + std::min(j, m - 1);  // a short last group repeats its last lane
        x[j] = self + l.base(1, lane);
        r[j] = result + l.base(0, lane);
        acc[j] = -INFINITY;
      }
      for (int64_t i = 0; i < n; ++i) {
        T step[kGroup];
        for (int64_t j = 0; j < kGroup; ++j) step[j] = static_cast<T>(log_add_exp(static_cast<double>(x[j][i * ss]), acc[j]));  // rounded per step
        for (int64_t j = 0; j < kGroup; ++j) {
          acc[j] = step[j];
          r[j][i * rs] = step[j];
        }
      }
    }
  });
}

// logcumsumexp_lanes(dtype, meta, result, self)
Napi::Value LogcumsumexpLanes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Typed m, r, x;
  if (info.Length() < 4 || !typed(env, info[1], &m) || !typed(env, info[2], &r) || !typed(env, info[3], &x) || r.type != x.type) return Napi::Boolean::New(env, false);
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  Lanes l;
  if (!read_lanes(m, 2, l) || l.n() < 1) return Napi::Boolean::New(env, false);
  const int64_t n = l.n();
  if (!lanes_inside(l, 0, n, r.length) || !lanes_inside(l, 1, n, x.length)) return Napi::Boolean::New(env, false);
  if (dtype == kFloat && x.type == napi_float32_array) logcumsumexp_typed<float>(l, reinterpret_cast<float*>(r.data), reinterpret_cast<const float*>(x.data));
  else if (dtype == kDouble && x.type == napi_float64_array) logcumsumexp_typed<double>(l, reinterpret_cast<double*>(r.data), reinterpret_cast<const double*>(x.data));
  else return Napi::Boolean::New(env, false);
  return Napi::Boolean::New(env, true);
}

}  // namespace

void InitScan(Napi::Env env, Napi::Object exports) {
  exports.Set("cum_extreme_lanes", Napi::Function::New(env, CumExtremeLanes));
  exports.Set("logcumsumexp_lanes", Napi::Function::New(env, LogcumsumexpLanes));
}

}  // namespace glasstorch
