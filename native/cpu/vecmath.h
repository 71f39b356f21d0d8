// Vector math shared by the pointwise and NN kernel units (issue #8): float32 exp written once, as a
// scalar function (GCC vectorizes loops over it) and on GCC vector types (explicit 16-lane vectors,
// lowered by each unit to its own registers: 4 x SSE2, 2 x AVX2, 1 x AVX-512). Both forms run the
// same IEEE operations in the same order and no fused multiply-add (every unit keeps
// -ffp-contract=off), so every unit, contiguous or strided, gives the same bits.
//
// exp: Cephes' expf. n = round(x * log2(e)) (adding and subtracting 1.5 * 2^23), a two-constant
// Cody-Waite reduction r = x - n ln2 (|r| <= ln2/2, the first product exact), e^r = 1 + r + r^2 P(r)
// with Cephes' degree-5 P, and the scaling by 2^n done in two steps 2^n1 * 2^n2 (both normal for n in
// [-150, 129]) so a subnormal result rounds once. Error: within 1 ulp of the correctly rounded e^x for
// every float32 input (test/aten/native/cpu_native_vecmath.test.ts sweeps all of them in the ranges
// that round to neither 0 nor inf). No branches: x is clamped to [-104, 89] first (a NaN stays NaN
// through the clamp), where the arithmetic itself gives 0 below and +inf above. PyTorch 1.13 uses
// SLEEF's expf_u10 (also within 1 ulp).
#pragma once
#include <cstdint>
#include <cstring>
#if defined(__AVX2__)
// GCC 12 reports the masked forms' _mm512_undefined_ps() source inside _mm512_max_ps/_mm512_min_ps
// as "may be used uninitialized" once inlined (a known false positive): silenced for these headers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

// Every unit includes this with its own instruction-set flags: internal linkage (the anonymous
// namespace), so no unit links another unit's copy (an AVX-512 body called from the baseline unit).
// (Vector arguments of inlined helpers: no ABI crosses a unit, so GCC's ABI-change notes are noise.)
#pragma GCC diagnostic ignored "-Wpsabi"

namespace glasstorch {
namespace vm {
namespace {

// ---- scalar form ----

__attribute__((always_inline)) inline float bits_to_float(int32_t i) {
  float f;
  std::memcpy(&f, &i, sizeof f);
  return f;
}

__attribute__((always_inline)) inline float expf(float x) {
  float xc = x < -104.0f ? -104.0f : x;  // NaN: both comparisons false, x passes
  xc = xc > 89.0f ? 89.0f : xc;
  const float t = xc * 1.44269504088896341f + 12582912.0f;
  const float n = t - 12582912.0f;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const float r2 = r * r;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r2 + r;
  p = p + 1.0f;
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni >> 1;
  const int32_t n2 = ni - n1;
  return p * bits_to_float((n1 + 127) << 23) * bits_to_float((n2 + 127) << 23);
}

// ---- vector form ----
// f8/i8: 8 lanes (the softmax sums' lane structure); vf/vi: the unit's own register width (4 floats
// on the baseline, 8 with AVX2, 16 with AVX-512: GCC lowers wider generic vectors lane by lane for
// some operations, so loops step by the native width; the results do not depend on it).

typedef float f16 __attribute__((vector_size(64)));
typedef int32_t i16 __attribute__((vector_size(64)));
typedef float f8 __attribute__((vector_size(32)));
typedef int32_t i8 __attribute__((vector_size(32)));
typedef float f4 __attribute__((vector_size(16)));
typedef int32_t i4 __attribute__((vector_size(16)));
#if defined(__AVX512F__)
typedef f16 vf;
typedef i16 vi;
constexpr int kW = 16;
#elif defined(__AVX2__)
typedef f8 vf;
typedef i8 vi;
constexpr int kW = 8;
#else
typedef f4 vf;
typedef i4 vi;
constexpr int kW = 4;
#endif

__attribute__((always_inline)) inline vf loadv(const float* p) {
  vf v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
__attribute__((always_inline)) inline void storev(float* p, vf v) { std::memcpy(p, &v, sizeof v); }
__attribute__((always_inline)) inline f8 load8(const float* p) {
  f8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
__attribute__((always_inline)) inline void store8(float* p, f8 v) { std::memcpy(p, &v, sizeof v); }
#if defined(__AVX512F__)
__attribute__((always_inline)) inline f8 lo8(f16 v) { return __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7); }
__attribute__((always_inline)) inline f8 hi8(f16 v) { return __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15); }
#endif

// a > b ? a : b per lane with NaN passing from a (vec::maximum's propagation)
template <typename V>
__attribute__((always_inline)) inline V max_nan(V a, V b) { return (a != a) | (a > b) ? a : b; }

// expf's core on lanes of a clamped x: n = x / ln2 rounded to an integer (the 1.5 * 2^23 trick), and
// p = e^(x - n ln2) from Cephes' polynomial; the callers scale p by 2^n each in their own way
template <typename V>
__attribute__((always_inline)) inline V expv_core(V xc, V& n) {
  const V t = xc * 1.44269504088896341f + 12582912.0f;
  n = t - 12582912.0f;
  V r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const V r2 = r * r;
  V p = V{} + 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r2 + r;
  return p + 1.0f;
}

// expf on vector lanes (V = f16 or f8, I its int32 vector): the scalar function's operations, lane by lane
template <typename V, typename I>
__attribute__((always_inline)) inline V expv(V x) {
  const V lo = V{} + -104.0f, hi = V{} + 89.0f;
  V xc = x < lo ? lo : x;
  xc = xc > hi ? hi : xc;
  V n;
  const V p = expv_core(xc, n);
  const I ni = __builtin_convertvector(n, I);
  const I n1 = ni >> 1;
  const I n2 = ni - n1;
  return p * reinterpret_cast<V>((n1 + 127) << 23) * reinterpret_cast<V>((n2 + 127) << 23);
}
#if defined(__AVX512F__)
// AVX-512: the clamp as max/min (MAXPS(lo, x) = lo > x ? lo : x: a NaN x passes, as above) and the
// scaling as one VSCALEFPS: p * 2^n rounded once, the same value as p * 2^n1 * 2^n2 (the first
// product exact, the second rounded once); everything else the same operations.
__attribute__((always_inline)) inline f16 expf(f16 x) {
  const __m512 xc = _mm512_min_ps(f16{} + 89.0f, _mm512_max_ps(f16{} + -104.0f, x));
  f16 n;
  const f16 p = expv_core<f16>(xc, n);
  return _mm512_scalef_ps(p, n);
}
#endif
#if defined(__AVX2__)
__attribute__((always_inline)) inline f8 expf(f8 x) {
  const f8 c = _mm256_min_ps(f8{} + 89.0f, _mm256_max_ps(f8{} + -104.0f, x));
  return expv<f8, i8>(c);  // (its clamp is then a no-op)
}
#else
__attribute__((always_inline)) inline f8 expf(f8 x) { return expv<f8, i8>(x); }
#endif
#if !defined(__AVX2__)
__attribute__((always_inline)) inline f4 expf(f4 x) { return expv<f4, i4>(x); }
#endif

#if defined(__FMA__)
// ---- expf with fused multiply-adds (the AVX2 and AVX-512 units' softmax forward) ----
// Cephes' expf as above, each multiply-add of the reduction and the polynomial fused (one rounding
// instead of two: n = round(x log2 e) from one fma, r = x - n ln2 from two, Horner's steps and
// p r^2 + r one each): 14 vector operations instead of 24, about 1.7x the throughput. Also within
// 1 ulp of the correctly rounded e^x (cpu_native_vecmath.test.ts sweeps it through softmax); its bits
// differ from expf's above in some last places, so a unit without FMA (the baseline) gives different
// bits for what uses it. The scalar and the vector forms run the same operations (the same bits).
__attribute__((always_inline)) inline float fma_(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
__attribute__((always_inline)) inline f8 fma_(f8 a, f8 b, f8 c) { return _mm256_fmadd_ps(a, b, c); }
#if defined(__AVX512F__)
__attribute__((always_inline)) inline f16 fma_(f16 a, f16 b, f16 c) { return _mm512_fmadd_ps(a, b, c); }
#endif

template <typename V>
__attribute__((always_inline)) inline V expv_core_fma(V xc, V& n) {
  const V t = fma_(xc, V{} + 1.44269504088896341f, V{} + 12582912.0f);
  n = t - 12582912.0f;
  V r = fma_(n, V{} + -0.693359375f, xc);
  r = fma_(n, V{} + 2.12194440e-4f, r);
  const V r2 = r * r;
  V p = fma_(V{} + 1.9875691500e-4f, r, V{} + 1.3981999507e-3f);
  p = fma_(p, r, V{} + 8.3334519073e-3f);
  p = fma_(p, r, V{} + 4.1665795894e-2f);
  p = fma_(p, r, V{} + 1.6666665459e-1f);
  p = fma_(p, r, V{} + 5.0000001201e-1f);
  p = fma_(p, r2, r);
  return p + 1.0f;
}

__attribute__((always_inline)) inline float expf_fma(float x) {
  float xc = x < -104.0f ? -104.0f : x;  // NaN: both comparisons false, x passes
  xc = xc > 89.0f ? 89.0f : xc;
  float n;
  const float p = expv_core_fma(xc, n);
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni >> 1;
  const int32_t n2 = ni - n1;
  return p * bits_to_float((n1 + 127) << 23) * bits_to_float((n2 + 127) << 23);
}
__attribute__((always_inline)) inline f8 expf_fma(f8 x) {
  const f8 xc = _mm256_min_ps(f8{} + 89.0f, _mm256_max_ps(f8{} + -104.0f, x));
  f8 n;
  const f8 p = expv_core_fma(xc, n);
  const i8 ni = __builtin_convertvector(n, i8);
  const i8 n1 = ni >> 1;
  const i8 n2 = ni - n1;
  return p * reinterpret_cast<f8>((n1 + 127) << 23) * reinterpret_cast<f8>((n2 + 127) << 23);
}
#if defined(__AVX512F__)
__attribute__((always_inline)) inline f16 expf_fma(f16 x) {
  const __m512 xc = _mm512_min_ps(f16{} + 89.0f, _mm512_max_ps(f16{} + -104.0f, x));
  f16 n;
  const f16 p = expv_core_fma<f16>(xc, n);
  return _mm512_scalef_ps(p, n);  // p * 2^n rounded once, as the two-step scaling
}
#endif
#endif

// torch.exp's float32 form: expf_fma on the units with FMA, whose two FMA pipes would otherwise sit
// half idle (an exp of 1e6 floats on one AVX2 core: 0.78 ns per element unfused, 0.43 fused; PyTorch's
// SLEEF expf8_u10, also fused, 0.70), expf on the baseline. Both are within 1 ulp of e^x; their bits
// differ in some last places, so the baseline unit's exp is not the others' bit for bit.
#if defined(__FMA__)
__attribute__((always_inline)) inline float expf_best(float x) { return expf_fma(x); }
__attribute__((always_inline)) inline vf expf_best(vf x) { return expf_fma(x); }
#else
__attribute__((always_inline)) inline float expf_best(float x) { return expf(x); }
__attribute__((always_inline)) inline vf expf_best(vf x) { return expf(x); }
#endif

// out[i] = expf_best(in[i]) for n contiguous elements (in may equal out)
__attribute__((always_inline)) inline void exp_contig(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + kW <= n; i += kW) storev(out + i, expf_best(loadv(in + i)));
  for (; i < n; ++i) out[i] = expf_best(in[i]);
}

}  // namespace
}  // namespace vm
}  // namespace glasstorch

