// max_pool1d and adaptive_max_pool2d forward over contiguous planes (engine/aten/native/pooling/
// PoolKernels.ts: max_pool1d_stub, adaptive_max_pool2d_kernel; PyTorch's MaxPooling.cpp max_pool1d_impl
// and AdaptiveMaxPoolKernel.cpp), float32 and float64, planes split over the pool (max_pool1d's plane
// loop is the selected unit's, nn_kernels.inc; adaptive_max_pool2d's is here). Both are the TS
// kernels' loops: the first largest element of a window wins and a NaN wins (max_pool1d stops at it);
// comparisons only, so the results are the TS kernels' values exactly.
//   pool_max1d(dtype, X, xOffset, Y, yOffset, P, W, OW, kW, dW, padW, dilationW) -> bool
//   pool_adaptive_max2d(dtype, X, xOffset, Y, yOffset, indices: BigInt64Array, indOffset, P, H, W, OH, OW) -> bool
// (false: a dtype it does not take; a RangeError when a plane reaches past its array)
#include <napi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include "ThreadPool.h"
#include "TypedArg.h"
#include "kernels.h"
#include "nn_kernels.h"

namespace glasstorch {
namespace {

int64_t i64(const Napi::CallbackInfo& info, int i) { return static_cast<int64_t>(info[i].As<Napi::Number>().DoubleValue()); }

template <typename T>
const NNKernelsOf<T>& table_for() {
  if constexpr (std::is_same_v<T, float>) return selected_nn_kernels().f32;
  else return selected_nn_kernels().f64;
}

// compare-and-select on floats vectorizes only when GCC may ignore FP exception flags (nothing reads them)
#pragma GCC optimize("no-trapping-math")

// one plane: windows [floor(o * I / O), ceil((o + 1) * I / O)); the index within the plane, h * W + w
template <typename T>
void adaptive_max_pool2d_plane(const T* x, T* y, int64_t* ind, int64_t H, int64_t W, int64_t OH, int64_t OW) {
  for (int64_t oh = 0; oh < OH; ++oh) {
    const int64_t ih0 = (oh * H) / OH, ih1 = ((oh + 1) * H + OH - 1) / OH;
    for (int64_t ow = 0; ow < OW; ++ow) {
      const int64_t iw0 = (ow * W) / OW, iw1 = ((ow + 1) * W + OW - 1) / OW;
      int64_t max_index = ih0 * W + iw0;
      T max_val = -std::numeric_limits<T>::infinity();
      for (int64_t ih = ih0; ih < ih1; ++ih) {
        for (int64_t iw = iw0; iw < iw1; ++iw) {
          const T v = x[ih * W + iw];
          if (v > max_val || v != v) {
            max_val = v;
            max_index = ih * W + iw;
          }
        }
      }
      y[oh * OW + ow] = max_val;
      ind[oh * OW + ow] = max_index;
    }
  }
}

Napi::Value MaxPool1d(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int64_t dtype = i64(info, 0), P = i64(info, 5), W = i64(info, 6), OW = i64(info, 7);
  const int64_t kW = i64(info, 8), dW = i64(info, 9), padW = i64(info, 10), dil = i64(info, 11);
  auto run = [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    const T* x = elements<T>(info[1], i64(info, 2), P * W, "pooling");
    T* y = elements<T>(info[3], i64(info, 4), P * OW, "pooling");
    if (x == nullptr || y == nullptr) return env.Undefined();
    // the plane loop is the selected unit's (nn_kernels.inc: 8 floats to a vector on AVX2, where this
    // baseline file had 4: F.max_pool1d of [16, 64, 1024], k 2, two threads, 188 -> 142 us; PyTorch 152)
    const auto plane = table_for<T>().max_pool1d;
    parallel_for(0, P, at_least_1(GRAIN_SIZE / at_least_1(OW * kW)), [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) plane(x + p * W, y + p * OW, W, OW, kW, dW, padW, dil);
    });
    return Napi::Boolean::New(env, true);
  };
  if (dtype == kFloat) return run(float());
  if (dtype == kDouble) return run(double());
  return Napi::Boolean::New(env, false);
}

Napi::Value AdaptiveMaxPool2d(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int64_t dtype = i64(info, 0), P = i64(info, 7), H = i64(info, 8), W = i64(info, 9), OH = i64(info, 10), OW = i64(info, 11);
  auto run = [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    const T* x = elements<T>(info[1], i64(info, 2), P * H * W, "pooling");
    T* y = elements<T>(info[3], i64(info, 4), P * OH * OW, "pooling");
    int64_t* ind = elements<int64_t>(info[5], i64(info, 6), P * OH * OW, "pooling");
    if (x == nullptr || y == nullptr || ind == nullptr) return env.Undefined();
    parallel_for(0, P, at_least_1(GRAIN_SIZE / at_least_1(H * W)), [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) adaptive_max_pool2d_plane(x + p * H * W, y + p * OH * OW, ind + p * OH * OW, H, W, OH, OW);
    });
    return Napi::Boolean::New(env, true);
  };
  if (dtype == kFloat) return run(float());
  if (dtype == kDouble) return run(double());
  return Napi::Boolean::New(env, false);
}

}  // namespace

void InitPooling(Napi::Env env, Napi::Object exports) {
  exports.Set("pool_max1d", Napi::Function::New(env, MaxPool1d));
  exports.Set("pool_adaptive_max2d", Napi::Function::New(env, AdaptiveMaxPool2d));
}

}  // namespace glasstorch
