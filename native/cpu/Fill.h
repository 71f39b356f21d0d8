// fill_bytes: a parallel fill of a contiguous window (FillKernel.cpp's fill_stub for the native backend): see Fill.cc.
#pragma once
#include <napi.h>

#include <cstdint>

namespace glasstorch {

void InitFill(Napi::Env env, Napi::Object exports);

// `bytes` bytes at dst set to `byte`, split over the intra-op pool as a fill of elements of `itemsize`
// bytes is (the allocator's zeroing of a reused block uses it too).
void fill_bytes_parallel(char* dst, int byte, int64_t bytes, int64_t itemsize);

}  // namespace glasstorch
