// The pointwise N-API functions (issue #8 item 4): elementwise ops, casts (copy_) and reductions over
// the pointwise_kernels.h table. Registered from addon.cc's Init with one line.
#pragma once
#include <napi.h>

#include <cstdint>

namespace glasstorch {
void InitPointwise(Napi::Env env, Napi::Object exports);
// The bytes (read + written) above which an op's contiguous rows take the streaming-store loops
// (pw_stream_threshold sets it): other copy kernels leave such copies to pw_cast.
int64_t pw_stream_bytes();
}
