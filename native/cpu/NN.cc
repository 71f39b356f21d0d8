// The NN kernels' N-API surface: softmax and log_softmax (forward and backward), layer norm, batch
// norm's statistics and affine step, 2-d max/average/adaptive-average pooling, and the index kernels
// (index_select / embedding rows, gather, scatter / scatter_add, index_add / embedding backward).
// The TypeScript side (engine/aten/native/cpu_native/NativeNN.ts) passes contiguous storages' typed
// arrays with element offsets and sizes; every function checks each array's type and extent, splits
// the work over the thread pool (parallel_for, GRAIN_SIZE as at::parallel_for) into pieces whose
// results do not depend on the thread count, and returns false for a dtype it has no kernel for.
#include "NN.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "ThreadPool.h"
#include "cpu_features.h"
#include "kernels.h"
#include "nn_kernels.h"

namespace glasstorch {
namespace {

// The NN table of the unit cpu_features.cc selected (set_capability switches both together).
const NNKernelTable& nn() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return kNNKernelsAVX512;
  if (std::strcmp(name, "AVX2") == 0) return kNNKernelsAVX2;
  return kNNKernelsDefault;
}

template <typename T> constexpr napi_typedarray_type kArrayType = napi_float32_array;
template <> constexpr napi_typedarray_type kArrayType<double> = napi_float64_array;
template <> constexpr napi_typedarray_type kArrayType<int64_t> = napi_bigint64_array;

// Reads the call's arguments; the first failed check throws a TypeError and clears ok.
struct Args {
  const Napi::CallbackInfo& info;
  bool ok = true;

  explicit Args(const Napi::CallbackInfo& i) : info(i) {}

  bool fail(const std::string& what) {
    if (ok) Napi::TypeError::New(info.Env(), "glasstorch native: " + what).ThrowAsJavaScriptException();
    ok = false;
    return false;
  }
  int64_t i64(size_t k) {
    if (!info[k].IsNumber()) return fail("argument " + std::to_string(k) + " must be a number"), 0;
    return info[k].As<Napi::Number>().Int64Value();
  }
  double f64(size_t k) {
    if (!info[k].IsNumber()) return fail("argument " + std::to_string(k) + " must be a number"), 0;
    return info[k].As<Napi::Number>().DoubleValue();
  }
  bool is_null(size_t k) { return info[k].IsNull() || info[k].IsUndefined(); }
  // The element at `offset` of the typed array argument k, which must hold `count` elements from there.
  template <typename T>
  T* ptr(size_t k, int64_t offset, int64_t count) {
    napi_typedarray_type type;
    size_t length, byte_offset;
    void* data = nullptr;
    napi_value ab;
    if (napi_get_typedarray_info(info.Env(), info[k], &type, &length, &data, &ab, &byte_offset) != napi_ok || type != kArrayType<T>) {
      return fail("argument " + std::to_string(k) + " is not a typed array of the kernel's dtype"), nullptr;
    }
    if (offset < 0 || count < 0 || static_cast<uint64_t>(offset + count) > length) {
      return fail("argument " + std::to_string(k) + " is too short for the kernel's sizes"), nullptr;
    }
    return static_cast<T*>(data) + offset;
  }
};

inline int64_t at_least_1(int64_t v) { return v < 1 ? 1 : v; }

// ---- softmax ----

template <typename T>
void softmax_forward(const NNKernelsOf<T>& k, const T* in, T* out, int64_t outer, int64_t dim, int64_t inner, bool log, bool lastdim) {
  if (lastdim) {
    parallel_for(0, outer, at_least_1(GRAIN_SIZE / at_least_1(dim)), [&](int64_t b, int64_t e) {
      k.softmax_lastdim(in + b * dim, out + b * dim, e - b, dim, log);
    });
    return;
  }
  constexpr int64_t kCols = 256;
  const int64_t blocks = (inner + kCols - 1) / kCols;
  parallel_for(0, outer * blocks, at_least_1(GRAIN_SIZE / at_least_1(dim * kCols)), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / blocks, k0 = (t % blocks) * kCols;
      k.softmax_inner(in + o * dim * inner, out + o * dim * inner, dim, inner, k0, std::min(inner, k0 + kCols), log);
    }
  });
}

template <typename T>
void softmax_backward(const NNKernelsOf<T>& k, const T* grad, const T* output, T* gin, int64_t outer, int64_t dim, int64_t inner, bool log, bool lastdim) {
  if (lastdim) {
    parallel_for(0, outer, at_least_1(GRAIN_SIZE / at_least_1(dim)), [&](int64_t b, int64_t e) {
      k.softmax_backward_lastdim(grad + b * dim, output + b * dim, gin + b * dim, e - b, dim, log);
    });
    return;
  }
  constexpr int64_t kCols = 256;
  const int64_t blocks = (inner + kCols - 1) / kCols;
  parallel_for(0, outer * blocks, at_least_1(GRAIN_SIZE / at_least_1(dim * kCols)), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / blocks, k0 = (t % blocks) * kCols, base = o * dim * inner;
      k.softmax_backward_inner(grad + base, output + base, gin + base, dim, inner, k0, std::min(inner, k0 + kCols), log);
    }
  });
}

// The kernel a softmax call names: bit 0 log_softmax, bit 1 the inner-dim kernel (else the last-dim
// one: a (outer, dim) input, inner must be 1).
constexpr int kLog = 1, kInnerDim = 2;

// softmax(kind, dtype, input, inOffset, output, outOffset, outer, dim, inner)
Napi::Value Softmax(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t kind = a.i64(0);
  const bool log = (kind & kLog) != 0, lastdim = (kind & kInnerDim) == 0;
  const int64_t dtype = a.i64(1), outer = a.i64(6), dim = a.i64(7), inner = a.i64(8);
  const int64_t n = outer * dim * inner;
  if (!a.ok) return info.Env().Undefined();
  if (lastdim && inner != 1) return a.fail("the last-dim softmax kernel takes inner == 1"), info.Env().Undefined();
  if (dtype == kFloat) {
    const float* in = a.ptr<float>(2, a.i64(3), n);
    float* out = a.ptr<float>(4, a.i64(5), n);
    if (!a.ok) return info.Env().Undefined();
    softmax_forward(nn().f32, in, out, outer, dim, inner, log, lastdim);
  } else if (dtype == kDouble) {
    const double* in = a.ptr<double>(2, a.i64(3), n);
    double* out = a.ptr<double>(4, a.i64(5), n);
    if (!a.ok) return info.Env().Undefined();
    softmax_forward(nn().f64, in, out, outer, dim, inner, log, lastdim);
  } else {
    return Napi::Boolean::New(info.Env(), false);
  }
  return Napi::Boolean::New(info.Env(), true);
}

// softmax_backward(kind, dtype, grad, gradOffset, output, outputOffset, gradInput, gradInputOffset, outer, dim, inner)
Napi::Value SoftmaxBackward(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t kind = a.i64(0);
  const bool log = (kind & kLog) != 0, lastdim = (kind & kInnerDim) == 0;
  const int64_t dtype = a.i64(1), outer = a.i64(8), dim = a.i64(9), inner = a.i64(10);
  const int64_t n = outer * dim * inner;
  if (!a.ok) return info.Env().Undefined();
  if (lastdim && inner != 1) return a.fail("the last-dim softmax kernel takes inner == 1"), info.Env().Undefined();
  auto run = [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const T* g = a.ptr<T>(2, a.i64(3), n);
    const T* o = a.ptr<T>(4, a.i64(5), n);
    T* gi = a.ptr<T>(6, a.i64(7), n);
    if (a.ok) softmax_backward(k, g, o, gi, outer, dim, inner, log, lastdim);
  };
  if (dtype == kFloat) run(float(), nn().f32);
  else if (dtype == kDouble) run(double(), nn().f64);
  else return Napi::Boolean::New(info.Env(), false);
  return a.ok ? Napi::Value(Napi::Boolean::New(info.Env(), true)) : info.Env().Undefined();
}

// ---- normalization ----

// layer_norm(dtype, X, xOffset, gamma|null, gammaOffset, beta|null, betaOffset, M, N, eps, Y, yOffset, mean: Float64Array, rstd: Float64Array)
Napi::Value LayerNorm(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t dtype = a.i64(0), M = a.i64(7), N = a.i64(8);
  const double eps = a.f64(9);
  if (!a.ok) return info.Env().Undefined();
  auto run = [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const T* x = a.ptr<T>(1, a.i64(2), M * N);
    const T* gamma = a.is_null(3) ? nullptr : a.ptr<T>(3, a.i64(4), N);
    const T* beta = a.is_null(5) ? nullptr : a.ptr<T>(5, a.i64(6), N);
    T* y = a.ptr<T>(10, a.i64(11), M * N);
    double* mean = a.ptr<double>(12, 0, M);
    double* rstd = a.ptr<double>(13, 0, M);
    if (!a.ok) return;
    parallel_for(0, M, at_least_1(GRAIN_SIZE / at_least_1(N)), [&](int64_t b, int64_t e) {
      k.layer_norm(x + b * N, gamma, beta, y + b * N, e - b, N, eps, mean + b, rstd + b);
    });
  };
  if (dtype == kFloat) run(float(), nn().f32);
  else if (dtype == kDouble) run(double(), nn().f64);
  else return Napi::Boolean::New(info.Env(), false);
  return a.ok ? Napi::Value(Napi::Boolean::New(info.Env(), true)) : info.Env().Undefined();
}

// batch_norm_stats(dtype, X, xOffset, N, C, image, mean: Float64Array, varSum: Float64Array): per channel
Napi::Value BatchNormStats(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t dtype = a.i64(0), N = a.i64(3), C = a.i64(4), image = a.i64(5);
  if (!a.ok) return info.Env().Undefined();
  auto run = [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const T* x = a.ptr<T>(1, a.i64(2), N * C * image);
    double* mean = a.ptr<double>(6, 0, C);
    double* var_sum = a.ptr<double>(7, 0, C);
    if (!a.ok) return;
    parallel_for(0, C, at_least_1(GRAIN_SIZE / at_least_1(N * image)), [&](int64_t b, int64_t e) {
      for (int64_t c = b; c < e; ++c) k.batch_norm_stats(x + c * image, N, C * image, image, mean + c, var_sum + c);
    });
  };
  if (dtype == kFloat) run(float(), nn().f32);
  else if (dtype == kDouble) run(double(), nn().f64);
  else return Napi::Boolean::New(info.Env(), false);
  return a.ok ? Napi::Value(Napi::Boolean::New(info.Env(), true)) : info.Env().Undefined();
}

// batch_norm_apply(dtype, X, xOffset, Y, yOffset, N, C, image, alpha: Float64Array, beta: Float64Array)
Napi::Value BatchNormApply(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t dtype = a.i64(0), N = a.i64(5), C = a.i64(6), image = a.i64(7);
  if (!a.ok) return info.Env().Undefined();
  auto run = [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const T* x = a.ptr<T>(1, a.i64(2), N * C * image);
    T* y = a.ptr<T>(3, a.i64(4), N * C * image);
    const double* alpha = a.ptr<double>(8, 0, C);
    const double* beta = a.ptr<double>(9, 0, C);
    if (!a.ok) return;
    parallel_for(0, N * C, at_least_1(GRAIN_SIZE / at_least_1(image)), [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) k.batch_norm_apply(x + p * image, y + p * image, image, alpha[p % C], beta[p % C]);
    });
  };
  if (dtype == kFloat) run(float(), nn().f32);
  else if (dtype == kDouble) run(double(), nn().f64);
  else return Napi::Boolean::New(info.Env(), false);
  return a.ok ? Napi::Value(Napi::Boolean::New(info.Env(), true)) : info.Env().Undefined();
}

// ---- pooling: planes of contiguous (P, H, W) inputs ----

// max_pool2d(dtype, X, xOffset, Y, yOffset, indices: BigInt64Array, indOffset, P, H, W, OH, OW, window: Float64Array(8))
Napi::Value MaxPool2d(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t dtype = a.i64(0), P = a.i64(7), H = a.i64(8), W = a.i64(9), OH = a.i64(10), OW = a.i64(11);
  if (!a.ok) return info.Env().Undefined();
  const double* wd = a.ptr<double>(12, 0, 8);
  if (!a.ok) return info.Env().Undefined();
  int64_t win[8];
  for (int i = 0; i < 8; ++i) win[i] = static_cast<int64_t>(wd[i]);
  auto run = [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const T* x = a.ptr<T>(1, a.i64(2), P * H * W);
    T* y = a.ptr<T>(3, a.i64(4), P * OH * OW);
    int64_t* ind = a.ptr<int64_t>(5, a.i64(6), P * OH * OW);
    if (!a.ok) return;
    parallel_for(0, P, at_least_1(GRAIN_SIZE / at_least_1(OH * OW * win[0] * win[1])), [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) k.max_pool2d(x + p * H * W, y + p * OH * OW, ind + p * OH * OW, H, W, OH, OW, win);
    });
  };
  if (dtype == kFloat) run(float(), nn().f32);
  else if (dtype == kDouble) run(double(), nn().f64);
  else return Napi::Boolean::New(info.Env(), false);
  return a.ok ? Napi::Value(Napi::Boolean::New(info.Env(), true)) : info.Env().Undefined();
}

// avg_pool2d(dtype, X, xOffset, Y, yOffset, P, H, W, OH, OW, window: Float64Array(8)); adaptive: window null
Napi::Value AvgPool2d(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t dtype = a.i64(0), P = a.i64(5), H = a.i64(6), W = a.i64(7), OH = a.i64(8), OW = a.i64(9);
  if (!a.ok) return info.Env().Undefined();
  const bool adaptive = a.is_null(10);
  int64_t win[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (!adaptive) {
    const double* wd = a.ptr<double>(10, 0, 8);
    if (!a.ok) return info.Env().Undefined();
    for (int i = 0; i < 8; ++i) win[i] = static_cast<int64_t>(wd[i]);
  }
  auto run = [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const T* x = a.ptr<T>(1, a.i64(2), P * H * W);
    T* y = a.ptr<T>(3, a.i64(4), P * OH * OW);
    if (!a.ok) return;
    const int64_t per_plane = adaptive ? H * W : OH * OW * win[0] * win[1];
    parallel_for(0, P, at_least_1(GRAIN_SIZE / at_least_1(per_plane)), [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) {
        if (adaptive) k.adaptive_avg_pool2d(x + p * H * W, y + p * OH * OW, H, W, OH, OW);
        else k.avg_pool2d(x + p * H * W, y + p * OH * OW, H, W, OH, OW, win);
      }
    });
  };
  if (dtype == kFloat) run(float(), nn().f32);
  else if (dtype == kDouble) run(double(), nn().f64);
  else return Napi::Boolean::New(info.Env(), false);
  return a.ok ? Napi::Value(Napi::Boolean::New(info.Env(), true)) : info.Env().Undefined();
}

}  // namespace

void InitNN(Napi::Env env, Napi::Object exports) {
  exports.Set("nn_softmax", Napi::Function::New(env, Softmax));
  exports.Set("nn_softmax_backward", Napi::Function::New(env, SoftmaxBackward));
  exports.Set("nn_layer_norm", Napi::Function::New(env, LayerNorm));
  exports.Set("nn_batch_norm_stats", Napi::Function::New(env, BatchNormStats));
  exports.Set("nn_batch_norm_apply", Napi::Function::New(env, BatchNormApply));
  exports.Set("nn_max_pool2d", Napi::Function::New(env, MaxPool2d));
  exports.Set("nn_avg_pool2d", Napi::Function::New(env, AvgPool2d));
}

}  // namespace glasstorch
