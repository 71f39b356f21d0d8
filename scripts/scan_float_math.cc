// The float32 transcendentals of native/cpu/float_math.inc over every float32 input (2^32 bit
// patterns, or a stride of them), against the correctly rounded result (glibc's double function
// rounded once to float): the largest distance in ulps per function, where it occurs, and the share
// of inputs off by any. Not run in CI (minutes per function); the figures go into float_math.inc's
// comments and native/README.md. Build and run (the AVX2 unit's flags, or none for the baseline's):
//   g++ -O3 -std=c++17 -mavx2 -mfma -ffp-contract=off -fno-trapping-math -fno-math-errno -Inative/cpu scripts/scan_float_math.cc -o /tmp/scan && /tmp/scan [stride] [names...]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>
#include "vecmath.h"

namespace glasstorch {
namespace pw {
namespace scan {
inline float fabs_(float x) { return __builtin_fabsf(x); }
#include "float_math.inc"
}  // namespace scan
}  // namespace pw
}  // namespace glasstorch
using namespace glasstorch::pw::scan;

static int64_t key(float x) {
  int32_t i;
  std::memcpy(&i, &x, 4);
  return i < 0 ? -int64_t(2147483648LL) - i : i;
}
static double ulps(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : 1e30;
  if (a == b && std::signbit(a) == std::signbit(b)) return 0;
  return std::fabs(double(key(a) - key(b)));
}

struct Fn {
  const char* name;
  void (*run)(const float*, float*, int64_t);
  double (*ref)(double);
  float max_abs;  // the inputs the function takes (sin/cos/tan: the rest go to the double path)
};
#define FN(name, f, r)                                                                              \
  {#name, [](const float* in, float* out, int64_t n) { for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]); }, r, INFINITY}
// sigmoid and silu: the exact value, except where the TS kernels' float steps (PyTorch's formula)
// overflow e^-x to inf: 0 (silu: -0) there, the value float_math.inc keeps
static double sigmoid_ref(double x) { return std::isinf(static_cast<float>(std::exp(-x))) ? 0.0 : 1.0 / (1.0 + std::exp(-x)); }
static double silu_ref(double x) { return std::isinf(static_cast<float>(std::exp(-x))) ? x / static_cast<double>(INFINITY) : x / (1.0 + std::exp(-x)); }
static const Fn kFns[] = {
    FN(sigmoid, sigmoid_ff, sigmoid_ref), FN(silu, silu_ff, silu_ref),
    FN(tanh, tanh_ff, [](double x) { return std::tanh(x); }),
    FN(log, log_ff, [](double x) { return std::log(x); }),
    FN(log2, log2_ff, [](double x) { return std::log2(x); }),
    FN(log10, log10_ff, [](double x) { return std::log10(x); }),
    FN(log1p, log1p_ff, [](double x) { return std::log1p(x); }),
    FN(expm1, expm1_ff, [](double x) { return std::expm1(x); }),
    FN(asin, asin_ff, [](double x) { return std::asin(x); }),
    FN(acos, acos_ff, [](double x) { return std::acos(x); }),
    FN(atan, atan_ff, [](double x) { return std::atan(x); }),
#if defined(__FMA__)
    {"sin", [](const float* in, float* out, int64_t n) { for (int64_t i = 0; i < n; ++i) out[i] = trig_ff<kSinFf>(in[i]); }, [](double x) { return std::sin(x); }, kTrigFfMax},
    {"cos", [](const float* in, float* out, int64_t n) { for (int64_t i = 0; i < n; ++i) out[i] = trig_ff<kCosFf>(in[i]); }, [](double x) { return std::cos(x); }, kTrigFfMax},
    {"tan", [](const float* in, float* out, int64_t n) { for (int64_t i = 0; i < n; ++i) out[i] = trig_ff<kTanFf>(in[i]); }, [](double x) { return std::tan(x); }, kTrigFfMax},
#endif
};

int main(int argc, char** argv) {
  const int64_t stride = argc > 1 ? std::atoll(argv[1]) : 1;
  constexpr int64_t kChunk = 1 << 16;
  std::vector<float> in(kChunk), out(kChunk);
  for (const Fn& fn : kFns) {
    bool pick = argc <= 2;
    for (int a = 2; a < argc; ++a) pick |= std::string(argv[a]) == fn.name;
    if (!pick) continue;
    double worst = 0;
    float at = 0, got_at = 0, want_at = 0;
    int64_t n = 0, off = 0, special_bad = 0;
    for (int64_t b0 = 0; b0 < (int64_t(1) << 32); b0 += kChunk * stride) {
      int64_t k = 0;
      for (; k < kChunk && b0 + k * stride < (int64_t(1) << 32); ++k) {
        const uint32_t bits = uint32_t(b0 + k * stride);
        std::memcpy(&in[k], &bits, 4);
      }
      fn.run(in.data(), out.data(), k);
      for (int64_t i = 0; i < k; ++i) {
        if (!(std::fabs(in[i]) <= fn.max_abs) && !std::isnan(in[i])) continue;
        const float want = static_cast<float>(fn.ref(static_cast<double>(in[i])));
        const double u = ulps(out[i], want);
        ++n;
        if (u == 0) continue;
        ++off;
        // specials must be exact: non-finite inputs or outputs, zeros
        if (!std::isfinite(in[i]) || !std::isfinite(want) || want == 0 || !std::isfinite(out[i]) || out[i] == 0) ++special_bad;
        if (u > worst) worst = u, at = in[i], got_at = out[i], want_at = want;
      }
    }
    std::printf("%-8s max %.0f ulp at x=%.9g (got %.9g want %.9g), %.4f%% off, %lld special mismatches, %lld inputs\n", fn.name, worst, at,
                got_at, want_at, 100.0 * off / n, (long long)special_bad, (long long)n);
    std::fflush(stdout);
  }
}
