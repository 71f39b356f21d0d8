// float16 and bfloat16 elements (c10/util/Half.h, c10/util/BFloat16.h): stored as their 16-bit
// patterns, computed in float. The conversions are bit-exact with c10's (and engine/c10/util/Half.ts):
// half <- float rounds to nearest even and turns every NaN into 0x7E00 with its sign; bfloat16 <- float
// rounds to nearest even and turns every NaN into 0x7FC0. Both are written without branches so GCC
// vectorizes the loops that use them; float rounding does half's rounding for it (the FP16 library's
// method, which c10 uses), so the rounding mode must be the default, as it is in Node.
// Internal linkage (the anonymous namespace): each instruction-set unit that includes this gets its
// own copy, compiled with its flags and inlined into its loops; with one shared inline definition the
// linker keeps a single unit's (AVX-512 code reachable from the baseline unit) and the calls stay calls.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace glasstorch {
namespace {

inline float float_from_bits(uint32_t w) { float f; std::memcpy(&f, &w, 4); return f; }
inline uint32_t bits_from_float(float f) { uint32_t w; std::memcpy(&w, &f, 4); return w; }

struct half_t {
  uint16_t x;

  // exact: the 15 bits below the sign, shifted into float's fields, scaled by 2^112 (half's exponent
  // bias 15 to float's 127), give every normal and subnormal half; inf and NaN keep their payload
  float to_float() const {
    const uint32_t sign = uint32_t(x & 0x8000) << 16;
    const uint32_t em = x & 0x7fff;
    const float finite = float_from_bits(em << 13) * 0x1.0p+112f;
    const uint32_t special = (em << 13) | 0x7f800000u;
    return float_from_bits(sign | (em >= 0x7c00 ? special : bits_from_float(finite)));
  }

  static half_t from_float(float f) {
    // |f| * 2^112 * 2^-110 overflows to inf exactly where half does; adding 2^(e-11)-scaled bias makes
    // float's own rounding drop the bits half cannot hold (round to nearest even), then the fields are read off
    const float scaled = (__builtin_fabsf(f) * 0x1.0p+112f) * 0x1.0p-110f;
    const uint32_t w = bits_from_float(f);
    const uint32_t shl1 = w + w;
    const uint32_t sign = w & 0x80000000u;
    uint32_t bias = shl1 & 0xff000000u;
    bias = bias < 0x71000000u ? 0x71000000u : bias;
    const uint32_t r = bits_from_float(float_from_bits((bias >> 1) + 0x07800000u) + scaled);
    const uint32_t nonsign = ((r >> 13) & 0x7c00u) + (r & 0x0fffu);
    return half_t{static_cast<uint16_t>((sign >> 16) | (shl1 > 0xff000000u ? 0x7e00u : nonsign))};
  }
};

struct bf16_t {
  uint16_t x;

  float to_float() const { return float_from_bits(uint32_t(x) << 16); }

  static bf16_t from_float(float f) {
    const uint32_t w = bits_from_float(f);
    const uint32_t rounded = (w + 0x7fffu + ((w >> 16) & 1u)) >> 16;
    return bf16_t{static_cast<uint16_t>(f != f ? 0x7fc0u : rounded)};
  }
};

// the 16-bit float types, and any element type widened to double (a 16-bit one exactly, through float)
template <typename T>
constexpr bool is_reduced_v = std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>;
template <typename T>
inline double to_double(T v) {
  if constexpr (is_reduced_v<T>) return v.to_float();
  else return static_cast<double>(v);
}

}  // namespace
}  // namespace glasstorch
