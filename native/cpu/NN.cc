// The NN kernels' N-API surface: softmax and log_softmax (forward and backward), layer norm, batch
// norm's statistics and affine step, 2-d max/average/adaptive-average pooling, and the backward
// kernels of all of these (the index kernels are in NNIndex.cc).
// The TypeScript side (engine/aten/native/cpu_native/NativeNN.ts) passes contiguous storages' typed
// arrays with element offsets and sizes; every function checks each array's type and extent, splits
// the work over the thread pool (parallel_for, GRAIN_SIZE as at::parallel_for) into pieces whose
// results do not depend on the thread count, and returns false for a dtype it has no kernel for.
#include "NN.h"

#include <algorithm>
#include <type_traits>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "Half.h"
#include "ThreadPool.h"
#include "cpu_features.h"
#include "kernels.h"
#include "nn_kernels.h"

namespace glasstorch {

// The NN table of the unit cpu_features.cc selected (set_capability switches both together).
const NNKernelTable& selected_nn_kernels() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return kNNKernelsAVX512;
  if (std::strcmp(name, "AVX2") == 0) return kNNKernelsAVX2;
  return kNNKernelsDefault;
}

namespace {

const NNKernelTable& nn() { return selected_nn_kernels(); }

template <typename T> constexpr napi_typedarray_type kArrayType = napi_float32_array;
template <> constexpr napi_typedarray_type kArrayType<double> = napi_float64_array;
template <> constexpr napi_typedarray_type kArrayType<int64_t> = napi_bigint64_array;
template <> constexpr napi_typedarray_type kArrayType<uint16_t> = napi_uint16_array;  // bfloat16's bits
template <> constexpr napi_typedarray_type kArrayType<int32_t> = napi_int32_array;

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
  // ptr, or null when the argument is null
  template <typename T>
  T* opt(size_t k, int64_t offset, int64_t count) { return is_null(k) ? nullptr : ptr<T>(k, offset, count); }
};

// Runs f(T(), table) for float32 / float64; false for another dtype.
template <typename F>
Napi::Value by_dtype(Args& a, int64_t dtype, F&& f) {
  if (dtype == kFloat) f(float(), nn().f32);
  else if (dtype == kDouble) f(double(), nn().f64);
  else return Napi::Boolean::New(a.info.Env(), false);
  return a.ok ? Napi::Value(Napi::Boolean::New(a.info.Env(), true)) : a.info.Env().Undefined();
}

inline int64_t at_least_1(int64_t v) { return v < 1 ? 1 : v; }

// ---- softmax ----

template <typename T>
void softmax_forward(const NNKernelsOf<T>& k, const T* in, T* out, int64_t outer, int64_t dim, int64_t inner, bool log, bool lastdim) {
  if (lastdim) {
    parallel_for_chunked(0, outer, at_least_1(GRAIN_SIZE / at_least_1(dim)), [&](int64_t b, int64_t e) {
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
    parallel_for_chunked(0, outer, at_least_1(GRAIN_SIZE / at_least_1(dim)), [&](int64_t b, int64_t e) {
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

// bfloat16 bits to float (exact) and back (round to nearest even), n elements, over the pool
std::vector<float> widen_bf16(const uint16_t* p, int64_t n) {
  std::vector<float> f(static_cast<size_t>(n));
  parallel_for(0, n, GRAIN_SIZE, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) f[size_t(i)] = bf16_t{p[i]}.to_float();
  });
  return f;
}
void narrow_bf16(const float* f, uint16_t* p, int64_t n) {
  parallel_for(0, n, GRAIN_SIZE, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) p[i] = bf16_t::from_float(f[i]).x;
  });
}

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
  } else if (dtype == kBFloat16 && !(log && lastdim)) {
    // 1.13 computes bfloat16 softmax and the inner-dim kernels in float (its last-dim log_softmax
    // rounds every step in Vectorized<BFloat16> and stays in TypeScript): widened, the float kernel,
    // each result rounded once
    const uint16_t* in = a.ptr<uint16_t>(2, a.i64(3), n);
    uint16_t* out = a.ptr<uint16_t>(4, a.i64(5), n);
    if (!a.ok) return info.Env().Undefined();
    std::vector<float> x = widen_bf16(in, n), y(static_cast<size_t>(n));
    softmax_forward(nn().f32, x.data(), y.data(), outer, dim, inner, log, lastdim);
    narrow_bf16(y.data(), out, n);
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
  if (dtype == kFloat) {
    run(float(), nn().f32);
  } else if (dtype == kDouble) {
    run(double(), nn().f64);
  } else if (dtype == kBFloat16) {
    // bfloat16 in float, as 1.13 and the TS kernels compute both backward kernels
    const uint16_t* g = a.ptr<uint16_t>(2, a.i64(3), n);
    const uint16_t* o = a.ptr<uint16_t>(4, a.i64(5), n);
    uint16_t* gi = a.ptr<uint16_t>(6, a.i64(7), n);
    if (!a.ok) return info.Env().Undefined();
    std::vector<float> gf = widen_bf16(g, n), of = widen_bf16(o, n), r(static_cast<size_t>(n));
    softmax_backward(nn().f32, gf.data(), of.data(), r.data(), outer, dim, inner, log, lastdim);
    narrow_bf16(r.data(), gi, n);
  } else {
    return Napi::Boolean::New(info.Env(), false);
  }
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

// group_norm(dtype, X, xOffset, gamma|null, gammaOffset, beta|null, betaOffset, N, C, HxW, G, eps, Y, yOffset,
//            mean: Float64Array, rstd: Float64Array): X and Y contiguous (N, C, HxW); mean and rstd per (n, g)
Napi::Value GroupNorm(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t dtype = a.i64(0), N = a.i64(7), C = a.i64(8), HxW = a.i64(9), G = a.i64(10);
  const double eps = a.f64(11);
  if (!a.ok || G <= 0 || C % G != 0) return info.Env().Undefined();
  auto run = [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const T* x = a.ptr<T>(1, a.i64(2), N * C * HxW);
    const T* gamma = a.is_null(3) ? nullptr : a.ptr<T>(3, a.i64(4), C);
    const T* beta = a.is_null(5) ? nullptr : a.ptr<T>(5, a.i64(6), C);
    T* y = a.ptr<T>(12, a.i64(13), N * C * HxW);
    double* mean = a.ptr<double>(14, 0, N * G);
    double* rstd = a.ptr<double>(15, 0, N * G);
    if (!a.ok) return;
    const int64_t inner = (C / G) * HxW;
    parallel_for(0, N * G, at_least_1(GRAIN_SIZE / at_least_1(inner)), [&](int64_t b, int64_t e) {
      k.group_norm(x, gamma, beta, y, b, e - b, G, C / G, HxW, eps, mean + b, rstd + b);
    });
  };
  if (dtype == kFloat) run(float(), nn().f32);
  else if (dtype == kDouble) run(double(), nn().f64);
  else return Napi::Boolean::New(info.Env(), false);
  return a.ok ? Napi::Value(Napi::Boolean::New(info.Env(), true)) : info.Env().Undefined();
}

// ---- resampling (cpu/UpSampleKernel.cpp) ----

// upsample2d(bilinear, dtype, X, xOffset, Y, yOffset, planes, IH, IW, OH, OW, hi0, hi1, hl0, hl1, wi0, wi1, wl0, wl1)
// X and Y contiguous (planes, IH, IW) and (planes, OH, OW); the source indices (Int32Array) and weights
// (Float64Array, already rounded to T) per output row and column come from the TS kernel's
// linearIndices / nearestIndices, so both paths read the same sources. Nearest (bilinear false) reads
// hi0 and wi0 only. Bilinear, as the TS kernel: t0 = x00 * w0 + (x01 * w1), t1 likewise, y = t0 * h0 +
// (t1 * h1), the second product rounded to T and the first product added to it with one rounding in
// double (float: the exact product plus the addend, rounded to double, then to float; double: an fma).
template <typename T>
inline T madd(T a, T b, T c) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(static_cast<double>(a) * static_cast<double>(b) + static_cast<double>(c));
  else return std::fma(a, b, c);
}

Napi::Value Upsample2d(const Napi::CallbackInfo& info) {
  Args a(info);
  const bool bilinear = info[0].IsBoolean() && info[0].As<Napi::Boolean>().Value();
  const int64_t dtype = a.i64(1), P = a.i64(6), IH = a.i64(7), IW = a.i64(8), OH = a.i64(9), OW = a.i64(10);
  if (!a.ok) return info.Env().Undefined();
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* x = a.ptr<T>(2, a.i64(3), P * IH * IW);
    T* y = a.ptr<T>(4, a.i64(5), P * OH * OW);
    const int32_t* hi0 = a.ptr<int32_t>(11, 0, OH);
    const int32_t* wi0 = a.ptr<int32_t>(15, 0, OW);
    const int32_t* hi1 = bilinear ? a.ptr<int32_t>(12, 0, OH) : nullptr;
    const double* hl0 = bilinear ? a.ptr<double>(13, 0, OH) : nullptr;
    const double* hl1 = bilinear ? a.ptr<double>(14, 0, OH) : nullptr;
    const int32_t* wi1 = bilinear ? a.ptr<int32_t>(16, 0, OW) : nullptr;
    const double* wl0 = bilinear ? a.ptr<double>(17, 0, OW) : nullptr;
    const double* wl1 = bilinear ? a.ptr<double>(18, 0, OW) : nullptr;
    if (!a.ok) return;
    for (int64_t i = 0; i < OH; ++i)
      if (hi0[i] < 0 || hi0[i] >= IH || (bilinear && (hi1[i] < 0 || hi1[i] >= IH))) return (void)a.fail("upsample: a source row outside the input");
    for (int64_t i = 0; i < OW; ++i)
      if (wi0[i] < 0 || wi0[i] >= IW || (bilinear && (wi1[i] < 0 || wi1[i] >= IW))) return (void)a.fail("upsample: a source column outside the input");
    // the horizontal step of one input row: t[ox] = r[c0] w0 + (r[c1] w1), as the per-element formula
    auto horizontal = [&](const T* r, T* t) {
      for (int64_t ox = 0; ox < OW; ++ox) t[ox] = madd<T>(r[wi0[ox]], static_cast<T>(wl0[ox]), static_cast<T>(r[wi1[ox]] * static_cast<T>(wl1[ox])));
    };
    if (bilinear && P >= 2 * get_num_threads()) {
      // planes over the pool (UpSampleKernel.cpp's cpu_upsample_linear precomputes per-column indices
      // and weights likewise): each input row's horizontal step once per plane into a buffer (the
      // per-element loop did it for every output row reading it: twice each at scale 2), then each
      // output row the vertical step of two buffered rows, a contiguous loop. The same operations on
      // the same values: the per-element loop's bits.
      parallel_for(0, P, at_least_1(GRAIN_SIZE / at_least_1(OH * OW)), [&](int64_t b, int64_t e) {
        std::vector<T> rows(static_cast<size_t>(IH * OW));
        std::vector<char> done(static_cast<size_t>(IH));
        for (int64_t p = b; p < e; ++p) {
          const T* plane = x + p * IH * IW;
          std::fill(done.begin(), done.end(), 0);
          for (int64_t oy = 0; oy < OH; ++oy) {
            for (const int32_t r : {hi0[oy], hi1[oy]}) {
              if (!done[r]) horizontal(plane + r * IW, rows.data() + r * OW), done[r] = 1;
            }
            const T* t0 = rows.data() + hi0[oy] * OW;
            const T* t1 = rows.data() + hi1[oy] * OW;
            const T h0 = static_cast<T>(hl0[oy]), h1 = static_cast<T>(hl1[oy]);
            T* out = y + (p * OH + oy) * OW;
            for (int64_t ox = 0; ox < OW; ++ox) out[ox] = madd<T>(t0[ox], h0, static_cast<T>(t1[ox] * h1));
          }
        }
      });
      return;
    }
    parallel_for(0, P * OH, at_least_1(GRAIN_SIZE / at_least_1(OW)), [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; ++row) {
        const int64_t p = row / OH, oy = row % OH;
        const T* plane = x + p * IH * IW;
        T* out = y + row * OW;
        if (!bilinear) {
          // an output row from the same source row as the one above it (every row but the first at
          // scale 2 and up) is a copy of that row, when this thread wrote that row
          if (row > b && oy > 0 && hi0[oy] == hi0[oy - 1]) {
            std::memcpy(out, out - OW, static_cast<size_t>(OW) * sizeof(T));
            continue;
          }
          const T* src = plane + hi0[oy] * IW;
          for (int64_t ox = 0; ox < OW; ++ox) out[ox] = src[wi0[ox]];
          continue;
        }
        const T* r0 = plane + hi0[oy] * IW;
        const T* r1 = plane + hi1[oy] * IW;
        const T h0 = static_cast<T>(hl0[oy]), h1 = static_cast<T>(hl1[oy]);
        for (int64_t ox = 0; ox < OW; ++ox) {
          const int32_t c0 = wi0[ox], c1 = wi1[ox];
          const T w0 = static_cast<T>(wl0[ox]), w1 = static_cast<T>(wl1[ox]);
          const T t0 = madd<T>(r0[c0], w0, static_cast<T>(r0[c1] * w1));
          const T t1 = madd<T>(r1[c0], w0, static_cast<T>(r1[c1] * w1));
          out[ox] = madd<T>(t0, h0, static_cast<T>(t1 * h1));
        }
      }
    });
  };
  if (dtype == kFloat) run(float());
  else if (dtype == kDouble) run(double());
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


// ---- backward kernels: the TypeScript kernels' loops (NormBackward.ts, PoolBackward.ts) in the same
// order, so the results are theirs bit for bit (but layer norm's input gradient and batch norm's
// backward, whose sums nn_kernels.inc splits into fixed lanes); the split over threads never divides a sum. ----

// layer_norm_backward(dtype, dY, dyOffset, X, xOffset, mean: F64, rstd: F64, gamma: F64|null, M, N,
//                     dX|null, dxOffset, dgamma|null, dgOffset, dbeta|null, dbOffset)
// the loops are nn_kernels.inc's layer_norm_backward_dx / _dgb (vectorized per unit): per row ds = sum(dy * g * x),
// db = sum(dy * g) in double (fixed lanes); dx = a * dy * g + b * x + c; dgamma[j] = sum_i dy * (x - mean_i) * rstd_i,
// dbeta[j] = sum_i dy (in row order)
Napi::Value LayerNormBackward(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t dtype = a.i64(0), M = a.i64(8), N = a.i64(9);
  if (!a.ok) return info.Env().Undefined();
  return by_dtype(a, dtype, [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const T* dy = a.ptr<T>(1, a.i64(2), M * N);
    const T* x = a.ptr<T>(3, a.i64(4), M * N);
    const double* mean = a.ptr<double>(5, 0, M);
    const double* rstd = a.ptr<double>(6, 0, M);
    const double* gamma = a.opt<double>(7, 0, N);
    T* dx = a.opt<T>(10, a.is_null(10) ? 0 : a.i64(11), M * N);
    T* dg = a.opt<T>(12, a.is_null(12) ? 0 : a.i64(13), N);
    T* db = a.opt<T>(14, a.is_null(14) ? 0 : a.i64(15), N);
    if (!a.ok) return;
    // rows split for the input gradient (each row's sums stay whole), columns for the weight and bias
    // gradients (each column summed over all rows in order): neither result depends on the thread count
    if (dx) {
      parallel_for(0, M, at_least_1(GRAIN_SIZE / at_least_1(N)), [&](int64_t b0, int64_t e0) {
        k.layer_norm_backward_dx(dy + b0 * N, x + b0 * N, mean + b0, rstd + b0, gamma, dx + b0 * N, e0 - b0, N);
      });
    }
    if (dg || db) {
      parallel_for(0, N, at_least_1(GRAIN_SIZE / at_least_1(M)), [&](int64_t j0, int64_t j1) {
        k.layer_norm_backward_dgb(dy, x, mean, rstd, dg, db, M, N, j0, j1);
      });
    }
  });
}

// batch_norm_backward(dtype, dY, dyOffset, X, xOffset, N, C, image, weight: F64|null, mean: F64, invstd: F64, train,
//                     gi|null, giOffset, gw|null, gwOffset, gb|null, gbOffset): per channel, in double
// (nn_kernels.inc's batch_norm_backward_channel: the sums over fixed lanes, vectorized per unit)
Napi::Value BatchNormBackward(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t dtype = a.i64(0), N = a.i64(5), C = a.i64(6), image = a.i64(7);
  const bool train = info[11].ToBoolean().Value();
  if (!a.ok) return info.Env().Undefined();
  return by_dtype(a, dtype, [&](auto tag, const auto& k) {
    using T = decltype(tag);
    const int64_t total = N * C * image;
    const T* dy = a.ptr<T>(1, a.i64(2), total);
    const T* x = a.ptr<T>(3, a.i64(4), total);
    const double* w = a.opt<double>(8, 0, C);
    const double* mean = a.ptr<double>(9, 0, C);
    const double* invstd = a.ptr<double>(10, 0, C);
    T* gi = a.opt<T>(12, a.is_null(12) ? 0 : a.i64(13), total);
    T* gw = a.opt<T>(14, a.is_null(14) ? 0 : a.i64(15), C);
    T* gb = a.opt<T>(16, a.is_null(16) ? 0 : a.i64(17), C);
    if (!a.ok) return;
    parallel_for(0, C, at_least_1(GRAIN_SIZE / at_least_1(N * image)), [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        double sum = 0, dotp = 0;
        k.batch_norm_backward_channel(dy + c * image, x + c * image, N, C * image, image, mean[c], invstd[c], w ? w[c] : 1.0, train,
                                      gi ? gi + c * image : nullptr, &sum, &dotp);
        if (gw) gw[c] = static_cast<T>(dotp * invstd[c]);
        if (gb) gb[c] = static_cast<T>(sum);
      }
    });
  });
}

// pool2d_backward(kind: 0 max / 1 avg / 2 adaptive avg, dtype, gradInput, giOffset, gradOutput, goOffset,
//                 indices|null, indOffset, P, H, W, OH, OW, window: F64(8)|null)
// grad_input is zeroed, then each output's gradient is added (in T, in output order) to its element
// (max: the index; false, before anything is written, if an index is outside its plane) or window.
Napi::Value Pool2dBackward(const Napi::CallbackInfo& info) {
  Args a(info);
  const int64_t kind = a.i64(0), dtype = a.i64(1), P = a.i64(8), H = a.i64(9), W = a.i64(10), OH = a.i64(11), OW = a.i64(12);
  if (!a.ok) return info.Env().Undefined();
  int64_t win[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (kind == 1) {
    const double* wd = a.ptr<double>(13, 0, 8);
    if (!a.ok) return info.Env().Undefined();
    for (int i = 0; i < 8; ++i) win[i] = static_cast<int64_t>(wd[i]);
  }
  const int64_t* ind = kind == 0 ? a.ptr<int64_t>(6, a.i64(7), P * OH * OW) : nullptr;
  if (!a.ok) return info.Env().Undefined();
  if (ind) {
    for (int64_t k = 0; k < P * OH * OW; ++k)
      if (ind[k] < 0 || ind[k] >= H * W) return Napi::Boolean::New(info.Env(), false);
  }
  return by_dtype(a, dtype, [&](auto tag, const auto&) {
    using T = decltype(tag);
    T* gi = a.ptr<T>(2, a.i64(3), P * H * W);
    const T* go = a.ptr<T>(4, a.i64(5), P * OH * OW);
    if (!a.ok) return;
    parallel_for(0, P, at_least_1(GRAIN_SIZE / at_least_1(H * W + OH * OW)), [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        T* g = gi + p * H * W;
        const T* o = go + p * OH * OW;
        std::fill(g, g + H * W, T(0));
        if (kind == 0) {
          const int64_t* id = ind + p * OH * OW;
          for (int64_t k = 0; k < OH * OW; ++k) g[id[k]] += o[k];
          continue;
        }
        for (int64_t oh = 0; oh < OH; ++oh) {
          for (int64_t ow = 0; ow < OW; ++ow) {
            int64_t ih0, ih1, iw0, iw1;
            T delta;
            if (kind == 2) {
              ih0 = (oh * H) / OH, ih1 = ((oh + 1) * H + OH - 1) / OH;
              iw0 = (ow * W) / OW, iw1 = ((ow + 1) * W + OW - 1) / OW;
              delta = o[oh * OW + ow] / static_cast<T>(ih1 - ih0) / static_cast<T>(iw1 - iw0);
            } else {
              const int64_t kH = win[0], kW = win[1], dH = win[2], dW = win[3], padH = win[4], padW = win[5];
              ih0 = oh * dH - padH, iw0 = ow * dW - padW;
              ih1 = std::min(ih0 + kH, H + padH), iw1 = std::min(iw0 + kW, W + padW);
              const int64_t pool_size = (ih1 - ih0) * (iw1 - iw0);
              ih0 = std::max<int64_t>(ih0, 0), iw0 = std::max<int64_t>(iw0, 0);
              ih1 = std::min(ih1, H), iw1 = std::min(iw1, W);
              const int64_t divide = win[7] != 0 ? win[7] : win[6] != 0 ? pool_size : (ih1 - ih0) * (iw1 - iw0);
              delta = o[oh * OW + ow] / static_cast<T>(divide);
            }
            for (int64_t ih = ih0; ih < ih1; ++ih)
              for (int64_t iw = iw0; iw < iw1; ++iw) g[ih * W + iw] += delta;
          }
        }
      }
    });
  });
}
}  // namespace

void InitNN(Napi::Env env, Napi::Object exports) {
  exports.Set("nn_softmax", Napi::Function::New(env, Softmax));
  exports.Set("nn_softmax_backward", Napi::Function::New(env, SoftmaxBackward));
  exports.Set("nn_layer_norm", Napi::Function::New(env, LayerNorm));
  exports.Set("nn_group_norm", Napi::Function::New(env, GroupNorm));
  exports.Set("nn_upsample2d", Napi::Function::New(env, Upsample2d));
  exports.Set("nn_batch_norm_stats", Napi::Function::New(env, BatchNormStats));
  exports.Set("nn_batch_norm_apply", Napi::Function::New(env, BatchNormApply));
  exports.Set("nn_max_pool2d", Napi::Function::New(env, MaxPool2d));
  exports.Set("nn_avg_pool2d", Napi::Function::New(env, AvgPool2d));
  exports.Set("nn_layer_norm_backward", Napi::Function::New(env, LayerNormBackward));
  exports.Set("nn_batch_norm_backward", Napi::Function::New(env, BatchNormBackward));
  exports.Set("nn_pool2d_backward", Napi::Function::New(env, Pool2dBackward));
  InitNNIndex(env, exports);
}

}  // namespace glasstorch
