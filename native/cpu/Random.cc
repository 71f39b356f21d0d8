// PyTorch 1.13's CPU random sampling for contiguous outputs (issue #8, creation rows): the mt19937
// engine (aten/src/ATen/core/MT19937RNGEngine.h) and the transforms of torch.rand, randn, randint and
// randperm (cpu/DistributionTemplates.h, cpu/DistributionKernels.cpp, TensorFactories.cpp randperm_cpu),
// bit for bit the streams engine/aten/cpu/DistributionKernels.ts produces.
//
// The generator's state lives in ONE place: the engine's Uint32Array in JavaScript
// (mt19937.stateArray(): 624 state words, then left_ and next_). Every function here takes that
// array and advances it in place, so native and TypeScript draws interleave and
// get_rng_state / set_rng_state see every draw. A state that is not valid declines (returns false).
//
//   rng_uniform(state, out: Float32Array|Float64Array, off, n, from, to) -> bool
//   rng_normal(state, out: Float32Array, off, n >= 16, mean, std) -> bool        (normal_fill_AVX2)
//   rng_random_from_to(state, out: BigInt64Array|Int32Array|Float32Array|Float64Array, off, n, range < 2^32, base) -> bool
//   rng_randperm(state, out: BigInt64Array, off, n) -> bool
//   rng_bernoulli(state, out: Float32Array|Float64Array|Uint8Array|Int8Array|Int16Array|Int32Array|BigInt64Array, off, n, p) -> bool
//   rng_bernoulli_tensor(state, out (as rng_bernoulli), off, n, probs: Float32Array|Float64Array|Uint16Array (bfloat16), probsOff, kind) -> bool
//   rng_multinomial_replacement(state, out: BigInt64Array, off, rows, categories, samples, probs: Float32Array|Float64Array, probsOff) -> bool
// off and n are in elements; out[off .. off+n) is written.
#include "Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>
#include "ThreadPool.h"
#include "cpu_features.h"
#include "random_kernels.h"

namespace glasstorch {
namespace rnd {
namespace {

constexpr int N = 624;
constexpr int M = 397;
constexpr uint32_t MATRIX_A = 0x9908b0dfu;
constexpr uint32_t UMASK = 0x80000000u;
constexpr uint32_t LMASK = 0x7fffffffu;

inline uint32_t twist(uint32_t u, uint32_t v) {
  return (((u & UMASK) | (v & LMASK)) >> 1) ^ ((v & 1u) ? MATRIX_A : 0u);
}

// next_state(): regenerates the 624 words.
void next_state(uint32_t* s) {
  int p = 0;
  for (; p < N - M; ++p) s[p] = s[p + M] ^ twist(s[p], s[p + 1]);
  for (; p < N - 1; ++p) s[p] = s[p + M - N] ^ twist(s[p], s[p + 1]);
  s[p] = s[p + M - N] ^ twist(s[p], s[0]);
}

inline uint32_t temper(uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

// The engine over the shared array: st[0..624) state, st[624] = left_, st[625] = next_.
struct Engine {
  uint32_t* st;
  int32_t left;
  uint32_t next;
  explicit Engine(uint32_t* s) : st(s), left(static_cast<int32_t>(s[N])), next(s[N + 1]) {}
  bool valid() const { return left > 0 && left <= N && next <= static_cast<uint32_t>(N); }
  // Calls f(i, word) for i in [0, n): the next n outputs of operator(), in order.
  template <class F>
  void generate(int64_t n, F f) {
    int64_t i = 0;
    while (i < n) {
      if (left == 1) {  // operator() decrements left_ and regenerates at 0
        next_state(st);
        left = N + 1;
        next = 0;
      }
      const int64_t k = std::min<int64_t>(left - 1, n - i);
      const uint32_t* src = st + next;
      for (int64_t j = 0; j < k; ++j) f(i + j, temper(src[j]));
      i += k;
      next += static_cast<uint32_t>(k);
      left -= static_cast<int32_t>(k);
    }
  }
  void store() {
    st[N] = static_cast<uint32_t>(left);
    st[N + 1] = next;
  }
};

const Table& table() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return kTableAVX512;
  if (std::strcmp(name, "AVX2") == 0) return kTableAVX2;
  return kTableDefault;
}

struct Out {
  napi_typedarray_type type;
  char* data;  // element 0 of the typed array
  size_t length;
};

bool get_typed(napi_env env, napi_value v, Out* o) {
  napi_value ab;
  size_t byte_offset;
  void* raw = nullptr;
  if (napi_get_typedarray_info(env, v, &o->type, &o->length, &raw, &ab, &byte_offset) != napi_ok) return false;
  o->data = static_cast<char*>(raw);
  return true;
}

// (state, out, off, n): the engine and the element range, checked; false to decline.
bool get_args(const Napi::CallbackInfo& info, uint32_t** state, Out* out, int64_t* off, int64_t* n) {
  napi_env env = info.Env();
  Out s;
  if (!get_typed(env, info[0], &s) || s.type != napi_uint32_array || s.length != N + 2) return false;
  *state = reinterpret_cast<uint32_t*>(s.data);
  if (!get_typed(env, info[1], out)) return false;
  *off = info[2].As<Napi::Number>().Int64Value();
  *n = info[3].As<Napi::Number>().Int64Value();
  if (*off < 0 || *n < 0 || static_cast<uint64_t>(*off + *n) > out->length) return false;
  return Engine(*state).valid();
}

constexpr float TWO_POW_M24 = 1.0f / 16777216.0f;
constexpr double TWO_POW_M53 = 1.0 / 9007199254740992.0;

// uniform_real<float>(word, 0, 1) for n words into d.
void uniform01_float(Engine& e, float* d, int64_t n) {
  e.generate(n, [d](int64_t i, uint32_t w) { d[i] = static_cast<float>(w & 0xffffffu) * TWO_POW_M24; });
}

// uniform_real<double>(random64(), 0, 1) for n draws, each handed to f(i, u): one 64-bit draw per
// element from two words, the first the high half (make64BitsFrom32Bits), its low 53 bits scaled
template <typename F>
void uniform01_double(Engine& e, int64_t n, F f) {
  uint32_t hi = 0;
  e.generate(2 * n, [&](int64_t i, uint32_t w) {
    if ((i & 1) == 0) {
      hi = w;
      return;
    }
    const uint64_t bits = (static_cast<uint64_t>(hi) << 32 | w) & ((uint64_t{1} << 53) - 1);
    f(i >> 1, static_cast<double>(bits) * TWO_POW_M53);
  });
}

Napi::Value Uniform(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t* st;
  Out out;
  int64_t off, n;
  if (!get_args(info, &st, &out, &off, &n)) return Napi::Boolean::New(env, false);
  const double from = info[4].As<Napi::Number>().DoubleValue();
  const double to = info[5].As<Napi::Number>().DoubleValue();
  Engine e(st);
  if (out.type == napi_float32_array) {
    float* d = reinterpret_cast<float*>(out.data) + off;
    const float f = static_cast<float>(from);
    const float range = static_cast<float>(to) - f;
    if (f == 0.0f && range == 1.0f) {
      uniform01_float(e, d, n);
    } else {
      e.generate(n, [d, f, range](int64_t i, uint32_t w) {
        d[i] = std::fmaf(static_cast<float>(w & 0xffffffu) * TWO_POW_M24, range, f);
      });
    }
  } else if (out.type == napi_float64_array) {
    double* d = reinterpret_cast<double*>(out.data) + off;
    const double range = to - from;
    const bool unit = from == 0.0 && range == 1.0;
    uniform01_double(e, n, [&](int64_t i, double u) { d[i] = unit ? u : std::fma(u, range, from); });
  } else {
    return Napi::Boolean::New(env, false);
  }
  e.store();
  return Napi::Boolean::New(env, true);
}

// bernoulli_scalar_kernel (non-MKL): one 53-bit uniform per element (two words, the first the high half),
// 1 where it is below p, else 0, in out's element type: float32, float64, uint8 / bool, int8, int16,
// int32, int64 (float16 and bfloat16 share Uint16Array: declined).
template <typename T>
void bernoulli_into(Engine& e, T* d, int64_t n, double p) {
  uniform01_double(e, n, [&](int64_t i, double u) { d[i] = u < p ? T(1) : T(0); });
}

Napi::Value Bernoulli(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t* st;
  Out out;
  int64_t off, n;
  if (!get_args(info, &st, &out, &off, &n)) return Napi::Boolean::New(env, false);
  const double p = info[4].As<Napi::Number>().DoubleValue();
  Engine e(st);
  switch (out.type) {
    case napi_float32_array: bernoulli_into(e, reinterpret_cast<float*>(out.data) + off, n, p); break;
    case napi_float64_array: bernoulli_into(e, reinterpret_cast<double*>(out.data) + off, n, p); break;
    case napi_uint8_array: bernoulli_into(e, reinterpret_cast<uint8_t*>(out.data) + off, n, p); break;
    case napi_int8_array: bernoulli_into(e, reinterpret_cast<int8_t*>(out.data) + off, n, p); break;
    case napi_int16_array: bernoulli_into(e, reinterpret_cast<int16_t*>(out.data) + off, n, p); break;
    case napi_int32_array: bernoulli_into(e, reinterpret_cast<int32_t*>(out.data) + off, n, p); break;
    case napi_bigint64_array: bernoulli_into(e, reinterpret_cast<int64_t*>(out.data) + off, n, p); break;
    default: return Napi::Boolean::New(env, false);
  }
  e.store();
  return Napi::Boolean::New(env, true);
}

// bernoulli_tensor_cpu_kernel: one draw per element, each with its own probability, in element order:
// float64 probabilities compare a 53-bit uniform (two words), float32 and bfloat16 ones a 24-bit uniform
// (one word: bernoulli_distribution<float>). probs and out are contiguous; a probability outside [0, 1]
// (or NaN) declines before any draw, so the TS kernel raises PyTorch's error with the state untouched.
template <typename T>
void bernoulli_tensor_into(Engine& e, T* d, const char* probs, int kind, int64_t n) {
  if (kind == 1) {
    const double* p = reinterpret_cast<const double*>(probs);
    uniform01_double(e, n, [&](int64_t i, double u) { d[i] = u < p[i] ? T(1) : T(0); });
    return;
  }
  auto prob = [probs, kind](int64_t i) {
    if (kind == 0) return reinterpret_cast<const float*>(probs)[i];
    const uint32_t bits = static_cast<uint32_t>(reinterpret_cast<const uint16_t*>(probs)[i]) << 16;  // bfloat16
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  };
  e.generate(n, [&](int64_t i, uint32_t w) { d[i] = static_cast<float>(w & 0xffffffu) * TWO_POW_M24 < prob(i) ? T(1) : T(0); });
}

// (state, out, off, n, probs, probsOff, kind: 0 float32, 1 float64, 2 bfloat16) -> bool
Napi::Value BernoulliTensor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t* st;
  Out out, probs;
  int64_t off, n;
  if (!get_args(info, &st, &out, &off, &n) || !get_typed(env, info[4], &probs)) return Napi::Boolean::New(env, false);
  const int64_t poff = info[5].As<Napi::Number>().Int64Value();
  const int kind = info[6].As<Napi::Number>().Int32Value();
  const napi_typedarray_type want = kind == 0 ? napi_float32_array : kind == 1 ? napi_float64_array : napi_uint16_array;
  if (probs.type != want || poff < 0 || static_cast<uint64_t>(poff + n) > probs.length) return Napi::Boolean::New(env, false);
  const size_t psize = kind == 0 ? 4 : kind == 1 ? 8 : 2;
  const char* p = probs.data + poff * psize;
  for (int64_t i = 0; i < n; ++i) {
    double v;
    if (kind == 0) v = reinterpret_cast<const float*>(p)[i];
    else if (kind == 1) v = reinterpret_cast<const double*>(p)[i];
    else {
      const uint32_t bits = static_cast<uint32_t>(reinterpret_cast<const uint16_t*>(p)[i]) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      v = f;
    }
    if (!(v >= 0 && v <= 1)) return Napi::Boolean::New(env, false);
  }
  Engine e(st);
  switch (out.type) {
    case napi_float32_array: bernoulli_tensor_into(e, reinterpret_cast<float*>(out.data) + off, p, kind, n); break;
    case napi_float64_array: bernoulli_tensor_into(e, reinterpret_cast<double*>(out.data) + off, p, kind, n); break;
    case napi_uint8_array: bernoulli_tensor_into(e, reinterpret_cast<uint8_t*>(out.data) + off, p, kind, n); break;
    case napi_int8_array: bernoulli_tensor_into(e, reinterpret_cast<int8_t*>(out.data) + off, p, kind, n); break;
    case napi_int16_array: bernoulli_tensor_into(e, reinterpret_cast<int16_t*>(out.data) + off, p, kind, n); break;
    case napi_int32_array: bernoulli_tensor_into(e, reinterpret_cast<int32_t*>(out.data) + off, p, kind, n); break;
    case napi_bigint64_array: bernoulli_tensor_into(e, reinterpret_cast<int64_t*>(out.data) + off, p, kind, n); break;
    default: return Napi::Boolean::New(env, false);
  }
  e.store();
  return Napi::Boolean::New(env, true);
}

// normal_fill_AVX2: n uniforms, Box-Muller on each block of 16 (split over the thread pool: each
// block depends only on its own 16 values), then the last 16 redrawn and transformed when n % 16 != 0.
Napi::Value Normal(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t* st;
  Out out;
  int64_t off, n;
  if (!get_args(info, &st, &out, &off, &n) || out.type != napi_float32_array || n < 16) return Napi::Boolean::New(env, false);
  const float mean = static_cast<float>(info[4].As<Napi::Number>().DoubleValue());
  const float std = static_cast<float>(info[5].As<Napi::Number>().DoubleValue());
  float* d = reinterpret_cast<float*>(out.data) + off;
  Engine e(st);
  uniform01_float(e, d, n);
  const NormalBlocks blocks = table().normal_blocks;
  // ~40 flops per element: GRAIN_SIZE / 16 blocks per task keeps tasks as PyTorch sizes them
  parallel_for(0, n / 16, GRAIN_SIZE / 16, [&](int64_t b0, int64_t b1) { blocks(d + 16 * b0, b1 - b0, mean, std); });
  if (n % 16 != 0) {
    uniform01_float(e, d + n - 16, 16);
    blocks(d + n - 16, 1, mean, std);
  }
  e.store();
  return Napi::Boolean::New(env, true);
}

// word % d for a fixed 32-bit d without a division per element (Lemire, Kaser & Kurz, "Faster
// remainder by direct computation", 2019): exact for every 32-bit word and divisor.
struct FastMod32 {
  uint64_t m;
  uint32_t d;
  explicit FastMod32(uint32_t divisor) : m(UINT64_C(0xFFFFFFFFFFFFFFFF) / divisor + 1), d(divisor) {}
  uint32_t operator()(uint32_t a) const {
    const uint64_t lowbits = m * a;
    return static_cast<uint32_t>((static_cast<unsigned __int128>(lowbits) * d) >> 64);
  }
};

// random_from_to with a 32-bit draw: static_cast<scalar_t>(int64_t(word % range) + base).
Napi::Value RandomFromTo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t* st;
  Out out;
  int64_t off, n;
  if (!get_args(info, &st, &out, &off, &n)) return Napi::Boolean::New(env, false);
  const double range_d = info[4].As<Napi::Number>().DoubleValue();
  const double base_d = info[5].As<Napi::Number>().DoubleValue();
  if (!(range_d >= 1 && range_d < 4294967296.0) || !(std::fabs(base_d) <= 4503599627370496.0)) return Napi::Boolean::New(env, false);
  const FastMod32 mod(static_cast<uint32_t>(range_d));
  const int64_t base = static_cast<int64_t>(base_d);
  Engine e(st);
  switch (out.type) {
    case napi_bigint64_array: {
      int64_t* d = reinterpret_cast<int64_t*>(out.data) + off;
      e.generate(n, [=](int64_t i, uint32_t w) { d[i] = static_cast<int64_t>(mod(w)) + base; });
      break;
    }
    case napi_int32_array: {
      int32_t* d = reinterpret_cast<int32_t*>(out.data) + off;
      e.generate(n, [=](int64_t i, uint32_t w) {
        d[i] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(static_cast<int64_t>(mod(w)) + base)));
      });
      break;
    }
    case napi_float32_array: {
      float* d = reinterpret_cast<float*>(out.data) + off;
      e.generate(n, [=](int64_t i, uint32_t w) { d[i] = static_cast<float>(static_cast<int64_t>(mod(w)) + base); });
      break;
    }
    case napi_float64_array: {
      double* d = reinterpret_cast<double*>(out.data) + off;
      e.generate(n, [=](int64_t i, uint32_t w) { d[i] = static_cast<double>(static_cast<int64_t>(mod(w)) + base); });
      break;
    }
    default:
      return Napi::Boolean::New(env, false);
  }
  e.store();
  return Napi::Boolean::New(env, true);
}

// randperm_cpu: r = 0..n-1, then for i < n-1 swap r[i] with r[i + word % (n - i)].
Napi::Value Randperm(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t* st;
  Out out;
  int64_t off, n;
  if (!get_args(info, &st, &out, &off, &n) || out.type != napi_bigint64_array || n >= (int64_t{1} << 31)) {
    return Napi::Boolean::New(env, false);
  }
  int64_t* r = reinterpret_cast<int64_t*>(out.data) + off;
  for (int64_t i = 0; i < n; ++i) r[i] = i;
  Engine e(st);
  if (n > 1) {
    e.generate(n - 1, [=](int64_t i, uint32_t w) {
      const int64_t z = static_cast<int64_t>(w % static_cast<uint32_t>(n - i));
      const int64_t sav = r[i];
      r[i] = r[z + i];
      r[z + i] = sav;
    });
  }
  e.store();
  return Napi::Boolean::New(env, true);
}

// multinomial_with_replacement_apply (cpu/MultinomialKernel.cpp), as the TypeScript kernel: per row the
// cumulative sum in the accumulate type (float for float32), divided by the sum, the last bucket set to
// 1, then per sample one 53-bit uniform and the first bucket whose cumulative value is >= it. Every row
// is checked before any draw: a row the TypeScript kernel rejects declines here, so that kernel raises
// PyTorch's error after the same draws for the rows before it.
template <typename T>
void multinomial_rows(Engine& e, const T* probs, int64_t* out, int64_t rows, int64_t cats, int64_t samples) {
  std::vector<T> cum(static_cast<size_t>(cats));
  for (int64_t r = 0; r < rows; ++r) {
    T sum = 0;
    for (int64_t j = 0; j < cats; ++j) cum[j] = sum = sum + probs[r * cats + j];
    for (int64_t j = 0; j < cats; ++j) cum[j] = cum[j] / sum;
    cum[cats - 1] = T(1);
    const T* c = cum.data();
    int64_t* o = out + r * samples;
    uniform01_double(e, samples, [&](int64_t s, double u) {
      int64_t left = 0, right = cats;
      while (right - left > 0) {
        const int64_t mid = left + ((right - left) >> 1);
        if (static_cast<double>(c[mid]) < u) left = mid + 1;
        else right = mid;
      }
      o[s] = left;
    });
  }
}

// A row whose probabilities sum to 0 (all zero: every entry is finite and >= 0 by then) is an error:
// found before drawing for any row, so multinomial_rows never stops halfway.
template <typename T>
bool rows_have_mass(const T* probs, int64_t rows, int64_t cats) {
  for (int64_t i = 0; i < rows * cats; ++i) {
    const T v = probs[i];
    if (!(v >= T(0)) || !std::isfinite(v)) return false;
  }
  for (int64_t r = 0; r < rows; ++r) {
    bool any = false;
    for (int64_t j = 0; j < cats; ++j) any |= probs[r * cats + j] != T(0);
    if (!any) return false;
  }
  return true;
}

Napi::Value MultinomialReplacement(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t* st;
  Out out;
  int64_t off, rows;
  if (!get_args(info, &st, &out, &off, &rows) || out.type != napi_bigint64_array) return Napi::Boolean::New(env, false);
  const int64_t cats = info[4].As<Napi::Number>().Int64Value();
  const int64_t samples = info[5].As<Napi::Number>().Int64Value();
  Out p;
  if (!get_typed(env, info[6], &p)) return Napi::Boolean::New(env, false);
  const int64_t poff = info[7].As<Napi::Number>().Int64Value();
  if (cats <= 0 || samples <= 0 || poff < 0 || static_cast<uint64_t>(poff + rows * cats) > p.length ||
      static_cast<uint64_t>(off + rows * samples) > out.length) {
    return Napi::Boolean::New(env, false);
  }
  int64_t* o = reinterpret_cast<int64_t*>(out.data) + off;
  Engine e(st);
  bool ok;
  if (p.type == napi_float32_array) {
    const float* pr = reinterpret_cast<const float*>(p.data) + poff;
    ok = rows_have_mass(pr, rows, cats);
    if (ok) multinomial_rows(e, pr, o, rows, cats, samples);
  } else if (p.type == napi_float64_array) {
    const double* pr = reinterpret_cast<const double*>(p.data) + poff;
    ok = rows_have_mass(pr, rows, cats);
    if (ok) multinomial_rows(e, pr, o, rows, cats, samples);
  } else {
    return Napi::Boolean::New(env, false);
  }
  if (ok) e.store();
  return Napi::Boolean::New(env, ok);
}

}  // namespace
}  // namespace rnd

void InitRandom(Napi::Env env, Napi::Object exports) {
  exports.Set("rng_uniform", Napi::Function::New(env, rnd::Uniform));
  exports.Set("rng_normal", Napi::Function::New(env, rnd::Normal));
  exports.Set("rng_random_from_to", Napi::Function::New(env, rnd::RandomFromTo));
  exports.Set("rng_randperm", Napi::Function::New(env, rnd::Randperm));
  exports.Set("rng_bernoulli", Napi::Function::New(env, rnd::Bernoulli));
  exports.Set("rng_bernoulli_tensor", Napi::Function::New(env, rnd::BernoulliTensor));
  exports.Set("rng_multinomial_replacement", Napi::Function::New(env, rnd::MultinomialReplacement));
}

}  // namespace glasstorch
