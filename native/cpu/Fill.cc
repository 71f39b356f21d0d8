// fill_ of a large contiguous window (aten/src/ATen/native/cpu/FillKernel.cpp, issue #8): zeros, ones
// and full on 1e6 elements were one single-threaded TypedArray.fill each. Here the window is split
// into GRAIN_SIZE chunks over the intra-op pool (at::parallel_for), and a value whose bytes are all
// equal (0 for zeros, -1 for an int) is a memset. The value arrives as its raw bytes in the tensor's
// dtype (the TypeScript side converts it exactly as its own kernel does), so both fills write the same bits.
#include "Fill.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "ThreadPool.h"
#include "pointwise_kernels.h"

namespace glasstorch {
namespace {

// the other patterns: the capability's vector fill (pointwise_kernels.inc) on each chunk
void fill_pattern(char* dst, int64_t numel, const uint8_t* pattern, int itemsize) {
  const auto fill = pw::table().fill;
  parallel_for(0, numel, GRAIN_SIZE, [&](int64_t b, int64_t e) { fill(dst + b * itemsize, e - b, pattern, itemsize); });
}

// fill_bytes(view, offset, numel, pattern) -> bool: elements [offset, offset + numel) of the typed
// array `view` become the itemsize bytes of `pattern` (a Uint8Array of 1, 2, 4 or 8 bytes); false
// when the arguments are not that (the caller then fills in TypeScript).
Napi::Value FillBytes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 4 || !info[0].IsTypedArray() || !info[3].IsTypedArray()) return Napi::Boolean::New(env, false);
  Napi::TypedArray view = info[0].As<Napi::TypedArray>();
  Napi::TypedArray pat = info[3].As<Napi::TypedArray>();
  const size_t itemsize = pat.ByteLength();
  if (itemsize != view.ElementSize() || (itemsize != 1 && itemsize != 2 && itemsize != 4 && itemsize != 8)) return Napi::Boolean::New(env, false);
  const double offset = info[1].As<Napi::Number>().DoubleValue();
  const double numel = info[2].As<Napi::Number>().DoubleValue();
  if (!(offset >= 0) || !(numel >= 0) || offset + numel > static_cast<double>(view.ElementLength())) return Napi::Boolean::New(env, false);
  char* base = static_cast<char*>(view.ArrayBuffer().Data()) + view.ByteOffset();
  char* dst = base + static_cast<size_t>(offset) * itemsize;
  const int64_t n = static_cast<int64_t>(numel);
  const uint8_t* pattern = static_cast<const uint8_t*>(pat.ArrayBuffer().Data()) + pat.ByteOffset();
  bool uniform = true;
  for (size_t i = 1; i < itemsize; ++i) uniform = uniform && pattern[i] == pattern[0];
  if (uniform) {
    fill_bytes_parallel(dst, pattern[0], n * static_cast<int64_t>(itemsize), itemsize);
  } else {
    fill_pattern(dst, n, pattern, static_cast<int>(itemsize));  // (itemsize 1 is always uniform)
  }
  return Napi::Boolean::New(env, true);
}

}  // namespace

// Each thread's share is memset in pieces of kMemsetPiece bytes. One memset of a thread's whole share
// (2.6 MB of a 5.3 MB fill on two threads) is one long `rep stosb` in glibc 2.36, which the CPU ran
// at memory speed, as if storing around the cache: 75 us for the 5.3 MB against 50 in 64 KiB pieces
// (Zen 5 guest, the same block, fill_bytes alone).
void fill_bytes_parallel(char* dst, int byte, int64_t bytes, int64_t itemsize) {
  constexpr int64_t kMemsetPiece = int64_t(64) << 10;
  // chunks of GRAIN_SIZE elements' worth of bytes, as the typed fill splits them
  parallel_for(0, bytes, GRAIN_SIZE * itemsize, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; c += kMemsetPiece) std::memset(dst + c, byte, static_cast<size_t>(std::min(kMemsetPiece, e - c)));
  });
}

void InitFill(Napi::Env env, Napi::Object exports) { exports.Set("fill_bytes", Napi::Function::New(env, FillBytes)); }

}  // namespace glasstorch
