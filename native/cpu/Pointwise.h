// The pointwise N-API functions (issue #8 item 4): elementwise ops, casts (copy_) and reductions over
// the pointwise_kernels.h table. Registered from addon.cc's Init with one line.
#pragma once
#include <napi.h>

namespace glasstorch {
void InitPointwise(Napi::Env env, Napi::Object exports);
}
